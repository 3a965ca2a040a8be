// A constant mass matrix read once per run (sim/simulation/system_evaluation.hpp), and the impact
// step's M⁻¹Jᵀ solved block by block over M's mechanisms (sim/simulation/impact_step.cpp), on free
// spheres (models/spatial/spatial_bodies.hpp), whose M = diag(m, m, m, I, I, I) is the same at
// every state. References, closed forms: a sphere in flight falls with g and turns at constant ω
// (Euler's equations with three equal moments: ω × Iω = 0); a sphere resting on the floor carries
// m g on it and does not move; T = ½ Σ (m |v|² + I |ω|²), V = Σ m g z; a frictionless sphere that
// lands on a floor leaves it at u_n⁺ = −e u_n⁻ (Newton), and no other body's velocity changes.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/simulation/impact_step.hpp"
#include "sim/simulation/system_evaluation.hpp"

namespace routh {
namespace {

constexpr double kGravity = 9.81, kRadius = 0.1;  // [m/s²], [m]

// A model that is `inner` but counts the evaluations that ask it for M, and says its M is constant
// or not as it is told.
class CountingMassRequests final : public MechanicalSystem {
 public:
  CountingMassRequests(const MechanicalSystem& inner, bool constant)
      : inner_(inner), constant_(constant) {}
  int coordinate_count() const override { return inner_.coordinate_count(); }
  bool constant_mass_matrix() const override { return constant_; }
  const std::vector<std::string>& coordinate_names() const override {
    return inner_.coordinate_names();
  }
  const std::vector<std::string>& coordinate_units() const override {
    return inner_.coordinate_units();
  }
  int velocity_count() const override { return inner_.velocity_count(); }
  const std::vector<std::string>& velocity_names() const override {
    return inner_.velocity_names();
  }
  std::vector<std::string> velocity_units() const override { return inner_.velocity_units(); }
  const std::vector<std::string>& contact_names() const override { return inner_.contact_names(); }
  ContactDimension contact_dimension() const override { return inner_.contact_dimension(); }
  std::unique_ptr<SystemWorkspace> make_workspace() const override {
    return inner_.make_workspace();
  }
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                const QuantityRequest& request, SystemWorkspace& workspace,
                StateQuantities& out) const override {
    if (request.mass_matrix) ++mass_requests;
    inner_.evaluate(t, q, v, request, workspace, out);
  }
  mutable int mass_requests = 0;

 private:
  const MechanicalSystem& inner_;
  bool constant_;
};

// Uniform spheres of kRadius and the given masses over a floor, touching each other if they meet.
SpatialBodies spheres(const std::vector<double>& masses_kg) {
  SpatialBodiesDescription description;
  for (std::size_t b = 0; b < masses_kg.size(); ++b) {
    const SphereShape shape{kRadius};
    description.bodies.push_back(
        {"ball" + std::to_string(b), masses_kg[b], uniform_inertia(shape, masses_kg[b]), shape});
  }
  description.planes.push_back({"floor", Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()});
  description.gravity_m_s2 = {0.0, 0.0, -kGravity};
  return SpatialBodies(description);
}

// q of spheres at rest orientation with their centres at `centres`.
Eigen::VectorXd centred_at(const std::vector<Eigen::Vector3d>& centres) {
  Eigen::VectorXd q(7 * static_cast<Eigen::Index>(centres.size()));
  for (std::size_t b = 0; b < centres.size(); ++b)
    q.segment<7>(7 * static_cast<Eigen::Index>(b)) << centres[b], 1.0, 0.0, 0.0, 0.0;
  return q;
}

int contact_named(const MechanicalSystem& model, const std::string& name) {
  const std::vector<std::string>& names = model.contact_names();
  for (std::size_t k = 0; k < names.size(); ++k) {
    if (names[k] == name) return static_cast<int>(k);
  }
  FAIL("no contact " << name);
  return -1;
}

}  // namespace

TEST_CASE("constant mass matrix: the evaluation asks a constant M of the model once per run") {
  const std::vector<double> masses{1.0, 2.0};
  const SpatialBodies model = spheres(masses);
  const double inertia = 0.4 * masses[1] * kRadius * kRadius;
  // ball0 resting on the floor, ball1 in flight, spinning
  const Eigen::VectorXd q = centred_at({{0.0, 0.0, kRadius}, {1.0, 0.0, 1.0}});
  Eigen::VectorXd v = Eigen::VectorXd::Zero(12);
  v.segment<3>(6) << 0.5, -0.2, 0.0;
  v.segment<3>(9) << 1.0, 2.0, 3.0;
  const ContactParameterTable parameters(static_cast<std::size_t>(model.contact_count()),
                                         {0.0, 0.5, 0.5});
  std::vector<ContactMode> modes(parameters.size(), ContactMode::open);
  const int resting = contact_named(model, "ball0/floor");
  modes[static_cast<std::size_t>(resting)] = ContactMode::stick;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(12, 12);
  M.diagonal() << Eigen::Vector3d::Constant(masses[0]),
      Eigen::Vector3d::Constant(0.4 * masses[0] * kRadius * kRadius),
      Eigen::Vector3d::Constant(masses[1]), Eigen::Vector3d::Constant(inertia);
  // a constant M is asked for once; a model that does not say so is asked at every evaluation
  for (const bool constant : {true, false}) {
    CAPTURE(constant);
    CountingMassRequests counting(model, constant);
    SystemEvaluation evaluation(counting, parameters);
    for (int i = 0; i < 3; ++i) {
      const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, 0.0, q, v, modes);
      CHECK(dynamics.acceleration.head<6>().norm() <= 1e-12);
      CHECK(dynamics.forces[static_cast<std::size_t>(resting)].normal ==
            doctest::Approx(masses[0] * kGravity));
      CHECK((dynamics.acceleration.segment<3>(6) - Eigen::Vector3d(0.0, 0.0, -kGravity)).norm() <=
            1e-12);
      CHECK(dynamics.acceleration.segment<3>(9).norm() <= 1e-12);
    }
    const Energy energy = energy_at(evaluation, q, v);
    CHECK(energy.kinetic == doctest::Approx(0.5 * (masses[1] * v.segment<3>(6).squaredNorm() +
                                                   inertia * v.segment<3>(9).squaredNorm())));
    CHECK(energy.potential == doctest::Approx(kGravity * (masses[0] * kRadius + masses[1] * 1.0)));
    CHECK(mass_matrix_at(evaluation, q) == M);
    CHECK(counting.mass_requests == (constant ? 1 : 5));
  }
}

TEST_CASE(
    "constant mass matrix: an impact's velocity change is Newton's for the body it touches, "
    "and exactly zero for the others") {
  const SpatialBodies model = spheres({1.0, 2.0, 3.0});
  constexpr double kRestitution = 0.5, kLanding = 2.0;  // [-], [m/s]
  // ball1 lands on the floor; ball0 and ball2 fly and spin far from everything
  const Eigen::VectorXd q = centred_at({{-1.0, 0.0, 1.0}, {0.0, 0.0, kRadius}, {1.0, 0.0, 0.5}});
  Eigen::VectorXd v(18);
  v << 0.3, 0.1, -0.4, 1.0, 2.0, 3.0,      // ball0
      0.0, 0.0, -kLanding, 0.0, 0.0, 0.0,  // ball1
      -0.2, 0.5, 0.6, -3.0, 0.5, 1.5;      // ball2
  SimulationSettings settings;
  settings.law = find_law("sliding_ode")->solve;
  settings.multi_contact_law = find_law("lcp")->solve;
  settings.contacts.assign(static_cast<std::size_t>(model.contact_count()),
                           {kRestitution, 0.0, 0.0});
  SystemEvaluation evaluation(model, settings.contacts);
  const int landing = contact_named(model, "ball1/floor");
  const ApproachingContacts approaching = approaching_contacts(evaluation, settings, q, v);
  REQUIRE(approaching.contacts == std::vector<int>{landing});
  const ImpactResolution impact = resolve_impact(
      evaluation, settings, 0.0, q, v, approaching.contacts, false, ImpactStart::collision);
  REQUIRE(impact.resolved);
  CHECK(impact.contacts == std::vector<int>{landing});
  Eigen::VectorXd expected = Eigen::VectorXd::Zero(18);
  expected[8] = (1.0 + kRestitution) * kLanding;
  CHECK((impact.velocity_change - expected).norm() <= 1e-12);
  CHECK(impact.velocity_change.head<6>().isZero(0.0));
  CHECK(impact.velocity_change.tail<6>().isZero(0.0));
}

}  // namespace routh
