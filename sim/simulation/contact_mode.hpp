#pragma once
// The mode of each contact between events (docs/design.md §4: the simulation is a hybrid
// automaton).
//
// A planar contact has one tangential row: it slips one way or the other (slide±), and its
// friction is λ_t = ∓μd λ_n. A spatial contact has two (t1, t2), and its slip u_t = (u_t1, u_t2)
// turns while it slides (a ball with sidespin curves): its one sliding mode, `slide`, takes the
// slip direction û = u_t/|u_t| from the state at every evaluation of the dynamics, friction
// −μd λ_n û (Coulomb's law with maximum dissipation). Where the contact slips from rest, or its
// slip has just halted, u_t gives no direction: the mode then keeps the direction û₀ it started
// from (slip_reference.hpp), as a planar slide keeps its sign until its slip witness stops it.

#include <string_view>

namespace routh {

/// How a contact behaves during a smooth phase.
enum class ContactMode {
  open,            ///< g > 0 or separating: no force; its gap is watched for an impact
  stick,           ///< closed, no slip: a_n = 0, a_t = 0, ‖λ_t‖ ≤ μs λ_n
  slide_positive,  ///< planar, closed, slipping with u_t > 0: a_n = 0, λ_t = −μd λ_n
  slide_negative,  ///< planar, closed, slipping with u_t < 0: a_n = 0, λ_t = +μd λ_n
  slide,           ///< spatial, closed, slipping along û: a_n = 0, λ_t = −μd λ_n û
};

inline bool is_closed(ContactMode mode) { return mode != ContactMode::open; }

inline bool is_sliding(ContactMode mode) {
  return mode == ContactMode::slide_positive || mode == ContactMode::slide_negative ||
         mode == ContactMode::slide;
}

/// σ = sign of the slip of a planar sliding contact (0 for the others, and for a spatial
/// `slide`, whose direction is a vector: slip_reference.hpp).
inline double slip_direction(ContactMode mode) {
  if (mode == ContactMode::slide_positive) return 1.0;
  if (mode == ContactMode::slide_negative) return -1.0;
  return 0.0;
}

inline std::string_view to_string(ContactMode mode) {
  switch (mode) {
    case ContactMode::open: return "open";
    case ContactMode::stick: return "stick";
    case ContactMode::slide_positive: return "slide+";
    case ContactMode::slide_negative: return "slide-";
    case ContactMode::slide: return "slide";
  }
  return "?";
}

}  // namespace routh
