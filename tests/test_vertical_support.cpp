// Resting one convex shape on another or on a half-plane (models/planar/vertical_support.hpp),
// against the closed forms of the touching configurations: flat faces, a corner under a flat
// face, a disk on a corner, two disks, a slanted segment over part of a block, a tilted block and
// a disk on a slope; shapes side by side have nothing to rest on.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <optional>

#include "models/planar/planar_kinematics.hpp"
#include "models/planar/vertical_support.hpp"

namespace {

using routh::PlacedShape;

// An axis-aligned w × h rectangle centred at (x, y).
PlacedShape box(double x, double y, double w, double h) {
  return {{{x - w / 2, y - h / 2},
           {x + w / 2, y - h / 2},
           {x + w / 2, y + h / 2},
           {x - w / 2, y + h / 2}},
          0.0};
}

PlacedShape disk(double x, double y, double r) { return {{{x, y}}, r}; }

}  // namespace

TEST_CASE("vertical support: a block rests its bottom face on the top face of the one below") {
  // a narrower block over a wider one, and a wider over a narrower: the faces meet either way
  const std::optional<double> lift =
      routh::lift_to_rest_on(box(0.1, 5.0, 0.2, 0.4), box(0, 0, 1, 0.3));
  REQUIRE(lift);
  CHECK(*lift == doctest::Approx(0.15 + 0.2 - 5.0).epsilon(1e-15));
  CHECK(*routh::lift_to_rest_on(box(0, -2.0, 1, 0.4), box(0.3, 0, 0.2, 0.3)) ==
        doctest::Approx(0.15 + 0.2 + 2.0).epsilon(1e-15));
}

TEST_CASE("vertical support: shapes side by side, touching or apart, rest on nothing") {
  CHECK_FALSE(routh::lift_to_rest_on(box(1.0, 3.0, 1, 1), box(0, 0, 1, 1)));  // faces flush
  CHECK_FALSE(routh::lift_to_rest_on(box(2.0, 3.0, 1, 1), box(0, 0, 1, 1)));
  CHECK_FALSE(routh::lift_to_rest_on(disk(0.65, 3.0, 0.1), box(0, 0, 1, 1)));
  CHECK_FALSE(routh::lift_to_rest_on(disk(0.35, 3.0, 0.1), disk(0, 0, 0.2)));
}

TEST_CASE("vertical support: faces flush to round-off are side by side, a real overlap supports") {
  // 0.6 − 0.2 = 0.39999999999999997: the right block's left face lies 5.6e-17 m inside the left
  // block's right face at 0.2 + 0.2 = 0.4, the round-off of positions meant to touch (before,
  // the right block was set on the left one's top corner and tipped off it)
  REQUIRE(0.6 - 0.2 < 0.2 + 0.2);
  CHECK_FALSE(routh::lift_to_rest_on(box(0.6, 3.0, 0.4, 0.2), box(0.2, 0.1, 0.4, 0.2)));
  CHECK_FALSE(routh::lift_to_rest_on(box(0.2, 3.0, 0.4, 0.2), box(0.6, 0.1, 0.4, 0.2)));
  // a micrometre over the edge is a corner resting under a face: it rests at the lower's top
  const std::optional<double> lift =
      routh::lift_to_rest_on(box(0.6 - 1e-6, 3.0, 0.4, 0.2), box(0.2, 0.1, 0.4, 0.2));
  REQUIRE(lift);
  CHECK(*lift == doctest::Approx(0.2 + 0.1 - 3.0).epsilon(1e-15));
}

TEST_CASE("vertical support: a disk rests on a flat top, on a corner, and on another disk") {
  const double r = 0.1;
  // centre over the face: it sits at the top plus its radius
  CHECK(*routh::lift_to_rest_on(disk(0.2, 2.0, r), box(0, 0, 1, 0.5)) ==
        doctest::Approx(0.25 + r - 2.0).epsilon(1e-14));
  // centre dx beyond the corner (0.5, 0.25): it touches the corner, √(r² − dx²) above it
  const double dx = 0.06;
  CHECK(*routh::lift_to_rest_on(disk(0.5 + dx, 2.0, r), box(0, 0, 1, 0.5)) ==
        doctest::Approx(0.25 + std::sqrt(r * r - dx * dx) - 2.0).epsilon(1e-14));
  // two disks dx apart: centres (r₁ + r₂) apart along their line
  const double r2 = 0.2, offset = 0.15;
  CHECK(*routh::lift_to_rest_on(disk(offset, 2.0, r), disk(0, 0, r2)) ==
        doctest::Approx(std::sqrt((r + r2) * (r + r2) - offset * offset) - 2.0).epsilon(1e-14));
}

TEST_CASE("vertical support: only the part over the lower shape counts") {
  // a segment rising from (−1, 0) to (1, 1) over a block spanning x in [0.5, 2], top at y = 0:
  // its lowest point over the block is at x = 0.5, y = 0.75
  const PlacedShape segment{{{-1.0, 0.0}, {1.0, 1.0}}, 0.0};
  CHECK(*routh::lift_to_rest_on(segment, box(1.25, -0.5, 1.5, 1.0)) ==
        doctest::Approx(-0.75).epsilon(1e-15));
  // a block's corner under another block's flat face: the corner holds it up
  const Eigen::Matrix2d turn = routh::rotation(0.3);
  PlacedShape tilted = box(0, 0, 0.4, 0.4);
  for (Eigen::Vector2d& p : tilted.points_m) p = turn * p;
  const double top = tilted.points_m[2].y();  // the corner turned highest
  CHECK(*routh::lift_to_rest_on(box(0.0, 3.0, 2.0, 1.0), tilted) ==
        doctest::Approx(top + 0.5 - 3.0).epsilon(1e-14));
}

TEST_CASE("vertical support: on a floor the lowest point touches, on a slope the disk touches") {
  PlacedShape tilted = box(0.0, 2.0, 0.4, 1.0);
  for (Eigen::Vector2d& p : tilted.points_m) p = routh::rotation(0.2) * (p - Eigen::Vector2d(0, 2));
  const double lowest = std::min(tilted.points_m[0].y(), tilted.points_m[1].y());
  CHECK(routh::lift_to_rest_on(tilted, routh::floor_at(0.5)) == doctest::Approx(0.5 - lowest));
  // a disk on the slope y = x tan φ: its centre r above the line along the normal
  const double phi = 0.4, r = 0.3;
  const routh::HalfPlane slope{{0.0, 0.0}, {-std::sin(phi), std::cos(phi)}};
  const double lift = routh::lift_to_rest_on(disk(1.0, 5.0, r), slope);
  CHECK(slope.distance(Eigen::Vector2d(1.0, 5.0 + lift)) == doctest::Approx(r).epsilon(1e-14));
}
