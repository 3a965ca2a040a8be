// The generic planar tree (models/planar/) and the named models (models/named_models.hpp).
// Two independent routes to every quantity: the tree's recursive kinematics against finite
// differences of positions, gaps, M and V (Lagrange's equations), and against closed forms
// (pendulum, rocking block, paper 000's double pendulum, paper 004's falling rod).
//
// Finite-difference tolerances: central differences with step h have truncation error
// h² |f'''|/6 and round-off about ε |f| / h (ε = 2.2e-16). The quantities here are O(1–10) with
// O(1–10) third derivatives, so h = 1e-5 gives ≈ 1e-9 truncation and ≈ 2e-10 round-off for a first
// derivative; the tolerances 1e-7 (first derivatives) and 1e-6 (Lagrange's equations, which sum
// n such terms times |v| ≈ 3) leave a margin of 10–100.

#include <doctest/doctest.h>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/named_models.hpp"
#include "models/planar/initial_state.hpp"
#include "models/planar/planar_tree.hpp"

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;
using routh::PlanarTree;

constexpr double kStep = 1e-5;             // finite-difference step [m, rad, s]
constexpr double kFirstDerivative = 1e-7;  // see the header comment
constexpr double kLagrange = 1e-6;         // see the header comment
constexpr double kDegree = std::numbers::pi / 180.0;

// A tree with every feature: a free base (offset joint, off-centre mass), a relative revolute
// arm with a torsion spring, a prismatic slider on the arm with a spring, an absolute-angle flap
// on the base with a torsion spring; points and circles against a floor, a wall and a slope.
std::unique_ptr<PlanarTree> kitchen_sink(double damping = 0.0) {
  routh::PlanarTreeBuilder builder;
  routh::PlanarJoint base_joint = routh::free_joint();
  base_joint.location_m = {0.2, 0.1};
  const int base = builder.add_body("base", {2.0, {0.1, -0.05}, 0.3}, base_joint);

  routh::PlanarJoint arm_joint = routh::revolute_joint(base, {0.3, -0.2}, "arm");
  arm_joint.springs = {routh::JointSpring{5.0, 0.2, damping}};
  const int arm = builder.add_body("arm", {1.0, {0.0, -0.4}, 0.05}, arm_joint);

  routh::PlanarJoint slider_joint =
      routh::prismatic_joint(arm, {0.05, -0.1}, Eigen::Vector2d(0.6, -0.8), "slide");
  slider_joint.springs = {routh::JointSpring{7.0, 0.1, damping}};
  const int slider = builder.add_body("slider", {0.7, {0.02, 0.01}, 0.02}, slider_joint);

  routh::PlanarJoint flap_joint =
      routh::revolute_joint(base, {-0.3, 0.1}, "flap", routh::AngleReference::absolute);
  flap_joint.springs = {routh::JointSpring{3.0, -0.3, damping}};
  const int flap = builder.add_body("flap", {0.4, {-0.2, 0.0}, 0.01}, flap_joint);

  const routh::HalfPlane slope{{0.5, -2.0}, {std::sin(0.3), std::cos(0.3)}};
  builder.add_contact("base_floor", {base, {0.25, -0.3}, 0.0, routh::floor_at(-1.0)});
  builder.add_contact("slider_slope", {slider, {0.1, 0.05}, 0.15, slope});
  builder.add_contact("flap_wall", {flap, {-0.4, 0.02}, 0.0, routh::wall_at(-3.0, true)});
  builder.add_contact("arm_floor", {arm, {0.0, -0.8}, 0.1, routh::floor_at(-1.0)});
  return builder.build();
}

struct Sample {
  VectorXd q, v;
};

std::vector<Sample> random_states(const PlanarTree& tree, int count) {
  std::mt19937 generator(20240517);
  std::uniform_real_distribution<double> uniform(-1.5, 1.5);
  std::vector<Sample> samples;
  const Eigen::Index n = tree.coordinate_count();
  for (int i = 0; i < count; ++i) {
    Sample s{VectorXd(n), VectorXd(n)};
    for (Eigen::Index j = 0; j < n; ++j) s.q[j] = uniform(generator);
    for (Eigen::Index j = 0; j < n; ++j) s.v[j] = uniform(generator);
    samples.push_back(s);
  }
  return samples;
}

// Central difference of a vector function along direction `d`: (F(x + h d) − F(x − h d)) / 2h.
VectorXd directional_derivative(const std::function<VectorXd(const VectorXd&)>& F,
                                const VectorXd& x, const VectorXd& d) {
  return (F(x + kStep * d) - F(x - kStep * d)) / (2.0 * kStep);
}

MatrixXd mass_matrix(const PlanarTree& tree, const VectorXd& q) {
  MatrixXd M;
  tree.mass_matrix(q, M);
  return M;
}

VectorXd force(const PlanarTree& tree, double t, const VectorXd& q, const VectorXd& v) {
  VectorXd f;
  tree.generalized_force(t, q, v, f);
  return f;
}

routh::ContactKinematics contacts_at(const PlanarTree& tree, const VectorXd& q, const VectorXd& v) {
  routh::ContactKinematics contacts;
  tree.contact_kinematics(q, v, contacts);
  return contacts;
}

VectorXd gradient_of(const std::function<double(const VectorXd&)>& F, const VectorXd& q) {
  VectorXd gradient(q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    const VectorXd e = VectorXd::Unit(q.size(), i);
    gradient[i] = (F(q + kStep * e) - F(q - kStep * e)) / (2.0 * kStep);
  }
  return gradient;
}

// Ṁ along q(t) = q + t v, by central differences.
MatrixXd mass_matrix_rate(const PlanarTree& tree, const VectorXd& q, const VectorXd& v) {
  return (mass_matrix(tree, q + kStep * v) - mass_matrix(tree, q - kStep * v)) / (2.0 * kStep);
}

std::vector<std::unique_ptr<PlanarTree>> every_model() {
  std::vector<std::unique_ptr<PlanarTree>> models;
  models.push_back(kitchen_sink());
  models.push_back(routh::make_ball(0.2, 1.5));
  models.push_back(routh::make_rod(1.0, 1.0));
  models.push_back(routh::make_rocking_block(0.4, 1.2, 50.0));
  models.push_back(routh::make_pendulum(0.8, 2.0));
  models.push_back(routh::make_double_pendulum());
  models.push_back(routh::make_chain(5, 0.5, 0.3, routh::floor_at(-2.0)));
  models.push_back(
      routh::make_chain(3, 0.5, 0.3, routh::wall_at(0.2, false), routh::AngleReference::relative));
  return models;
}

}  // namespace

TEST_CASE("model: M is symmetric positive definite at random configurations") {
  for (const auto& tree : every_model()) {
    CAPTURE(tree->coordinate_names().front());
    for (const Sample& s : random_states(*tree, 20)) {
      const MatrixXd M = mass_matrix(*tree, s.q);
      REQUIRE(M.rows() == tree->coordinate_count());
      CHECK((M - M.transpose()).norm() == 0.0);  // built as a sum of symmetric products
      CHECK(Eigen::SelfAdjointEigenSolver<MatrixXd>(M).eigenvalues().minCoeff() > 0.0);
    }
  }
}

TEST_CASE("model: contact Jacobian rows are the gradients of the gap and tangential position") {
  for (const auto& tree : every_model()) {
    for (const Sample& s : random_states(*tree, 5)) {
      const routh::ContactKinematics contacts = contacts_at(*tree, s.q, s.v);
      for (int k = 0; k < tree->contact_count(); ++k) {
        CAPTURE(tree->contact_names()[static_cast<std::size_t>(k)]);
        const VectorXd gap_gradient =
            gradient_of([&](const VectorXd& q) { return contacts_at(*tree, q, s.v).gap[k]; }, s.q);
        const VectorXd slip_gradient = gradient_of(
            [&](const VectorXd& q) { return tree->contact_tangential_positions(q)[k]; }, s.q);
        CHECK((contacts.jacobian.row(2 * k).transpose() - gap_gradient).norm() < kFirstDerivative);
        CHECK((contacts.jacobian.row(2 * k + 1).transpose() - slip_gradient).norm() <
              kFirstDerivative);
        // for a listed point contact, both rows are the point's velocity along n and t
        if (static_cast<std::size_t>(k) >= tree->description().contacts.size()) continue;
        const routh::ContactGeometry& contact =
            tree->description().contacts[static_cast<std::size_t>(k)];
        if (contact.radius_m != 0.0) continue;
        for (Eigen::Index i = 0; i < s.q.size(); ++i) {
          const VectorXd e = VectorXd::Unit(s.q.size(), i);
          const Eigen::Vector2d dp =
              (tree->point_position(s.q + kStep * e, contact.body, contact.centre_m) -
               tree->point_position(s.q - kStep * e, contact.body, contact.centre_m)) /
              (2.0 * kStep);
          CHECK(contacts.jacobian(2 * k, i) ==
                doctest::Approx(contact.obstacle.normal.dot(dp)).epsilon(kFirstDerivative));
          CHECK(contacts.jacobian(2 * k + 1, i) ==
                doctest::Approx(contact.obstacle.tangent().dot(dp)).epsilon(kFirstDerivative));
        }
      }
    }
  }
}

TEST_CASE("model: J̇v is the time derivative of J(q + t v) v") {
  for (const auto& tree : every_model()) {
    for (const Sample& s : random_states(*tree, 5)) {
      const routh::ContactKinematics contacts = contacts_at(*tree, s.q, s.v);
      const VectorXd rate = directional_derivative(
          [&](const VectorXd& q) -> VectorXd { return contacts_at(*tree, q, s.v).jacobian * s.v; },
          s.q, s.v);
      CHECK((contacts.jacobian_dot_v - rate).norm() < kFirstDerivative * (1.0 + rate.norm()));
    }
  }
}

TEST_CASE("model: f satisfies Lagrange's equations with M and V by finite differences") {
  // For a conservative model, f = −(Ṁ v − ½ ∂(vᵀ M v)/∂q) − ∂V/∂q: the velocity products are
  // the Christoffel terms of M, whatever route the tree took to them.
  for (const auto& tree : every_model()) {
    CAPTURE(tree->coordinate_names().back());
    for (const Sample& s : random_states(*tree, 5)) {
      const VectorXd kinetic_gradient = gradient_of(
          [&](const VectorXd& q) { return 0.5 * s.v.dot(mass_matrix(*tree, q) * s.v); }, s.q);
      const VectorXd potential_gradient =
          gradient_of([&](const VectorXd& q) { return tree->potential_energy(q); }, s.q);
      const VectorXd expected =
          -(mass_matrix_rate(*tree, s.q, s.v) * s.v - kinetic_gradient) - potential_gradient;
      const VectorXd f = force(*tree, 0.3, s.q, s.v);
      CHECK((f - expected).norm() < kLagrange * (1.0 + expected.norm()));
    }
  }
}

TEST_CASE("model: power balance vᵀ(f + ∇V) + ½ vᵀ Ṁ v = 0 without dampers") {
  // The velocity products do no work: Ṁ − 2C is skew-symmetric.
  for (const auto& tree : every_model()) {
    for (const Sample& s : random_states(*tree, 5)) {
      const VectorXd potential_gradient =
          gradient_of([&](const VectorXd& q) { return tree->potential_energy(q); }, s.q);
      const double power = s.v.dot(force(*tree, 0.0, s.q, s.v) + potential_gradient) +
                           0.5 * s.v.dot(mass_matrix_rate(*tree, s.q, s.v) * s.v);
      const double scale = s.v.dot(mass_matrix(*tree, s.q) * s.v) * s.v.norm() + 1.0;
      CHECK(std::abs(power) < kLagrange * scale);
    }
  }
}

TEST_CASE("model: joint dampers dissipate −c ḋ² on the relative displacement") {
  const auto undamped = kitchen_sink(0.0), damped = kitchen_sink(0.6);
  for (const Sample& s : random_states(*undamped, 5)) {
    const VectorXd extra = force(*damped, 0.0, s.q, s.v) - force(*undamped, 0.0, s.q, s.v);
    // relative rates: arm (relative angle), slide (translation), flap (absolute minus base)
    const int base = undamped->coordinate_index("theta");
    const double arm = s.v[undamped->coordinate_index("arm")];
    const double slide = s.v[undamped->coordinate_index("slide")];
    const double flap = s.v[undamped->coordinate_index("flap")] - s.v[base];
    CHECK(s.v.dot(extra) == doctest::Approx(-0.6 * (arm * arm + slide * slide + flap * flap)));
  }
}

TEST_CASE("model: a free falling ball accelerates at (0, −g, 0)") {
  const auto ball = routh::make_ball(0.1, 0.3);
  CHECK(ball->coordinate_names() == std::vector<std::string>{"x", "y", "theta"});
  CHECK(ball->coordinate_units() == std::vector<std::string>{"m", "m", "rad"});
  const VectorXd q = Eigen::Vector3d(0.4, 2.0, 1.1), v = Eigen::Vector3d(1.0, -3.0, 25.0);
  const VectorXd acceleration = mass_matrix(*ball, q).llt().solve(force(*ball, 0.0, q, v));
  CHECK((acceleration - Eigen::Vector3d(0.0, -routh::kDefaultGravity, 0.0)).norm() < 1e-14);
  const routh::ContactKinematics contacts = contacts_at(*ball, q, v);
  CHECK(contacts.gap[0] == doctest::Approx(1.9));
  CHECK(contacts.jacobian(1, 2) == doctest::Approx(0.1));  // slip u_t = ẋ + r ω
  CHECK(ball->potential_energy(q) == doctest::Approx(0.3 * routh::kDefaultGravity * 2.0));
}

TEST_CASE("model: base excitation adds the inertial load −m a_g on a free body") {
  const double mass = 50.0;
  routh::ModelOptions shaking;
  shaking.ground_acceleration = [](double t) { return Eigen::Vector2d(2.0 * std::sin(t), 0.5); };
  const auto still = routh::make_rocking_block(0.4, 1.2, mass);
  const auto shaken = routh::make_rocking_block(0.4, 1.2, mass, shaking);
  const VectorXd q = Eigen::Vector3d(0.1, 0.6, 0.05), v = Eigen::Vector3d(0.2, -0.1, 0.7);
  const double t = 0.7;
  const VectorXd load = force(*shaken, t, q, v) - force(*still, t, q, v);
  CHECK((load - Eigen::Vector3d(-mass * 2.0 * std::sin(t), -mass * 0.5, 0.0)).norm() < 1e-12);
  // the gaps stay against the ground-fixed floor
  CHECK((contacts_at(*shaken, q, v).gap - contacts_at(*still, q, v).gap).norm() == 0.0);
}

TEST_CASE("model: a pendulum's M and f equal m L²/3 and −m g (L/2) sin θ − k θ − c θ̇") {
  const double L = 0.8, m = 2.0, g = routh::kDefaultGravity;
  const auto pendulum = routh::make_pendulum(L, m);
  CHECK(pendulum->coordinate_names() == std::vector<std::string>{"theta"});
  CHECK(pendulum->contact_names() == std::vector<std::string>{"tip"});
  const VectorXd q = VectorXd::Constant(1, 0.4), v = VectorXd::Constant(1, -1.3);
  CHECK(mass_matrix(*pendulum, q)(0, 0) == doctest::Approx(m * L * L / 3.0).epsilon(1e-14));
  CHECK(force(*pendulum, 0.0, q, v)[0] ==
        doctest::Approx(-m * g * 0.5 * L * std::sin(0.4)).epsilon(1e-14));
  CHECK(pendulum->potential_energy(q) == doctest::Approx(-m * g * 0.5 * L * std::cos(0.4)));
  // the tip strikes the wall through the pivot: gap L sin θ, u_n = L cos θ θ̇
  const routh::ContactKinematics tip = contacts_at(*pendulum, q, v);
  CHECK(tip.gap[0] == doctest::Approx(L * std::sin(0.4)));
  CHECK(tip.jacobian(0, 0) == doctest::Approx(L * std::cos(0.4)));
  CHECK(tip.jacobian_dot_v[0] == doctest::Approx(-L * std::sin(0.4) * 1.69));

  // the same link built by hand with a torsion spring-damper at the pivot
  routh::PlanarTreeBuilder builder;
  routh::PlanarJoint pivot = routh::revolute_joint(routh::kGround, {0.0, 0.0}, "theta");
  pivot.springs = {routh::JointSpring{4.0, 0.1, 0.5}};
  builder.add_body("link", routh::uniform_rod(L, m, {0.0, -0.5 * L}), pivot);
  const auto sprung = builder.build();
  CHECK(force(*sprung, 0.0, q, v)[0] ==
        doctest::Approx(-m * g * 0.5 * L * std::sin(0.4) - 4.0 * (0.4 - 0.1) - 0.5 * -1.3));
}

TEST_CASE("model: the double pendulum's M and tip Jacobian are paper 000's C, D, a_i, b_i") {
  // Paper 000 example 1; routh's θ_i (counter-clockwise from the downward vertical) is the
  // paper's q_i, its tangent +x (see make_double_pendulum).
  const auto pendulum = routh::make_double_pendulum();
  CHECK(pendulum->coordinate_names() == std::vector<std::string>{"theta1", "theta2"});
  const double m = 3.0, l = 2.0;
  const VectorXd q = Eigen::Vector2d(20.0 * kDegree, 30.0 * kDegree);
  const VectorXd v = Eigen::Vector2d(-0.1, -0.2);
  const MatrixXd M = mass_matrix(*pendulum, q);
  const double D2 = m * l * l / 3.0, D1 = 0.5 * m * l * l * std::cos(q[1] - q[0]);
  CHECK(M(0, 0) == doctest::Approx(4.0 * D2).epsilon(1e-14));  // C₁
  CHECK(M(0, 1) == doctest::Approx(D1).epsilon(1e-14));        // D₁
  CHECK(M(1, 0) == doctest::Approx(D1).epsilon(1e-14));        // C₂
  CHECK(M(1, 1) == doctest::Approx(D2).epsilon(1e-14));        // D₂
  const routh::ContactKinematics tip = contacts_at(*pendulum, q, v);
  CHECK(std::abs(tip.gap[0]) < 1e-14);  // the paper's impact configuration touches the floor
  for (int i = 0; i < 2; ++i) {
    CHECK(tip.jacobian(0, i) == doctest::Approx(l * std::sin(q[i])).epsilon(1e-14));  // a_i
    CHECK(tip.jacobian(1, i) == doctest::Approx(l * std::cos(q[i])).epsilon(1e-14));  // b_i
  }
  const Eigen::Vector2d u = tip.jacobian * v;
  CHECK(u[0] < 0.0);  // approaching the floor
  CHECK(u[1] < 0.0);  // slipping in −x
}

TEST_CASE("model: the rocking block's M about a corner and D = J M⁻¹ Jᵀ in closed form") {
  const double w = 0.4, h = 1.2, m = 50.0;
  const auto block = routh::make_rocking_block(w, h, m);
  CHECK(block->contact_names() == std::vector<std::string>{"left_corner", "right_corner",
                                                           "top_right_corner", "top_left_corner"});
  const double I = m * (w * w + h * h) / 12.0;
  const double theta = 0.15;
  const VectorXd q = Eigen::Vector3d(0.3, 0.7, theta);
  const MatrixXd M = mass_matrix(*block, q);
  CHECK((M - Eigen::Vector3d(m, m, I).asDiagonal().toDenseMatrix()).norm() < 1e-12);

  // rotating about the left corner at rate ω, T = ½ I_O ω² with I_O = m (w² + h²)/3
  const Eigen::Vector2d corner = routh::rotation(theta) * Eigen::Vector2d(-w / 2, -h / 2);
  const double omega = 0.8;
  const VectorXd about_corner = Eigen::Vector3d(omega * corner.y(), -omega * corner.x(), omega);
  const routh::ContactKinematics contacts = contacts_at(*block, q, about_corner);
  CHECK((contacts.jacobian.topRows(2) * about_corner).norm() < 1e-15);  // the corner is still
  CHECK(0.5 * about_corner.dot(M * about_corner) ==
        doctest::Approx(0.5 * m * (w * w + h * h) / 3.0 * omega * omega).epsilon(1e-14));

  // D_ab = d_a·d_b / m + (r_a × d_a)(r_b × d_b) / I for rows along d at corner offsets r
  const MatrixXd D = contacts.jacobian * M.llt().solve(contacts.jacobian.transpose());
  const Eigen::Vector2d n(0.0, 1.0), t(1.0, 0.0);
  std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> rows;  // (r, d)
  for (double side : {-1.0, 1.0}) {
    const Eigen::Vector2d r = routh::rotation(theta) * Eigen::Vector2d(side * w / 2, -h / 2);
    rows.emplace_back(r, n);
    rows.emplace_back(r, t);
  }
  const auto cross = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() * b.y() - a.y() * b.x();
  };
  for (std::size_t a = 0; a < 4; ++a) {
    for (std::size_t b = 0; b < 4; ++b) {
      const double expected =
          rows[a].second.dot(rows[b].second) / m +
          cross(rows[a].first, rows[a].second) * cross(rows[b].first, rows[b].second) / I;
      CHECK(D(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) ==
            doctest::Approx(expected).epsilon(1e-13));
    }
  }
}

TEST_CASE("model: the rod at 45° has paper 004's falling-rod M and J") {
  // scenarios/impacts/falling_rod_paper004.yaml: M = diag(1, 1, 1/12), J = [[0, 1, −√2/4],
  // [1, 0, √2/4]] for the lower (left) end of a 1 m, 1 kg rod at 45°.
  const auto rod = routh::make_rod(1.0, 1.0);
  const routh::PlanarState start =
      routh::complete_initial_state(*rod, {{"theta", std::numbers::pi / 4}});
  const MatrixXd M = mass_matrix(*rod, start.q);
  CHECK((M - Eigen::Vector3d(1.0, 1.0, 1.0 / 12.0).asDiagonal().toDenseMatrix()).norm() < 1e-15);
  const routh::ContactKinematics ends = contacts_at(*rod, start.q, start.v);
  CHECK(std::abs(ends.gap[0]) < 1e-15);
  CHECK(ends.gap[1] == doctest::Approx(std::sqrt(0.5)));
  const double r = std::sqrt(2.0) / 4.0;
  CHECK((ends.jacobian.row(0) - Eigen::RowVector3d(0.0, 1.0, -r)).norm() < 1e-15);
  CHECK((ends.jacobian.row(1) - Eigen::RowVector3d(1.0, 0.0, r)).norm() < 1e-15);
}

TEST_CASE("model: complete_initial_state rests the rocking block on its lower corner") {
  const double w = 0.4, h = 1.2;
  const auto block = routh::make_rocking_block(w, h, 50.0);
  for (double theta : {0.2, -0.1}) {
    CAPTURE(theta);
    const routh::PlanarState start =
        routh::complete_initial_state(*block, {{"theta", theta}}, {{"theta", -0.5}});
    CHECK(start.q[0] == 0.0);
    CHECK(start.q[2] == theta);
    const routh::ContactKinematics corners = contacts_at(*block, start.q, start.v);
    const Eigen::Index lower = theta > 0.0 ? 0 : 1, upper = 1 - lower;  // left lower when θ > 0
    CHECK(std::abs(corners.gap[lower]) < 1e-14);
    CHECK(corners.gap[upper] == doctest::Approx(w * std::sin(std::abs(theta))));
    // rocking about the lower corner: it does not move, and θ̇ is as given
    CHECK((corners.jacobian.middleRows(2 * lower, 2) * start.v).norm() < 1e-14);
    CHECK(start.v[2] == -0.5);
  }
  // flat on the floor, turning: the pivot is the corner the other does not sink about
  const routh::PlanarState flat = routh::complete_initial_state(*block, {}, {{"theta", 0.3}});
  CHECK(flat.q[1] == doctest::Approx(h / 2));
  const routh::ContactKinematics corners = contacts_at(*block, flat.q, flat.v);
  CHECK((corners.jacobian * flat.v)[0] == doctest::Approx(0.0));      // left still
  CHECK((corners.jacobian * flat.v)[2] == doctest::Approx(0.3 * w));  // right rises
}

TEST_CASE("model: complete_initial_state of the ball, the chain and a bad name") {
  const auto ball = routh::make_ball(0.1, 1.0);
  const routh::PlanarState rolling =
      routh::complete_initial_state(*ball, {{"x", 1.0}}, {{"theta", -2.0}});
  CHECK(rolling.q[1] == doctest::Approx(0.1));
  CHECK(rolling.v[0] == doctest::Approx(0.2));  // ẋ = −r θ̇
  CHECK(rolling.v[1] == 0.0);
  const routh::PlanarState dropped =
      routh::complete_initial_state(*ball, {{"y", 2.0}}, {{"theta", 1.0}});
  CHECK(dropped.q[1] == 2.0);
  CHECK(dropped.v[0] == 0.0);  // not resting: no rolling constraint

  const auto chain = routh::make_chain(3, 0.5, 0.3);
  CHECK(chain->coordinate_names() == std::vector<std::string>{"theta1", "theta2", "theta3"});
  CHECK(chain->contact_count() == 0);
  const routh::PlanarState hanging = routh::complete_initial_state(*chain, {{"theta2", 0.4}});
  CHECK(hanging.q == Eigen::Vector3d(0.0, 0.4, 0.0));
  CHECK(hanging.v == Eigen::Vector3d::Zero());
  CHECK_THROWS_WITH_AS(routh::complete_initial_state(*chain, {{"theta4", 0.1}}),
                       doctest::Contains("did you mean 'theta"), std::invalid_argument);
}

TEST_CASE("model: a planar tree rejects inconsistent descriptions") {
  const auto build_with = [](const std::function<void(routh::PlanarTreeBuilder&)>& add) {
    routh::PlanarTreeBuilder builder;
    add(builder);
    return builder.build();
  };
  CHECK_THROWS_AS(build_with([](auto& b) {
                    b.add_body("a", {0.0, {0, 0}, 1.0}, routh::free_joint());
                  }),
                  std::invalid_argument);
  CHECK_THROWS_AS(build_with([](auto& b) {
                    b.add_body("a", {1.0, {0, 0}, 1.0}, routh::revolute_joint(2, {0, 0}, "q"));
                  }),
                  std::invalid_argument);
  CHECK_THROWS_AS(build_with([](auto& b) {
                    const int a = b.add_body("a", {1.0, {0, 0}, 1.0}, routh::free_joint());
                    b.add_contact("c", {a, {0, 0}, 0.0, {{0, 0}, {0.0, 2.0}}});
                  }),
                  std::invalid_argument);
  // a free body without rotational inertia leaves θ massless: M(0) is singular
  CHECK_THROWS_AS(build_with([](auto& b) {
                    b.add_body("a", {1.0, {0, 0}, 0.0}, routh::free_joint());
                  }),
                  std::invalid_argument);
  // ... but a point mass on a polar arm, singular only with the mass at the pivot, is valid
  CHECK_NOTHROW(build_with([](auto& b) {
    const int arm = b.add_body("arm", {1.0, {0, 0}, 0.0}, routh::revolute_joint(-1, {0, 0}, "phi"));
    b.add_body("bead", {1.0, {0, 0}, 0.0},
               routh::prismatic_joint(arm, {0, 0}, Eigen::Vector2d::UnitX(), "r"));
  }));
  CHECK_THROWS_AS(routh::make_rocking_block(0.4, -1.0, 1.0), std::invalid_argument);
  const auto ball = routh::make_ball(0.1, 1.0);
  MatrixXd M;
  CHECK_THROWS_AS(ball->mass_matrix(VectorXd::Zero(2), M), std::invalid_argument);
}

TEST_CASE("model: a model that calls its M constant has the same M everywhere, a chain's is not") {
  // a stack of free blocks, each at its centre of mass: M = diag(m, m, I) per block at every q
  const auto stack = routh::make_stacked_blocks({{0.4, 0.3, 2.0, "a"}, {0.2, 0.5, 1.0, "b"}});
  REQUIRE(stack->constant_mass_matrix());
  const MatrixXd M0 = mass_matrix(*stack, VectorXd::Zero(stack->coordinate_count()));
  for (const Sample& s : random_states(*stack, 10)) CHECK(mass_matrix(*stack, s.q) == M0);
  // a chain's M varies with the angles between its links
  const auto chain = routh::make_chain(3, 0.5, 0.3, routh::floor_at(-2.0));
  CHECK_FALSE(chain->constant_mass_matrix());
  const std::vector<Sample> states = random_states(*chain, 2);
  CHECK(mass_matrix(*chain, states[0].q) != mass_matrix(*chain, states[1].q));
}

TEST_CASE("model: contact rows are zero outside the velocities each contact lists, at any subset") {
  // the rows of a contact between two blocks touch both blocks' velocities, a floor contact one
  // block's; after evaluating one subset the model clears only what it wrote, so a second subset
  // of the same size must read as if evaluated afresh
  const auto stack = routh::make_stacked_blocks(
      {{0.4, 0.3, 2.0, "a"}, {0.3, 0.3, 1.0, "b"}, {0.2, 0.4, 1.0, "c"}});
  const int n = stack->coordinate_count();
  std::vector<int> first, second;
  for (int k = 0; k < stack->contact_count(); ++k) (k % 2 == 0 ? first : second).push_back(k);
  first.resize(second.size());
  int checked = 0;
  for (const Sample& s : random_states(*stack, 5)) {
    auto workspace = stack->make_workspace();
    routh::StateQuantities reused, fresh;
    for (const std::vector<int>* subset : {&first, &second}) {
      stack->evaluate(0.0, s.q, s.v, {.contacts = true, .contact_subset = subset}, *workspace,
                      reused);
    }
    stack->evaluate(0.0, s.q, s.v, {.contacts = true, .contact_subset = &second},
                    *stack->make_workspace(), fresh);
    CHECK(reused.contacts.jacobian == fresh.contacts.jacobian);
    const routh::ContactKinematics& contacts = fresh.contacts;
    REQUIRE(contacts.touched_start.size() == second.size() + 1);
    for (std::size_t i = 0; i < second.size(); ++i) {
      std::vector<bool> listed(static_cast<std::size_t>(n), false);
      for (int e = contacts.touched_start[i]; e < contacts.touched_start[i + 1]; ++e) {
        const int j = contacts.touched_velocities[static_cast<std::size_t>(e)];
        if (e > contacts.touched_start[i])  // ascending
          CHECK(j > contacts.touched_velocities[static_cast<std::size_t>(e) - 1]);
        listed[static_cast<std::size_t>(j)] = true;
      }
      for (int j = 0; j < n; ++j) {
        if (listed[static_cast<std::size_t>(j)]) continue;
        CHECK(contacts.jacobian(static_cast<Eigen::Index>(2 * i), j) == 0.0);
        CHECK(contacts.jacobian(static_cast<Eigen::Index>(2 * i + 1), j) == 0.0);
        ++checked;
      }
    }
  }
  CHECK(checked > 0);
}
