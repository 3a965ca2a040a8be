// Impacts at any number of contacts: no law caps the contacts of an impact. A law declares in the
// catalogue how many it takes (law_catalogue.hpp); an impact beyond the scenario's law goes to
// `lcp`, which takes any number (impact_step.hpp), and contact-space storage grows past its
// inline capacity onto the heap (small_buffer_matrix.hpp).

#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/lcp.hpp"
#include "sim/impact/multipoint_energetic.hpp"
#include "sim/text.hpp"
#include "support/lcp_checks.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace {

using routh::ContactDimension;
using routh::ContactParameters;
using routh::ImpactFlag;
using routh::ImpactProblem;
using routh::ImpactStatus;

constexpr int kDrums = 20;
constexpr double kDrumWidth = 0.1;   // [m]
constexpr double kDrumHeight = 0.2;  // [m]
constexpr double kDrumMass = 1.0;    // [kg]
constexpr double kGravity = 9.81;    // [m/s²]

// A column of equal drums, block1 at the bottom, each resting on the one beneath, the whole
// column `lift` [m] above the floor and at rest; its floor shakes with `excitation` (YAML), if any.
std::string drum_column(double lift, double duration, const std::string& excitation) {
  std::string q;
  for (int i = 1; i <= kDrums; ++i) {
    q += routh::cat(i == 1 ? "" : ", ", "block", i, ".y: ", lift + (i - 0.5) * kDrumHeight);
  }
  return routh::cat("duration: ", duration, "\nmodel:\n  type: stacked_blocks\n  blocks: ", kDrums,
                    "\n  width: ", kDrumWidth, "\n  height: ", kDrumHeight, "\n  mass: ", kDrumMass,
                    "\n  gravity: ", kGravity, "\ninitial:\n  q: {", q,
                    "}\ncontact:\n  law: poisson\n  restitution: 0.0\n"
                    "  friction: {static: 0.5, kinetic: 0.5}\n",
                    excitation, "output: {rate: 1000}\n");
}

// The contacts whose gap is within the contact distance at q, by the model's geometry alone.
std::vector<int> touching_contacts(const routh::Scenario& scenario,
                                   const routh::ContactKinematics& kinematics) {
  std::vector<int> touching;
  for (int k = 0; k < static_cast<int>(kinematics.gap.size()); ++k) {
    if (kinematics.gap[k] <= scenario.settings.contact_distance) touching.push_back(k);
  }
  return touching;
}

// Whether contact k's normal is vertical: its normal row of J acts on the drums' y (coordinates
// x, y, θ per drum) and not on their x.
bool vertical_normal(const routh::ContactKinematics& kinematics, int k) {
  double along_x = 0.0, along_y = 0.0;
  for (int i = 0; i < kDrums; ++i) {
    along_x += std::abs(kinematics.jacobian(2 * k, 3 * i));
    along_y += std::abs(kinematics.jacobian(2 * k, 3 * i + 1));
  }
  return along_x <= 1e-12 * along_y;
}

}  // namespace

TEST_CASE("many-contact impacts: a 20-drum column dropped flat stops in one plastic impact") {
  // The column falls h = 3 mm as one rigid body and strikes the floor flat with v = √(2 g h)
  // (free fall). Restitution 0: the impact stops the floor corners, and through every interface
  // every drum above, so one impact through all the touching contacts (the floor corners and
  // each interface's) leaves the column at rest; its kinetic energy ½ m_total v² is all lost,
  // ΔT = −½ m_total v², and nothing moves after. Tolerances: the impact instant is located to
  // ~1e-12 s and the free fall is integrated at rtol 1e-10, so v, hence ΔT, to 1e-8 relative;
  // "at rest" is 1e-9 of v (the LCP's residual is round-off of the O(1) scaled problem).
  constexpr double kLift = 0.003;  // [m]
  const auto [scenario, outcome, trajectory] = routh::test::run_scenario_file(
      routh::test::write_problem(drum_column(kLift, 0.1, ""), "drum_column_drop.yaml"));
  CHECK(outcome.status == routh::RunStatus::completed);
  REQUIRE(trajectory.times_of(routh::EventKind::impact).size() == 1);
  CHECK(outcome.impacts == 1);
  const routh::EventRecord* impact = nullptr;
  for (const auto& event : trajectory.events) {
    if (event.kind == routh::EventKind::impact) impact = &event;
  }
  REQUIRE(impact != nullptr);

  // every touching contact whose normal is vertical took part: the two floor corners and the two
  // corners of each face pair, 2 + 2 (n − 1) = 40. Equal drums also touch where a corner meets
  // the end of the side face of the drum beneath or above (gap 0 at the face's end): those
  // normals are horizontal, orthogonal to the fall, and carry no impulse.
  const auto before =
      std::find_if(trajectory.samples.begin(), trajectory.samples.end(), [&](const auto& sample) {
        return sample.kind == routh::SampleKind::before_event && sample.t == impact->t;
      });
  REQUIRE(before != trajectory.samples.end());
  routh::ContactKinematics kinematics;
  scenario.planar->contact_kinematics(before->q, before->v, kinematics);
  const std::vector<int> touching = touching_contacts(scenario, kinematics);
  CHECK(touching.size() == 2 + 4 * (kDrums - 1));
  CHECK(impact->contacts.size() == 2 + 2 * (kDrums - 1));
  for (const int k : touching) {
    CAPTURE(k);
    const bool in =
        std::find(impact->contacts.begin(), impact->contacts.end(), k) != impact->contacts.end();
    CHECK(in == vertical_normal(kinematics, k));
  }
  // beyond multipoint_energetic's capacity: lcp answered, and says so
  CHECK(impact->contacts.size() > static_cast<std::size_t>(routh::kMultipointEnergeticMaxContacts));
  CHECK(impact->flags.find("law_fallback") != std::string::npos);

  const double v = std::sqrt(2.0 * kGravity * kLift);  // free fall from rest through h
  const double total_mass = kDrums * kDrumMass;
  CHECK(impact->delta_T == doctest::Approx(-0.5 * total_mass * v * v).epsilon(1e-8));
  const auto after =
      std::find_if(trajectory.samples.begin(), trajectory.samples.end(), [&](const auto& sample) {
        return sample.kind == routh::SampleKind::after_event && sample.t == impact->t;
      });
  REQUIRE(after != trajectory.samples.end());
  CHECK(after->v.cwiseAbs().maxCoeff() <= 1e-9 * v);
  int compared = 0;
  for (auto sample = after; sample != trajectory.samples.end(); ++sample) {
    CHECK(sample->v.cwiseAbs().maxCoeff() <= 1e-9 * v);
    CHECK((sample->q - after->q).cwiseAbs().maxCoeff() <= 1e-12);
    ++compared;
  }
  // 1000 Hz output over the 0.1 s − √(2h/g) = 0.075 s after the impact
  CHECK(compared >= 74);
}

TEST_CASE("many-contact impacts: a 20-drum column standing on a shaking floor does not rock") {
  // Uplift of the top k drums about a corner of the drum beneath needs a_g ≥ g b/(k h) (a block
  // of width b and height k h; Housner), least for the whole column on the floor:
  // g D/H = 9.81 · 0.1/4 = 0.245 m/s². At 0.1 m/s², well below it and below μ g = 4.9 m/s², every
  // contact sticks: no drum rotates, to round-off.
  const auto [scenario, outcome, trajectory] =
      routh::test::run_scenario_file(routh::test::write_problem(
          drum_column(0.0, 0.5, "excitation:\n  harmonic: {amplitude: 0.1, frequency: 2}\n"),
          "drum_column_shaken.yaml"));
  CHECK(outcome.status == routh::RunStatus::completed);
  CHECK(outcome.impacts == 0);
  double max_theta = 0.0;
  for (const auto& sample : trajectory.samples) {
    for (int i = 0; i < kDrums; ++i) max_theta = std::max(max_theta, std::abs(sample.q[3 * i + 2]));
  }
  CHECK(max_theta < 1e-12);
}

TEST_CASE("many-contact impacts: the catalogue says what each law takes, and lcp takes any") {
  // The scope is data: a law answers unsupported exactly where its declared capacity ends.
  // 13 planar contacts, one more than multipoint_energetic declares, and as many as lcp meets.
  constexpr int kContacts = routh::kMultipointEnergeticMaxContacts + 1;
  ImpactProblem problem;
  problem.dimension = ContactDimension::planar;
  problem.D = 2.0 * Eigen::MatrixXd::Identity(2 * kContacts, 2 * kContacts);
  problem.u_pre = Eigen::VectorXd::Zero(2 * kContacts);
  for (int k = 0; k < kContacts; ++k) {
    problem.u_pre[2 * k] = -1.0;
    problem.contacts.push_back(ContactParameters{0.5, 0.4, 0.3});
  }
  int compared = 0;
  for (const routh::LawEntry& law : routh::impact_laws()) {
    CAPTURE(law.name);
    for (const int contacts : {1, 2, kContacts - 1, kContacts}) {
      CAPTURE(contacts);
      CHECK(routh::covers(law.scope, ContactDimension::planar, contacts) ==
            (law.scope.planar && contacts <= law.scope.max_contacts));
      ++compared;
    }
    const bool covered = routh::covers(law.scope, ContactDimension::planar, kContacts);
    CHECK((law.solve(problem).status == ImpactStatus::unsupported) == !covered);
    ++compared;
  }
  CHECK(compared == 5 * static_cast<int>(routh::impact_laws().size()));
  const routh::LawEntry* multipoint = routh::find_law("multipoint_energetic");
  const routh::LawEntry* lcp = routh::find_law("lcp");
  REQUIRE(multipoint != nullptr);
  REQUIRE(lcp != nullptr);
  CHECK(multipoint->scope.max_contacts == routh::kMultipointEnergeticMaxContacts);
  CHECK(routh::to_string(multipoint->scope) == "planar, up to 12 contacts");
  CHECK(lcp->scope.max_contacts == routh::kAnyNumberOfContacts);
  CHECK(routh::to_string(lcp->scope) == "planar or spatial, any number of contacts");
  CHECK(routh::to_string(routh::find_law("poisson")->scope) == "planar, one contact");
  // frictional unit-inertia contacts, uncoupled: each is a Poisson impact of its own, Γ_n = 1/2 ·
  // (1 + e) (D_nn = 2, u_n⁻ = −1, no slip so no friction)
  const routh::ImpactResult result = lcp->solve(problem);
  REQUIRE(result.status == ImpactStatus::solved);
  // 26 rows: past the 24 held in place, on the heap (the 2-row results of the single-contact
  // laws stay in place: tests/test_planar_laws.cpp counts their allocations)
  CHECK(problem.D.on_heap());
  CHECK(result.impulse.on_heap());
  for (int k = 0; k < kContacts; ++k) {
    CHECK(result.impulse[2 * k] == doctest::Approx(0.5 * 1.5).epsilon(1e-12));
    CHECK(result.u_post[2 * k] == doctest::Approx(0.5).epsilon(1e-12));
  }
}

TEST_CASE("many-contact impacts: lcp on random 30-contact planar problems") {
  // D = J M⁻¹ Jᵀ from a random J (60 rows) and a random symmetric positive definite M of 45
  // coordinates, so D is singular as for real systems of many contacts, and u⁻ = J v⁻ for a
  // random v⁻ (kinematically consistent). One e for all contacts. Checked on each answer by
  // support/lcp_checks.hpp from the problem and the impulses alone: complementarity of both
  // stages (w ≥ 0, Γ ≥ 0, wᵀΓ = 0), every impulse in its cone; and no energy gained, in contact
  // space (ΔT ≤ round-off) and in generalized velocities, T(v⁻ + M⁻¹JᵀΓ) ≤ T(v⁻).
  constexpr int kContacts = 30;
  constexpr int kCoordinates = 45;
  constexpr int kProblems = 12;
  std::mt19937_64 rng(0x30c0'4ac7);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int solved = 0;
  for (int trial = 0; trial < kProblems; ++trial) {
    CAPTURE(trial);
    Eigen::MatrixXd J(2 * kContacts, kCoordinates);
    Eigen::MatrixXd R(kCoordinates, kCoordinates);
    Eigen::VectorXd v(kCoordinates);
    for (Eigen::Index i = 0; i < J.size(); ++i) J.data()[i] = normal(rng);
    for (Eigen::Index i = 0; i < R.size(); ++i) R.data()[i] = normal(rng);
    for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = normal(rng);
    const Eigen::MatrixXd M =
        R * R.transpose() / kCoordinates + Eigen::MatrixXd::Identity(kCoordinates, kCoordinates);
    const Eigen::LLT<Eigen::MatrixXd> mass(M);
    const Eigen::MatrixXd inverse_mass_J_transpose = mass.solve(J.transpose());
    ImpactProblem problem;
    problem.dimension = ContactDimension::planar;
    const Eigen::MatrixXd D = J * inverse_mass_J_transpose;
    problem.D = 0.5 * (D + D.transpose());
    problem.u_pre = J * v;
    const double e = unit(rng);
    for (int k = 0; k < kContacts; ++k) {
      const double mu = unit(rng);
      problem.contacts.push_back(ContactParameters{e, mu, mu * unit(rng)});
    }
    const routh::LcpImpact impact = routh::solve_lcp_stages(problem, {});
    REQUIRE(impact.result.status == ImpactStatus::solved);
    routh::test::check_lcp_impact(problem, impact);
    const auto scale = routh::test::lcp_scales(problem, impact.result);
    CHECK(impact.result.delta_T <= routh::test::kLcpTolerance * scale.energy);
    CHECK_FALSE(impact.result.flags.has(ImpactFlag::energy_gain));
    const Eigen::VectorXd v_post = v + inverse_mass_J_transpose * impact.result.impulse;
    const double T_pre = 0.5 * v.dot(M * v);
    CHECK(0.5 * v_post.dot(M * v_post) <= T_pre * (1.0 + 1e-10));
    ++solved;
  }
  CHECK(solved == kProblems);
}

namespace {

// One planar contact's two rows of J (normal, then tangent) for bodies a and b (−1: the ground)
// touching at point p with normal n (from a to b): u = v_b(p) − v_a(p), each body's velocity
// (vx, vy, ω) at p being (vx − ω (p_y − c_y), vy + ω (p_x − c_x)).
void contact_rows(int a, int b, const Eigen::Vector2d& p, const Eigen::Vector2d& n,
                  const std::vector<Eigen::Vector2d>& centres, Eigen::Ref<Eigen::MatrixXd> rows) {
  const Eigen::Vector2d t(n.y(), -n.x());
  rows.setZero();
  for (const auto& [body, sign] : {std::pair{a, -1.0}, std::pair{b, 1.0}}) {
    if (body < 0) continue;
    const Eigen::Vector2d r = p - centres[static_cast<std::size_t>(body)];
    for (int row = 0; row < 2; ++row) {
      const Eigen::Vector2d d = row == 0 ? n : t;
      rows(row, 3 * body) += sign * d.x();
      rows(row, 3 * body + 1) += sign * d.y();
      rows(row, 3 * body + 2) += sign * (-d.x() * r.y() + d.y() * r.x());
    }
  }
}

}  // namespace

TEST_CASE(
    "many-contact impacts: lcp on random wedged blocks, two corners on one face (D singular)") {
  // Planar blocks touching each other and the ground, every pair of bodies through two corners
  // on one face: the two corners' tangent rows of D are equal but for the face's tilt ε (the
  // corners' offset along the normal), so D is singular to ε, as for a block wedged in a stack
  // (stack:41 of the multibody campaign, where Lemke's method ended on a ray), and with more
  // contacts than the bodies have velocities. ε is 0 (exact) or drawn from 1e-13 to 1e-9 m.
  // Every impact must be solved, both stages complementary, every impulse in its cone, and no
  // energy gained in generalized velocities (support/lcp_checks.hpp, from the problem and the
  // impulses alone). (With ε from 1e-8 to 1e-7 m, 4 of 2000 such problems still end Lemke's
  // path on a ray or at its pivot limit: known, not yet solved.)
  constexpr int kProblems = 2000;
  std::mt19937_64 rng(0x3edc'e0d5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  int impacts = 0;
  for (int trial = 0; trial < kProblems; ++trial) {
    CAPTURE(trial);
    const int bodies = 2 + static_cast<int>(unit(rng) * 3.0);  // 2 to 4
    std::vector<Eigen::Vector2d> centres;
    Eigen::VectorXd inverse_mass(3 * bodies);
    for (int i = 0; i < bodies; ++i) {
      centres.emplace_back(normal(rng) * 0.2, 0.3 * (i + 1));
      const double mass = 0.2 + 10.0 * unit(rng), width = 0.1 + unit(rng), height = 0.1 + unit(rng);
      inverse_mass.segment(3 * i, 3) << 1.0 / mass, 1.0 / mass,
          12.0 / (mass * (width * width + height * height));
    }
    const int pairs = bodies;  // body i on body i − 1 (the ground below the first)
    Eigen::MatrixXd J(4 * pairs, 3 * bodies);
    const double epsilon = unit(rng) < 0.25 ? 0.0 : std::pow(10.0, -9.0 - 4.0 * unit(rng));
    for (int i = 0; i < pairs; ++i) {
      const double tilt = 0.3 * normal(rng);
      const Eigen::Vector2d n(-std::sin(tilt), std::cos(tilt)), t(n.y(), -n.x());
      const Eigen::Vector2d p = centres[static_cast<std::size_t>(i)] + 0.1 * normal(rng) * t;
      const double spread = 0.05 + 0.5 * unit(rng);
      contact_rows(i - 1, i, p, n, centres, J.middleRows(4 * i, 2));
      contact_rows(i - 1, i, p + spread * t + epsilon * n, n, centres, J.middleRows(4 * i + 2, 2));
    }
    ImpactProblem problem;
    problem.dimension = ContactDimension::planar;
    const Eigen::MatrixXd D = J * inverse_mass.asDiagonal() * J.transpose();
    problem.D = 0.5 * (D + D.transpose());
    Eigen::VectorXd v(3 * bodies);
    for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = normal(rng);
    problem.u_pre = J * v;
    const double e = unit(rng);
    for (int k = 0; k < 2 * pairs; ++k) {
      const double mu = 1.2 * unit(rng);
      problem.contacts.push_back(ContactParameters{e, mu, mu * unit(rng)});
    }
    const routh::LcpImpact impact = routh::solve_lcp_stages(problem, {});
    if (impact.result.status == ImpactStatus::no_impact) continue;
    ++impacts;
    REQUIRE(impact.result.status == ImpactStatus::solved);
    routh::test::check_lcp_impact(problem, impact);
    const Eigen::VectorXd v_post =
        v + inverse_mass.asDiagonal() * (J.transpose() * impact.result.impulse);
    const auto kinetic = [&](const Eigen::VectorXd& w) {
      return 0.5 * w.dot(inverse_mass.cwiseInverse().asDiagonal() * w);
    };
    CHECK(kinetic(v_post) <= kinetic(v) * (1.0 + 1e-10));
  }
  CHECK(impacts > kProblems / 2);
}
