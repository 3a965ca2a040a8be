// Intensity measures of ground motions (sim/excitation/intensity_measures.hpp,
// oscillator_response.hpp, excitation_samples.hpp) against references worked out here: closed
// forms for a constant, a triangle, whole cycles of a sine and a Ricker wavelet, and, for the
// response spectrum, a classical RK4 integration of u'' + 2ζωu' + ω²u = −a(t) with a small step,
// on even and uneven sampling.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "sim/excitation/excitation_samples.hpp"
#include "sim/excitation/intensity_measures.hpp"
#include "sim/excitation/oscillator_response.hpp"

namespace routh {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.80665;  // the standard gravity of the Arias intensity [m/s²]

// a = A sin(ωt) sampled at `per_cycle` samples per cycle over `cycles` whole cycles.
GroundMotionSamples sine_samples(double amplitude, double omega, int cycles, int per_cycle) {
  GroundMotionSamples samples;
  const int count = cycles * per_cycle;
  const double period = 2.0 * kPi / omega;
  for (int i = 0; i <= count; ++i) {
    const double t = period * cycles * i / count;
    samples.time_s.push_back(t);
    samples.acceleration_m_s2.push_back(amplitude * std::sin(omega * t));
  }
  return samples;
}

IntensityMeasures measures_of(const GroundMotionSamples& samples) {
  return intensity_measures(samples.time_s, samples.acceleration_m_s2);
}

// The instant in [low, high] where the increasing f reaches `target`, by bisection.
double solve_increasing(const std::function<double(double)>& f, double target, double low,
                        double high) {
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    (f(middle) < target ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

// max |u| ω² of the oscillator under the piecewise-linear acceleration of `samples`, by RK4 with
// `substeps` steps per sample interval.
double rk4_spectral_acceleration(const GroundMotionSamples& samples, double period, double damping,
                                 int substeps) {
  const double omega = 2.0 * kPi / period;
  double u = 0.0, v = 0.0, peak = 0.0;
  for (std::size_t i = 0; i + 1 < samples.time_s.size(); ++i) {
    const double t0 = samples.time_s[i], h = samples.time_s[i + 1] - t0;
    if (h == 0.0) continue;
    const double a0 = samples.acceleration_m_s2[i], a1 = samples.acceleration_m_s2[i + 1];
    const auto ground = [&](double t) { return a0 + (a1 - a0) * (t - t0) / h; };
    const auto accel = [&](double t, double x, double x_dot) {
      return -ground(t) - 2.0 * damping * omega * x_dot - omega * omega * x;
    };
    const double dt = h / substeps;
    for (int k = 0; k < substeps; ++k) {
      const double t = t0 + k * dt;
      const double k1u = v, k1v = accel(t, u, v);
      const double k2u = v + 0.5 * dt * k1v;
      const double k2v = accel(t + 0.5 * dt, u + 0.5 * dt * k1u, k2u);
      const double k3u = v + 0.5 * dt * k2v;
      const double k3v = accel(t + 0.5 * dt, u + 0.5 * dt * k2u, k3u);
      const double k4u = v + dt * k3v;
      const double k4v = accel(t + dt, u + dt * k3u, k4u);
      u += dt / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
      v += dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
      peak = std::max(peak, std::abs(u));
    }
  }
  return omega * omega * peak;
}

}  // namespace

TEST_CASE("intensity measures: a constant acceleration, in closed form") {
  // a = c on [0, T]: v = ct, d = ct²/2, ∫a² = c²T, ∫|a| = |c|T; the cumulative intensity grows
  // linearly, so D5–95 = 0.9 T.
  const double c = -2.5, T = 4.0;
  const std::array<double, 2> t{0.0, T}, a{c, c};
  const IntensityMeasures m = intensity_measures(t, a);
  CHECK(m.pga_m_s2 == doctest::Approx(2.5).epsilon(1e-15));
  CHECK(m.pgv_m_s == doctest::Approx(2.5 * T).epsilon(1e-15));
  CHECK(m.pgd_m == doctest::Approx(2.5 * T * T / 2.0).epsilon(1e-15));
  CHECK(m.arias_m_s == doctest::Approx(kPi / (2.0 * kG) * c * c * T).epsilon(1e-15));
  CHECK(m.cav_m_s == doctest::Approx(2.5 * T).epsilon(1e-15));
  CHECK(m.significant_duration_s == doctest::Approx(0.9 * T).epsilon(1e-14));
}

TEST_CASE("intensity measures: a linear ramp through zero is integrated exactly") {
  // a = 1 − t on [0, 2] (one straight piece, a sign change at t = 1): ∫|a| = two triangles of
  // area 1/2; ∫a² = ∫(1 − t)² = 2/3; v = t − t²/2 peaks at 1/2 (t = 1); d = t²/2 − t³/6 reaches
  // 2/3 at t = 2. The cumulative ∫a² = (1 − (1 − t)³)/3 reaches a fraction p of 2/3 at
  // t = 1 − ∛(1 − 2p).
  const std::array<double, 2> t{0.0, 2.0}, a{1.0, -1.0};
  const IntensityMeasures m = intensity_measures(t, a);
  CHECK(m.cav_m_s == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(m.arias_m_s == doctest::Approx(kPi / (2.0 * kG) * 2.0 / 3.0).epsilon(1e-15));
  CHECK(m.pgv_m_s == 0.0);  // v(2) = 0: PGV is the largest at the samples
  CHECK(m.pgd_m == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
  const double t95 = 1.0 - std::cbrt(1.0 - 2.0 * 0.95), t05 = 1.0 - std::cbrt(1.0 - 2.0 * 0.05);
  CHECK(m.significant_duration_s == doctest::Approx(t95 - t05).epsilon(1e-14));
  // the same line split at its root gives the peak velocity there, and the same integrals
  const std::array<double, 3> t3{0.0, 1.0, 2.0}, a3{1.0, 0.0, -1.0};
  const IntensityMeasures split = intensity_measures(t3, a3);
  CHECK(split.pgv_m_s == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(split.cav_m_s == doctest::Approx(m.cav_m_s).epsilon(1e-15));
  CHECK(split.arias_m_s == doctest::Approx(m.arias_m_s).epsilon(1e-15));
  CHECK(split.significant_duration_s == doctest::Approx(m.significant_duration_s).epsilon(1e-14));
}

TEST_CASE("intensity measures: whole cycles of a sine against their closed forms") {
  // a = A sin ωt over N cycles, T_total = 2πN/ω: v = (A/ω)(1 − cos ωt), PGV = 2A/ω;
  // d = (A/ω) t − (A/ω²) sin ωt grows to PGD = A T_total / ω; ∫a² = A² T_total / 2;
  // ∫|a| = 2A/ω per half cycle; the cumulative ∫a² = A² (t/2 − sin 2ωt / (4ω)).
  // 400 samples per cycle: the trapezoidal sums of a sine are within (ωh)²/12 ≈ 2e-5.
  const double A = 3.0, omega = 2.0 * kPi * 1.5;
  const int N = 4;
  const double T_total = 2.0 * kPi * N / omega;
  const IntensityMeasures m = measures_of(sine_samples(A, omega, N, 400));
  CHECK(m.pga_m_s2 == doctest::Approx(A).epsilon(1e-12));  // a sample sits on each peak
  CHECK(m.pgv_m_s == doctest::Approx(2.0 * A / omega).epsilon(1e-4));
  CHECK(m.pgd_m == doctest::Approx(A * T_total / omega).epsilon(1e-4));
  CHECK(m.arias_m_s == doctest::Approx(kPi / (2.0 * kG) * A * A * T_total / 2.0).epsilon(1e-4));
  CHECK(m.cav_m_s == doctest::Approx(2.0 * N * 2.0 * A / omega).epsilon(1e-4));
  const auto cumulative = [&](double t) {
    return A * A * (t / 2.0 - std::sin(2.0 * omega * t) / (4.0 * omega));
  };
  const double total = cumulative(T_total);
  const double d595 = solve_increasing(cumulative, 0.95 * total, 0.0, T_total) -
                      solve_increasing(cumulative, 0.05 * total, 0.0, T_total);
  CHECK(m.significant_duration_s == doctest::Approx(d595).epsilon(1e-4));
}

TEST_CASE("intensity measures: a Ricker wavelet applied as a pulse, against its closed forms") {
  // a = A (1 − 2u²) e^{−u²}, u = π (t − T_p)/T_p on [0, 2T_p]. With dt/du = T_p/π:
  //   v = A (T_p/π) (u e^{−u²} + π e^{−π²}),  peaking at u = 1/√2;
  //   d = A (T_p/π)² ((e^{−π²} − e^{−u²})/2 + π e^{−π²} (u + π));
  //   ∫a² dt = A² (T_p/π) ∫(1 − 2u²)² e^{−2u²} du = A² (T_p/π) (3/4) √(π/2) (the tails past
  //   |u| = π are below 1e-8 of it).
  // The excitation is sampled every 5 ms at most, 200 per period: 2.5 ms here.
  const double A = 4.0, Tp = 0.5;
  const Excitation excitation{{PulseSignal{PulseShape::ricker, A, Tp, 0.0, 1.0}}};
  const GroundMotionSamples samples = sample_excitation(excitation, Eigen::Vector3d::UnitX(), 1.5);
  CHECK(samples.time_s.back() == 1.5);
  const IntensityMeasures m = measures_of(samples);
  const double tail = std::exp(-kPi * kPi);
  CHECK(m.pga_m_s2 == doctest::Approx(A).epsilon(1e-12));  // t = T_p is on the grid
  CHECK(
      m.pgv_m_s ==
      doctest::Approx(A * Tp / kPi * (std::exp(-0.5) / std::sqrt(2.0) + kPi * tail)).epsilon(1e-4));
  double pgd = 0.0;
  for (int k = 0; k <= 200000; ++k) {
    const double u = -kPi + 2.0 * kPi * k / 200000.0;
    const double d =
        A * (Tp / kPi) * (Tp / kPi) * ((tail - std::exp(-u * u)) / 2.0 + kPi * tail * (u + kPi));
    pgd = std::max(pgd, std::abs(d));
  }
  CHECK(m.pgd_m == doctest::Approx(pgd).epsilon(1e-4));
  CHECK(m.arias_m_s ==
        doctest::Approx(kPi / (2.0 * kG) * A * A * Tp / kPi * 0.75 * std::sqrt(kPi / 2.0))
            .epsilon(1e-4));
}

TEST_CASE(
    "intensity measures: Sa matches an RK4 integration of the oscillator, several T and zeta") {
  // A two-tone motion sampled at 100 Hz, then at uneven steps (between 4 and 16 ms). RK4 with
  // 200 steps per interval is exact to about 1e-6 here; the turning values between substeps are
  // within (ωδ)³/12 ≈ 1e-4 for the 7 rad/s tone over the longest 16 ms interval.
  GroundMotionSamples even, uneven;
  for (int i = 0; i <= 400; ++i) {
    const double t = 0.01 * i;
    even.time_s.push_back(t);
    even.acceleration_m_s2.push_back(2.0 * std::sin(7.0 * t) + 1.2 * std::sin(23.0 * t + 0.4));
  }
  for (double t = 0.0; t < 4.0; t += 0.004 + 0.012 * (0.5 + 0.5 * std::sin(37.0 * t))) {
    uneven.time_s.push_back(t);
    uneven.acceleration_m_s2.push_back(2.0 * std::sin(7.0 * t) + 1.2 * std::sin(23.0 * t + 0.4));
  }
  for (const GroundMotionSamples* samples : {&even, &uneven}) {
    for (double period : {0.05, 0.3, 1.0, 3.0}) {
      for (double damping : {0.0, 0.05, 0.2}) {
        INFO("T = ", period, " s, zeta = ", damping, ", samples ", samples->time_s.size());
        const double sa = pseudo_spectral_acceleration(samples->time_s, samples->acceleration_m_s2,
                                                       period, damping);
        CHECK(sa == doctest::Approx(rk4_spectral_acceleration(*samples, period, damping, 200))
                        .epsilon(3e-4));
      }
    }
  }
  CHECK_THROWS_AS(pseudo_spectral_acceleration(even.time_s, even.acceleration_m_s2, 0.0, 0.05),
                  std::invalid_argument);
  CHECK_THROWS_AS(pseudo_spectral_acceleration(even.time_s, even.acceleration_m_s2, 1.0, 1.0),
                  std::invalid_argument);
}

TEST_CASE("intensity measures: Sa of a long sine at resonance grows as the closed form says") {
  // Undamped resonance, a = A sin ωt at the oscillator's own ω: u = (A / 2ω²)(sin ωt − ωt cos ωt)
  // from rest, its peak found here on a fine grid. 200 samples per cycle: the linear
  // interpolation of the sine weakens its tone by (ωh)²/12 ≈ 8e-5.
  const double A = 1.0, omega = 2.0 * kPi;
  const int N = 20;
  const GroundMotionSamples samples = sine_samples(A, omega, N, 200);
  double peak = 0.0;
  for (int k = 0; k <= N * 2000; ++k) {
    const double t = k / 2000.0;
    peak = std::max(peak, std::abs(A / (2.0 * omega * omega) *
                                   (std::sin(omega * t) - omega * t * std::cos(omega * t))));
  }
  const double sa =
      pseudo_spectral_acceleration(samples.time_s, samples.acceleration_m_s2, 1.0, 0.0);
  CHECK(sa == doctest::Approx(omega * omega * peak).epsilon(3e-4));
}

TEST_CASE("intensity measures: a record applied alone gives its own samples' measures, scaled") {
  // As applied with scale 2 from t = 0.5: every acceleration doubles (PGA, PGV, PGD, CAV and Sa
  // double, the Arias intensity quadruples); the significant duration is a difference of times.
  GroundMotionSamples own;
  for (int i = 0; i <= 300; ++i) {
    own.time_s.push_back(0.02 * i);
    own.acceleration_m_s2.push_back(std::sin(0.3 * i) * std::exp(-0.01 * i) + 0.2);
  }
  const auto record =
      std::make_shared<const GroundRecord>(GroundRecord{own.time_s, own.acceleration_m_s2});
  const Excitation excitation{{RecordSignal{record, 2.0, 0.5}}};
  const GroundMotionSamples applied =
      sample_excitation(excitation, Eigen::Vector3d::UnitX(), 0.5 + own.time_s.back());
  const IntensityMeasures alone = measures_of(own), as_applied = measures_of(applied);
  CHECK(as_applied.pga_m_s2 == doctest::Approx(2.0 * alone.pga_m_s2).epsilon(1e-12));
  CHECK(as_applied.pgv_m_s == doctest::Approx(2.0 * alone.pgv_m_s).epsilon(1e-12));
  CHECK(as_applied.pgd_m == doctest::Approx(2.0 * alone.pgd_m).epsilon(1e-12));
  CHECK(as_applied.cav_m_s == doctest::Approx(2.0 * alone.cav_m_s).epsilon(1e-12));
  CHECK(as_applied.arias_m_s == doctest::Approx(4.0 * alone.arias_m_s).epsilon(1e-12));
  CHECK(as_applied.significant_duration_s ==
        doctest::Approx(alone.significant_duration_s).epsilon(1e-12));
  CHECK(pseudo_spectral_acceleration(applied.time_s, applied.acceleration_m_s2, 0.4) ==
        doctest::Approx(2.0 * pseudo_spectral_acceleration(own.time_s, own.acceleration_m_s2, 0.4))
            .epsilon(1e-12));
  // the record jumps from 0 to 0.4 at 0.5 s and back to 0 at its end: both sides are sampled
  const auto at_start = std::find(applied.time_s.begin(), applied.time_s.end(), 0.5);
  REQUIRE(at_start != applied.time_s.end());
  const std::size_t i = static_cast<std::size_t>(at_start - applied.time_s.begin());
  CHECK(applied.acceleration_m_s2[i] == 0.0);
  CHECK(applied.time_s[i + 1] == 0.5);
  CHECK(applied.acceleration_m_s2[i + 1] == doctest::Approx(0.4));
  CHECK(applied.acceleration_m_s2.back() == 0.0);
}

TEST_CASE("intensity measures: a motion that is zero throughout measures zero") {
  const std::array<double, 3> t{0.0, 1.0, 2.0}, a{0.0, 0.0, 0.0};
  const IntensityMeasures m = intensity_measures(t, a);
  CHECK(m.pga_m_s2 == 0.0);
  CHECK(m.arias_m_s == 0.0);
  CHECK(m.significant_duration_s == 0.0);
  CHECK(pseudo_spectral_acceleration(t, a, 1.0) == 0.0);
}

}  // namespace routh
