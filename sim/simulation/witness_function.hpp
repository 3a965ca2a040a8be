#pragma once
// Witness functions (after Drake's WitnessFunction; docs/simulation.md, step 2). A witness is a
// scalar w(t) along the trajectory whose sign change marks an event: a gap closing (impact), a
// normal force reaching zero (lift-off), a friction margin reaching zero (stick → slip), a slip
// velocity reaching zero (slide → stick or reversal). Events are found on the step just taken:
// w is evaluated at the step's ends, and, when it triggers, isolated on the step's dense output
// (never by integrating again).
//
// Direction table. A witness triggers on the half-open step (t0, t1]:
//
//   direction                    triggers when                witnesses that use it
//   positive_then_non_positive   w(t0) > 0  and w(t1) ≤ 0     every witness of the simulator
//                                                             (witnesses.hpp): each is signed
//                                                             to fall, e.g. λ_n, σ u_t
//   negative_then_non_negative   w(t0) < 0  and w(t1) ≥ 0     none in the simulator
//   crossing                     either of the two            none in the simulator
//
// The gap of an open contact falls too, but the simulator does not locate it by its values at
// the step's ends alone: its own locator (event_location.hpp) also finds a landing within a step
// that starts at g = 0 and a dip below zero and out again within one step.
//
// Half-open: a witness that starts a step at 0 or on its triggered side does not trigger again.
// The simulator takes a mode event at the crossing's far side (WitnessCrossing::after), where its
// witness already reads ≤ 0, and restarts there with the witnesses of the new modes, so an event
// cannot fire twice.

#include <boost/math/tools/toms748_solve.hpp>
#include <cstdint>
#include <stdexcept>

namespace routh {

enum class WitnessDirection {
  positive_then_non_positive,
  negative_then_non_negative,
  crossing,
};

/// Whether a witness moving from `w_start` at t0 to `w_end` at t1 triggers on (t0, t1].
inline bool witness_triggers(WitnessDirection direction, double w_start, double w_end) {
  const bool falls = w_start > 0.0 && w_end <= 0.0;
  const bool rises = w_start < 0.0 && w_end >= 0.0;
  switch (direction) {
    case WitnessDirection::positive_then_non_positive: return falls;
    case WitnessDirection::negative_then_non_negative: return rises;
    case WitnessDirection::crossing: return falls || rises;
  }
  return false;
}

/// Where a witness changes sign within a step: on its starting side at `before` (or exactly 0 when
/// the root itself was hit), on its triggered side or 0 at `after`, after − before ≤ the time
/// tolerance. The
/// simulator picks its side deliberately: `before` for impacts, so that the logged pre-impact
/// state has not penetrated.
struct WitnessCrossing {
  double before = 0.0;  ///< [s]
  double after = 0.0;   ///< [s]
};

/// Isolates the sign change of w on (t0, t1] to `time_tolerance` [s] with Alefeld, Potra and
/// Shi's TOMS 748 bracketing (Boost.Math), given the values w0 = w(t0), w1 = w(t1) already known.
/// Precondition: the witness triggers on the step, i.e. w0 ≠ 0 and w1 is 0 or of the other sign.
/// `w` is any callable double(double t), typically the witness on the step's dense output.
template <class Witness>
WitnessCrossing locate_witness_crossing(const Witness& w, double t0, double w0, double t1,
                                        double w1, double time_tolerance) {
  if (!(w0 != 0.0 && (w1 == 0.0 || (w0 > 0.0) != (w1 > 0.0)))) {
    throw std::logic_error("locate_witness_crossing: the witness does not change sign on the step");
  }
  if (w1 == 0.0) return {t1, t1};
  // TOMS 748 needs about 2–3 evaluations per digit; 200 is far beyond what 1e-15 s needs.
  std::uintmax_t max_iterations = 200;
  const auto bracket_small_enough = [time_tolerance](double a, double b) {
    return b - a <= time_tolerance;
  };
  const auto [a, b] =
      boost::math::tools::toms748_solve(w, t0, t1, w0, w1, bracket_small_enough, max_iterations);
  if (a == b) {  // w(a) == 0 exactly: the root itself; its left neighbour is the "before" side
    return {a, a};
  }
  return {a, b};
}

}  // namespace routh
