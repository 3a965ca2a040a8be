// The pulses beyond sine, cosine and Ricker (pulse_signal.hpp) against their velocity formulas,
// written out here from the papers: Makris & Roussos (2000) for the cycloidal pulses, Mavroeidis &
// Papageorgiou (2003) for theirs, and the rectangular pulse. routh's acceleration must be the
// derivative of the velocity (central differences of the formula), integrate to the velocity the
// formula gives (the ground ends at rest) and to the displacement the paper states, vanish
// outside the support, and list the jumps as breakpoints. Bad parameters are errors at the value,
// and the shipped pulse scenario runs under each shape.

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "sim/excitation/pulse_signal.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/text.hpp"
#include "support/scenario_errors.hpp"
#include "support/scenario_run.hpp"

namespace routh {

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A pulse and the ground velocity v(τ) [m/s] its source gives, τ = t − start, on its support.
struct PulseCase {
  const char* name;
  PulseSignal pulse;
  std::function<double(double)> velocity;
  double final_displacement_m;  // the ground's displacement at the end, from the source
};

constexpr double kStart = 0.3, kPeriod = 0.8, kVelocity = 0.6;  // [s], [s], [m/s]
constexpr double kOmega = 2.0 * kPi / kPeriod;

PulseSignal velocity_pulse(PulseShape shape) {
  PulseSignal pulse;
  pulse.shape = shape;
  pulse.period_s = kPeriod;
  pulse.start_s = kStart;
  pulse.velocity_m_s = kVelocity;
  return pulse;
}

std::vector<PulseCase> pulse_cases() {
  std::vector<PulseCase> cases;
  PulseSignal rectangular = velocity_pulse(PulseShape::rectangular);
  rectangular.amplitude_m_s2 = 2.5;
  // v = A τ, then A (T − τ): a triangle, the displacement its area A T² / 4
  cases.push_back({"rectangular", rectangular,
                   [](double tau) { return 2.5 * (tau < kPeriod / 2 ? tau : kPeriod - tau); },
                   2.5 * kPeriod * kPeriod / 4.0});
  // Makris & Roussos (2000): type A moves the ground forward by V_p T_p / 2
  cases.push_back({"cycloidal type A", velocity_pulse(PulseShape::cycloidal_a),
                   [](double tau) { return 0.5 * kVelocity * (1.0 - std::cos(kOmega * tau)); },
                   0.5 * kVelocity * kPeriod});
  // type B moves it forward and back
  cases.push_back({"cycloidal type B", velocity_pulse(PulseShape::cycloidal_b),
                   [](double tau) { return kVelocity * std::sin(kOmega * tau); }, 0.0});
  for (int n : {1, 2, 3}) {
    PulseSignal c = velocity_pulse(PulseShape::cycloidal_c);
    c.cycloid_cycles = n;
    const double phi = cycloid_phase(n);
    cases.push_back(
        {n == 1   ? "cycloidal type C1"
         : n == 2 ? "cycloidal type C2"
                  : "type C3",
         c,
         [phi](double tau) { return kVelocity * (std::sin(kOmega * tau + phi) - std::sin(phi)); },
         0.0});
  }
  // Mavroeidis & Papageorgiou (2003), their eq. for the velocity pulse, centred at γ T_p / 2
  for (const double phase : {0.0, 1.2, -kPi / 2}) {
    PulseSignal mp = velocity_pulse(PulseShape::mavroeidis_papageorgiou);
    mp.gamma = 2.3;
    mp.phase_rad = phase;
    const auto velocity = [phase](double tau) {
      const double s = tau - 0.5 * 2.3 * kPeriod;
      return 0.5 * kVelocity * (1.0 + std::cos(kOmega * s / 2.3)) * std::cos(kOmega * s + phase);
    };
    // its displacement: ∫ v over the support, by Simpson's rule on 20000 intervals
    const double length = 2.3 * kPeriod;
    const int intervals = 20000;
    double displacement = 0.0;
    for (int i = 0; i <= intervals; ++i) {
      const double weight = i == 0 || i == intervals ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
      displacement += weight * velocity(length * i / intervals);
    }
    cases.push_back(
        {"Mavroeidis-Papageorgiou", mp, velocity, displacement * length / intervals / 3});
  }
  return cases;
}

}  // namespace

TEST_CASE("pulses: Cn's phase is the root Makris and Roussos give, 0.0697 pi for n = 1") {
  // the paper prints φ = 0.0697π for C1: four digits
  CHECK(std::abs(cycloid_phase(1) / kPi - 0.0697) < 5e-5);
  for (int n : {1, 2, 5, 100}) {
    const double phi = cycloid_phase(n);
    CHECK(phi > 0.0);
    CHECK(phi < kPi / 2);
    CHECK(std::abs(std::tan(phi) * ((2 * n + 1) * kPi - 2 * phi) - 2.0) < 1e-12);
  }
}

TEST_CASE("pulses: the acceleration is the derivative of the source's velocity") {
  for (const PulseCase& c : pulse_cases()) {
    CAPTURE(c.name);
    CAPTURE(c.pulse.phase_rad);
    const double end = end_time(c.pulse);
    const double peak = peak_acceleration_bound(c.pulse);
    const double h = 1e-6;  // [s]: central differences err by h² v''' / 6 ≈ 1e-10 of the peak
    for (int k = 1; k < 400; ++k) {
      const double t = kStart + (end - kStart) * k / 400.0;
      if (c.pulse.shape == PulseShape::rectangular && std::abs(t - kStart - kPeriod / 2) < 2 * h) {
        continue;  // its jump
      }
      const double derivative =
          (c.velocity(t + h - kStart) - c.velocity(t - h - kStart)) / (2.0 * h);
      CHECK(std::abs(acceleration_at(c.pulse, t) - derivative) < 1e-7 * peak);
      CHECK(std::abs(acceleration_at(c.pulse, t)) <= peak * (1.0 + 1e-12));
    }
  }
}

TEST_CASE(
    "pulses: integrated, the acceleration leaves the ground at rest, moved by what the source "
    "states") {
  for (const PulseCase& c : pulse_cases()) {
    CAPTURE(c.name);
    CAPTURE(c.pulse.phase_rad);
    // the velocity at rest before and after: the source's formula at both ends of the support
    const double end = end_time(c.pulse);
    CHECK(std::abs(c.velocity(0.0)) < 1e-12);
    CHECK(std::abs(c.velocity(end - kStart)) < 1e-12);
    // trapezoidal integration of routh's acceleration on a grid that has the rectangular jump
    // as a node (second order between jumps)
    const int steps = 200000;
    const double dt = (end - kStart) / steps;
    double velocity = 0.0, displacement = 0.0;
    double previous = acceleration_at(c.pulse, kStart);
    double largest_error = 0.0;
    for (int i = 1; i <= steps; ++i) {
      const double t = kStart + i * dt;
      // at the rectangular jump (and at the end) the left value closes the interval
      const double left = acceleration_at(c.pulse, std::nextafter(t, 0.0));
      const double velocity_before = velocity;
      velocity += 0.5 * (previous + left) * dt;
      displacement += 0.5 * (velocity_before + velocity) * dt;
      previous = acceleration_at(c.pulse, t);
      largest_error = std::max(largest_error, std::abs(velocity - c.velocity(t - kStart)));
    }
    const double scale = kVelocity * kPeriod;
    CHECK(largest_error < 1e-8);       // v(t) = v(start) + ∫ a dt, all along
    CHECK(std::abs(velocity) < 1e-8);  // at rest again
    CHECK(std::abs(displacement - c.final_displacement_m) < 1e-8 * scale);
  }
}

TEST_CASE("pulses: zero outside the support, breakpoints at the start, the jumps and the end") {
  for (const PulseCase& c : pulse_cases()) {
    CAPTURE(c.name);
    const double end = end_time(c.pulse);
    CHECK(acceleration_at(c.pulse, std::nextafter(kStart, 0.0)) == 0.0);
    CHECK(acceleration_at(c.pulse, end) == 0.0);
    CHECK(acceleration_at(c.pulse, end + 1.0) == 0.0);
    std::vector<double> breakpoints;
    for (double t = 0.0; t < 100.0;) {
      t = next_breakpoint_after(c.pulse, t);
      if (t == kInfinity) break;
      breakpoints.push_back(t);
    }
    std::vector<double> expected = {kStart, end};
    if (c.pulse.shape == PulseShape::rectangular) expected = {kStart, kStart + kPeriod / 2, end};
    CHECK(breakpoints == expected);
  }
  // the supports: one period; (n + 1/2 − φ/π) periods; γ periods
  CHECK(end_time(velocity_pulse(PulseShape::cycloidal_b)) == kStart + kPeriod);
  PulseSignal c2 = velocity_pulse(PulseShape::cycloidal_c);
  c2.cycloid_cycles = 2;
  CHECK(end_time(c2) == doctest::Approx(kStart + (2.5 - cycloid_phase(2) / kPi) * kPeriod));
  PulseSignal mp = velocity_pulse(PulseShape::mavroeidis_papageorgiou);
  mp.gamma = 3.0;
  CHECK(end_time(mp) == doctest::Approx(kStart + 3.0 * kPeriod));
  // the rectangular pulse: A up to the middle, −A from it on (the middle is on the right side)
  PulseSignal rectangular = velocity_pulse(PulseShape::rectangular);
  rectangular.amplitude_m_s2 = 2.5;
  CHECK(acceleration_at(rectangular, kStart) == 2.5);
  CHECK(acceleration_at(rectangular, std::nextafter(kStart + 0.5 * kPeriod, 0.0)) == 2.5);
  CHECK(acceleration_at(rectangular, kStart + 0.5 * kPeriod) == -2.5);
}

TEST_CASE("pulses: bad pulse parameters are errors at the value") {
  const std::string block =
      "duration: 1\n"
      "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
      "initial: {q: {theta: 0}}\n"
      "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
      "friction: 3}\n"
      "excitation:\n";
  struct Bad {
    std::string pulse, at, message;  // `at`: the text in `pulse` the error points to
  };
  const std::vector<Bad> cases = {
      {"{shape: cycloidal_c, velocity: 0.5, period: 1}", "{",
       "excitation[0].pulse: missing required key 'n'"},
      {"{shape: cycloidal_c, velocity: 0.5, period: 1, n: 1.5}", "1.5",
       "excitation[0].pulse.n = 1.5: must be a whole number of cycles"},
      {"{shape: cycloidal_b, period: 1}", "{",
       "excitation[0].pulse: a cycloidal pulse needs its velocity (or its amplitude)"},
      {"{shape: cycloidal_a, velocity: 0.5, amplitude: 1, period: 1}", "1,",
       "excitation[0].pulse.amplitude = 1: give velocity or amplitude, not both"},
      {"{shape: sine, amplitude: 1, period: 1, gamma: 2}", "2}",
       "excitation[0].pulse.gamma = 2: does not apply to a sine pulse (it takes amplitude, "
       "period, cycles, shape, direction and start)"},
      {"{shape: rectangular, amplitude: 1, period: 1, cycles: 2}", "2}",
       "excitation[0].pulse.cycles = 2: does not apply to a rectangular pulse"},
      {"{shape: mavroeidis_papageorgiou, velocity: 0.5, period: 1, gamma: 1}", "1}",
       "excitation[0].pulse.gamma = 1: must be in (1, 1000]"},
      {"{shape: mavroeidis_papageorgiou, velocity: 0.5, period: 1}", "{",
       "excitation[0].pulse: missing required key 'gamma'"},
      {"{shape: mavroeidis_papageorgiou, velocity: 0.5, period: 1, frequency: 1, gamma: 2}", "1, g",
       "excitation[0].pulse.frequency = 1: give period or frequency, not both"},
      {"{shape: cycloidal_b, velocity: 150, period: 1}", "150",
       "excitation[0].pulse.velocity = 150: must be in [-100, 100] m/s"},
      {"{shape: cycloidal_b, velocity: 50, period: 0.1}", "{",
       "excitation[0].pulse: its acceleration reaches 3141.592654 m/s^2: must stay within "
       "[-1000, 1000] m/s^2"},
  };
  for (const Bad& bad : cases) {
    const std::string text = block + "  - pulse: " + bad.pulse + "\n";
    CAPTURE(text);
    const std::string error = test::load_error(text);
    CAPTURE(error);
    CHECK(error.find(test::location_of(text, bad.pulse, bad.at) + ": " + bad.message) !=
          std::string::npos);
  }
}

TEST_CASE("pulses: the effective scenario lists each pulse with its defaults and reads back") {
  const std::string text =
      "duration: 1\n"
      "model: {type: rocking_block, width: 0.2, height: 1.0, mass: 1.0}\n"
      "initial: {q: {theta: 0}}\n"
      "contact: {law: poisson, multi_contact_law: multipoint_energetic, restitution: 0, "
      "friction: 3}\n"
      "excitation:\n"
      "  - pulse: {shape: rectangular, amplitude: 0.1 g, period: 0.4}\n"
      "  - pulse: {shape: cycloidal_a, amplitude: 0.2 g, period: 0.5, direction: y}\n"
      "  - pulse: {shape: cycloidal_c, velocity: 0.1, period: 0.3, n: 2, start: 0.1}\n"
      "  - pulse: {shape: mavroeidis_papageorgiou, velocity: 0.2, frequency: 2.5, gamma: 2}\n";
  const Scenario scenario = load_scenario(test::write_problem(text, "pulses.yaml"));
  // type A given by its peak acceleration: V_p = 2 a_p / Ω
  const double velocity = 2.0 * 0.2 * 9.80665 / (2.0 * kPi / 0.5);
  CHECK(scenario.effective_yaml.find("velocity: " + cat(velocity).substr(0, 8)) !=
        std::string::npos);
  CHECK(scenario.effective_yaml.find("phase: 0") != std::string::npos);     // ν's default
  CHECK(scenario.effective_yaml.find("period: 0.4") != std::string::npos);  // from f_p
  const Scenario again = load_scenario(test::write_problem(scenario.effective_yaml, "again.yaml"));
  CHECK(again.effective_yaml == scenario.effective_yaml);
  for (const double t : {0.05, 0.15, 0.3, 0.45, 0.7}) {
    CHECK(again.planar->ground_acceleration(t) == scenario.planar->ground_acceleration(t));
  }
}

TEST_CASE("pulses: the shipped pulse scenario runs under every shape") {
  for (const std::string pulse :
       {"{shape: rectangular, amplitude: 0.3 g, period: 0.5, start: 0.2}",
        "{shape: cycloidal_a, velocity: 0.5, period: 0.5, start: 0.2}",
        "{shape: cycloidal_b, amplitude: 0.3 g, period: 0.5, start: 0.2}",
        "{shape: cycloidal_c, velocity: 0.2, period: 0.5, n: 2, start: 0.2}",
        "{shape: mavroeidis_papageorgiou, velocity: 0.3, frequency: 2, gamma: 2.5, "
        "phase: 90 deg, start: 0.2}"}) {
    CAPTURE(pulse);
    const test::ScenarioRun run = test::run_shipped_scenario(
        "rocking_block_pulse.yaml", {"duration=1.5", "excitation={pulse: " + pulse + "}"});
    CHECK(run.outcome.status == RunStatus::completed);
    // it rocks once the pulse has begun (at once where the pulse jumps above g tan α)
    CHECK(run.outcome.summary.uplift_time >= 0.2);
  }
}

}  // namespace routh
