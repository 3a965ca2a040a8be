// The ground-motion signals (sim/excitation/) against their formulas, written out here: values
// inside and outside their span, the sum along x and y, and the breakpoints.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "sim/excitation/excitation.hpp"

namespace routh {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::shared_ptr<const GroundRecord> three_samples() {
  return std::make_shared<const GroundRecord>(
      GroundRecord{{0.0, 0.5, 1.5}, {1.0, 3.0, -1.0}});  // [s], [m/s²]
}

}  // namespace

TEST_CASE(
    "excitation: a harmonic acts from start for its cycles, the whole run without "
    "cycles") {
  const HarmonicSignal finite{2.0, 4.0, kPi / 2.0, 0.5, 3.0};  // A, f, φ, t₀, cycles
  CHECK(end_time(finite) == 0.5 + 3.0 / 4.0);
  CHECK(acceleration_at(finite, 0.4999) == 0.0);
  CHECK(acceleration_at(finite, 0.5) == doctest::Approx(2.0));  // sin(φ) = 1: it jumps at t₀
  CHECK(acceleration_at(finite, 0.6) ==
        doctest::Approx(2.0 * std::sin(2.0 * kPi * 4.0 * 0.1 + kPi / 2.0)));
  CHECK(acceleration_at(finite, 1.25) == 0.0);  // its end
  const HarmonicSignal endless{2.0, 4.0, 0.0, 0.0};
  CHECK(end_time(endless) == kInfinity);
  CHECK(acceleration_at(endless, 1e4 + 1.0 / 16.0) == doctest::Approx(2.0));
}

TEST_CASE("excitation: pulses follow their shapes, a Ricker wavelet peaks at start + period") {
  const PulseSignal sine{PulseShape::sine, 3.0, 0.4, 1.0, 2.0};
  CHECK(end_time(sine) == doctest::Approx(1.8));
  CHECK(acceleration_at(sine, 1.1) == doctest::Approx(3.0));  // a quarter period in
  CHECK(acceleration_at(sine, 1.3) == doctest::Approx(-3.0));
  CHECK(acceleration_at(sine, 0.99) == 0.0);
  CHECK(acceleration_at(sine, 1.81) == 0.0);
  const PulseSignal cosine{PulseShape::cosine, 3.0, 0.4, 1.0, 1.0};
  CHECK(acceleration_at(cosine, 1.0) == 3.0);  // jumps to A at its start
  CHECK(acceleration_at(cosine, 1.2) == doctest::Approx(-3.0));
  CHECK(acceleration_at(cosine, 1.4) == 0.0);
  const PulseSignal ricker{PulseShape::ricker, 2.0, 0.5, 0.2, 7.0};  // cycles do not apply
  CHECK(end_time(ricker) == doctest::Approx(0.2 + 2 * 0.5));
  CHECK(acceleration_at(ricker, 0.7) == doctest::Approx(2.0));  // the peak
  // a = A (1 − 2u²) e^{−u²}: zero where u² = 1/2, u = π (τ − T) / T
  CHECK(std::abs(acceleration_at(ricker, 0.7 + 0.5 / (kPi * std::sqrt(2.0)))) < 1e-12);
  // cut at u = ±π, where it has fallen to (1 − 2π²) e^{−π²} of A
  CHECK(acceleration_at(ricker, 0.2) ==
        doctest::Approx(2.0 * (1.0 - 2.0 * kPi * kPi) * std::exp(-kPi * kPi)));
}

TEST_CASE("excitation: a record is linear between samples, scaled, shifted and zero outside") {
  const RecordSignal record{three_samples(), 2.0, 1.0};
  CHECK(acceleration_at(record, 0.999) == 0.0);
  CHECK(acceleration_at(record, 1.0) == 2.0 * 1.0);
  CHECK(acceleration_at(record, 1.25) == doctest::Approx(2.0 * 2.0));  // halfway 1 → 3
  CHECK(acceleration_at(record, 2.0) == doctest::Approx(2.0 * 1.0));   // halfway 3 → −1
  CHECK(acceleration_at(record, 2.5) == 0.0);                          // its last sample ends it
  CHECK(next_sample_after(record, 0.0) == 1.0);
  CHECK(next_sample_after(record, 1.0) == 1.5);
  CHECK(next_sample_after(record, 2.5) == kInfinity);
}

TEST_CASE(
    "excitation: the signals sum along their directions, the breakpoints are their starts, "
    "ends and samples, in order") {
  Excitation excitation;
  excitation.push_back({HarmonicSignal{1.0, 1.0, kPi / 2.0, 0.25, 1.0}, Eigen::Vector3d::UnitX()});
  excitation.push_back(
      {PulseSignal{PulseShape::cosine, 2.0, 1.0, 0.25, 1.0}, Eigen::Vector3d::UnitY()});
  excitation.push_back({RecordSignal{three_samples(), 1.0, 0.1}, Eigen::Vector3d::UnitX()});
  const Eigen::Vector3d a = ground_acceleration(excitation, 0.25);
  CHECK(a.x() == doctest::Approx(1.0 + (1.0 + 2.0 * (0.15 / 0.5))));  // harmonic + record
  CHECK(a.y() == 2.0);
  CHECK(a.z() == 0.0);
  std::vector<double> breakpoints;
  for (double t = 0.0; t < 10.0;) {
    t = next_breakpoint(excitation, t);
    if (t == kInfinity) break;
    breakpoints.push_back(t);
  }
  // record samples at 0.1, 0.6, 1.6; harmonic and pulse start at 0.25 and end at 1.25
  const std::vector<double> expected = {0.1, 0.25, 0.1 + 0.5, 1.25, 0.1 + 1.5};
  CHECK(breakpoints == expected);
}

}  // namespace routh
