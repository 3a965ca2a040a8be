// The drift removal (sim/simulation/constraint_projection.hpp): closed contacts are moved back
// onto their constraints in the kinetic-energy metric, and an open contact is never moved from a
// positive gap into its surface on the way (its landing is the gap witness's to find).

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/QR>
#include <algorithm>
#include <string>
#include <vector>

#include "models/planar/planar_contact_candidates.hpp"
#include "models/planar/planar_tree.hpp"
#include "models/spatial/spatial_bodies.hpp"
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

// Two towers of two free blocks (0.6 m × 0.2 m, 2.5 kg), one at x = 0 and one at x = 3 m, each
// block resting on the floor or on the block below: q = (x, y, θ) per block, bottom block first.
std::unique_ptr<routh::PlanarTree> two_towers(Eigen::VectorXd& q) {
  routh::PlanarTreeBuilder builder;
  q.resize(12);
  for (int block = 0; block < 4; ++block) {
    const std::string name = "block" + std::to_string(block + 1);
    const int body = builder.add_body(name, routh::uniform_rectangle(0.6, 0.2, 2.5),
                                      routh::free_joint(name + ".x", name + ".y", name + ".theta"));
    builder.set_shape(body, routh::rectangle_shape(0.6, 0.2));
    q.segment(3 * block, 3) << (block < 2 ? 0.0 : 3.0), (block % 2 == 0 ? 0.1 : 0.3), 0.0;
  }
  builder.add_obstacle("floor", routh::floor_at(0.0));
  return builder.build();
}

}  // namespace

// Independent computation: equation (1) as the kinetic-metric projection of a displacement δ onto
// the row space of J, Δx = M⁻¹Jᵀ (J M⁻¹ Jᵀ)⁺ J δ, with the pseudo-inverse of a complete
// orthogonal decomposition over the whole model. For a residual r = J δ in the range of J the
// correction is unique, however redundant the rows (a block flat on two corners: four rows on
// three velocities), so the island-by-island solve must give it to round-off.
TEST_CASE("drift removal: the kinetic-metric correction of two separate towers, island by island") {
  Eigen::VectorXd q;
  const auto tree = two_towers(q);
  const routh::ContactParameterTable parameters(static_cast<std::size_t>(tree->contact_count()),
                                                routh::ContactParameters{0.5, 0.5, 0.5});
  routh::SystemEvaluation evaluation(*tree, parameters);
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(12);
  const routh::ContactKinematics& kinematics = routh::contacts_at(evaluation, q, v);
  // every touching contact's normal and tangential rows: both towers' floor and interface corners
  std::vector<Eigen::Index> rows;
  bool first_tower = false, second_tower = false;
  for (Eigen::Index k = 0; k < kinematics.gap.size(); ++k) {
    if (std::abs(kinematics.gap[k]) > 1e-12) continue;
    rows.push_back(2 * k);
    rows.push_back(2 * k + 1);
    const Eigen::RowVectorXd row = kinematics.jacobian.row(2 * k);
    first_tower = first_tower || row.head(6).cwiseAbs().maxCoeff() > 0.0;
    second_tower = second_tower || row.tail(6).cwiseAbs().maxCoeff() > 0.0;
  }
  REQUIRE(rows.size() >= 16);  // two corners per interface, four interfaces
  REQUIRE((first_tower && second_tower));
  const Eigen::MatrixXd J = kinematics.jacobian(rows, Eigen::all);
  Eigen::VectorXd delta(12);
  delta << 1e-6, -2e-6, 3e-6, -4e-6, 5e-6, -6e-6, 7e-6, 8e-6, -9e-6, 1e-5, 2e-6, -3e-6;
  const Eigen::VectorXd residual = J * delta;

  const Eigen::MatrixXd M = routh::mass_matrix_at(evaluation, q);
  const Eigen::MatrixXd inverse_mass_Jt = M.llt().solve(J.transpose());
  const Eigen::VectorXd expected =
      inverse_mass_Jt * (J * inverse_mass_Jt).completeOrthogonalDecomposition().solve(residual);
  const Eigen::VectorXd correction = routh::kinetic_metric_correction(evaluation, q, J, residual);
  // round-off of solves on O(1) matrices with a residual of 1e-5 m
  CHECK((correction - expected).cwiseAbs().maxCoeff() < 1e-15);
  // it removes the residual: J Δx = r
  CHECK((J * correction - residual).cwiseAbs().maxCoeff() < 1e-15);

  // the first tower's rows alone leave the second tower exactly where it was
  std::vector<Eigen::Index> first_rows;
  for (Eigen::Index i = 0; i < J.rows(); ++i) {
    if (J.row(i).tail(6).cwiseAbs().maxCoeff() == 0.0) first_rows.push_back(i);
  }
  REQUIRE(!first_rows.empty());
  const Eigen::MatrixXd J_first = J(first_rows, Eigen::all);
  const Eigen::VectorXd first_only =
      routh::kinetic_metric_correction(evaluation, q, J_first, J_first * delta);
  CHECK(first_only.tail(6).cwiseAbs().maxCoeff() == 0.0);
  CHECK((first_only.head(6) - correction.head(6)).cwiseAbs().maxCoeff() < 1e-15);
}

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
    "drift removal: a rim's closed tilt-line end just past its half-rim is held at the deepest "
    "point, not moved by its name's end") {
  // A cylinder (r = 0.1 m, h = 0.4 m, 1 kg) lying on the floor, its axis the world x, turned
  // about it by φ = 1e-4 rad past the body's y axis: the world's up is m = (sin φ, cos φ, 0) in
  // the body frame, so each rim's deepest point, −r (sin φ, cos φ), lies just on the body's −x
  // side, r sin φ = 1e-5 m past the end of the x+ half-rim (support −r sin φ < 0), and the rims'
  // x+ contacts held closed are that point (spatial_contact_geometry.hpp). The body has sunk
  // 2e-10 m (beyond kDriftTolerance): the drift removal must lift it by that much. Read by its
  // name instead, x+ is the rim's highest point, 2r above the floor, and the passes drive the
  // drum down to put that on the floor (here the hold of its open y− points stops them, and it
  // stays sunk; in runs 20, 979, 1621, 1653, 1725 and 2507 of the cylinder campaign it went
  // through: overlaps of exactly 2r).
  constexpr double kRadius = 0.1, kHeight = 0.4, kTurn = 1e-4, kSunk = 2e-10;
  routh::SpatialBodiesDescription description;
  description.bodies.push_back({"drum", 1.0,
                                routh::uniform_inertia(routh::CylinderShape{kRadius, kHeight}, 1.0),
                                routh::CylinderShape{kRadius, kHeight}});
  description.planes.push_back({"floor", Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()});
  const routh::SpatialBodies drum(description);
  const routh::ContactParameterTable parameters(drum.contact_names().size(),
                                                routh::ContactParameters{0.0, 0.5, 0.5});
  routh::SystemEvaluation evaluation(drum, parameters);
  // body axes in the world: x = (0, c, s), y = z × x = (0, −s, c), z = (1, 0, 0)
  const double c = std::cos(kTurn), s = std::sin(kTurn);
  Eigen::Matrix3d axes;
  axes << 0.0, 0.0, 1.0, c, -s, 0.0, s, c, 0.0;
  const Eigen::Quaterniond turn(axes);
  Eigen::VectorXd q(7), v = Eigen::VectorXd::Zero(6);
  q << 0.0, 0.0, kRadius - kSunk, turn.w(), turn.x(), turn.y(), turn.z();
  std::vector<ContactMode> modes(drum.contact_names().size(), ContactMode::open);
  for (const char* rim : {"drum.top_rim.x+/floor", "drum.bottom_rim.x+/floor"})
    modes[static_cast<std::size_t>(contact_named(drum, rim))] = ContactMode::stick;
  const Eigen::VectorXd gap = routh::contacts_at(evaluation, q, v, modes).gap;
  REQUIRE(gap[contact_named(drum, "drum.top_rim.x+/floor")] ==
          doctest::Approx(-kSunk).epsilon(1e-3));

  REQUIRE(routh::remove_drift(evaluation, modes, gap, q, v));
  // the lowest point of the lying drum is back on the floor: its centre at r, axis level
  CHECK(std::abs(q[2] - kRadius) < 1e-15);
  const Eigen::Vector3d axis =
      Eigen::Quaterniond(q[3], q[4], q[5], q[6]).normalized() * Eigen::Vector3d::UnitZ();
  CHECK(std::abs(axis.z()) < 1e-15);
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
