// Rocking campaign: thousands of rocking-block runs over the whole parameter range, generated
// from a fixed seed, each checked against invariants that need no reference run, and the plastic
// free-rocking runs whose pivot provably sticks against Housner's accumulation time.
//
// Sources: Housner (1963) for the free rocking (support/housner_block.hpp); the friction a
// sticking pivot and a sticking corner impact need, derived there; Painlevé's threshold for a
// rectangular block's corner, derived below. Nothing is compared with an earlier routh run.

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "models/named_models.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/housner_block.hpp"
#include "support/trajectory_checks.hpp"
#include "support/trajectory_memory.hpp"

namespace routh {
namespace {

constexpr double kGravity = 9.81;  // [m/s²], the models' default
constexpr int kRuns = 2000;
constexpr std::uint64_t kSeed = 20240611;
// Durations: a plastic free rocking that provably sticks runs to its Housner rest plus
// kAfterRest, if that is within kLongestRest; every other run lasts kRunDuration. Beyond about 6 s
// of rocking the integrator's own error at the default tolerances (3e-11) adds up past the 1e-6 s
// the rest time is held to: measured on this campaign, the worst |Δt_rest| was 4e-8 s for rests
// within 3 s, 2.6e-7 s within 6 s, 1.2e-6 s within 9 s and 1.3e-5 s within 21 s, and on run 201
// (rest at 12.6 s) it fell from 1.2e-6 s to 1.4e-7 s and 4.3e-8 s at tolerances 1e-12 and 1e-13.
// So rests beyond kDefaultToleranceRest are checked with the integrator at kTightTolerance, which
// holds them to 1e-6 s up to kLongestRest; beyond about 25 s of rocking (thousands of impacts)
// even that tolerance accumulates 1e-6 to 5e-6 s (measured up to 60 s), about 1e-7 of the time.
constexpr double kAfterRest = 0.25;            // [s]
constexpr double kDefaultToleranceRest = 6.0;  // [s]
constexpr double kLongestRest = 20.0;          // [s]
constexpr double kTightTolerance = 1e-13;      // relative and absolute
constexpr double kRunDuration = 2.0;           // [s]
constexpr double kFloorTolerance = 1e-9;       // [m], the bound on penetration
constexpr double kRestTimeTolerance = 1e-6;    // [s], the bound on the rest time
constexpr double kRestSpeed = 1e-6;            // [m/s], SimulationSettings' default rest speed
// Housner's comparison needs μ above the friction the pivot and the impacts need, by this factor
// (the pivot's need is maximised on a grid; 2 % covers the grid's error many times over).
constexpr double kFrictionMargin = 1.02;
// A uniform rectangular block's corner can only be in Painlevé's paradox for μ ≥ 4/3: sliding
// with friction −σ μ λ at a corner r = R (sin ψ, cos ψ) from the centre (in any tilt),
//     du_n/dλ = 1/m + r_x²/I − μ |r_x r_y| / I,   I = m R²/3,
// is negative only for μ > (R²/3 + r_x²)/|r_x r_y| = (1 + 4 tan²ψ)/(3 tan ψ) ≥ 4/3 (AM–GM). Flat
// on both corners sliding together, the 2 × 2 matrix of normal accelerations per normal force
// has diagonal 1/m + b²/I ∓ μ h b / I > 0 for the same μ and determinant 4 b² / (m I) > 0: a
// P-matrix, so a consistent contact force always exists and is unique. Below 4/3, any painleve
// event on a rocking block is spurious.
constexpr double kPainleveThreshold = 4.0 / 3.0;

// Uniform in [0, 1) from the top 53 bits: std::mt19937_64's sequence is fixed by the standard,
// the <random> distributions are not.
struct Random {
  std::mt19937_64 engine{kSeed};
  double uniform() { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double log_uniform(double lo, double hi) { return lo * std::pow(hi / lo, uniform()); }
};

struct RunParameters {
  int index = 0;
  double aspect = 0.0;            // h/b
  double height = 0.0;            // 2h [m]
  double release_fraction = 0.0;  // θ₀/α
  int side = 1;                   // +1: released on the left corner (θ > 0), −1: on the right
  double mu = 0.0, e = 0.0;
  bool lcp = false;                         // multi-contact law: lcp, else multipoint_energetic
  double amplitude = 0.0, frequency = 0.0;  // harmonic a_g along x [m/s², Hz]; 0: free
  double b() const { return 0.25 * height / aspect; }
  double h() const { return 0.5 * height; }
  double alpha() const { return std::atan(b() / h()); }
  double release() const { return side * release_fraction * alpha(); }
  bool excited() const { return amplitude > 0.0; }
};

std::string describe(const RunParameters& p) {
  std::ostringstream out;
  out.precision(17);
  out << "run " << p.index << ": width " << 2.0 * p.b() << " m, height " << p.height << " m (h/b "
      << p.aspect << "), release " << p.release_fraction << " α (θ₀ = " << p.release()
      << " rad), μ " << p.mu << ", e " << p.e << ", multi-contact law "
      << (p.lcp ? "lcp" : "multipoint_energetic");
  if (p.excited()) {
    out << ", a_g = " << p.amplitude << " sin(2π " << p.frequency << " t) m/s² ("
        << p.amplitude / (kGravity * std::tan(p.alpha())) << " g tan α)";
  }
  return out.str();
}

std::vector<RunParameters> campaign_parameters() {
  Random random;
  std::vector<RunParameters> runs;
  for (int i = 0; i < kRuns; ++i) {
    RunParameters p;
    p.index = i;
    p.aspect = random.log_uniform(1.5, 15.0);
    p.height = random.log_uniform(0.1, 10.0);
    p.release_fraction = random.uniform(0.05, 0.95);
    p.side = random.uniform() < 0.5 ? 1 : -1;
    p.mu = random.uniform(0.3, 2.0);
    p.e = random.uniform() < 0.5 ? 0.0 : random.uniform(0.0, 0.6);
    p.lcp = (i % 2) == 1;
    if (random.uniform() < 0.5) {
      p.amplitude = random.uniform(0.05, 0.5) * kGravity * std::tan(p.alpha());
      p.frequency = random.uniform(0.5, 5.0);
    }
    runs.push_back(p);
  }
  return runs;
}

// The run's Housner reference, when it has one: plastic, free, and μ enough for the pivot to
// stick throughout and for every corner impact to stick.
struct HousnerReference {
  bool applies = false;
  double rest_time = 0.0;  // [s]; +∞ beyond kLongestRest
};

HousnerReference housner_reference(const RunParameters& p) {
  HousnerReference reference;
  if (p.e != 0.0 || p.excited()) return reference;
  const test::HousnerBlock block{p.b(), p.h(), kGravity};
  const double theta0 = p.release_fraction * p.alpha();
  const double needed =
      std::max(block.impact_friction_ratio(), block.max_pivot_friction_ratio(theta0));
  if (p.mu < kFrictionMargin * needed) return reference;
  reference.applies = true;
  reference.rest_time = block.plastic_accumulation_time(theta0, kLongestRest);
  return reference;
}

struct Failures {
  explicit Failures(std::string name) : what(std::move(name)) {}
  std::string what;
  std::vector<std::string> lines;
  void add(const RunParameters& p, const std::string& detail) {
    lines.push_back(describe(p) + ": " + detail);
  }
  void report() const {
    INFO(what << ": " << lines.size() << " runs");
    // ROUTH_CAMPAIGN_ALL=1 prints every failing run, not only the first 25
    const std::size_t shown = std::getenv("ROUTH_CAMPAIGN_ALL") != nullptr ? lines.size() : 25;
    for (std::size_t i = 0; i < lines.size() && i < shown; ++i) MESSAGE(what << ": " << lines[i]);
    CHECK(lines.empty());
  }
};

}  // namespace

TEST_CASE(
    "campaign: 2000 seeded rocking-block runs complete with finite states above the floor, no "
    "energy-raising impact, and the sticking plastic ones rest at Housner's accumulation time") {
  const std::vector<RunParameters> runs = campaign_parameters();
  REQUIRE(runs.size() == static_cast<std::size_t>(kRuns));
  const LawEntry* poisson = find_law("poisson");
  const LawEntry* lcp = find_law("lcp");
  const LawEntry* energetic = find_law("multipoint_energetic");
  REQUIRE(poisson != nullptr);
  REQUIRE(lcp != nullptr);
  REQUIRE(energetic != nullptr);

  Failures not_completed("status not completed"), non_finite("non-finite sample"),
      below_floor("corner below the floor"), energy_raised("energy-raising event"),
      energy_drift("free run's energy above its start"),
      spurious_painleve("painleve event with μ < 4/3"),
      separating_painleve("painleve event on a separating contact"),
      wrong_rest("rest time differs from Housner's");
  int compared_rests = 0, still_rocking = 0, excited = 0, overturned = 0;
  double slowest = 0.0;
  int slowest_index = -1;
  const auto campaign_start = std::chrono::steady_clock::now();
  const char* trace = std::getenv("ROUTH_CAMPAIGN_RUN");
  const int traced_run = trace != nullptr ? std::atoi(trace) : -1;

  for (const RunParameters& p : runs) {
    const double b = p.b(), h = p.h();
    const HousnerReference reference = housner_reference(p);
    const bool rests_in_time = reference.applies && reference.rest_time < kLongestRest;

    ModelOptions options;
    options.gravity_m_s2 = kGravity;
    if (p.excited()) {
      ++excited;
      const double amplitude = p.amplitude, omega = 2.0 * std::numbers::pi * p.frequency;
      options.ground_acceleration = [=](double t) {
        return Eigen::Vector2d(amplitude * std::sin(omega * t), 0.0);
      };
    }
    const auto block = make_rocking_block(2.0 * b, 2.0 * h, 1.0, options);
    SimulationSettings settings;
    settings.duration = rests_in_time ? reference.rest_time + kAfterRest : kRunDuration;
    if (rests_in_time && reference.rest_time > kDefaultToleranceRest) {
      settings.relative_tolerance = settings.absolute_tolerance = kTightTolerance;
    }
    settings.output_rate = 100.0;
    settings.law = poisson->solve;
    settings.multi_contact_law = p.lcp ? lcp->solve : energetic->solve;
    settings.contacts.assign(static_cast<std::size_t>(block->contact_count()), {p.e, p.mu, p.mu});
    settings.wall_time_limit = 10.0;
    // released at rest on one corner: that corner on the floor, the centre above it
    const double theta0 = p.release();
    SimulationState initial;
    initial.q = Eigen::Vector3d(0.0, b * std::sin(std::abs(theta0)) + h * std::cos(theta0), theta0);
    initial.v = Eigen::Vector3d::Zero();

    test::TrajectoryMemory trajectory;
    const auto run_start = std::chrono::steady_clock::now();
    const SimulationOutcome outcome = simulate(*block, initial, settings, trajectory);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
    if (p.index == traced_run) {  // ROUTH_CAMPAIGN_RUN=n: that run's event log, for diagnosis
      std::ostringstream log;
      log.precision(12);
      log << describe(p) << "\n";
      for (const EventRecord& event : trajectory.events) {
        log << "  t " << event.t << " " << to_string(event.kind) << " [";
        for (int k : event.contacts) log << ' ' << k;
        log << " ] " << event.status << " " << event.phases << " flags " << event.flags << " dT "
            << event.delta_T << " u_pre";
        for (double u : event.u_pre) log << ' ' << u;
        log << " u_post";
        for (double u : event.u_post) log << ' ' << u;
        log << " impulse";
        for (double g : event.impulse) log << ' ' << g;
        log << "\n";
      }
      MESSAGE(log.str());
    }
    if (seconds > slowest) slowest = seconds, slowest_index = p.index;

    if (outcome.status != RunStatus::completed) {
      std::ostringstream detail;
      detail << to_string(outcome.status) << " at t = " << outcome.final_state.t << " s ("
             << outcome.detail << ")";
      if (!trajectory.events.empty()) {
        const EventRecord& last = trajectory.events.back();
        detail << "; last event " << to_string(last.kind) << " at " << last.t << " s";
      }
      not_completed.add(p, detail.str());
    }
    const test::BlockCorners corners{b, h};
    if (auto bad = test::first_non_finite_sample(trajectory); !bad.empty()) non_finite.add(p, bad);
    if (auto bad = test::first_corner_below_floor(trajectory, corners, kFloorTolerance);
        !bad.empty())
      below_floor.add(p, bad);
    if (auto bad = test::first_energy_raising_event(trajectory); !bad.empty())
      energy_raised.add(p, bad);
    if (!p.excited() && !trajectory.samples.empty()) {
      // free: T + V never rises above its start, beyond the integrator's 1e-9 relative
      const double start = trajectory.samples.front().energy.total();
      for (const auto& s : trajectory.samples) {
        if (s.energy.total() - start > 1e-9 * std::abs(start)) {
          std::ostringstream detail;
          detail << "T + V = " << s.energy.total() << " J at t = " << s.t << " s, start " << start
                 << " J";
          energy_drift.add(p, detail.str());
          break;
        }
      }
    }
    for (const EventRecord& event : trajectory.events) {
      if (event.kind != EventKind::painleve) continue;
      if (p.mu < kPainleveThreshold) {
        std::ostringstream detail;
        detail << "painleve at t = " << event.t << " s on contact(s)";
        for (int k : event.contacts) detail << ' ' << k;
        spurious_painleve.add(p, detail.str());
      }
      // Its contacts' u_n just before: what an impact at the same instant left them with
      // (the impact's u_post), else the pre-event state (the first sample at that time).
      for (int k : event.contacts) {
        double u_n = std::numeric_limits<double>::quiet_NaN();
        for (const EventRecord& earlier : trajectory.events) {
          if (&earlier == &event) break;
          if (earlier.t != event.t || earlier.kind != EventKind::impact) continue;
          for (std::size_t i = 0; i < earlier.contacts.size(); ++i) {
            if (earlier.contacts[i] == k) u_n = earlier.u_post[2 * i];
          }
        }
        if (std::isnan(u_n)) {
          for (const auto& s : trajectory.samples) {
            if (s.t == event.t) {
              u_n = corners.normal_speeds(s.q, s.v)[k];
              break;
            }
          }
        }
        if (u_n > kRestSpeed) {
          std::ostringstream detail;
          detail << "painleve at t = " << event.t << " s on contact " << k
                 << " separating at u_n = " << u_n << " m/s";
          separating_painleve.add(p, detail.str());
        }
      }
    }
    for (const auto& s : trajectory.samples) {
      if (std::abs(s.q[2]) > p.alpha() + 0.5) {
        ++overturned;
        break;
      }
    }
    if (reference.applies) {
      const std::vector<double> rests = trajectory.times_of(EventKind::rest);
      if (rests_in_time) {
        ++compared_rests;
        std::ostringstream detail;
        detail.precision(12);
        if (rests.size() != 1) {
          detail << rests.size() << " rest events; Housner's rest at " << reference.rest_time
                 << " s";
          wrong_rest.add(p, detail.str());
        } else if (!(std::abs(rests[0] - reference.rest_time) <= kRestTimeTolerance)) {
          detail << "rest at " << rests[0] << " s, Housner's at " << reference.rest_time
                 << " s (difference " << rests[0] - reference.rest_time << " s)";
          wrong_rest.add(p, detail.str());
        }
      } else {
        ++still_rocking;
        if (!rests.empty()) {
          std::ostringstream detail;
          detail << "rest at " << rests[0] << " s, but Housner's is beyond " << kLongestRest
                 << " s";
          wrong_rest.add(p, detail.str());
        }
      }
    }
  }
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - campaign_start).count();
  MESSAGE("rocking campaign: " << kRuns << " runs (" << excited << " excited, " << overturned
                               << " overturned) in " << total << " s; slowest run " << slowest_index
                               << " took " << slowest << " s; " << compared_rests
                               << " rests compared with Housner's, " << still_rocking
                               << " sticking plastic runs rocking beyond " << kLongestRest << " s");
  // enough of the campaign was compared: the seeded draw makes a quarter of the runs plastic and
  // free; 213 of those stick and rest within kLongestRest
  CHECK(compared_rests >= 200);
  for (const Failures* failures :
       {&not_completed, &non_finite, &below_floor, &energy_raised, &energy_drift,
        &spurious_painleve, &separating_painleve, &wrong_rest}) {
    failures->report();
  }
}

}  // namespace routh
