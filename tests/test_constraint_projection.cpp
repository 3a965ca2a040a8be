// The drift removal (sim/simulation/constraint_projection.hpp): closed contacts are moved back
// onto their constraints in the kinetic-energy metric, and an open contact is never moved from a
// positive gap into its surface on the way (its landing is the gap witness's to find).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <string>
#include <vector>

#include "models/planar/planar_contact_candidates.hpp"
#include "models/planar/planar_tree.hpp"
#include "sim/simulation/constraint_projection.hpp"

namespace {

using routh::ContactMode;

// A unit block on the floor y ≥ 0 and a disk of radius 0.2 m above its top, both free, 1 kg.
std::unique_ptr<routh::PlanarTree> disk_over_block() {
  routh::PlanarTreeBuilder builder;
  const int block = builder.add_body("block", routh::uniform_rectangle(1.0, 1.0, 1.0),
                                     routh::free_joint("block.x", "block.y", "block.theta"));
  builder.set_shape(block, routh::rectangle_shape(1.0, 1.0));
  const int disk = builder.add_body("disk", routh::uniform_disk(0.2, 1.0),
                                    routh::free_joint("disk.x", "disk.y", "disk.theta"));
  builder.set_shape(disk, routh::DiskShape{0.2, Eigen::Vector2d::Zero()});
  builder.add_obstacle("floor", routh::floor_at(0.0));
  return builder.build();
}

int contact_named(const routh::MechanicalSystem& system, const std::string& name) {
  const std::vector<std::string>& names = system.contact_names();
  const auto found = std::find(names.begin(), names.end(), name);
  REQUIRE_MESSAGE(found != names.end(), "no contact " << name);
  return static_cast<int>(found - names.begin());
}

}  // namespace

TEST_CASE("drift removal: lifting a sunk block does not push the disk above it into its top") {
  const auto tree = disk_over_block();
  const routh::ContactParameterTable parameters(static_cast<std::size_t>(tree->contact_count()),
                                                routh::ContactParameters{0.5, 0.5, 0.5});
  routh::SystemEvaluation evaluation(*tree, parameters);
  const int left = contact_named(*tree, "block.bottom_left/floor");
  const int right = contact_named(*tree, "block.bottom_right/floor");
  const int disk_on_top = contact_named(*tree, "disk/block.top");
  // q = (block x, y, θ, disk x, y, θ): the block's bottom 1e-4 m below the floor (drift of its
  // closed corners), the disk 5e-5 m above the block's top, approaching it
  constexpr double kSunk = 1e-4, kAbove = 5e-5;  // [m]
  Eigen::VectorXd q(6), v = Eigen::VectorXd::Zero(6);
  q << 0.0, 0.5 - kSunk, 0.0, 0.1, 1.0 - kSunk + kAbove + 0.2, 0.0;
  v[4] = -0.01;
  std::vector<ContactMode> modes(static_cast<std::size_t>(tree->contact_count()),
                                 ContactMode::open);
  modes[static_cast<std::size_t>(left)] = modes[static_cast<std::size_t>(right)] =
      ContactMode::stick;
  const Eigen::VectorXd gap = routh::contacts_at(evaluation, q, v).gap;
  REQUIRE(gap[left] == doctest::Approx(-kSunk).epsilon(1e-9));
  REQUIRE(gap[disk_on_top] == doctest::Approx(kAbove).epsilon(1e-9));

  REQUIRE(routh::remove_drift(evaluation, modes, gap, q, v));
  const routh::ContactKinematics& after = routh::contacts_at(evaluation, q, v);
  // the closed corners are back on the floor ...
  CHECK(std::abs(after.gap[left]) < 1e-12);
  CHECK(std::abs(after.gap[right]) < 1e-12);
  // ... and the open disk kept its gap: lifting the block alone (the smallest correction in the
  // kinetic metric) would have put it 5e-5 m into the block's top, a landing no witness sees
  CHECK(after.gap[disk_on_top] == doctest::Approx(kAbove).epsilon(1e-9));
  CHECK(q[4] == doctest::Approx(1.0 + kAbove + 0.2).epsilon(1e-12));
  // the block does not move sideways or turn, and the open disk keeps its approach
  CHECK(std::abs(q[0]) < 1e-15);
  CHECK(std::abs(q[2]) < 1e-12);
  CHECK(v[4] == -0.01);
}

TEST_CASE(
    "velocity projection: a closed vertex just past its edge's end is held on the edge's line") {
  // Two 1 m cubes of 1 kg, `upper` on `base`, flush but for upper's shift to the right:
  // upper's bottom_right vertex lies s = 1e-10 m past the end of base's top (its extent, which
  // reaches kExtentHair of the edge's length beyond the corner), touching (its open gap, the
  // distance to the end plus the distance beyond it, is 2s, within the contact distance).
  // Open, that contact's normal row is the gradient of that distance, along the edge (2 x̂ at the
  // end); closed, the force solve holds it on the edge's line, whose normal is ŷ. With both of
  // upper's bottom corners sliding (their normal rows only) and base sticking on the floor, the
  // projection onto the closed contacts must take out upper's approach (v_y) and keep its slip
  // (v_x): closed form, v_upper = (0.1, 0, 0) and base at rest. Projected on the open rows it
  // stopped the slip instead (settling then read, and checked, modes on rows other than the
  // force solve's: tall_stack:66 of the multibody campaign).
  routh::PlanarTreeBuilder builder;
  for (const char* name : {"base", "upper"}) {
    const int body =
        builder.add_body(name, routh::uniform_rectangle(1.0, 1.0, 1.0),
                         routh::free_joint(std::string(name) + ".x", std::string(name) + ".y",
                                           std::string(name) + ".theta"));
    builder.set_shape(body, routh::rectangle_shape(1.0, 1.0));
  }
  builder.add_obstacle("floor", routh::floor_at(0.0));
  builder.set_body_collisions(true);
  const auto tree = builder.build();
  const routh::ContactParameterTable parameters(static_cast<std::size_t>(tree->contact_count()),
                                                routh::ContactParameters{0.0, 0.5, 0.5});
  routh::SystemEvaluation evaluation(*tree, parameters);
  constexpr double kPast = 1e-10;  // [m]
  Eigen::VectorXd q(6), v(6);
  q << 0.0, 0.5, 0.0, routh::kExtentHair + kPast, 1.5, 0.0;
  v << 0.0, 0.0, 0.0, 0.1, -0.01, 0.0;
  const int past_end = contact_named(*tree, "upper.bottom_right/base.top");
  const int inside = contact_named(*tree, "upper.bottom_left/base.top");
  REQUIRE(routh::contacts_at(evaluation, q, v).gap[past_end] ==
          doctest::Approx(2.0 * kPast).epsilon(1e-3));
  std::vector<ContactMode> modes(static_cast<std::size_t>(tree->contact_count()),
                                 ContactMode::open);
  for (const char* corner : {"base.bottom_left/floor", "base.bottom_right/floor"})
    modes[static_cast<std::size_t>(contact_named(*tree, corner))] = ContactMode::stick;
  modes[static_cast<std::size_t>(past_end)] = modes[static_cast<std::size_t>(inside)] =
      ContactMode::slide_positive;
  routh::project_velocity_onto_closed_contacts(evaluation, modes, q, v);
  // to round-off of the 0.1 m/s slip
  CHECK(v.head(3).norm() < 1e-15);
  CHECK(v[3] == doctest::Approx(0.1).epsilon(1e-14));
  CHECK(std::abs(v[4]) < 1e-15);
  CHECK(std::abs(v[5]) < 1e-15);
}
