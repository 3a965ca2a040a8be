#pragma once
// The mechanical energy of one sample, as the trajectory records it (/energy).

namespace routh {

struct Energy {
  double kinetic = 0.0;                                 ///< T = ½ vᵀ M(q) v [J]
  double potential = 0.0;                               ///< V(q) [J], gravity and springs
  double total() const { return kinetic + potential; }  ///< T + V [J]
};

}  // namespace routh
