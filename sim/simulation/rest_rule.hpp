#pragma once
// Zeno and rest (docs/design.md §4 step 5). An impact slower than the rest speed closes its
// contacts (they are in persistent contact from then on). A sequence of impacts whose intervals
// shrink geometrically, Δ_{k+1} = r Δ_k with r < 1, has infinitely many impacts in finite time
// (Zeno behaviour): the remaining ones take Δ_last r / (1 − r), and that limit is where the motion
// comes to rest. The history is the whole system's, not one contact's: an accumulation can
// alternate between contacts (a rocking block's corners).

#include <cstddef>
#include <deque>

namespace routh {

/// Recent impact times of the system, and the Zeno limit of their sequence.
class ImpactHistory {
 public:
  /// A Zeno accumulation needs 4 previous impact times: with the current one they give the 3
  /// interval ratios that must agree.
  static constexpr std::size_t kEvidence = 4;
  /// Impact times kept: more than the evidence, for a ratio measured over a longer baseline.
  static constexpr std::size_t kKept = 8;
  /// Interval ratios agreeing to this make a geometric sequence. The last intervals of a long
  /// accumulation are microseconds, at the resolution of the gap (a 2.2 m × 8 m block's corner
  /// lifts 1e-13 m between its last impacts, 2e-6 s apart), and their ratios scatter by ~1e-3
  /// there. A ratio error δr moves the limit by Δ r δr / (1 − r)², 2e-7 s for that block.
  static constexpr double kRatioAgreement = 1e-2;

  /// An impact at t [s] that did not bring the motion to rest.
  void push(double t);
  /// The motion came to rest: the sequence ends.
  void clear() { times_.clear(); }
  /// Whether impacts that did not bring rest came before: the motion was accumulating.
  bool accumulating() const { return !times_.empty(); }
  /// The limit of the geometric sequence the recent impacts and one at t form, or t itself if
  /// they do not form one.
  double zeno_limit(double t) const;

 private:
  std::deque<double> times_;
};

}  // namespace routh
