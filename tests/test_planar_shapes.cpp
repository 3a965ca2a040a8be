// Shapes of planar bodies (models/planar/shape.hpp): the inertia of uniform shapes against closed
// forms, the checks, and the bounding radius.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "models/planar/planar_body.hpp"
#include "models/planar/shape.hpp"

namespace {

using Eigen::Vector2d;
using routh::PolygonShape;

constexpr double kClosedForm = 1e-12;  // relative: a few sums of O(1) terms

void check_body(const routh::PlanarBody& body, const routh::PlanarBody& expected) {
  CHECK(body.mass_kg == expected.mass_kg);
  CHECK((body.centre_of_mass_m - expected.centre_of_mass_m).norm() < kClosedForm);
  CHECK(body.inertia_kg_m2 == doctest::Approx(expected.inertia_kg_m2).epsilon(kClosedForm));
}

std::string check_message(const routh::Shape& shape) {
  try {
    routh::check_shape(shape, "block");
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("shape: a uniform rectangle has I = m (w² + h²)/12 about its centre") {
  const PolygonShape rectangle = routh::rectangle_shape(0.6, 0.2);
  check_body(routh::uniform_body(rectangle, 2.5), routh::uniform_rectangle(0.6, 0.2, 2.5));
  const routh::ShapeGeometry geometry = routh::shape_geometry(rectangle);
  CHECK(geometry.area_m2 == doctest::Approx(0.12).epsilon(kClosedForm));
  CHECK(geometry.polar_moment_m4 ==
        doctest::Approx(0.6 * 0.2 * (0.36 + 0.04) / 12.0).epsilon(kClosedForm));
  CHECK(rectangle.vertex_names.front() == "bottom_left");
  CHECK(rectangle.edge_names[2] == "top");
}

TEST_CASE("shape: a rectangle far from its body origin keeps its digits") {
  PolygonShape rectangle = routh::rectangle_shape(1.0, 2.0);
  const Vector2d shift(1e4, -3e4);
  for (Vector2d& v : rectangle.vertices_m) v += shift;
  routh::PlanarBody expected = routh::uniform_rectangle(1.0, 2.0, 3.0);
  expected.centre_of_mass_m = shift;
  const routh::PlanarBody body = routh::uniform_body(rectangle, 3.0);
  CHECK((body.centre_of_mass_m - shift).norm() < 1e-10);
  CHECK(body.inertia_kg_m2 == doctest::Approx(expected.inertia_kg_m2).epsilon(1e-10));
}

TEST_CASE("shape: a uniform disk has I = m r²/2 about its centre, wherever it is") {
  const routh::DiskShape disk{0.3, {0.1, -0.2}};
  routh::PlanarBody expected = routh::uniform_disk(0.3, 1.5);
  expected.centre_of_mass_m = disk.centre_m;
  check_body(routh::uniform_body(disk, 1.5), expected);
  CHECK(routh::shape_geometry(disk).area_m2 ==
        doctest::Approx(std::numbers::pi * 0.09).epsilon(kClosedForm));
}

TEST_CASE(
    "shape: a right triangle with legs a, b has its centroid at (a/3, b/3), I = m (a²+b²)/18") {
  const double a = 0.9, b = 0.4, m = 2.0;
  const PolygonShape triangle{{{0.0, 0.0}, {a, 0.0}, {0.0, b}}, {}, {}};
  check_body(routh::uniform_body(triangle, m), {m, {a / 3.0, b / 3.0}, m * (a * a + b * b) / 18.0});
  CHECK(routh::shape_geometry(triangle).area_m2 == doctest::Approx(0.5 * a * b));
}

TEST_CASE("shape: a segment is a thin rod, I = m L²/12 about its middle") {
  check_body(routh::uniform_body(routh::segment_shape(1.2), 3.0), routh::uniform_rod(1.2, 3.0));
  const PolygonShape link = routh::segment_between({0.0, 0.0}, {0.0, -2.0}, "proximal", "distal");
  check_body(routh::uniform_body(link, 1.0), routh::uniform_rod(2.0, 1.0, {0.0, -1.0}));
  const routh::ShapeGeometry geometry = routh::shape_geometry(link);
  CHECK(geometry.area_m2 == 0.0);
  CHECK(geometry.rod_moment_per_mass == doctest::Approx(4.0 / 12.0));
  CHECK(link.vertex_names[1] == "distal");
}

TEST_CASE("shape: the checks name what is wrong") {
  CHECK(check_message(routh::rectangle_shape(1.0, 1.0)).empty());
  CHECK(check_message(routh::segment_shape(1.0)).empty());
  CHECK(check_message(routh::DiskShape{0.0, Vector2d::Zero()}).find("radius") != std::string::npos);
  CHECK(check_message(PolygonShape{{{0.0, 0.0}}, {}, {}}).find("at least 2") != std::string::npos);
  // clockwise
  CHECK(check_message(PolygonShape{{{0.0, 0.0}, {0.0, 1.0}, {1.0, 0.0}}, {}, {}})
            .find("counter-clockwise") != std::string::npos);
  // not convex: a dart
  CHECK(check_message(PolygonShape{{{0.0, 0.0}, {2.0, 1.0}, {0.0, 2.0}, {0.5, 1.0}}, {}, {}})
            .find("convex") != std::string::npos);
  // a pentagram turns left everywhere but winds twice
  PolygonShape star;
  for (int i = 0; i < 5; ++i) {
    const double angle = 4.0 * std::numbers::pi * i / 5.0;
    star.vertices_m.emplace_back(std::cos(angle), std::sin(angle));
  }
  CHECK(check_message(star).find("winds 2") != std::string::npos);
  CHECK(check_message(PolygonShape{{{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}}, {}, {}})
            .find("same point") != std::string::npos);
  PolygonShape named = routh::rectangle_shape(1.0, 1.0);
  named.vertex_names.pop_back();
  CHECK(check_message(named).find("vertex names") != std::string::npos);
  named = routh::rectangle_shape(1.0, 1.0);
  named.edge_names[1] = "bottom";
  CHECK(check_message(named).find("'bottom' is used twice") != std::string::npos);
  CHECK(check_message(PolygonShape{{{0.0, 0.0}, {NAN, 1.0}}, {}, {}}).find("not finite") !=
        std::string::npos);
  CHECK(check_message(routh::DiskShape{0.1, Vector2d::Zero()}).empty());
  CHECK_THROWS_AS(routh::uniform_body(routh::DiskShape{-1.0, Vector2d::Zero()}, 1.0),
                  std::invalid_argument);
}

TEST_CASE("shape: the bounding radius reaches the farthest vertex or rim point") {
  CHECK(routh::bounding_radius(routh::rectangle_shape(6.0, 8.0)) == doctest::Approx(5.0));
  CHECK(routh::bounding_radius(routh::DiskShape{0.5, {3.0, 4.0}}) == doctest::Approx(5.5));
  CHECK(routh::bounding_radius(routh::segment_between({0.0, 0.0}, {0.0, -2.0}, "a", "b")) ==
        doctest::Approx(2.0));
}
