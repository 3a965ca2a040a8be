// The event locators (sim/simulation/event_location.hpp) alone, on gaps given in closed form:
// free flight under gravity, g(t) = g0 + u0 t − ½ g t², whose landing time is the root of a
// quadratic, and a parabolic dip g(t) = (t − t_m)² + d below or above the surface.

#include <doctest/doctest.h>

#include <cmath>

#include "sim/simulation/event_location.hpp"

namespace {

using routh::GapAndRate;

constexpr double kGravity = 9.81;
constexpr double kTolerance = 1e-12;       // [s], the simulator's default
constexpr double kContactDistance = 1e-9;  // [m], the simulator's default
constexpr double kSpeedRoundOff = 3e-11;   // [m/s], the integrator's absolute tolerance

// A ball's gap in free flight from height g0 [m] with upward speed u0 [m/s].
struct Flight {
  double g0, u0;
  GapAndRate operator()(double t) const {
    return {g0 + u0 * t - 0.5 * kGravity * t * t, u0 - kGravity * t};
  }
  double landing() const {  // the positive root of the quadratic
    return (u0 + std::sqrt(u0 * u0 + 2.0 * kGravity * g0)) / kGravity;
  }
};

}  // namespace

TEST_CASE("event location: the Hermite root is exact for a parabola") {
  for (const Flight flight : {Flight{1.0, 0.0}, Flight{0.3, 2.0}, Flight{2.0, -1.5}}) {
    const double h = 2.0 * flight.landing();  // a step that ends below the floor
    const GapAndRate a = flight(0.0), b = flight(h);
    const double s = routh::hermite_root(a.gap, a.rate, b.gap, b.rate, h);
    CHECK(s * h == doctest::Approx(flight.landing()).epsilon(1e-14));
  }
}

TEST_CASE("event location: a landing is bracketed to the tolerance, on the unpenetrated side") {
  int evaluations = 0;
  const Flight flight{1.0, 0.0};
  const auto gap_at = [&](double t) {
    ++evaluations;
    return flight(t);
  };
  const double t1 = 0.5;
  const routh::WitnessCrossing crossing =
      routh::locate_landing(gap_at, 0.0, flight(0.0), t1, flight(t1), kTolerance);
  CHECK(crossing.after - crossing.before <= kTolerance);
  CHECK(crossing.before <= flight.landing());
  CHECK(crossing.after >= flight.landing() - 1e-16);
  CHECK(flight(crossing.before).gap >= 0.0);  // not penetrated (0 when the root itself is hit)
  CHECK(evaluations <= 2);                    // the prediction confirmed one ulp either side
}

TEST_CASE("event location: a bounce that lands again within the step that left the floor") {
  // left the floor at t0 = 0 with u0 = 1 m/s: lands again at 2 u0 / g within a 0.5 s step
  const Flight flight{0.0, 1.0};
  const auto crossing = routh::locate_gap_closing(flight, 0.0, flight(0.0), 0.5, flight(0.5),
                                                  kTolerance, kContactDistance, kSpeedRoundOff);
  REQUIRE(crossing.has_value());
  CHECK(crossing->before == doctest::Approx(2.0 / kGravity).epsilon(1e-12));
  // a step too short to come back sees nothing
  CHECK_FALSE(routh::locate_gap_closing(flight, 0.0, flight(0.0), 0.1, flight(0.1), kTolerance,
                                        kContactDistance, kSpeedRoundOff));
}

TEST_CASE("event location: a contact touching and rising at a step's start lands after its apex") {
  // A corner an impact leaves touching, rising at u0 = 2.3e-4 m/s: its gap reads 6e-21 m at t0
  // and, with the round-off of the bodies' positions (2.2e-16 m at 1 m), −3e-17 m a hair later
  // while it still rises. That crossing is no landing (the gap rises there); the landing is the
  // flight's, at 2 u0 / g, where it falls (closed form). Whether a step is found by the landing
  // locator (g(t1) ≤ 0) or handed a crossing located elsewhere (a landing hidden by a jump),
  // falling_crossing moves it past the apex.
  const double u0 = 2.3e-4, round_off = 3e-17;
  const Flight flight{0.0, u0};
  const auto noisy = [&](double t) {
    GapAndRate at = flight(t);
    at.gap = t == 0.0 ? 6e-21 : at.gap - round_off;
    return at;
  };
  const double landing = 2.0 * u0 / kGravity, t1 = 2.0 * landing;
  const auto crossing = routh::locate_gap_closing(noisy, 0.0, noisy(0.0), t1, noisy(t1), kTolerance,
                                                  kContactDistance, kSpeedRoundOff);
  REQUIRE(crossing.has_value());
  // the root of the shifted parabola, u0 t − ½ g t² = 3e-17 m, 1.3e-13 s before the flight's
  CHECK(crossing->before == doctest::Approx(landing).epsilon(1e-8));
  CHECK(noisy(crossing->before).rate < 0.0);
  const routh::WitnessCrossing at_start{0.0, 1e-15};
  const auto moved = routh::falling_crossing(noisy, at_start, 0.0, noisy(0.0), t1, noisy(t1),
                                             kContactDistance, kTolerance);
  REQUIRE(moved.has_value());
  CHECK(moved->before == doctest::Approx(landing).epsilon(1e-8));
}

TEST_CASE("event location: a grazing dip inside one step is caught below the surface only") {
  const double t_m = 0.5;
  for (const double depth : {-1e-6, 1e-6}) {
    const auto dip = [&](double t) {
      return GapAndRate{(t - t_m) * (t - t_m) + depth, 2.0 * (t - t_m)};
    };
    const auto crossing = routh::locate_gap_closing(dip, 0.0, dip(0.0), 1.0, dip(1.0), kTolerance,
                                                    kContactDistance, kSpeedRoundOff);
    if (depth < 0.0) {
      REQUIRE(crossing.has_value());
      // closed form: the first root of (t − t_m)² = −depth
      CHECK(crossing->before == doctest::Approx(t_m - std::sqrt(-depth)).epsilon(1e-12));
    } else {
      CHECK_FALSE(crossing.has_value());
    }
  }
}

TEST_CASE("event location: a gap that falls but stays open triggers nothing") {
  const Flight flight{1.0, 0.0};
  CHECK_FALSE(routh::locate_gap_closing(flight, 0.0, flight(0.0), 0.2, flight(0.2), kTolerance,
                                        kContactDistance, kSpeedRoundOff));
}

TEST_CASE("event location: a dip inside a step whose gap falls again at its end is caught") {
  // g(t) = (t − ¼)(t − ⅓)(1.2 − t) + δ: it dips below zero about t ≈ 0.29, rises, and falls again
  // towards the step's end at t = 1, where g > 0 and ġ < 0, as at its start: the rate does not turn
  // from − to + between the ends, so only the lowest point of the Hermite cubic through both ends
  // finds the dip. Closed form of the crossing: the first root of g on [0, 1], by bisection here.
  const auto cubic = [](double t) { return (t - 0.25) * (t - 1.0 / 3.0) * (1.2 - t); };
  const auto slope = [](double t) {
    return (t - 1.0 / 3.0) * (1.2 - t) + (t - 0.25) * (1.2 - t) - (t - 0.25) * (t - 1.0 / 3.0);
  };
  for (const double offset : {0.0, 0.01}) {
    const auto gap = [&](double t) { return GapAndRate{cubic(t) + offset, slope(t)}; };
    REQUIRE(gap(0.0).gap > 0.0);
    REQUIRE(gap(0.0).rate < 0.0);
    REQUIRE(gap(1.0).gap > 0.0);
    REQUIRE(gap(1.0).rate < 0.0);
    const auto crossing = routh::locate_gap_closing(gap, 0.0, gap(0.0), 1.0, gap(1.0), kTolerance,
                                                    kContactDistance, kSpeedRoundOff);
    if (offset > 0.0) {  // the dip's bottom, −0.0016 at t ≈ 0.29, stays above −0.01: no contact
      CHECK_FALSE(crossing.has_value());
      continue;
    }
    REQUIRE(crossing.has_value());
    CHECK(crossing->before == doctest::Approx(0.25).epsilon(1e-12));
  }
}

TEST_CASE(
    "event location: a point that sinks through a face and leaves its extent within one step "
    "lands where it crossed the face") {
  // A block's corner 0.1 m above another's top, falling at 1 m/s and sliding off the top's end at
  // t = 0.5: within the extent g = 0.1 − t (it crosses the face at t = 0.1); beyond it the gap is
  // the distance to the end plus how far beyond, positive, here 1 + (t − 0.5), rising at 1 m/s.
  // Both ends of the step [0, 1] read open, and the rate turns from − to + only where the point
  // leaves the extent, across the jump (tall_stack:21 of the multibody campaign: a corner 3.3e-7 m
  // above a column's lower block fell through its top unseen while it slid off the side).
  const auto slid_off = [](double t) {
    return t <= 0.5 ? GapAndRate{0.1 - t, -1.0, 0.5 - t}
                    : GapAndRate{1.0 + (t - 0.5), 1.0, 0.5 - t};
  };
  const auto crossing = routh::locate_gap_closing(slid_off, 0.0, slid_off(0.0), 1.0, slid_off(1.0),
                                                  kTolerance, kContactDistance, kSpeedRoundOff);
  REQUIRE(crossing.has_value());
  CHECK(crossing->before == doctest::Approx(0.1).epsilon(1e-12));
  CHECK(slid_off(crossing->before).gap >= 0.0);
  // Leaving the face at t = 0 (touching, separating at 1e-3 m/s) under a deceleration of 10 m/s²,
  // the point comes back through the face at t = (u0 + √(u0² + 2 a g0)) / a and slides off its end
  // at t = 0.5, 1.25 m deep (tall_stack:23: a column's corner came back 4.4e-6 m deep).
  const double u0 = 1e-3, g0 = 1e-15;
  const auto bounced = [&](double t) {
    return t <= 0.5 ? GapAndRate{g0 + u0 * t - 5.0 * t * t, u0 - 10.0 * t, 0.5 - t}
                    : GapAndRate{1.0 + (t - 0.5), 1.0, 0.5 - t};
  };
  const auto back = routh::locate_gap_closing(bounced, 0.0, bounced(0.0), 1.0, bounced(1.0),
                                              kTolerance, kContactDistance, kSpeedRoundOff);
  REQUIRE(back.has_value());
  CHECK(back->before ==
        doctest::Approx((u0 + std::sqrt(u0 * u0 + 20.0 * g0)) / 10.0).epsilon(1e-9));
  // Starting the step touching (within the contact distance), the point was struck at the event
  // the step starts from, or it does not touch that face there (a corner passing another's
  // corner behind the face's widened end, which leaves the extent 1e-6 s later): nothing lands.
  const auto touching = [](double t) {
    return t <= 1e-6 ? GapAndRate{1e-12 - t, -1.0, 1e-6 - t}
                     : GapAndRate{1.0 + (t - 1e-6), 1.0, 1e-6 - t};
  };
  CHECK_FALSE(routh::locate_gap_closing(touching, 0.0, touching(0.0), 1.0, touching(1.0),
                                        kTolerance, kContactDistance, kSpeedRoundOff));
}

TEST_CASE(
    "event location: a corner leaving another body's face from touching lands after its apex, "
    "not where the gap's round-off reads below zero") {
  // Left at t0 = 0 from a gap of 1e-22 m at u0 = 1.8e-6 m/s (stack:57 of the multibody campaign),
  // falling back at about g (a quartic term, k t⁴, keeps the Hermite cubic through the ends of the
  // 4.4e-3 s step from being exact): it lands at 2 u0 / g. The gap through two bodies' rotations
  // is round-off of that zero just after t0, here −1e-18 m: located from t0, the landing was t0
  // itself, where the contact separates, found again at once (an event storm); located from the
  // apex, it is the flight's (the same gap with an obstacle's infinite support, located from t0,
  // gives t0).
  const double u0 = 1.8e-6, k = 1e5, t1 = 4.4e-3;
  const auto face = [&](double t) {
    const double round_off = t > 0.0 ? -1e-18 : 0.0;
    return GapAndRate{1e-22 + u0 * t - 0.5 * kGravity * t * t - k * t * t * t * t + round_off,
                      u0 - kGravity * t - 4.0 * k * t * t * t, 0.1};
  };
  const auto crossing = routh::locate_gap_closing(face, 0.0, face(0.0), t1, face(t1), kTolerance,
                                                  kContactDistance, kSpeedRoundOff);
  REQUIRE(crossing.has_value());
  // the round-off moves the root by 1e-18 m / u0 = 6e-13 s, 1.5e-6 of it
  CHECK(crossing->before == doctest::Approx(2.0 * u0 / kGravity).epsilon(1e-5));
}

TEST_CASE("event location: the Hermite cubic's lowest point is the parabola's vertex") {
  // g = (t − 0.3)² + 0.01 on [0, 1]: the cubic through both ends is the parabola itself
  const double s = routh::hermite_lowest(0.09 + 0.01, -0.6, 0.49 + 0.01, 1.4, 1.0);
  CHECK(s == doctest::Approx(0.3).epsilon(1e-12));
  // a gap rising all along has no interior lowest point
  CHECK(routh::hermite_lowest(0.1, 1.0, 1.1, 1.0, 1.0) == 0.0);
}

TEST_CASE("event location: a contact flush at rest against its surface rests, a flight does not") {
  // a side face flush against its neighbour's: gap and rate are round-off that changes sign
  CHECK(routh::rests_touching({5.6e-17, 1e-17}, kContactDistance, kSpeedRoundOff));
  CHECK(routh::rests_touching({-5.6e-17, -2e-17}, kContactDistance, kSpeedRoundOff));
  // a corner rising from its pivot by 1e-13 m: it leaves at √(2 g h), far above round-off
  const double lift_off = std::sqrt(2.0 * kGravity * 1e-13);
  CHECK_FALSE(routh::rests_touching({0.0, lift_off}, kContactDistance, kSpeedRoundOff));
  // approaching from within the contact distance, and a gap beyond it
  CHECK_FALSE(routh::rests_touching({1e-10, -lift_off}, kContactDistance, kSpeedRoundOff));
  CHECK_FALSE(routh::rests_touching({2e-9, 0.0}, kContactDistance, kSpeedRoundOff));
}

TEST_CASE(
    "event location: a point touching and falling onto its surface that leaves the extent within "
    "the step lands before it leaves") {
  // A drum's rim whose deepest point, read by its tilt line's end x−, is 2.3e-10 m above the floor
  // and falling at 2.7e-5 m/s; at t_s = 1.3e-5 s the tilt line swings across the body's y axis,
  // x− reads the rim's highest point from there (5e-9 m up and rising) and its support turns
  // negative (models/spatial/spatial_contact_geometry.hpp; cylinder campaign run 130). The
  // deepest point lands at t = 2.3e-10 / 2.7e-5 (closed form), before the swap.
  const double g0 = 2.3e-10, u0 = -2.7e-5, t_s = 1.3e-5;
  const auto rim = [&](double t) {
    return t < t_s ? GapAndRate{g0 + u0 * t, u0, 0.01 * (t_s - t)}
                   : GapAndRate{5e-9 + 1e-4 * (t - t_s), 1e-4, 0.01 * (t_s - t)};
  };
  const double t1 = 4e-5;
  const auto crossing = routh::locate_gap_closing(rim, 0.0, rim(0.0), t1, rim(t1), kTolerance,
                                                  kContactDistance, kSpeedRoundOff);
  REQUIRE(crossing.has_value());
  CHECK(crossing->before == doctest::Approx(-g0 / u0).epsilon(1e-9));
  CHECK(rim(crossing->before).gap >= 0.0);
}

TEST_CASE(
    "event location: a gap that jumps across zero from a rising point onto a falling one is a "
    "landing") {
  // A drum's rim leaving the flat band at t_b = 5e-6 s (cylinder campaign run 266): its tilt
  // line's end x+ reads the material point (r, 0), 1.7e-10 m above the incline and rising at
  // 1.4e-4 m/s, up to the band's edge, and the rim's deepest point beyond it, 1e-11 m below and
  // falling at 1.2e-5 m/s; its support jumps there from r = 0.119 m to 0.029 m. At t_s = 1.2e-5 s
  // the tilt line swings across the body's y axis and x+ reads the rim's highest point, 2.8e-9 m
  // up, until the rim falls through the incline at the 2 ms step's end. The crossing at t_b has a
  // rising, touching near side, but the point jumps there onto one that approaches: a landing, not
  // the round-off of a contact leaving (the flight's apex that falling_crossing would look past to
  // lies beyond the swap, where the highest point falls through zero 0.4 ms later).
  const double t_b = 5e-6, t_s = 1.2e-5, t1 = 2e-3;
  const auto rim = [&](double t) {
    if (t < t_b) return GapAndRate{1.7e-10 + 1.4e-4 * t, 1.4e-4, 0.119};
    if (t < t_s) return GapAndRate{-1e-11 - 1.2e-5 * (t - t_b), -1.2e-5, 0.029 - 4e3 * (t - t_b)};
    const double s = t - t_s;
    return GapAndRate{2.8e-9 - 1e-5 * s - 5.0 * s * s, -1e-5 - 10.0 * s, 0.001 - 4e3 * (t - t_b)};
  };
  const auto crossing = routh::locate_gap_closing(rim, 0.0, rim(0.0), t1, rim(t1), kTolerance,
                                                  kContactDistance, kSpeedRoundOff);
  REQUIRE(crossing.has_value());
  CHECK(crossing->before == doctest::Approx(t_b).epsilon(1e-9));
  const auto landing = routh::falling_crossing(rim, *crossing, 0.0, rim(0.0), t1, rim(t1),
                                               kContactDistance, kTolerance);
  REQUIRE(landing.has_value());
  CHECK(landing->before == doctest::Approx(t_b).epsilon(1e-9));
  CHECK(rim(landing->after).rate < 0.0);
}
