// The impact step (sim/simulation/impact_step.hpp) alone, on Housner's block (half-width b,
// half-height h) landing flat: which contacts take part, the law's answer, the fallback, and the
// problem exported for an impact.
// Reference: a plastic corner impact with a sticking corner conserves the angular momentum about
// that corner, so the spin keeps 1 − 1.5 sin²α of itself, sin²α = b² / (b² + h²) (Housner 1963).

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "models/named_models.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/impact_step.hpp"

namespace {

constexpr double kB = 0.1, kH = 0.5;  // Housner's 0.2 m × 1.0 m block, 1 kg

// The block flat on the floor, rotating clockwise at ω about its left corner (at rest up to the
// round-off `pivot_round_off` [m/s] of its normal velocity): its right corner lands.
Eigen::VectorXd landing_on_right_corner(double omega, double pivot_round_off) {
  // v_centre = θ̇ ẑ × (b, h) with θ̇ = −ω
  return Eigen::Vector3d(omega * kH, -omega * kB + pivot_round_off, -omega);
}

routh::SimulationSettings plastic_settings(routh::ImpactLaw multi_contact_law) {
  routh::SimulationSettings settings;
  settings.law = routh::find_law("poisson")->solve;
  settings.multi_contact_law = multi_contact_law;
  settings.contacts.assign(4, {0.0, 1.0, 1.0});  // every corner of the block
  return settings;
}

routh::ImpactResult refuses(const routh::ImpactProblem& problem) {
  routh::ImpactResult result;
  result.status = routh::ImpactStatus::no_solution;
  result.impulse = routh::ContactVector::Zero(problem.D.rows());
  result.u_post = problem.u_pre;
  return result;
}

routh::ImpactResult answers_nan(const routh::ImpactProblem& problem) {
  routh::ImpactResult result = refuses(problem);
  result.status = routh::ImpactStatus::solved;
  result.impulse.setConstant(std::numeric_limits<double>::quiet_NaN());
  return result;
}

const Eigen::VectorXd kFlat = Eigen::Vector3d(0.0, kH, 0.0);

// The settings' parameters for each of the block's corners.
routh::ContactParameterTable corner_parameters(const routh::PlanarTree& block,
                                               const routh::SimulationSettings& settings) {
  return routh::ContactParameterTable(static_cast<std::size_t>(block.contact_count()),
                                      settings.contacts.front());
}

}  // namespace

TEST_CASE("impact step: a resting pivot's round-off velocity is not an approach") {
  const auto block = routh::make_rocking_block(2 * kB, 2 * kH, 1.0);
  const routh::SimulationSettings settings = plastic_settings(nullptr);
  routh::SystemEvaluation evaluation(*block, corner_parameters(*block, settings));
  for (const double round_off : {-1e-12, 0.0, 1e-12}) {
    const Eigen::VectorXd v = landing_on_right_corner(0.5, round_off);
    const routh::ApproachingContacts approaching =
        routh::approaching_contacts(evaluation, settings, kFlat, v);
    CHECK(approaching.contacts == std::vector<int>{1});
    CHECK(approaching.approach_speed == doctest::Approx(2 * kB * 0.5));
  }
  // a genuine approach of the other corner too: the block lands flat
  const Eigen::VectorXd falling = Eigen::Vector3d(0.0, -1.0, 0.0);
  CHECK(routh::approaching_contacts(evaluation, settings, kFlat, falling).contacts ==
        std::vector<int>{0, 1});
}

TEST_CASE("impact step: Housner's corner impact takes one contact and keeps 1 - 1.5 sin^2 alpha") {
  const auto block = routh::make_rocking_block(2 * kB, 2 * kH, 1.0);
  const routh::SimulationSettings settings = plastic_settings(routh::find_law("lcp")->solve);
  routh::SystemEvaluation evaluation(*block, corner_parameters(*block, settings));
  const double omega = 0.5;
  const Eigen::VectorXd v = landing_on_right_corner(omega, -1e-12);
  const routh::ImpactResolution impact = routh::resolve_impact(
      evaluation, settings, 0.0, kFlat, v, {1}, false, routh::ImpactStart::collision);
  REQUIRE(impact.resolved);
  CHECK(impact.contacts == std::vector<int>{1});  // the pivot carries nothing and lifts off
  const double sin2_alpha = kB * kB / (kB * kB + kH * kH);
  const Eigen::VectorXd v_post = v + impact.velocity_change;
  CHECK(v_post[2] / v[2] == doctest::Approx(1.0 - 1.5 * sin2_alpha).epsilon(1e-12));
  CHECK(impact.event.flags.empty());
}

TEST_CASE("impact step: a law that cannot answer falls back to lcp, flagged") {
  const auto block = routh::make_rocking_block(2 * kB, 2 * kH, 1.0);
  routh::SystemEvaluation evaluation(*block, corner_parameters(*block, plastic_settings(nullptr)));
  const Eigen::VectorXd falling = Eigen::Vector3d(0.0, -1.0, 0.0);
  const routh::ImpactResolution reference =
      routh::resolve_impact(evaluation, plastic_settings(routh::find_law("lcp")->solve), 0.0, kFlat,
                            falling, {0, 1}, false, routh::ImpactStart::collision);
  REQUIRE(reference.resolved);
  for (const routh::ImpactLaw law : {&refuses, &answers_nan}) {
    const routh::ImpactResolution impact =
        routh::resolve_impact(evaluation, plastic_settings(law), 0.0, kFlat, falling, {0, 1}, false,
                              routh::ImpactStart::collision);
    REQUIRE(impact.resolved);
    CHECK(impact.event.kind == routh::EventKind::impact);
    CHECK(impact.event.flags.find("law_fallback") != std::string::npos);
    CHECK(impact.event.status.find(law == &refuses ? "no_solution" : "non-finite") !=
          std::string::npos);
    CHECK(impact.velocity_change.isApprox(reference.velocity_change, 1e-12));
    CHECK(impact.velocity_change.allFinite());
  }
}

TEST_CASE("impact step: an impact without collision that the law refuses is trouble, not NaN") {
  const auto block = routh::make_rocking_block(2 * kB, 2 * kH, 1.0);
  routh::SimulationSettings settings = plastic_settings(nullptr);
  routh::SystemEvaluation evaluation(*block, corner_parameters(*block, settings));
  settings.law = &refuses;
  const Eigen::VectorXd sliding = Eigen::Vector3d(2.0, 0.0, 0.0);
  const routh::ImpactResolution impact = routh::resolve_impact(
      evaluation, settings, 0.0, kFlat, sliding, {1}, false, routh::ImpactStart::without_collision);
  CHECK_FALSE(impact.resolved);
  CHECK(impact.event.kind == routh::EventKind::trouble);
  CHECK(impact.event.status.find("no_solution") != std::string::npos);
}

TEST_CASE("impact step: the problem exported for an impact is J M^-1 J^T and J v of its contacts") {
  // Housner's block flat, its right corner (b, −h) from the centre landing: in (ẋ, ẏ, θ̇) the
  // corner's velocity rows are normal y: (0, 1, b) and tangent x: (1, 0, h), and M = diag(m, m,
  // m (b² + h²) / 3), so D and u⁻ have closed forms
  const auto block = routh::make_rocking_block(2 * kB, 2 * kH, 1.0);
  routh::SimulationSettings settings = plastic_settings(routh::find_law("lcp")->solve);
  settings.contacts.assign(4, {0.5, 0.8, 0.6});
  routh::SystemEvaluation evaluation(*block, settings.contacts);
  const Eigen::VectorXd v = landing_on_right_corner(0.5, 0.0);
  const routh::ImpactProblem problem = routh::impact_problem_at(
      evaluation, 0.0, kFlat, v, {1}, false, routh::ImpactStart::collision);
  const double inertia = (kB * kB + kH * kH) / 3.0;
  Eigen::Matrix<double, 2, 3> J;
  J << 0.0, 1.0, kB, 1.0, 0.0, kH;
  const Eigen::Matrix2d D =
      J * Eigen::Vector3d(1.0, 1.0, 1.0 / inertia).asDiagonal() * J.transpose();
  CHECK(Eigen::Matrix2d(problem.D).isApprox(D, 1e-14));
  CHECK(Eigen::Vector2d(problem.u_pre).isApprox(J * v, 1e-14));
  REQUIRE(problem.contacts.size() == 1);
  CHECK(problem.contacts[0].restitution == 0.5);
  CHECK(problem.contacts[0].static_friction == 0.8);
  CHECK(problem.contacts[0].kinetic_friction == 0.6);
  // the law answers it as the impact step does
  const routh::ImpactResolution impact = routh::resolve_impact(
      evaluation, settings, 0.0, kFlat, v, {1}, false, routh::ImpactStart::collision);
  REQUIRE(impact.contacts == std::vector<int>{1});
  const routh::ImpactResult answer = settings.law(problem);
  CHECK(std::vector<double>(answer.impulse.begin(), answer.impulse.end()) == impact.event.impulse);
  // too slow to bounce: restitution 0, friction kept
  const routh::ImpactProblem at_rest =
      routh::impact_problem_at(evaluation, 0.0, kFlat, v, {1}, true, routh::ImpactStart::collision);
  CHECK(at_rest.contacts[0].restitution == 0.0);
  CHECK(at_rest.contacts[0].kinetic_friction == 0.6);
}
