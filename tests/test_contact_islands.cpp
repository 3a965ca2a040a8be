// Islands (sim/simulation/contact_islands.hpp): the mechanisms M couples and the islands contacts
// join them into, on hand-made matrices; and the contact forces of towers standing apart, solved
// island by island, against each tower solved as a model of its own (the reference: the same
// equations with no other tower in them, solved without any island bookkeeping).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/contact_islands.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

TEST_CASE("contact islands: mechanisms are the groups of velocities M couples") {
  // velocities 0 and 3 coupled, 1 and 4 coupled, 2 alone: three blocks of M, interleaved
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(5, 5);
  M(0, 3) = M(3, 0) = 0.2;
  M(1, 4) = M(4, 1) = -0.3;
  std::vector<int> mechanism;
  find_mechanisms(M, mechanism);
  CHECK(mechanism == std::vector<int>{0, 1, 2, 0, 1});
  find_mechanisms(Eigen::MatrixXd::Ones(4, 4), mechanism);  // a chain: everything coupled
  CHECK(mechanism == std::vector<int>{0, 0, 0, 0});
}

TEST_CASE("contact islands: each mechanism's velocities, and a^T M b summed block by block") {
  // the interleaved blocks above: {0, 3}, {1, 4}, {2}
  Eigen::MatrixXd M = Eigen::MatrixXd::Identity(5, 5);
  M.diagonal() << 2.0, 3.0, 5.0, 7.0, 11.0;
  M(0, 3) = M(3, 0) = 0.2;
  M(1, 4) = M(4, 1) = -0.3;
  Mechanisms mechanisms;
  find_mechanisms(M, mechanisms);
  CHECK(mechanisms.of_velocity == std::vector<int>{0, 1, 2, 0, 1});
  REQUIRE(mechanisms.count() == 3);
  CHECK(mechanisms.velocities == std::vector<int>{0, 3, 1, 4, 2});
  CHECK(mechanisms.start == std::vector<int>{0, 2, 4, 5});
  // the reference: the dense product, over every entry of M
  Eigen::VectorXd a(5), b(5);
  a << 1.0, -2.0, 0.5, 3.0, -1.5;
  b << 0.25, 4.0, -1.0, 2.0, 0.75;
  CHECK(mass_product(mechanisms, M, a, b) == doctest::Approx(a.dot(M * b)).epsilon(1e-15));
  CHECK(mass_product(mechanisms, M, b, b) == doctest::Approx(b.dot(M * b)).epsilon(1e-15));
}

TEST_CASE("contact islands: contacts join the mechanisms of the velocities they touch") {
  // six velocities in three mechanisms (two bodies' worth each); four contacts
  const std::vector<int> mechanism{0, 0, 1, 1, 2, 2};
  ContactKinematics kinematics;
  kinematics.gap = Eigen::VectorXd::Zero(4);
  kinematics.touched_velocities = {1,     // contact 0: mechanism 0 on the ground
                                   0, 3,  // contact 1: mechanisms 0 and 1
                                   2, 5,  // contact 2: mechanisms 1 and 2, but not in the set
                                   4};    // contact 3: mechanism 2
  kinematics.touched_start = {0, 1, 3, 5, 6};
  ContactIslands islands;
  find_contact_islands(kinematics, {true, true, false, true}, mechanism, islands);
  REQUIRE(islands.count == 2);
  CHECK(islands.contacts == std::vector<int>{0, 1, 3});
  CHECK(islands.contact_start == std::vector<int>{0, 2, 3});
  CHECK(islands.velocities == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(islands.velocity_start == std::vector<int>{0, 4, 6});
  // with contact 2 in the set, it joins them into one
  find_contact_islands(kinematics, {true, true, true, true}, mechanism, islands);
  REQUIRE(islands.count == 1);
  CHECK(islands.contacts == std::vector<int>{0, 1, 2, 3});
  // a mechanism no contact touches is in no island
  find_contact_islands(kinematics, {true, false, false, false}, mechanism, islands);
  REQUIRE(islands.count == 1);
  CHECK(islands.velocities == std::vector<int>{0, 1});
}

// A tower of a plinth and a statue (the stacked_blocks preset), labelled `label`, at x [m]. Its
// statue's corners on the plinth are solved sliding `slide`, its other contacts sticking.
struct Tower {
  std::string label;
  double x, statue_width, statue_mass;
  ContactMode slide;
};

Scenario towers(const std::vector<Tower>& list, const std::string& file) {
  std::ostringstream yaml;
  const auto each = [&](const auto& write) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      yaml << (i ? ", " : "");
      write(list[i]);
    }
  };
  yaml << "name: " << file
       << "\nduration: 1\nmodel:\n  type: stacked_blocks\n  blocks: " << 2 * list.size()
       << "\n  names: [";
  each([&](const Tower& t) { yaml << "plinth_" << t.label << ", statue_" << t.label; });
  yaml << "]\n  width: [";
  each([&](const Tower& t) { yaml << "0.6, " << t.statue_width; });
  yaml << "]\n  height: [";
  each([&](const Tower&) { yaml << "0.8, 0.6"; });
  yaml << "]\n  mass: [";
  each([&](const Tower& t) { yaml << "388.8, " << t.statue_mass; });
  yaml << "]\ninitial:\n  q: {";
  each([&](const Tower& t) {
    yaml << "plinth_" << t.label << ".x: " << t.x << ", statue_" << t.label << ".x: " << t.x;
  });
  yaml
      << "}\ncontact:\n  law: poisson\n  restitution: 0\n  friction: {static: 0.6, kinetic: 0.5}\n";
  return load_scenario(test::write_problem(yaml.str(), file + ".yaml"));
}

struct Solved {
  std::vector<std::string> contact_names, velocity_names;
  ConstrainedAcceleration dynamics;
};

// The forces of every touching contact closed at the initial state (at rest).
Solved solve_resting(const Scenario& scenario, const std::vector<Tower>& list) {
  const PlanarTree& model = *scenario.planar;
  std::vector<ContactMode> modes;
  StateQuantities state;
  const auto workspace = model.make_workspace();
  std::vector<int> nearby;  // the broad phase's: a corner's gap beyond its edge's end is no contact
  model.nearby_contacts(scenario.initial.q, *workspace, nearby);
  model.evaluate(0.0, scenario.initial.q, scenario.initial.v, {.contacts = true}, *workspace,
                 state);
  for (int k = 0; k < model.contact_count(); ++k) {
    const std::string& name = model.contact_names()[static_cast<std::size_t>(k)];
    ContactMode mode = ContactMode::open;
    if (std::find(nearby.begin(), nearby.end(), k) != nearby.end() &&
        state.contacts.gap[k] <= scenario.settings.contact_distance)
      mode = ContactMode::stick;
    for (const Tower& t : list) {
      if (mode != ContactMode::open && name.starts_with("statue_" + t.label + ".") &&
          name.find("/plinth_" + t.label) != std::string::npos)
        mode = t.slide;
    }
    modes.push_back(mode);
  }
  model.evaluate(0.0, scenario.initial.q, scenario.initial.v, constrained_acceleration_needs(modes),
                 *workspace, state);
  Solved solved{model.contact_names(), model.coordinate_names(), {}};
  ContactForceWorkspace force_workspace;
  constrained_acceleration(state, modes, scenario.settings.contacts, force_workspace,
                           solved.dynamics);
  return solved;
}

std::size_t index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto found = std::find(names.begin(), names.end(), name);
  REQUIRE(found != names.end());
  return static_cast<std::size_t>(found - names.begin());
}

TEST_CASE("contact islands: towers apart get the forces and accelerations each has alone") {
  const std::vector<Tower> list{{"a", 0.0, 0.15, 70.0, ContactMode::slide_positive},
                                {"b", 2.0, 0.2, 80.0, ContactMode::slide_negative},
                                {"c", 4.0, 0.25, 90.0, ContactMode::stick}};
  const Solved together = solve_resting(towers(list, "islands_three_towers"), list);
  REQUIRE(together.dynamics.consistent);
  int loaded = 0, compared_velocities = 0;
  for (const Tower& tower : list) {
    const Solved alone = solve_resting(towers({tower}, "islands_tower_" + tower.label), {tower});
    REQUIRE(alone.dynamics.consistent);
    for (std::size_t k = 0; k < alone.contact_names.size(); ++k) {
      const ContactForce& reference = alone.dynamics.forces[k];
      const ContactForce& island =
          together.dynamics.forces[index_of(together.contact_names, alone.contact_names[k])];
      INFO(alone.contact_names[k]);
      CHECK(island.normal == doctest::Approx(reference.normal).epsilon(1e-12));
      CHECK(island.tangential == doctest::Approx(reference.tangential).epsilon(1e-12));
      CHECK(island.in_indeterminate_set == reference.in_indeterminate_set);
      if (reference.in_indeterminate_set)
        CHECK(island.stick_reserve == doctest::Approx(reference.stick_reserve).epsilon(1e-12));
      if (reference.normal != 0.0) ++loaded;
    }
    for (std::size_t j = 0; j < alone.velocity_names.size(); ++j) {
      const auto at =
          static_cast<Eigen::Index>(index_of(together.velocity_names, alone.velocity_names[j]));
      INFO(alone.velocity_names[j]);
      CHECK(together.dynamics.acceleration[at] ==
            doctest::Approx(alone.dynamics.acceleration[static_cast<Eigen::Index>(j)])
                .epsilon(1e-12)
                .scale(1.0));
      ++compared_velocities;
    }
  }
  // each tower: two plinth corners on the floor and two statue corners on the plinth carry load
  // (a slender statue sliding may pull at one corner: these modes need not be consistent)
  CHECK(loaded == 12);
  CHECK(compared_velocities == 18);
}

}  // namespace
}  // namespace routh
