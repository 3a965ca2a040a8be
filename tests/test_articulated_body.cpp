// The articulated-body M⁻¹ of a planar tree (models/planar/articulated_body.hpp) against a dense
// solve with an M built here from the definition of the kinetic energy, independently of the
// library's kinematics:
//     M = Σ_b m_b J_cᵀ J_c + I_b J_φᵀ J_φ,
// with J_c and J_φ the Jacobians of each body's centre of mass and angle, obtained by complex-step
// differentiation (Squire & Trapp, SIAM Review 40, 1998) of positions composed joint by joint from
// planar_joint.hpp's definitions. The complex step has no subtraction, so J is exact to round-off,
// and the two routes to M⁻¹ B agree to 1e-12 relative (n ≤ 24, condition numbers of M up to
// about 1e5 at these random poses: the solves' round-off is well below that).

#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "models/named_models.hpp"
#include "models/planar/planar_tree.hpp"
#include "sim/text.hpp"

namespace {

using Complex = std::complex<double>;
using ComplexVector = Eigen::Matrix<Complex, Eigen::Dynamic, 1>;

// A body's angle and centre of mass at complex coordinates q, composed from the root.
struct ComplexPose {
  Complex angle;
  Eigen::Matrix<Complex, 2, 1> origin, centre;
};

Eigen::Matrix<Complex, 2, 2> complex_rotation(Complex angle) {
  Eigen::Matrix<Complex, 2, 2> R;
  R << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
  return R;
}

// planar_joint.hpp: the child origin is o_p + R(φ_p)(location + Σ a_k q_k); its angle is
// φ_p + θ (relative, and the parent's for a prismatic joint) or θ (absolute).
std::vector<ComplexPose> poses(const routh::PlanarTree& tree, const ComplexVector& q) {
  const routh::PlanarTreeDescription& d = tree.description();
  std::vector<ComplexPose> pose(d.bodies.size());
  for (std::size_t i = 0; i < d.bodies.size(); ++i) {
    const routh::PlanarJoint& joint = d.joints[i];
    const bool root = joint.parent == routh::kGround;
    const ComplexPose parent = root ? ComplexPose{0.0, {0.0, 0.0}, {0.0, 0.0}}
                                    : pose[static_cast<std::size_t>(joint.parent)];
    const int first = tree.first_coordinate(static_cast<int>(i));
    Eigen::Matrix<Complex, 2, 1> local = joint.location_m.cast<Complex>();
    for (int k = 0; k < joint.translation_count(); ++k) {
      const Eigen::Vector2d axis = joint.type == routh::JointType::free
                                       ? Eigen::Vector2d::Unit(k)
                                       : Eigen::Vector2d(joint.axis);
      local += axis.cast<Complex>() * q[first + k];
    }
    ComplexPose& child = pose[i];
    child.origin = parent.origin + complex_rotation(parent.angle) * local;
    const bool carries =
        !joint.rotates() || joint.angle_reference == routh::AngleReference::relative;
    child.angle = carries ? parent.angle : Complex(0.0);
    if (joint.rotates()) child.angle += q[first + joint.translation_count()];
    child.centre =
        child.origin + complex_rotation(child.angle) * d.bodies[i].centre_of_mass_m.cast<Complex>();
  }
  return pose;
}

// M(q) from the kinetic energy, with J by complex steps of size h: Im f(q + i h e_j) / h.
Eigen::MatrixXd kinetic_energy_mass_matrix(const routh::PlanarTree& tree,
                                           const Eigen::VectorXd& q) {
  const Eigen::Index n = q.size();
  const auto bodies = static_cast<std::size_t>(tree.body_count());
  constexpr double kStep = 1e-30;
  std::vector<Eigen::MatrixXd> J_c(bodies, Eigen::MatrixXd::Zero(2, n));
  std::vector<Eigen::RowVectorXd> J_phi(bodies, Eigen::RowVectorXd::Zero(n));
  for (Eigen::Index j = 0; j < n; ++j) {
    ComplexVector stepped = q.cast<Complex>();
    stepped[j] += Complex(0.0, kStep);
    const std::vector<ComplexPose> pose = poses(tree, stepped);
    for (std::size_t b = 0; b < bodies; ++b) {
      J_c[b](0, j) = pose[b].centre.x().imag() / kStep;
      J_c[b](1, j) = pose[b].centre.y().imag() / kStep;
      J_phi[b][j] = pose[b].angle.imag() / kStep;
    }
  }
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t b = 0; b < bodies; ++b) {
    const routh::PlanarBody& body = tree.description().bodies[b];
    M += body.mass_kg * J_c[b].transpose() * J_c[b] +
         body.inertia_kg_m2 * J_phi[b].transpose() * J_phi[b];
  }
  return M;
}

// A random tree hanging from one root joint: every kind of joint and angle reference, random
// parents, masses, centres of mass, inertias and joint locations.
std::unique_ptr<routh::PlanarTree> random_tree(std::mt19937& rng, int bodies) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.1, 2.0);
  std::uniform_int_distribution<int> kind(0, 3);
  routh::PlanarTreeBuilder builder;
  for (int i = 0; i < bodies; ++i) {
    const int parent = i == 0 ? routh::kGround : std::uniform_int_distribution<int>(0, i - 1)(rng);
    const Eigen::Vector2d location(unit(rng), unit(rng));
    const std::string name = routh::cat("q", i);
    routh::PlanarJoint joint;
    switch (kind(rng)) {
      case 0: joint = routh::revolute_joint(parent, location, name); break;
      case 1:
        joint = routh::revolute_joint(parent, location, name, routh::AngleReference::absolute);
        break;
      case 2:
        joint = routh::prismatic_joint(parent, location,
                                       Eigen::Vector2d(unit(rng), unit(rng)).normalized(), name);
        break;
      default:
        joint = routh::free_joint(routh::cat(name, "x"), routh::cat(name, "y"),
                                  routh::cat(name, "theta"), parent);
        joint.location_m = location;
        joint.angle_reference =
            kind(rng) % 2 == 0 ? routh::AngleReference::relative : routh::AngleReference::absolute;
    }
    builder.add_body(routh::cat("b", i),
                     {positive(rng), Eigen::Vector2d(unit(rng), unit(rng)), positive(rng)}, joint);
  }
  return builder.build();
}

// M⁻¹ B (or, `half`, G B with M⁻¹ = Gᵀ G) by the tree's articulated-body factorization at q.
Eigen::MatrixXd articulated_solve(const routh::PlanarTree& tree, const Eigen::VectorXd& q,
                                  Eigen::MatrixXd B, bool half = false) {
  routh::StateQuantities out;
  const std::unique_ptr<routh::SystemWorkspace> workspace = tree.make_workspace();  // holds M⁻¹
  tree.evaluate(0.0, q, Eigen::VectorXd::Zero(q.size()), {.inverse_mass = true}, *workspace, out);
  REQUIRE(out.inverse_mass != nullptr);
  if (half) {
    out.inverse_mass->solve_half(B);
  } else {
    out.inverse_mass->solve(B);
  }
  return B;
}

}  // namespace

TEST_CASE(
    "articulated body: M⁻¹ B of random trees equals a dense solve of M from the kinetic energy") {
  std::mt19937 rng(20);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto tree = random_tree(rng, 1 + trial % 8);
    REQUIRE(tree->applies_inverse_mass());
    const int n = tree->coordinate_count();
    Eigen::VectorXd q(n);
    for (int j = 0; j < n; ++j) q[j] = 2.0 * unit(rng);
    const Eigen::MatrixXd M = kinetic_energy_mass_matrix(*tree, q);
    Eigen::MatrixXd B(n, 3);
    for (Eigen::Index j = 0; j < B.size(); ++j) B.data()[j] = unit(rng);
    const Eigen::MatrixXd expected = M.ldlt().solve(B);
    const Eigen::MatrixXd solved = articulated_solve(*tree, q, B);
    INFO("trial ", trial, ", n = ", n);
    CHECK((solved - expected).norm() <= 1e-12 * expected.norm());
    // the half solve is a factor of M⁻¹: (G B)ᵀ (G B) = Bᵀ M⁻¹ B
    const Eigen::MatrixXd half = articulated_solve(*tree, q, B, true);
    const Eigen::MatrixXd quadratic = B.transpose() * expected;
    CHECK((half.transpose() * half - quadratic).norm() <= 1e-12 * quadratic.norm());
    ++compared;
  }
  CHECK(compared == 40);
}

TEST_CASE("articulated body: a chain of 20 links, M⁻¹ of every unit vector against the dense M") {
  const auto chain = routh::make_chain(20, 0.045, 0.05, routh::floor_at(-0.6));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> angle(0.0, 3.0);
  Eigen::VectorXd q(20);
  for (int j = 0; j < 20; ++j) q[j] = angle(rng);
  const Eigen::MatrixXd M = kinetic_energy_mass_matrix(*chain, q);
  const Eigen::MatrixXd inverse = articulated_solve(*chain, q, Eigen::MatrixXd::Identity(20, 20));
  CHECK((M * inverse - Eigen::MatrixXd::Identity(20, 20)).norm() <= 1e-11);
  // and the tree's own M (Kane's sum, planar_tree.hpp) is the kinetic energy's
  Eigen::MatrixXd kane;
  chain->mass_matrix(q, kane);
  CHECK((kane - M).norm() <= 1e-13 * M.norm());
}

TEST_CASE("articulated body: only a tree of one mechanism whose M changes hands out M⁻¹") {
  CHECK(routh::make_chain(3, 0.3, 0.1)->applies_inverse_mass());
  CHECK(routh::make_pendulum(1.0, 1.0)->applies_inverse_mass());
  CHECK_FALSE(routh::make_rocking_block(0.2, 0.6, 10.0)->applies_inverse_mass());  // constant M
  routh::PlanarTreeBuilder two;  // two pendulums side by side: two mechanisms
  two.add_body("a", {1.0, {0.0, -0.5}, 0.1}, routh::revolute_joint(routh::kGround, {0, 0}, "a"));
  two.add_body("b", {1.0, {0.0, -0.5}, 0.1}, routh::revolute_joint(routh::kGround, {1, 0}, "b"));
  const auto pair = two.build();
  CHECK_FALSE(pair->applies_inverse_mass());
  routh::StateQuantities out;
  pair->evaluate(0.0, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(2), {.inverse_mass = true},
                 *pair->make_workspace(), out);
  CHECK(out.inverse_mass == nullptr);
}
