// The contacts of free rigid bodies in 3D (models/spatial/spatial_contact_geometry.hpp) against
// finite differences along the exact flow: with v held, q(t) = q₀ ⊕ v t is the exact motion of
// q̇ = N(q) v (a constant body-frame ω turns q₀ into q₀ ⊗ exp(ω t/2)). Then
//   ġ = J_n v                          (the gap's rate),
//   d · (ṗ_a − ṗ_b) = J_d v            (the material points at the contact, frozen on their
//                                       bodies, moved by the flow; d = n, t₁, t₂),
//   d/dt (J(q(t)) v) = J̇v              (central difference of J along the flow),
//   d²g/dt² = J̇v_n                    (v̇ = 0 along this flow).
// Contact points are found here from the shapes alone: a rim's deepest point by sampling the rim.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "tests/support/allocation_counter.hpp"

namespace {

using Eigen::Vector3d;
using Eigen::VectorXd;
using routh::SpatialBodies;
using routh::SpatialBodiesDescription;

constexpr double kStep = 1e-5;     // [s] of the central differences of first derivatives
constexpr double kGapStep = 1e-3;  // [s] of the gap's second difference (round-off ~ ε g / h²)

SpatialBodiesDescription mixed_bodies() {
  SpatialBodiesDescription d;
  d.bodies.push_back({"ball", 2.0, {0.02, 0.02, 0.02}, routh::SphereShape{0.1, Vector3d::Zero()}});
  d.bodies.push_back(
      {"top", 1.0, {0.01, 0.012, 0.015}, routh::SphereShape{0.15, Vector3d(0.01, -0.02, 0.03)}});
  d.bodies.push_back({"box", 3.0, {0.1, 0.2, 0.25}, routh::BoxShape{Vector3d(0.3, 0.2, 0.1)}});
  d.bodies.push_back({"coin", 0.5, {0.02, 0.02, 0.03}, routh::CylinderShape{0.2, 0.05}});
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  d.planes.push_back({"slope", Vector3d(0.5, 0.0, -0.2), Vector3d(-0.6, 0.0, 0.8)});
  return d;
}

Eigen::Quaterniond random_rotation(std::mt19937& random) {
  std::normal_distribution<double> normal;
  return Eigen::Quaterniond(normal(random), normal(random), normal(random), normal(random))
      .normalized();
}

// A random state, quaternions of norm ≠ 1 (rotations are read from q/|q|).
void random_state(const SpatialBodies& model, std::mt19937& random, VectorXd& q, VectorXd& v) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  q.resize(model.coordinate_count());
  v.resize(model.velocity_count());
  for (int b = 0; b < model.body_count(); ++b) {
    const int qs = routh::spatial_coordinate_start(b);
    q.segment<3>(qs) = Vector3d(uniform(random), uniform(random), uniform(random));
    const Eigen::Quaterniond r = random_rotation(random);
    q.segment<4>(qs + 3) =
        (1.0 + 0.1 * uniform(random)) * Eigen::Vector4d(r.w(), r.x(), r.y(), r.z());
  }
  for (int i = 0; i < v.size(); ++i) v[i] = 2.0 * uniform(random);
}

VectorXd flowed(const SpatialBodies& model, const VectorXd& q, const VectorXd& v, double t) {
  VectorXd out;
  model.integrate(q, t * v, out);
  return out;
}

struct Pose {
  Vector3d x;
  Eigen::Matrix3d R;
};

Pose pose(const SpatialBodies& model, const VectorXd& q, int body) {
  return {q.segment<3>(routh::spatial_coordinate_start(body)),
          model.orientation(q, body).toRotationMatrix()};
}

int body_index(const SpatialBodies& model, const std::string& name) {
  for (int b = 0; b < model.body_count(); ++b) {
    if (model.description().bodies[static_cast<std::size_t>(b)].name == name) return b;
  }
  return -1;
}

// The rim point deepest along −n: the lowest of `samples` points of the rim at height z (body
// frame), refined by a ternary search between its neighbours (the height is unimodal there).
Vector3d deepest_rim_point(const Pose& body, double radius, double z, const Vector3d& n,
                           int samples) {
  const auto rim_point = [&](double phi) {
    return Vector3d(radius * std::cos(phi), radius * std::sin(phi), z);
  };
  const auto height = [&](double phi) { return n.dot(body.R * rim_point(phi)); };
  const double spacing = 2.0 * std::numbers::pi / samples;
  double best = 0.0;
  for (int i = 1; i < samples; ++i) {
    if (height(i * spacing) < height(best)) best = i * spacing;
  }
  double low = best - spacing, high = best + spacing;
  for (int i = 0; i < 200; ++i) {
    const double left = low + (high - low) / 3.0, right = high - (high - low) / 3.0;
    if (height(left) < height(right)) {
      high = right;
    } else {
      low = left;
    }
  }
  return rim_point(0.5 * (low + high));
}

// A contact as found from its name and the shapes: the bodies, the contact point on each (body
// frame; the other's empty against a plane) and the plane.
struct FoundContact {
  int body = -1, other = -1;
  Vector3d point = Vector3d::Zero(), other_point = Vector3d::Zero();
  const routh::SpatialPlane* plane = nullptr;
  Vector3d normal = Vector3d::Zero();
};

FoundContact find_contact(const SpatialBodies& model, const VectorXd& q, const std::string& name) {
  const SpatialBodiesDescription& d = model.description();
  FoundContact found;
  const std::string first = name.substr(0, name.find('/'));
  const std::string second = name.substr(name.find('/') + 1);
  const std::string body_name = first.substr(0, first.find('.'));
  const std::string feature =
      first.find('.') == std::string::npos ? "" : first.substr(first.find('.') + 1);
  found.body = body_index(model, body_name);
  for (const routh::SpatialPlane& plane : d.planes) {
    if (plane.name == second) found.plane = &plane;
  }
  const routh::SpatialBody& body = d.bodies[static_cast<std::size_t>(found.body)];
  const Pose a = pose(model, q, found.body);
  if (!found.plane) {  // a sphere pair
    found.other = body_index(model, second);
    const auto& s = std::get<routh::SphereShape>(body.shape);
    const auto& t =
        std::get<routh::SphereShape>(d.bodies[static_cast<std::size_t>(found.other)].shape);
    const Pose b = pose(model, q, found.other);
    const Vector3d ca = a.x + a.R * s.centre_m, cb = b.x + b.R * t.centre_m;
    found.normal = (ca - cb).normalized();
    found.point = a.R.transpose() * (ca - s.radius_m * found.normal - a.x);
    found.other_point = b.R.transpose() * (cb + t.radius_m * found.normal - b.x);
    return found;
  }
  found.normal = found.plane->normal;
  const Vector3d m = a.R.transpose() * found.normal;
  if (const auto* sphere = std::get_if<routh::SphereShape>(&body.shape)) {
    found.point = sphere->centre_m - sphere->radius_m * m;
  } else if (const auto* box = std::get_if<routh::BoxShape>(&body.shape)) {
    for (int i = 0; i < 3; ++i)
      found.point[i] = 0.5 * box->size_m[i] * (feature[2 * i + 1] == '+' ? 1.0 : -1.0);
  } else {
    const auto& cylinder = std::get<routh::CylinderShape>(body.shape);
    const double z = (feature[0] == 't' ? 0.5 : -0.5) * cylinder.height_m;
    const std::size_t dot = feature.find('.');
    if (dot == std::string::npos) {
      found.point = deepest_rim_point(a, cylinder.radius_m, z, found.normal, 1 << 12);
    } else {  // fixed rim points at 90°, 210°, 330° (spatial_contact_geometry.hpp)
      const double phi = std::numbers::pi / 2.0 +
                         2.0 * std::numbers::pi / 3.0 * std::stoi(feature.substr(dot + 1));
      found.point =
          Vector3d(cylinder.radius_m * std::cos(phi), cylinder.radius_m * std::sin(phi), z);
    }
  }
  return found;
}

Vector3d world_point(const SpatialBodies& model, const VectorXd& q, int body, const Vector3d& r) {
  const Pose p = pose(model, q, body);
  return p.x + p.R * r;
}

// The contact's relative material-point velocity ṗ_a − ṗ_b by central differences along the flow.
Vector3d relative_point_velocity(const SpatialBodies& model, const VectorXd& q, const VectorXd& v,
                                 const FoundContact& c) {
  const VectorXd ahead = flowed(model, q, v, kStep), behind = flowed(model, q, v, -kStep);
  Vector3d rate =
      (world_point(model, ahead, c.body, c.point) - world_point(model, behind, c.body, c.point)) /
      (2.0 * kStep);
  if (c.other >= 0) {
    rate -= (world_point(model, ahead, c.other, c.other_point) -
             world_point(model, behind, c.other, c.other_point)) /
            (2.0 * kStep);
  }
  return rate;
}

routh::ContactKinematics kinematics(const SpatialBodies& model, const VectorXd& q,
                                    const VectorXd& v) {
  routh::ContactKinematics k;
  model.contact_kinematics(q, v, k);
  return k;
}

double gap_at(const SpatialBodies& model, const VectorXd& q, const VectorXd& v, double t, int k) {
  return kinematics(model, flowed(model, q, v, t), v).gap[k];
}

void check_contacts_against_the_flow(const SpatialBodies& model, std::mt19937& random) {
  VectorXd q, v;
  random_state(model, random, q, v);
  const routh::ContactKinematics at = kinematics(model, q, v);
  const routh::ContactKinematics ahead = kinematics(model, flowed(model, q, v, kStep), v);
  const routh::ContactKinematics behind = kinematics(model, flowed(model, q, v, -kStep), v);
  REQUIRE(at.gap.size() == model.contact_count());
  for (int k = 0; k < model.contact_count(); ++k) {
    const std::string& name = model.contact_names()[static_cast<std::size_t>(k)];
    CAPTURE(name);
    const FoundContact c = find_contact(model, q, name);
    // the gap: n · (p_a − p_b), the plane's point on its plane
    const Vector3d pa = world_point(model, q, c.body, c.point);
    const Vector3d pb =
        c.other >= 0 ? world_point(model, q, c.other, c.other_point) : c.plane->point_m;
    CHECK(at.gap[k] == doctest::Approx(c.normal.dot(pa - pb)).epsilon(1e-7).scale(1.0));
    CHECK((ahead.gap[k] - behind.gap[k]) / (2.0 * kStep) ==
          doctest::Approx(at.jacobian.row(3 * k).dot(v)).epsilon(1e-7).scale(1.0));
    // the normal row's J̇v is the gap's second derivative along the flow (v̇ = 0 on it)
    const double second_difference =
        (gap_at(model, q, v, kGapStep, k) - 2.0 * at.gap[k] + gap_at(model, q, v, -kGapStep, k)) /
        (kGapStep * kGapStep);
    CHECK(at.jacobian_dot_v[3 * k] == doctest::Approx(second_difference).epsilon(1e-4).scale(1.0));
    // the rows' directions: n, then an orthonormal tangent basis
    const auto velocity_start = routh::spatial_velocity_start(c.body);
    Eigen::Matrix3d directions;
    for (int i = 0; i < 3; ++i)
      directions.col(i) = at.jacobian.row(3 * k + i).segment<3>(velocity_start).transpose();
    CHECK((directions.col(0) - c.normal).norm() < 1e-12);
    CHECK((directions.transpose() * directions - Eigen::Matrix3d::Identity()).norm() < 1e-12);
    const Vector3d relative = relative_point_velocity(model, q, v, c);
    const Eigen::MatrixXd rows_v = at.jacobian.middleRows(3 * k, 3) * v;
    const Eigen::MatrixXd rows_ahead = ahead.jacobian.middleRows(3 * k, 3) * v;
    const Eigen::MatrixXd rows_behind = behind.jacobian.middleRows(3 * k, 3) * v;
    for (int i = 0; i < 3; ++i) {
      CAPTURE(i);
      CHECK(rows_v(i, 0) ==
            doctest::Approx(directions.col(i).dot(relative)).epsilon(1e-7).scale(1.0));
      CHECK(at.jacobian_dot_v[3 * k + i] ==
            doctest::Approx((rows_ahead(i, 0) - rows_behind(i, 0)) / (2.0 * kStep))
                .epsilon(1e-6)
                .scale(1.0));
    }
  }
}

}  // namespace

TEST_CASE("spatial contacts: gaps, rows and J̇v of spheres, corners and rims against the flow") {
  const SpatialBodies model(mixed_bodies());
  // per plane: ball 1, top 1, box 8, coin 2 × (1 + 3); one sphere pair
  REQUIRE(model.contact_count() == 2 * 18 + 1);
  std::mt19937 random(20261127);
  for (int trial = 0; trial < 20; ++trial) {
    CAPTURE(trial);
    check_contacts_against_the_flow(model, random);
  }
}

TEST_CASE("spatial contacts: names after the body, feature and plane") {
  const SpatialBodies model(mixed_bodies());
  const std::vector<std::string>& names = model.contact_names();
  const auto has = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  CHECK(has("ball/floor"));
  CHECK(has("box.x+y-z-/slope"));
  CHECK(has("box.x-y-z-/floor"));
  CHECK(has("coin.top_rim/floor"));
  CHECK(has("coin.bottom_rim.2/slope"));
  CHECK(has("ball/top"));
  CHECK(names.back() == "ball/top");
}

TEST_CASE("spatial contacts: a ball rolling on the floor has no tangential J̇v") {
  const SpatialBodies model(mixed_bodies());
  VectorXd q = VectorXd::Zero(model.coordinate_count()), v = VectorXd::Zero(model.velocity_count());
  for (int b = 0; b < model.body_count(); ++b) q[routh::spatial_coordinate_start(b) + 3] = 1.0;
  q[2] = 0.1;
  // rolling along x while spinning about the vertical: ω = (0, 3, 5) in the body frame, v = ω × r
  v.segment<3>(3) = Vector3d(0.0, 3.0, 5.0);
  v.segment<3>(0) = Vector3d(0.0, 3.0, 5.0).cross(Vector3d(0.0, 0.0, 0.1));
  const routh::ContactKinematics k = kinematics(model, q, v);
  CHECK(k.gap[0] == doctest::Approx(0.0).scale(1.0));
  CHECK((k.jacobian.middleRows(0, 3) * v).norm() < 1e-15);  // rolling: the contact point rests
  CHECK(std::abs(k.jacobian_dot_v[1]) < 1e-15);
  CHECK(std::abs(k.jacobian_dot_v[2]) < 1e-15);
}

TEST_CASE("spatial contacts: a rim's deepest point is the lowest of its densely sampled points") {
  SpatialBodiesDescription d = mixed_bodies();
  const SpatialBodies model(d);
  std::mt19937 random(7);
  const int coin = body_index(model, "coin");
  const auto& cylinder = std::get<routh::CylinderShape>(d.bodies[3].shape);
  for (int trial = 0; trial < 10; ++trial) {
    VectorXd q, v;
    random_state(model, random, q, v);
    const routh::ContactKinematics k = kinematics(model, q, v);
    const Pose p = pose(model, q, coin);
    for (int k_index = 0; k_index < model.contact_count(); ++k_index) {
      const std::string& name = model.contact_names()[static_cast<std::size_t>(k_index)];
      if (name.find("_rim/") == std::string::npos) continue;
      const routh::SpatialPlane& plane = d.planes[name.ends_with("floor") ? 0 : 1];
      const double z = (name.find("top") != std::string::npos ? 0.5 : -0.5) * cylinder.height_m;
      double lowest = std::numeric_limits<double>::infinity();
      constexpr int kSamples = 100000;
      for (int i = 0; i < kSamples; ++i) {
        const double phi = 2.0 * std::numbers::pi * i / kSamples;
        const Vector3d r(cylinder.radius_m * std::cos(phi), cylinder.radius_m * std::sin(phi), z);
        lowest = std::min(lowest, plane.normal.dot(p.x + p.R * r - plane.point_m));
      }
      // sampling misses the minimum by at most ρ (1 − cos(π/N)) ≈ 1e-10 m
      CHECK(k.gap[k_index] <= lowest);
      CHECK(k.gap[k_index] > lowest - 1e-9);
    }
  }
}

TEST_CASE(
    "spatial contacts: a coin lying flat stands on three fixed rim points, tilted on its deepest") {
  SpatialBodiesDescription d;
  d.bodies.push_back({"coin", 0.01, {1e-6, 1e-6, 2e-6}, routh::CylinderShape{0.012, 0.002}});
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  const SpatialBodies model(d);
  const auto workspace = model.make_workspace();
  VectorXd q(7);
  q << 0.3, -0.2, 0.001, 1.0, 0.0, 0.0, 0.0;  // resting on its bottom base
  std::vector<int> nearby;
  model.nearby_contacts(q, *workspace, nearby);
  std::vector<std::string> listed;
  for (const int k : nearby) listed.push_back(model.contact_names()[static_cast<std::size_t>(k)]);
  // the bottom rim on the floor and the top rim, within the broad phase's margin, each on its
  // three fixed points: a flat rim has no deepest point
  CHECK(listed == std::vector<std::string>{"coin.top_rim.0/floor", "coin.top_rim.1/floor",
                                           "coin.top_rim.2/floor", "coin.bottom_rim.0/floor",
                                           "coin.bottom_rim.1/floor", "coin.bottom_rim.2/floor"});
  const routh::ContactKinematics flat = kinematics(model, q, VectorXd::Zero(6));
  // three supports, not on one line: their normal rows span the base's vertical motion and its
  // tilts about x and y
  Eigen::Matrix3d normal_rows;
  for (int i = 0; i < 3; ++i) {
    const int k = nearby[static_cast<std::size_t>(3 + i)];
    CHECK(std::abs(flat.gap[k]) < 1e-15);
    const Eigen::Matrix<double, 1, 6> row = flat.jacobian.row(3 * k);
    normal_rows.row(i) << row[2], row[3], row[4];
  }
  CHECK(std::abs(normal_rows.determinant()) > 1e-5);
  // the flat rim's deepest point is none of them: no two contacts share their rows
  const int deepest = 4;
  REQUIRE(model.contact_names()[deepest] == "coin.bottom_rim/floor");
  for (int i = 0; i < 3; ++i) {
    CHECK((flat.jacobian.middleRows(3 * deepest, 3) -
           flat.jacobian.middleRows(3 * nearby[static_cast<std::size_t>(3 + i)], 3))
              .norm() > 1e-3);
  }
  // tilted by 1e-3 rad about x: each rim on its deepest point alone
  const Eigen::Quaterniond tilt(Eigen::AngleAxisd(1e-3, Vector3d::UnitX()));
  q.segment<4>(3) << tilt.w(), tilt.x(), tilt.y(), tilt.z();
  model.nearby_contacts(q, *workspace, nearby);
  CHECK(nearby == std::vector<int>{0, deepest});
}
