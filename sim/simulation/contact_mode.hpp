#pragma once
// The mode of each contact between events (docs/design.md §4: the simulation is a hybrid
// automaton).

#include <string_view>

namespace routh {

/// How a contact behaves during a smooth phase.
enum class ContactMode {
  open,            ///< g > 0 or separating: no force; its gap is watched for an impact
  stick,           ///< closed, no slip: a_n = 0, a_t = 0, |λ_t| ≤ μs λ_n
  slide_positive,  ///< closed, slipping with u_t > 0: a_n = 0, λ_t = −μd λ_n
  slide_negative,  ///< closed, slipping with u_t < 0: a_n = 0, λ_t = +μd λ_n
};

inline bool is_closed(ContactMode mode) { return mode != ContactMode::open; }

inline bool is_sliding(ContactMode mode) {
  return mode == ContactMode::slide_positive || mode == ContactMode::slide_negative;
}

/// σ = sign of the slip of a sliding contact (0 for the others).
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
  }
  return "?";
}

}  // namespace routh
