// Validation of the event-driven simulator (issue 3) against closed forms derived here from the
// parameters, never from routh's own output: Housner's rocking block between impacts, the
// slide-or-rock criterion under a ground acceleration, stick → slip and lift-off under ramped
// forces, and a grazing dip through a surface within one integrator step.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "models/named_models.hpp"
#include "models/planar/initial_state.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/simulator.hpp"
#include "support/housner_block.hpp"
#include "support/point_mass_system.hpp"
#include "support/simulation_setup.hpp"
#include "support/trajectory_memory.hpp"

namespace routh {
namespace {

constexpr double kGravity = 9.81;  // [m/s²], as the models and the point mass use

// The recorded events of `kind`, in order.
std::vector<EventRecord> events_of(const test::TrajectoryMemory& trajectory, EventKind kind) {
  std::vector<EventRecord> found;
  for (const EventRecord& event : trajectory.events) {
    if (event.kind == kind) found.push_back(event);
  }
  return found;
}

// The samples recorded at exactly time t [s]: an event's pre- and post-event states, in order.
std::vector<test::TrajectoryMemory::Sample> samples_at(const test::TrajectoryMemory& trajectory,
                                                       double t) {
  std::vector<test::TrajectoryMemory::Sample> found;
  for (const auto& s : trajectory.samples) {
    if (s.t == t) found.push_back(s);
  }
  return found;
}

using test::HousnerBlock;

}  // namespace

TEST_CASE(
    "simulator validation: Housner's block takes the exact energy-integral time between "
    "impacts") {
  // Source: Housner (1963), see HousnerBlock. The block (0.2 m x 1.0 m, α = 0.197 rad) is
  // released at rest at θ₀ = α/2 with plastic impacts and μ = 1 (no sliding). Expected:
  //  - the first impact after T(α/2), T the exact half-time above (release at rest = amplitude);
  //  - between impacts i and i + 1, 2 T(θ₀ᵢ), with θ₀ᵢ the amplitude the post-impact spin θ̇⁺ᵢ
  //    reaches (energy integral; θ = 0 at the impact).
  // Tolerance 1e-8 relative: impacts are located to 1e-12 s, and the flight is integrated at
  // rtol 1e-10, which leaves θ̇⁺ and the interval with errors of order 1e-10 relative (measured:
  // up to 1.6e-10); the quadrature is good to its estimate (< 1e-13).
  const HousnerBlock block{test::kHousnerHalfWidth_m, test::kHousnerHalfHeight_m};
  const double alpha = block.alpha();
  test::TrajectoryMemory trajectory;
  const SimulationOutcome outcome = test::rock_housner_block(4.0, 1.0, trajectory, alpha / 2.0);
  CHECK(outcome.status == routh::RunStatus::completed);
  const std::vector<double> impacts = trajectory.times_of(EventKind::impact);
  REQUIRE(impacts.size() >= 6);
  CHECK(trajectory.times_of(EventKind::slip).empty());

  double error = 0.0;
  const double first = block.exact_half_time(alpha / 2.0, &error);
  CHECK(error < 1e-13 * first);
  CHECK(std::abs(impacts[0] - first) < 1e-8 * first);

  // Housner's linearisation replaces the restoring torque ∝ sin(α − θ) by α − θ, which is larger
  // by a factor in [1, α / sin α] along the whole path; a motion from rest driven by a larger
  // acceleration (by at most that factor) takes less time, by at most its square root:
  //     √(sin α / α) T_exact ≤ T_linearised ≤ T_exact     (about 0.3 % here, α²/12).
  const double linearisation_bound = std::sqrt(std::sin(alpha) / alpha);
  for (std::size_t i = 0; i + 1 < impacts.size(); ++i) {
    CAPTURE(i);
    const auto states = samples_at(trajectory, impacts[i]);
    REQUIRE(states.size() == 2);  // pre- and post-impact
    const double spin = std::abs(states[1].v[2]);
    CHECK(std::abs(states[1].q[2]) < 1e-9);  // the impact is at θ = 0
    const double theta0 = block.amplitude_after(spin);
    REQUIRE(theta0 > 0.0);
    REQUIRE(theta0 < alpha);
    const double expected = 2.0 * block.exact_half_time(theta0, &error);
    CHECK(error < 1e-13 * expected);
    const double interval = impacts[i + 1] - impacts[i];
    CHECK(std::abs(interval - expected) < 1e-8 * expected);

    const double housner = 2.0 * block.linearised_half_time(theta0);
    CHECK(housner <= interval);
    CHECK(housner >= linearisation_bound * interval);
  }
}

TEST_CASE(
    "simulator validation: under a rising ground acceleration a block with μ below b/h slides, "
    "above it rocks") {
  // Source: the classic slide/rock criterion (Shenton 1996; Housner 1963). A block of half-width
  // b, half-height h resting flat on both corners, base acceleration a_g(t) = k t along +x (here
  // k = g per second). In the ground frame it carries the inertial load −m a_g; while it sticks,
  // statics (x, y and moments about the centre) give the total friction m a_g and the corner
  // normal forces
  //     λ_n,left = m (g + (h/b) a_g) / 2,   λ_n,right = m (g − (h/b) a_g) / 2.
  //  - The whole block slides when m a_g = μ m g, at t = μ g / k, and once it slides with
  //    friction μ m g the moments leave λ_n,right = m g (1 − μ h/b) / 2 > 0 for μ < b/h, for
  //    good: no lift-off, θ stays 0, ẍ = μ g − k t.
  //  - The right corner lifts off when λ_n,right = 0, at t = g b / (h k), if the block has not
  //    slid first (μ > b/h): it then rocks onto its left corner, θ grows.
  // Two sticking corners are statically indeterminate; static friction is decided for the pair
  // (static_friction.hpp): it holds while |ΣF_t| = m a_g ≤ μ ΣN = μ m g, whatever the minimum-norm
  // split says (that split would overload the unloading right corner from t = μ g / (k (1 +
  // μ h/b)) on). The forces reported load both corners' cones equally, so both slip at t = μ g/k.
  // Event times to 1e-9 s: the witnesses are linear in t while the block is still, and are
  // located to 1e-12 s.
  const double b = 0.2, h = 0.8, mass = 1.0, k = kGravity;  // b/h = 0.25
  ModelOptions options;
  options.ground_acceleration = [k](double t) { return Eigen::Vector2d(k * t, 0.0); };
  const auto block = make_rocking_block(2.0 * b, 2.0 * h, mass, options);
  const PlanarState flat = complete_initial_state(*block, {});
  REQUIRE(flat.q[2] == 0.0);
  const auto run = [&](double mu, double duration, test::TrajectoryMemory& trajectory) {
    SimulationSettings settings = test::poisson_settings(duration, 0.0, mu, mu);
    settings.contacts.assign(static_cast<std::size_t>(block->contact_count()), {0.0, mu, mu});
    settings.multi_contact_law = find_law("multipoint_energetic")->solve;
    return simulate(*block, {0.0, flat.q, flat.v, {}}, settings, trajectory);
  };
  constexpr int kLeft = 0, kRight = 1;

  SUBCASE("μ = 0.15 below b/h: it slides on both corners") {
    const double mu = 0.15, duration = 0.5;
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = run(mu, duration, trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    CHECK(outcome.impacts == 0);
    CHECK(trajectory.times_of(EventKind::liftoff).empty());
    const std::vector<EventRecord> slips = events_of(trajectory, EventKind::slip);
    // the set slips as a whole: one event naming both corners (static friction of the set)
    REQUIRE(slips.size() == 1);
    CHECK(slips[0].contacts == std::vector<int>{kLeft, kRight});
    const double t_slide = mu * kGravity / k;
    CHECK(std::abs(slips[0].t - t_slide) < 1e-9);
    CHECK(slips[0].status == "slide-");  // friction pushes +x
    CHECK(trajectory.events.size() == 1);
    CHECK(outcome.final_state.modes ==
          std::vector<ContactMode>{ContactMode::slide_negative, ContactMode::slide_negative,
                                   ContactMode::open, ContactMode::open});
    // flat and on the floor throughout; still until t_slide, then ẍ = μ g − k t
    ContactKinematics contacts;
    for (const auto& s : trajectory.samples) {
      CHECK(std::abs(s.q[2]) < 1e-9);
      block->contact_kinematics(s.q, s.v, contacts);
      CHECK(std::abs(contacts.gap[kLeft]) < 1e-9);
      CHECK(std::abs(contacts.gap[kRight]) < 1e-9);
      if (s.t <= t_slide) CHECK(std::abs(s.q[0] - flat.q[0]) < 1e-12);
    }
    const double t = duration;
    const double x =
        mu * kGravity * std::pow(t - t_slide, 2) / 2.0 -
        k * (std::pow(t, 3) - 3.0 * t_slide * t_slide * t + 2.0 * std::pow(t_slide, 3)) / 6.0;
    CHECK(outcome.final_state.q[0] - flat.q[0] == doctest::Approx(x).epsilon(1e-9));
  }

  SUBCASE("μ = 0.8 above b/h: it rocks onto its left corner") {
    const double mu = 0.8, duration = 0.35;
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = run(mu, duration, trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    CHECK(outcome.impacts == 0);
    const std::vector<EventRecord> liftoffs = events_of(trajectory, EventKind::liftoff);
    REQUIRE(liftoffs.size() == 1);
    CHECK(liftoffs[0].contacts == std::vector<int>{kRight});
    const double t_lift = kGravity * b / (h * k);
    CHECK(std::abs(liftoffs[0].t - t_lift) < 1e-9);
    // The pair sticks until the lift-off (m a_g = 0.25 m g ≤ μ m g): no slip before it. At the
    // lift-off the right corner's own cone shrinks to a point, so its margin μ λ_n − |λ_t| reaches
    // 0 with the lift-off witness; the set's stick reserve, which the simulator watches, does not
    // (static_friction.hpp (c)).
    CHECK(events_of(trajectory, EventKind::slip).empty());
    CHECK(outcome.final_state.modes ==
          std::vector<ContactMode>{ContactMode::stick, ContactMode::open, ContactMode::open,
                                   ContactMode::open});
    // upright and still until the lift-off, then tilting ever further onto the left corner
    double previous = 0.0;
    for (const auto& s : trajectory.samples) {
      if (s.t <= liftoffs[0].t) {
        CHECK(std::abs(s.q[2]) < 1e-12);
        CHECK(std::abs(s.q[0] - flat.q[0]) < 1e-12);
      } else {
        CHECK(s.q[2] > previous);
        previous = s.q[2];
      }
    }
    CHECK(outcome.final_state.q[2] > 1e-3);
  }
}

TEST_CASE(
    "simulator validation: a step ground acceleration above g b/h slides a block with μ below b/h "
    "flat, and rocks one with μ above") {
  // Source: Shenton (1996), "Criteria for initiation of slide, rock, and slide-rock rigid-body
  // modes", J. Eng. Mech. 122(7). The block of the test above, flat at rest, under a constant
  // a_g = g/2 from t = 0: larger than g b/h = g/4, so the block cannot stay put on both corners
  // (λ_n,right = m (g − (h/b) a_g) / 2 < 0).
  //  - μ = 0.15 < b/h (and < a_g/g): sliding flat on both corners is the consistent mode:
  //    friction μ m g leaves λ_n,right = m g (1 − μ h/b) / 2 > 0, so θ = 0 and
  //    x(t) = −(a_g − μ g) t² / 2. (Sliding on the left corner alone would tip the block onto
  //    its right corner, through the floor: friction μ h < b cannot turn it the other way.)
  //  - μ = 0.8 > b/h: it pivots on its sticking left corner from t = 0. With a_g constant, the
  //    inertial load is conservative (potential m a_g x), and the pivot does no work, so
  //    T + m g y + m a_g x stays at its start, to 1e-9 relative (the integrator's tolerance).
  const double b = 0.2, h = 0.8, mass = 1.0, a_g = 0.5 * kGravity;  // b/h = 0.25
  ModelOptions options;
  options.ground_acceleration = [a_g](double) { return Eigen::Vector2d(a_g, 0.0); };
  const auto block = make_rocking_block(2.0 * b, 2.0 * h, mass, options);
  const PlanarState flat = complete_initial_state(*block, {});
  const auto run = [&](double mu, double duration, test::TrajectoryMemory& trajectory) {
    SimulationSettings settings = test::poisson_settings(duration, 0.0, mu, mu);
    settings.contacts.assign(static_cast<std::size_t>(block->contact_count()), {0.0, mu, mu});
    settings.multi_contact_law = find_law("multipoint_energetic")->solve;
    return simulate(*block, {0.0, flat.q, flat.v, {}}, settings, trajectory);
  };
  ContactKinematics contacts;

  SUBCASE("μ = 0.15 below b/h: it slides flat on both corners") {
    const double mu = 0.15, duration = 0.5;
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = run(mu, duration, trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    CHECK(trajectory.events.empty());
    CHECK(outcome.final_state.modes ==
          std::vector<ContactMode>{ContactMode::slide_negative, ContactMode::slide_negative,
                                   ContactMode::open, ContactMode::open});
    for (const auto& s : trajectory.samples) {
      CAPTURE(s.t);
      CHECK(std::abs(s.q[2]) < 1e-9);
      block->contact_kinematics(s.q, s.v, contacts);
      CHECK(std::abs(contacts.gap[0]) < 1e-9);
      CHECK(std::abs(contacts.gap[1]) < 1e-9);
    }
    const double x = -(a_g - mu * kGravity) * duration * duration / 2.0;
    CHECK(outcome.final_state.q[0] - flat.q[0] == doctest::Approx(x).epsilon(1e-9));
  }

  SUBCASE("μ = 0.8 above b/h: it rocks on its sticking left corner") {
    const double mu = 0.8, duration = 0.3;
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = run(mu, duration, trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    CHECK(trajectory.events.empty());
    CHECK(outcome.final_state.modes ==
          std::vector<ContactMode>{ContactMode::stick, ContactMode::open, ContactMode::open,
                                   ContactMode::open});
    const auto pseudo_energy = [&](const test::TrajectoryMemory::Sample& s) {
      return s.energy.kinetic + mass * kGravity * s.q[1] + mass * a_g * s.q[0];
    };
    const double start = pseudo_energy(trajectory.samples.front());
    const double pivot = block->contact_tangential_positions(flat.q)[0];
    for (const auto& s : trajectory.samples) {
      CAPTURE(s.t);
      CHECK(std::abs(pseudo_energy(s) - start) < 1e-9 * std::abs(start));
      block->contact_kinematics(s.q, s.v, contacts);
      CHECK(std::abs(contacts.gap[0]) < 1e-9);
      CHECK(std::abs(block->contact_tangential_positions(s.q)[0] - pivot) < 1e-9);
    }
    CHECK(outcome.final_state.q[2] > 0.1);
  }
}

TEST_CASE(
    "simulator validation: a ramped push makes a resting point mass slip, or lift off, at the "
    "closed-form time") {
  // Sources: Coulomb's law of static friction and Newton's second law, in closed form for a point
  // mass m whose contact forces are determined (one contact, two unknowns). Event times to
  // 1e-9 s: the witnesses are linear in t (located to 1e-12 s); positions afterwards to 1e-9
  // relative: the motion is a cubic in t, which dopri5 integrates to round-off.
  const double mass = 2.0;

  SUBCASE("pushed up an incline it sticks until k t = m g (sin β + μs cos β), then slides up") {
    // Incline β = 0.3 rad with μs = 0.5 > tan β (it rests), μd = 0.4, pushed up the slope by
    // k t. Sticking, the friction λ_t = m g sin β − k t changes sign at t = m g sin β / k and
    // reaches −μs m g cos β at t_slip; then s̈ = (k t − m g (sin β + μd cos β)) / m.
    const double beta = 0.3, mu_s = 0.5, mu_d = 0.4, k = 20.0, duration = 1.0;
    const Eigen::Vector2d up_slope = test::incline(beta).tangent();
    const auto block =
        test::PointMassSystem::pushed(mass, kGravity, {test::incline(beta)},
                                      [=](double t) { return Eigen::Vector2d(k * t * up_slope); });
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome =
        simulate(block, {0.0, Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero(), {}},
                 test::poisson_settings(duration, 0.0, mu_s, mu_d), trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    const double t_slip = mass * kGravity * (std::sin(beta) + mu_s * std::cos(beta)) / k;
    REQUIRE(trajectory.events.size() == 1);
    const EventRecord& slip = trajectory.events[0];
    CHECK(slip.kind == EventKind::slip);
    CHECK(std::abs(slip.t - t_slip) < 1e-9);
    CHECK(slip.status == "slide+");  // up the slope, along the tangent
    CHECK(outcome.final_state.modes == std::vector<ContactMode>{ContactMode::slide_positive});
    for (const auto& s : trajectory.samples) {
      if (s.t <= t_slip) CHECK(s.q.norm() < 1e-12);
    }
    const double t = duration, resist = mass * kGravity * (std::sin(beta) + mu_d * std::cos(beta));
    const double travelled =
        (k * (std::pow(t, 3) - 3.0 * t_slip * t_slip * t + 2.0 * std::pow(t_slip, 3)) / 6.0 -
         resist * std::pow(t - t_slip, 2) / 2.0) /
        mass;
    REQUIRE(travelled > 0.0);
    CHECK(outcome.final_state.q.dot(up_slope) == doctest::Approx(travelled).epsilon(1e-9));
    CHECK(std::abs(outcome.final_state.q.dot(test::incline(beta).normal)) < 1e-12);
  }

  SUBCASE("lifted by k t off the floor it leaves at t = m g / k, then rises as k (t − t₀)³ / 6m") {
    const double k = 30.0, duration = 1.0;
    const auto block = test::PointMassSystem::pushed(
        mass, kGravity, {test::HalfPlane{}}, [=](double t) { return Eigen::Vector2d(0.0, k * t); });
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome =
        simulate(block, {0.0, Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero(), {}},
                 test::poisson_settings(duration, 0.0, 0.5, 0.5), trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    const double t_lift = mass * kGravity / k;
    REQUIRE(trajectory.events.size() == 1);
    const EventRecord& liftoff = trajectory.events[0];
    CHECK(liftoff.kind == EventKind::liftoff);
    CHECK(std::abs(liftoff.t - t_lift) < 1e-9);
    CHECK(liftoff.status == "open");
    CHECK(outcome.final_state.modes == std::vector<ContactMode>{ContactMode::open});
    for (const auto& s : trajectory.samples) {
      if (s.t <= t_lift) CHECK(std::abs(s.q[1]) < 1e-12);
    }
    const double rise = k * std::pow(duration - t_lift, 3) / (6.0 * mass);
    CHECK(outcome.final_state.q[1] == doctest::Approx(rise).epsilon(1e-9));
    CHECK(outcome.final_state.q[0] == 0.0);
  }
}

TEST_CASE(
    "simulator validation: a flight dipping 1e-6 m through a ceiling within one step strikes it, "
    "one passing 1e-6 m short does not") {
  // Source: the parabola y(t) = v₀ t − g t²/2 of a point thrown up at v₀ = 4.905 m/s, apex
  // y* = v₀²/(2g) at t* = v₀/g = 0.5 s, under a ceiling (half-plane facing −y) at H. The gap
  // H − y is lowest at the apex: a ceiling at y* − 1e-6 m is reached at
  //     t_touch = (v₀ − √(v₀² − 2 g H)) / g     (0.45 ms before the apex),
  // and the gap would be back above 0 within 0.9 ms. With max_step 1 s, dopri5 integrates the
  // parabola exactly and grows its steps until one step, (0.117 s, 0.527 s] (measured), holds the
  // whole dip with the gap positive at both ends: only the search for the lowest point, where
  // u_n turns from − to +, finds the impact (without it this test fails). Touch time to 1e-9 s:
  // located to 1e-12 s on an interpolant that is exact for the parabola, the gap's slope there
  // being √(2 g 1e-6) m/s.
  const double v0 = 0.5 * kGravity, apex = v0 * v0 / (2.0 * kGravity);
  const auto throw_under_ceiling = [&](double ceiling_m, test::TrajectoryMemory& trajectory) {
    const test::PointMassSystem point(1.0, kGravity,
                                      {test::HalfPlane{{0.0, ceiling_m}, {0.0, -1.0}}});
    SimulationSettings settings = test::poisson_settings(0.8, 0.5, 0.0, 0.0);
    settings.max_step = 1.0;
    settings.output_rate = 10.0;
    return simulate(point, {0.0, Eigen::Vector2d::Zero(), Eigen::Vector2d(0.0, v0), {}}, settings,
                    trajectory);
  };

  SUBCASE("1e-6 m into the ceiling: an impact at the touch time") {
    const double ceiling = apex - 1e-6;
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = throw_under_ceiling(ceiling, trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    const double t_touch = (v0 - std::sqrt(v0 * v0 - 2.0 * kGravity * ceiling)) / kGravity;
    const std::vector<EventRecord> impacts = events_of(trajectory, EventKind::impact);
    REQUIRE(impacts.size() == 1);
    CHECK(std::abs(impacts[0].t - t_touch) < 1e-9);
    // struck at the approach speed ẏ = √(v₀² − 2 g H) ≈ √(2 g · 1e-6): u_n = −ẏ (approaching is
    // negative), to 1e-8 relative: v₀² − 2 g H loses 7 digits to cancellation, here and in routh
    REQUIRE(impacts[0].u_pre.size() == 2);
    const double approach = std::sqrt(v0 * v0 - 2.0 * kGravity * ceiling);
    CHECK(impacts[0].u_pre[0] == doctest::Approx(-approach).epsilon(1e-8));
    CHECK(outcome.final_state.v[1] < 0.0);  // bounced down
    for (const auto& s : trajectory.samples) CHECK(s.q[1] <= ceiling + 1e-12);
  }

  SUBCASE("1e-6 m short of the ceiling: no impact") {
    test::TrajectoryMemory trajectory;
    const SimulationOutcome outcome = throw_under_ceiling(apex + 1e-6, trajectory);
    CHECK(outcome.status == routh::RunStatus::completed);
    CHECK(outcome.impacts == 0);
    CHECK(trajectory.events.empty());
    // the free parabola, untouched: at 0.8 s
    CHECK(outcome.final_state.q[1] ==
          doctest::Approx(v0 * 0.8 - 0.5 * kGravity * 0.64).epsilon(1e-12));
  }
}

}  // namespace routh
