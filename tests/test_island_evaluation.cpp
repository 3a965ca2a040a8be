// Island-restricted evaluations (sim/simulation/system_evaluation.hpp): the forces of one island
// of closed contacts, evaluated with that island's contacts alone, against the same forces from
// the evaluation of every contact. Three towers of three blocks stand 1 m apart on the floor,
// shaken, moving (a random v projected onto the closed contacts' constraints), with every
// touching corner closed and every third of them sliding. The force solve works island by island
// (contact_forces.hpp), so an island's forces and its stick reserve must be the whole solve's to
// the last digit, and the island must be its tower's closed contacts, no more, no fewer.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <random>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

constexpr int kTowers = 3, kBlocksPerTower = 3;

// Towers of 0.6 m × 0.075 m blocks (2.5 kg), tower k at x = k m, under a harmonic shaking.
Scenario three_towers() {
  std::string positions;
  for (int block = 0; block < kTowers * kBlocksPerTower; ++block) {
    positions += (block == 0 ? "" : ", ") + std::string("block") + std::to_string(block + 1) +
                 ".x: " + std::to_string(block / kBlocksPerTower);
  }
  const std::string yaml =
      "name: towers\nduration: 1\nmodel:\n  type: stacked_blocks\n  blocks: " +
      std::to_string(kTowers * kBlocksPerTower) +
      "\n  width: 0.6\n  height: 0.075\n  mass: 2.5\ninitial:\n  q: {" + positions +
      "}\ncontact:\n  law: poisson\n  restitution: 0\n  friction: {static: 0.7, kinetic: 0.6}\n"
      "excitation:\n  harmonic: {amplitude: 3.5, frequency: 3, direction: x}\n";
  return load_scenario(test::write_problem(yaml, "island_evaluation_towers.yaml"));
}

// The tower of the block a contact's name starts with ("block4.bottom_left/block3.top": 1).
int tower_of(const std::string& contact_name) {
  const std::size_t dot = contact_name.find('.');
  return (std::stoi(contact_name.substr(5, dot - 5)) - 1) / kBlocksPerTower;
}

}  // namespace

TEST_CASE("island evaluation: an island's forces alone are the whole solve's, to the last digit") {
  const Scenario scenario = three_towers();
  const MechanicalSystem& model = *scenario.model;
  SystemEvaluation evaluation(model, scenario.settings.contacts);
  const Eigen::VectorXd& q = scenario.initial.q;
  const ContactKinematics at_rest = contacts_at(evaluation, q, Eigen::VectorXd::Zero(q.size()));
  std::vector<ContactMode> modes(static_cast<std::size_t>(evaluation.contacts), ContactMode::open);
  std::vector<Eigen::Index> closed_rows;
  int closed = 0;
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (at_rest.gap[k] > scenario.settings.contact_distance) continue;
    modes[static_cast<std::size_t>(k)] = closed++ % 3 != 0 ? ContactMode::stick
                                         : closed % 2 == 0 ? ContactMode::slide_positive
                                                           : ContactMode::slide_negative;
    closed_rows.push_back(2 * k);
  }
  // per tower two floor corners, and at each joint a block's two bottom corners on the top face
  // below and, aligned corner on corner, on the side faces below
  REQUIRE(closed == kTowers * (2 + 4 * (kBlocksPerTower - 1)));
  std::mt19937_64 engine(20261126);
  std::uniform_real_distribution<double> uniform(-0.2, 0.2);
  Eigen::VectorXd v(q.size());
  for (Eigen::Index j = 0; j < v.size(); ++j) v[j] = uniform(engine);
  const Eigen::MatrixXd J_n = at_rest.jacobian(closed_rows, Eigen::all);
  v -= J_n.completeOrthogonalDecomposition().solve(J_n * v);
  constexpr double t = 0.05;  // [s] the shaking is on

  const ConstrainedAcceleration whole = dynamics_at(evaluation, t, q, v, modes);
  REQUIRE(whole.consistent);
  const std::vector<std::string>& names = model.contact_names();
  std::vector<int> island;
  for (int k = 0; k < evaluation.contacts; ++k) {
    const auto c = static_cast<std::size_t>(k);
    if (!is_closed(modes[c])) continue;
    const std::string& name = names[static_cast<std::size_t>(evaluation.active[c])];
    CAPTURE(name);
    closed_island_of(evaluation, q, v, modes, k, island);
    // the island is the closed contacts of k's tower
    int of_tower = 0;
    for (int other = 0; other < evaluation.contacts; ++other) {
      const std::string& other_name =
          names[static_cast<std::size_t>(evaluation.active[static_cast<std::size_t>(other)])];
      if (is_closed(modes[static_cast<std::size_t>(other)]) &&
          tower_of(other_name) == tower_of(name))
        ++of_tower;
    }
    CHECK(static_cast<int>(island.size()) == of_tower);
    for (const int member : island) {
      CHECK(tower_of(names[static_cast<std::size_t>(
                evaluation.active[static_cast<std::size_t>(member)])]) == tower_of(name));
    }
    const ConstrainedAcceleration& alone = island_dynamics_at(evaluation, t, q, v, modes, island);
    REQUIRE(alone.forces.size() == island.size());
    for (std::size_t i = 0; i < island.size(); ++i) {
      const ContactForce& expected = whole.forces[static_cast<std::size_t>(island[i])];
      CHECK(alone.forces[i].normal == expected.normal);
      CHECK(alone.forces[i].tangential == expected.tangential);
      CHECK(alone.forces[i].in_indeterminate_set == expected.in_indeterminate_set);
      CHECK(alone.forces[i].stick_reserve == expected.stick_reserve);
    }
  }
  // an open contact's island is itself
  for (int k = 0; k < evaluation.contacts; ++k) {
    if (is_closed(modes[static_cast<std::size_t>(k)])) continue;
    closed_island_of(evaluation, q, v, modes, k, island);
    CHECK(island == std::vector<int>{k});
    break;
  }
}

}  // namespace routh
