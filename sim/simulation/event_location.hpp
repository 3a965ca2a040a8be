#pragma once
// Event location on the step just taken (docs/simulation.md, witnesses). A witness that changes
// sign on the step is isolated on the step's dense output (witness_function.hpp); the gap of an
// open contact needs more than its values at the step's ends, and gets its own locator here:
//
//  - an impact at t0 leaves the gap at 0, so "positive, then non-positive" cannot see the next
//    landing within the same step (a ball bouncing low);
//  - a flight can dip below the surface and out again within one step (grazing);
//  - a landing is predicted from the gap and its rate at both ends by the root of their cubic
//    Hermite interpolant, exact for free flight (a parabola), and confirmed one ulp either side;
//  - a contact's gap may jump where its point leaves or enters the extent of its surface (its
//    support crosses zero), so that the step's end reads another point than its start: a
//    planar corner past the end of an edge, or a cylinder's rim, whose tilt line's ends swap
//    names where the tilt line swings across the body's y axis and whose fixed points leave the
//    base at the flat band's edge (models/spatial/spatial_contact_geometry.hpp). Only the part
//    of the step before such an exit is looked at for a landing of the point that leaves
//    (leaves_extent), and a jump onto a point that approaches is a landing (falling_crossing).
//    A chattering base tilts in and out of the flat band and swings its tilt line round within
//    a few steps: read across the jump, the rim's deepest point sank 1.4e-8 m into the floor
//    unseen (cylinder campaign run 130).
//
// The locators take the gap and its rate as a callable t ↦ {g(t), ġ(t)} (on the dense output in
// the simulator, a closed form in the tests), so they are tested alone.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "sim/simulation/witness_function.hpp"

namespace routh {

/// A contact's gap g [m], its rate ġ = u_n [m/s] and its support [m] (ContactKinematics::
/// support: ≤ 0 off the end of the surface it touches, +∞ for a surface without an end) at one
/// time.
struct GapAndRate {
  double gap = 0.0;
  double rate = 0.0;
  double support = std::numeric_limits<double>::infinity();
};

/// The root in [0, 1], in units of h, of the cubic Hermite interpolant of g on [a, a + h] from
/// its values g_a > 0 ≥ g_b and slopes at the ends: Newton's method from the secant root, kept in
/// a shrinking bracket. Exact for a quadratic g, such as a gap in free flight.
double hermite_root(double g_a, double slope_a, double g_b, double slope_b, double h);

/// The lowest interior point in [0, 1], in units of h, of the same cubic Hermite interpolant of g
/// on [a, a + h] (the root of its derivative where it turns from falling to rising), or 0 when it
/// has none below g_a.
double hermite_lowest(double g_a, double slope_a, double g_b, double slope_b, double h);

/// Where a gap that is positive at `a` and non-positive at `b` reaches zero, to `time_tolerance`.
/// The Hermite prediction is tried first with the narrowest bracket there is, one ulp either side:
/// the left limit's lead on the root biases every landing the same way and a bounce sequence adds
/// the biases up (for a ball dropped 1 m with e = 0.9, a lead of 1/16 of a 1e-12 s tolerance put
/// its 146th impact 1.6e-11 s early, a lead of 1 ulp 2.3e-13 s). When the gap does not confirm the
/// prediction, the two evaluations narrow the bracket TOMS 748 starts from.
template <class GapAt>
WitnessCrossing locate_landing(const GapAt& gap_at, double a, GapAndRate at_a, double b,
                               GapAndRate at_b, double time_tolerance) {
  const double predicted =
      a + (b - a) * hermite_root(at_a.gap, at_a.rate, at_b.gap, at_b.rate, b - a);
  const double margin = std::nextafter(predicted, b) - predicted;
  double g_a = at_a.gap, g_b = at_b.gap;
  for (const double t : {predicted - margin, predicted + margin}) {
    if (!(t > a && t < b)) continue;
    const double g = gap_at(t).gap;
    if (g > 0.0) {
      a = t, g_a = g;
    } else {
      b = t, g_b = g;
      break;
    }
  }
  const auto gap = [&](double t) { return gap_at(t).gap; };
  return locate_witness_crossing(gap, a, g_a, b, g_b, time_tolerance);
}

/// Where a contact that leaves at t0 (u_n(t0) > 0) lands on (t0, t1], or nothing, given the gap
/// non-positive at t1 and approaching there: after its apex, where u_n turns from + to −, whose
/// secant estimate from the step's ends is exact while u_n is linear in t (free flight); a
/// flight so low that the gap reads ≤ 0 even at its apex lands as long after the apex as it rose.
template <class GapAt>
std::optional<WitnessCrossing> landing_after_apex(const GapAt& gap_at, double t0, GapAndRate start,
                                                  double t1, GapAndRate end,
                                                  double time_tolerance) {
  const double u0 = start.rate, u1 = end.rate;
  if (!(u0 > 0.0 && u1 < 0.0 && end.gap <= 0.0)) return std::nullopt;
  const auto rate = [&](double t) { return gap_at(t).rate; };
  double a = t0 + (t1 - t0) * (u0 / (u0 - u1));
  GapAndRate at_a = gap_at(a);
  if (!(at_a.gap > 0.0)) {
    a = locate_witness_crossing(rate, t0, u0, t1, u1, time_tolerance).before;
    at_a = gap_at(a);
  }
  if (!(at_a.gap > 0.0)) {
    // A flight lower than the gap resolves (even at its apex the gap reads ≤ 0: a rocking
    // block's last pivot switches lift a corner by 1e-13 m): it lands, ballistically, as long
    // after its apex as it took to rise, where it approaches as fast as it left.
    const double landing = std::min(t1, a + (a - t0));
    return WitnessCrossing{landing, landing};
  }
  return locate_landing(gap_at, a, at_a, t1, end, time_tolerance);
}

/// Whether the contact's point jumps over the surface it touches across a crossing (`near` and
/// `far` its sides): its support changes by more than `contact_distance_m` [m] there, which no
/// motion does within a crossing's bracket. (A corner grazing a plane, which has no end, crosses
/// zero by round-off, its rate round-off too; a planar corner sliding along an edge moves its
/// support at its slip.)
inline bool point_jumps(const GapAndRate& near, const GapAndRate& far, double contact_distance_m) {
  return std::abs(far.support - near.support) > contact_distance_m;
}

/// A gap crossing located on (t0, t1] is a landing only where the gap falls: where it rises at
/// a crossing whose near side touches (within `contact_distance_m` [m]), it is the round-off of a
/// contact that touches at t0 and leaves (a corner that an impact left 6e-21 m above a block's
/// top, rising at 2.3e-4 m/s, read −3e-17 m a hair later; taken as a landing, the impact found
/// nothing approaching and the gap read the same crossing again, an event storm). Such a contact
/// lands after its apex (landing_after_apex), or not on the step; unless its point jumps there
/// (point_jumps) onto one that approaches: a rim leaving the flat band, its tilt line's end
/// jumping from the material point (r, 0), 1.7e-10 m above the incline and rising, to the rim's
/// deepest point, 8e-12 m below and falling (cylinder campaign run 266), lands there; looked for
/// after the apex across the whole step, whose secant put it beyond the tilt line's swing across
/// the body's y axis, the landing was lost. A crossing farther from zero on its near side is a
/// gap's jump, whatever its rate, and stays for the simulator to tell apart.
template <class GapAt>
std::optional<WitnessCrossing> falling_crossing(const GapAt& gap_at,
                                                const WitnessCrossing& crossing, double t0,
                                                GapAndRate start, double t1, GapAndRate end,
                                                double contact_distance_m, double time_tolerance) {
  const GapAndRate near = gap_at(crossing.before);
  if (!(near.rate > 0.0) || near.gap > contact_distance_m) return crossing;
  const GapAndRate far = gap_at(crossing.after);
  if (point_jumps(near, far, contact_distance_m) && far.rate < 0.0) return crossing;
  return landing_after_apex(gap_at, t0, start, t1, end, time_tolerance);
}

/// Whether a contact leaves the extent of its surface within a step (its support > 0 at the
/// start, < 0 at the end), so that only the part of the step before its exit can hold a landing:
/// beyond the extent its gap is the distance to the end plus how far beyond, positive but at the
/// end itself, and a point sunk inside the extent jumps there from its depth to that distance
/// (a column's corner 3.3e-7 m above the block below, sliding off its side, fell 3.3e-6 m into it
/// within one step whose ends both read open; another, leaving the block below at 9e-4 m/s, came
/// back 4.4e-6 m deep). Only for a contact apart at the start (beyond `contact_distance_m`),
/// touching and leaving there (faster than `speed_round_off_m_s`), or touching and falling onto
/// its surface slowly enough to reach it later than `time_tolerance` [s] after the start: one
/// that reaches it sooner is at the crossing of the event the step starts from, where it was
/// struck, one touching at rest carries nothing, and one sunk deeper did not land there; each may
/// not touch that face at all (a corner passing another's corner behind the face's widened end,
/// listed for the step's end only, 2.8e-2 m behind it), and a landing located for it at once was
/// found again, where the impact stage could not act on it: an event storm, or one event every
/// 1.5e-9 s. One falling onto it lands before its exit or not on the step: a drum's rim, its
/// deepest point 2.3e-10 m above the floor and falling at 2.7e-5 m/s, its tilt line swinging
/// across the body's y axis within the step (where the tilt line's ends swap their names:
/// models/spatial/spatial_contact_geometry.hpp), read its highest point at the step's end, and
/// its deepest point sank 1.4e-8 m into the floor unseen (cylinder campaign run 130).
inline bool leaves_extent(const GapAndRate& start, const GapAndRate& end, double contact_distance_m,
                          double speed_round_off_m_s, double time_tolerance) {
  const bool touching = std::abs(start.gap) <= contact_distance_m;
  const bool apart_or_leaving =
      start.gap > contact_distance_m || (touching && start.rate >= speed_round_off_m_s);
  const bool falling_onto =
      start.rate <= -speed_round_off_m_s && start.gap > -start.rate * time_tolerance;
  return start.support > 0.0 && end.support < 0.0 && (apart_or_leaving || falling_onto);
}

/// Whether a contact against another body's face (its support is finite) starts a step touching
/// (within `contact_distance_m`) and leaving faster than `speed_round_off_m_s`: it lands only
/// after the apex of its flight, as one that left at the step's start. Its gap there, round-off of
/// a zero computed through two bodies' rotations (1e-22 m), read ≤ 0 on the dense output just
/// after the start, where a landing was located that the impact stage found separating, and found
/// again at the same instant: an event storm. (Against an obstacle the gap is one coordinate's
/// distance, and the landing is located from the step's start.)
inline bool leaves_face(const GapAndRate& start, double contact_distance_m,
                        double speed_round_off_m_s) {
  return std::isfinite(start.support) && start.gap <= contact_distance_m &&
         start.rate >= speed_round_off_m_s;
}

/// The first time on (t0, t1] at which an open contact's gap closes, or nothing; a contact that
/// leaves its surface's extent within the step (leaves_extent()) is looked at up to its exit
/// only. Cases:
///  - the contact left at t0 (g(t0) ≤ 0, or leaves_face()): a landing within the step must
///    follow a flight that turns back (landing_after_apex);
///  - g(t1) ≤ 0: a landing, located by locate_landing() (falling_crossing then tells a rising
///    crossing of round-off from a landing);
///  - g > 0 at both ends with u_n turning from − to +: the lowest point is located, and a dip to
///    or below zero there is a grazing impact;
///  - g > 0 at both ends, approaching at the start, and the gap above zero where u_n turns (or u_n
///    not turning so between the ends): the lowest point of the gap's cubic Hermite interpolant
///    from both ends is tried too. A long step (the broad phase's bound grows as the bodies slow
///    down, up to max_step) may hold a dip and a rise and a fall again: a corner of a block that
///    approached another's top at 0.06 m/s sank 2.8e-6 m into it within a 0.05 s step whose gap
///    was positive at both ends and falling again at its end.

template <class GapAt>
std::optional<WitnessCrossing> locate_gap_closing(const GapAt& gap_at, double t0, GapAndRate start,
                                                  double t1, GapAndRate end, double time_tolerance,
                                                  double contact_distance_m,
                                                  double speed_round_off_m_s) {
  if (leaves_extent(start, end, contact_distance_m, speed_round_off_m_s, time_tolerance)) {
    const auto support = [&](double t) { return gap_at(t).support; };
    const double exit =
        locate_witness_crossing(support, t0, start.support, t1, end.support, time_tolerance).before;
    if (!(exit > t0)) return std::nullopt;
    t1 = exit;
    end = gap_at(exit);
  }
  if (!(start.gap > 0.0) || leaves_face(start, contact_distance_m, speed_round_off_m_s))
    return landing_after_apex(gap_at, t0, start, t1, end, time_tolerance);
  if (end.gap <= 0.0) return locate_landing(gap_at, t0, start, t1, end, time_tolerance);
  if (!(start.rate < 0.0)) return std::nullopt;
  const auto rate = [&](double t) { return gap_at(t).rate; };
  const auto gap = [&](double t) { return gap_at(t).gap; };
  if (end.rate > 0.0) {
    const double lowest =
        locate_witness_crossing(rate, t0, start.rate, t1, end.rate, time_tolerance).after;
    const double g_lowest = gap_at(lowest).gap;
    if (g_lowest <= 0.0) {
      return locate_witness_crossing(gap, t0, start.gap, lowest, g_lowest, time_tolerance);
    }
  }
  const double lowest =
      t0 + (t1 - t0) * hermite_lowest(start.gap, start.rate, end.gap, end.rate, t1 - t0);
  if (!(lowest > t0)) return std::nullopt;
  const double g_lowest = gap_at(lowest).gap;
  if (g_lowest > 0.0) return std::nullopt;
  return locate_witness_crossing(gap, t0, start.gap, lowest, g_lowest, time_tolerance);
}

/// Whether an open contact starts a step at rest against its surface: its gap within the contact
/// distance [m] of zero and its rate below `speed_round_off` [m/s], the integrator's resolution of
/// a velocity (its absolute tolerance). Such a contact, left open by the settling that preceded
/// the step (it carries nothing), lands only by sinking past half the contact distance: its gap
/// crossing zero is no landing. Its gap and rate are round-off of a zero: a block's side face
/// flush against its neighbour's in a wall reads 5.6e-17 m and 1e-17 m/s, changing sign with the
/// integration's noise, and each sign change read as a landing was an impact at rest of every
/// touching contact (a wall of ten blocks ended at t = 0.0055 s with 21, beyond the laws'
/// capacity); the corner of a drum flush on the drum below, 1.5e-18 m from the end of that drum's
/// side face and sliding over its top, read a landing on the side face at the step's start,
/// found nothing approaching, and read it again at the same instant (a 20-drum column's event
/// storm).
inline bool rests_touching(const GapAndRate& start, double contact_distance_m,
                           double speed_round_off_m_s) {
  return std::abs(start.gap) <= contact_distance_m && std::abs(start.rate) < speed_round_off_m_s;
}

/// Whether a contact enters the extent of the surface it touches across a crossing (`near` and
/// `far` its sides): its support < 0 on the near side, ≥ 0 on the far side.
inline bool enters_extent(const GapAndRate& near, const GapAndRate& far) {
  return near.support < 0.0 && far.support >= 0.0;
}

/// The instant at which an impact located at `crossing` is taken: its near side, so that the
/// logged pre-impact state has not penetrated; but its far side when the contact enters the extent
/// of the surface it touches there (support < 0 at the near side, ≥ 0 at the far side). Beyond
/// the extent a corner's gap is its distance from the extent's end plus how far beyond
/// (contact_pair_kinematics.cpp), > 0 but at the end itself; such a gap reaches zero only where a
/// corner slides flat over the end of a face onto it, and falls there at the rate of that
/// distance, −2 u_t for a corner sliding along the face's line at u_t, which is no approach: the
/// corner's normal velocity is the face's, on the far side (zero when it slides flat). A corner
/// that crossed the face's line beside the body instead makes the gap jump, which the simulator
/// tells apart by the size of the jump.
template <class GapAt>
double impact_instant(const GapAt& gap_at, const WitnessCrossing& crossing) {
  if (crossing.after == crossing.before) return crossing.before;
  return enters_extent(gap_at(crossing.before), gap_at(crossing.after)) ? crossing.after
                                                                        : crossing.before;
}

}  // namespace routh
