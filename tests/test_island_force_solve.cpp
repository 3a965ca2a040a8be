// The contact-force solve of one large island (sim/simulation/contact_forces.hpp) against an
// independent dense solve of the same equations. A column of twelve drums, aligned and moving,
// rocking on one floor corner and at one joint, closes 43 corners on the faces across them (a
// drum's bottom corner touches the top face below and, corner on corner, the side face below):
// up to 86 force unknowns on 36 velocities, a singular J_c M⁻¹ W whose minimum-norm forces the
// solve takes (by its full-pivot LU) after forming the matrix from the nonzero patterns of the
// contact rows and of M⁻¹. The reference forms A = J_c M⁻¹ W and b = −(J_c M⁻¹ f + J̇_c v) with
// dense products and Eigen's Cholesky of M, and takes the minimum-norm solution by a complete
// orthogonal decomposition; the accelerations
// v̇ = M⁻¹ (f + W λ) of every solution of a consistent system are the same (W z = 0 on ker A when
// every contact sticks), so v̇ must agree whatever split of the forces each solve picks. The
// closed contacts' accelerations J_c v̇ + J̇_c v must vanish, a check of the equations themselves.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <random>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

constexpr int kDrums = 12;

// Twelve 0.6 m × 0.5 m marble drums (382 kg), stacked on the floor.
Scenario column() {
  const std::string yaml = "name: column\nduration: 1\nmodel:\n  type: stacked_blocks\n  blocks: " +
                           std::to_string(kDrums) +
                           "\n  width: 0.6\n  height: 0.5\n  mass: 382\ninitial: {}\n"
                           "contact:\n  law: poisson\n  restitution: 0\n"
                           "  friction: {static: 0.7, kinetic: 0.6}\n";
  return load_scenario(test::write_problem(yaml, "island_force_column.yaml"));
}

struct Reference {
  Eigen::VectorXd acceleration;
  Eigen::MatrixXd rows;            // J_c
  Eigen::VectorXd velocity_terms;  // J̇_c v
};

// The dense reference: A, b and the minimum-norm λ without any of the solve's bookkeeping.
Reference dense_solve(const StateQuantities& state, const std::vector<ContactMode>& modes,
                      const ContactParameterTable& parameters) {
  const ContactKinematics& kinematics = state.contacts;
  const auto n = kinematics.jacobian.cols();
  std::vector<Eigen::VectorXd> rows, directions;
  std::vector<double> velocity_terms;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (modes[k] == ContactMode::open) continue;
    const auto r = static_cast<Eigen::Index>(2 * k);
    const Eigen::VectorXd J_n = kinematics.jacobian.row(r).transpose();
    const Eigen::VectorXd J_t = kinematics.jacobian.row(r + 1).transpose();
    rows.push_back(J_n);
    velocity_terms.push_back(kinematics.jacobian_dot_v[r]);
    if (modes[k] == ContactMode::stick) {
      directions.push_back(J_n);
      rows.push_back(J_t);
      velocity_terms.push_back(kinematics.jacobian_dot_v[r + 1]);
      directions.push_back(J_t);
    } else {  // Coulomb sliding: λ_t = −μd σ λ_n
      directions.push_back(J_n - parameters[k].kinetic_friction * slip_direction(modes[k]) * J_t);
    }
  }
  const auto u = static_cast<Eigen::Index>(rows.size());
  Reference reference;
  reference.rows.resize(u, n);
  reference.velocity_terms.resize(u);
  Eigen::MatrixXd W(n, u);
  for (Eigen::Index i = 0; i < u; ++i) {
    reference.rows.row(i) = rows[static_cast<std::size_t>(i)].transpose();
    reference.velocity_terms[i] = velocity_terms[static_cast<std::size_t>(i)];
    W.col(i) = directions[static_cast<std::size_t>(i)];
  }
  const Eigen::LLT<Eigen::MatrixXd> mass(state.mass_matrix);
  const Eigen::VectorXd free = mass.solve(state.generalized_force);
  const Eigen::MatrixXd A = reference.rows * mass.solve(W);
  const Eigen::VectorXd b = -(reference.rows * free + reference.velocity_terms);
  const Eigen::VectorXd lambda = A.completeOrthogonalDecomposition().solve(b);
  reference.acceleration = free + mass.solve(W * lambda);
  return reference;
}

TEST_CASE("island force solve: a moving column against a dense minimum-norm solve") {
  const Scenario scenario = column();
  const MechanicalSystem& model = *scenario.model;
  const auto workspace = model.make_workspace();
  const Eigen::VectorXd& q = scenario.initial.q;
  // the column pivots on drum 1's right floor corner and its top six drums on drum 7's bottom
  // right corner (its left one open): two degrees of freedom, both falling back under
  // gravity. The drums move, the closed corners neither slipping nor approaching (else the rows
  // of one face's corners would ask for accelerations no motion has): a random v projected onto
  // ker J of the closed contacts, slow enough that J̇v stays of the order of gravity
  std::mt19937_64 engine(20261126);
  std::uniform_real_distribution<double> uniform(-0.2, 0.2);
  Eigen::VectorXd v(q.size());
  for (Eigen::Index j = 0; j < v.size(); ++j) v[j] = uniform(engine);
  StateQuantities state;
  model.evaluate(0.0, q, Eigen::VectorXd::Zero(q.size()), {.contacts = true}, *workspace, state);
  // every touching corner closes but those named: a drum's bottom corners touch the face
  // below, and aligned also the side face below them, corner on corner
  const auto closes = [&](int k) {
    const std::string& name = model.contact_names()[static_cast<std::size_t>(k)];
    return state.contacts.gap[k] <= scenario.settings.contact_distance &&
           name != "block1.bottom_left/floor" && !name.starts_with("block7.bottom_left/");
  };
  std::vector<Eigen::Index> touching_rows;
  for (int k = 0; k < model.contact_count(); ++k) {
    if (!closes(k)) continue;
    touching_rows.push_back(2 * k);
    touching_rows.push_back(2 * k + 1);
  }
  const Eigen::MatrixXd J_touching = state.contacts.jacobian(touching_rows, Eigen::all);
  v -= J_touching.completeOrthogonalDecomposition().solve(J_touching * v);
  REQUIRE((J_touching * v).cwiseAbs().maxCoeff() < 1e-12);
  model.evaluate(0.0, q, v, {.mass_matrix = true, .generalized_force = true, .contacts = true},
                 *workspace, state);
  std::vector<ContactMode> sticking(static_cast<std::size_t>(model.contact_count()),
                                    ContactMode::open);
  for (int k = 0; k < model.contact_count(); ++k) {
    if (closes(k)) sticking[static_cast<std::size_t>(k)] = ContactMode::stick;
  }
  // one on the floor and four at each joint but drum 7's two: 86 force unknowns, 36 velocities
  REQUIRE(std::count(sticking.begin(), sticking.end(), ContactMode::stick) ==
          1 + 4 * (kDrums - 1) - 2);
  // the same contacts with every third one sliding, alternately either way
  std::vector<ContactMode> mixed = sticking;
  int closed = 0;
  for (ContactMode& mode : mixed) {
    if (mode == ContactMode::open || closed++ % 3 != 0) continue;
    mode = closed % 2 == 0 ? ContactMode::slide_positive : ContactMode::slide_negative;
  }
  for (const auto& modes : {sticking, mixed}) {
    const std::string which = modes == sticking ? "every contact sticks" : "every third slides";
    CAPTURE(which);
    StateQuantities solved_state;
    model.evaluate(0.0, q, v, constrained_acceleration_needs(modes), *workspace, solved_state);
    ContactForceWorkspace force_workspace;
    ConstrainedAcceleration out;
    constrained_acceleration(solved_state, modes, scenario.settings.contacts, force_workspace, out);
    REQUIRE(out.consistent);
    const Reference reference = dense_solve(solved_state, modes, scenario.settings.contacts);
    // the accelerations are of the order of 1 m/s²; the tolerance is round-off of an 86-unknown
    // singular solve (condition of the nonzero part ~1e4 for 382 kg drums of 0.6 m)
    const double scale = reference.acceleration.cwiseAbs().maxCoeff();
    CHECK(scale > 0.1);
    CHECK((out.acceleration - reference.acceleration).cwiseAbs().maxCoeff() <= 1e-9 * scale);
    // the closed contacts do not accelerate along their constrained rows
    const Eigen::VectorXd contact_acceleration =
        reference.rows * out.acceleration + reference.velocity_terms;
    CHECK(contact_acceleration.cwiseAbs().maxCoeff() <= 1e-9 * scale);
  }
}

}  // namespace
}  // namespace routh
