#pragma once
// Housner's rocking block on a shaking ground, integrated here on its own, for the ground-motion
// validation tests: classical RK4 of the equation of motion, impacts by Housner's restitution,
// all from the equations below and never from routh's model, signals or integrator.
//
// Source: Housner (1963), "The behavior of inverted pendulum structures during earthquakes",
// Bull. Seismol. Soc. Am. 53(2); with the ground acceleration as in Zhang & Makris (2001),
// "Rocking response of free-standing blocks under cycloidal pulses", J. Eng. Mech. 127(5),
// eq. 1–2. A block of half-width b and half-height h, R = √(b² + h²), α = atan(b/h),
// I_O = (4/3) m R², p² = 3g / (4R), rocking about its left corner (pivot s = +1, θ > 0, counter-
// clockwise) or its right corner (s = −1, θ < 0). With a_g the ground's acceleration along +x,
// the bodies feel −m a_g, and the moment about the pivot gives
//     θ̈ = −p² (s sin(α − sθ) − (a_g / g) cos(α − sθ)),
// so a positive a_g tips the block onto its left corner once a_g > g tan α (θ̈ > 0 at θ = 0).
// At θ = 0 the block lands on the other corner: angular momentum about it is conserved, and the
// spin keeps r = 1 − 1.5 sin²α of itself (Housner's eq. for a rectangular block); the pivot
// changes side. Or, with `eta` set, the spin keeps η of itself, the calibrated coefficient of
// restitution of the rocking literature (routh's laws `rocking*`, sim/impact/rocking.hpp).

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <vector>

namespace routh::test {

struct ShakenRockingBlock {
  double b, h;                           // [m]
  double g = 9.81;                       // [m/s²], as the models use
  std::function<double(double)> ground;  // a_g(t) [m/s²] along +x, the test's own
  std::vector<double> kinks;  // sorted instants [s] where a_g is not smooth: steps end on them
  double step = 1e-4;         // [s] RK4 step
  std::optional<double> eta =
      std::nullopt;  // the spin kept at an impact; empty: Housner's 1 − 1.5 sin²α

  double R() const { return std::hypot(b, h); }
  double alpha() const { return std::atan(b / h); }
  double p_squared() const { return 3.0 * g / (4.0 * R()); }
  double spin_ratio() const { return eta.value_or(1.0 - 1.5 * std::pow(std::sin(alpha()), 2)); }

  struct State {
    double theta = 0.0, rate = 0.0;  // [rad], [rad/s]
  };

  // θ̈ on pivot s.
  double angular_acceleration(double t, const State& x, int s) const {
    const double angle = alpha() - s * x.theta;
    return -p_squared() * (s * std::sin(angle) - ground(t) / g * std::cos(angle));
  }

  // One classical RK4 step of length dt from (t, x) on pivot s.
  State rk4(double t, const State& x, double dt, int s) const {
    const auto f = [&](double time, const State& y) {
      return State{y.rate, angular_acceleration(time, y, s)};
    };
    const auto plus = [](const State& y, const State& k, double c) {
      return State{y.theta + c * k.theta, y.rate + c * k.rate};
    };
    const State k1 = f(t, x);
    const State k2 = f(t + 0.5 * dt, plus(x, k1, 0.5 * dt));
    const State k3 = f(t + 0.5 * dt, plus(x, k2, 0.5 * dt));
    const State k4 = f(t + dt, plus(x, k3, dt));
    return {x.theta + dt / 6.0 * (k1.theta + 2.0 * k2.theta + 2.0 * k3.theta + k4.theta),
            x.rate + dt / 6.0 * (k1.rate + 2.0 * k2.rate + 2.0 * k3.rate + k4.rate)};
  }

  // The end of the step from t: a whole step, or less to land on the next kink or on `until`.
  double step_end(double t, double until) const {
    double end = std::min(t + step, until);
    const auto kink = std::upper_bound(kinks.begin(), kinks.end(), t);
    if (kink != kinks.end()) end = std::min(end, *kink);
    return end;
  }

  struct Motion {
    std::vector<double> theta;  // at the requested times, until the first impact (NaN after)
    double first_impact = std::numeric_limits<double>::quiet_NaN();  // [s], NaN: none
  };

  // From rest upright, lifted at t_uplift onto pivot s: θ at each of `times` (sorted) until the
  // first impact, and that impact's time, refined by bisection on a re-integrated step to 1e-14 s.
  Motion rock_until_first_impact(double t_uplift, int s, const std::vector<double>& times,
                                 double t_end) const {
    Motion motion;
    motion.theta.assign(times.size(), std::numeric_limits<double>::quiet_NaN());
    State x;
    double t = t_uplift;
    std::size_t next = 0;
    while (next < times.size() && times[next] <= t) motion.theta[next++] = 0.0;
    while (t < t_end) {
      double t1 = step_end(t, t_end);
      if (next < times.size()) t1 = std::min(t1, times[next]);
      const State x1 = rk4(t, x, t1 - t, s);
      if (s * x1.theta < 0.0 && t > t_uplift) {  // landed within (t, t1]
        double lo = t, hi = t1;
        while (hi - lo > 1e-14) {
          const double mid = 0.5 * (lo + hi);
          (s * rk4(t, x, mid - t, s).theta < 0.0 ? hi : lo) = mid;
        }
        motion.first_impact = 0.5 * (lo + hi);
        return motion;
      }
      t = t1;
      x = x1;
      while (next < times.size() && times[next] <= t) motion.theta[next++] = x.theta;
    }
    return motion;
  }

  // Whether the block, at rest upright until t_uplift and lifted there onto pivot s, reaches
  // |θ| = π/2 before t_end; `impacts` counts the landings on the way. A block that comes back to
  // rest on both corners (a landing without spin, or pressed back while still on them) lifts
  // again when |a_g| next reaches g tan α, and stays at rest for good once the ground is still
  // (after `quiet_after`). `max_tilt`, if given, receives the largest |θ| at the steps' ends.
  bool overturns(double t_uplift, int s, double t_end, double quiet_after, int* impacts,
                 double* max_tilt = nullptr) const {
    const double threshold = g * std::tan(alpha());  // [m/s²]
    State x;
    double t = t_uplift;
    *impacts = 0;
    if (max_tilt != nullptr) *max_tilt = 0.0;
    bool resting = false, moved = false;
    while (t < t_end) {
      const double t1 = step_end(t, t_end);
      if (resting) {
        if (t > quiet_after) return false;
        if (std::abs(ground(t1)) > threshold) {  // lifts within (t, t1]
          double lo = t, hi = t1;
          while (hi - lo > 1e-14) {
            const double mid = 0.5 * (lo + hi);
            (std::abs(ground(mid)) > threshold ? hi : lo) = mid;
          }
          s = ground(t1) > 0.0 ? 1 : -1;
          resting = moved = false;
          t = hi;
          continue;
        }
        t = t1;
        continue;
      }
      const State x1 = rk4(t, x, t1 - t, s);
      if (max_tilt != nullptr) *max_tilt = std::max(*max_tilt, std::abs(x1.theta));
      if (std::abs(x1.theta) >= 0.5 * std::numbers::pi) return true;
      if (s * x1.theta < 0.0) {
        if (!moved) {  // pressed back onto both corners before it rose
          resting = true;
          x = {};
          t = t1;
          continue;
        }
        double lo = t, hi = t1;
        while (hi - lo > 1e-14) {
          const double mid = 0.5 * (lo + hi);
          (s * rk4(t, x, mid - t, s).theta < 0.0 ? hi : lo) = mid;
        }
        ++*impacts;
        x = {0.0, spin_ratio() * rk4(t, x, lo - t, s).rate};
        s = -s;
        t = lo;
        moved = false;
        resting = std::abs(x.rate) < 1e-9;
        continue;
      }
      moved = moved || s * x1.theta > 0.0;
      t = t1;
      x = x1;
    }
    return false;
  }
};

}  // namespace routh::test
