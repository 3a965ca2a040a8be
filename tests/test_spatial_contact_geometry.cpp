// The contacts of free rigid bodies in 3D (models/spatial/spatial_contact_geometry.hpp) against
// finite differences along the exact flow: with v held, q(t) = q₀ ⊕ v t is the exact motion of
// q̇ = N(q) v (a constant body-frame ω turns q₀ into q₀ ⊗ exp(ω t/2)). Then
//   ġ = J_n v                          (the gap's rate),
//   d · (ṗ_a − ṗ_b) = J_d v            (the material points at the contact, frozen on their
//                                       bodies, moved by the flow; d = n, t₁, t₂),
//   d/dt (J(q(t)) v) = J̇v              (central difference of J along the flow),
//   d²g/dt² = J̇v_n                    (v̇ = 0 along this flow).
// Contact points are found here from the shapes alone: a rim's deepest point by sampling the rim,
// its tilt line through it and the centre with its two ends named by the body's axes, and its
// fixed points on the body y; a
// tilt-line end held closed is the deepest point. Both the open and the held contacts are checked.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "models/spatial/spatial_bodies.hpp"
#include "models/spatial/spatial_contact_geometry.hpp"
#include "tests/support/allocation_counter.hpp"

namespace {

using Eigen::Vector3d;
using Eigen::VectorXd;
using routh::SpatialBodies;
using routh::SpatialBodiesDescription;

constexpr double kStep = 1e-5;       // [s] of the central differences of first derivatives
constexpr double kGapStep = 2.5e-4;  // [s] of the gap's second difference (round-off ~ ε g / h²,
                                     // 4e-9; a rim near flat has large higher derivatives)

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
  double support = std::numeric_limits<double>::infinity();
};

FoundContact find_contact(const SpatialBodies& model, const VectorXd& q, const std::string& name,
                          bool held) {
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
    const Vector3d deepest = deepest_rim_point(a, cylinder.radius_m, z, found.normal, 1 << 12);
    // the tilt line's end on the body's +x side (+y on a tie); the fixed ends on the body y
    Eigen::Vector2d x_plus = deepest.head<2>().normalized();
    if (x_plus.x() < 0.0 || (x_plus.x() == 0.0 && x_plus.y() < 0.0)) x_plus = -x_plus;
    const Eigen::Vector2d y_plus = Eigen::Vector2d::UnitY();
    const std::string end = feature.substr(feature.find('.') + 1);
    const double side = end[1] == '+' ? 1.0 : -1.0;
    const Eigen::Vector2d direction = side * (end[0] == 'x' ? x_plus : y_plus);
    found.point = Vector3d(cylinder.radius_m * direction.x(), cylinder.radius_m * direction.y(), z);
    if (held && end[0] == 'x') found.point = deepest;
    // how far the deepest point lies below the rim's centre: a fixed end beyond the flat band
    // (and open) reads the highest point, the deepest mirrored through the centre
    const double depth = found.normal.dot(a.R * (Vector3d(0.0, 0.0, z) - deepest));
    if (!held && end[0] == 'y' && depth >= routh::kFlatRim_m)
      found.point = Vector3d(-deepest.x(), -deepest.y(), z);
    found.support = end[0] == 'x' ? side * deepest.x() : routh::kFlatRim_m - depth;
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

// Every contact's kinematics, each held closed or each open.
routh::ContactKinematics kinematics(const SpatialBodies& model, const VectorXd& q,
                                    const VectorXd& v, bool held = false) {
  const std::vector<bool> holding(static_cast<std::size_t>(model.contact_count()), held);
  routh::StateQuantities out;
  model.evaluate(0.0, q, v, {.contacts = true, .held_contacts = &holding}, *model.make_workspace(),
                 out);
  return out.contacts;
}

double gap_at(const SpatialBodies& model, const VectorXd& q, const VectorXd& v, double t, int k,
              bool held) {
  return kinematics(model, flowed(model, q, v, t), v, held).gap[k];
}

void check_contacts_against_the_flow(const SpatialBodies& model, std::mt19937& random, bool held) {
  VectorXd q, v;
  random_state(model, random, q, v);
  const routh::ContactKinematics at = kinematics(model, q, v, held);
  const routh::ContactKinematics ahead = kinematics(model, flowed(model, q, v, kStep), v, held);
  const routh::ContactKinematics behind = kinematics(model, flowed(model, q, v, -kStep), v, held);
  REQUIRE(at.gap.size() == model.contact_count());
  for (int k = 0; k < model.contact_count(); ++k) {
    const std::string& name = model.contact_names()[static_cast<std::size_t>(k)];
    CAPTURE(name);
    const FoundContact c = find_contact(model, q, name, held);
    // the support: a tilt-line end's x (σ = +1) or −x (σ = −1) coordinate of the deepest point,
    // a fixed end's kFlatRim_m less the deepest point's depth below the rim's centre, +∞ for
    // every other contact
    if (std::isinf(c.support)) {
      CHECK(at.support[k] == c.support);
    } else {
      CHECK(at.support[k] == doctest::Approx(c.support).epsilon(1e-6).scale(1.0));
    }
    // the gap: n · (p_a − p_b), the plane's point on its plane
    const Vector3d pa = world_point(model, q, c.body, c.point);
    const Vector3d pb =
        c.other >= 0 ? world_point(model, q, c.other, c.other_point) : c.plane->point_m;
    CHECK(at.gap[k] == doctest::Approx(c.normal.dot(pa - pb)).epsilon(1e-7).scale(1.0));
    CHECK((ahead.gap[k] - behind.gap[k]) / (2.0 * kStep) ==
          doctest::Approx(at.jacobian.row(3 * k).dot(v)).epsilon(1e-7).scale(1.0));
    // the normal row's J̇v is the gap's second derivative along the flow (v̇ = 0 on it)
    const double second_difference = (gap_at(model, q, v, kGapStep, k, held) - 2.0 * at.gap[k] +
                                      gap_at(model, q, v, -kGapStep, k, held)) /
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
  // per plane: ball 1, top 1, box 8, coin 2 × 4 rim ends; one sphere pair
  REQUIRE(model.contact_count() == 2 * 18 + 1);
  std::mt19937 random(20261127);
  for (const bool held : {false, true}) {
    CAPTURE(held);
    for (int trial = 0; trial < 20; ++trial) {
      CAPTURE(trial);
      check_contacts_against_the_flow(model, random, held);
    }
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
  CHECK(has("coin.top_rim.x+/floor"));
  CHECK(has("coin.bottom_rim.y-/slope"));
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

TEST_CASE("spatial contacts: a rim's tilt-line ends are its lowest and highest sampled points") {
  SpatialBodiesDescription d = mixed_bodies();
  const SpatialBodies model(d);
  std::mt19937 random(7);
  const int coin = body_index(model, "coin");
  const auto& cylinder = std::get<routh::CylinderShape>(d.bodies[3].shape);
  for (int trial = 0; trial < 10; ++trial) {
    VectorXd q, v;
    random_state(model, random, q, v);
    const routh::ContactKinematics open = kinematics(model, q, v);
    const routh::ContactKinematics held = kinematics(model, q, v, /*held=*/true);
    const Pose p = pose(model, q, coin);
    for (int k = 0; k < model.contact_count(); ++k) {
      const std::string& name = model.contact_names()[static_cast<std::size_t>(k)];
      if (name.find("_rim.x") == std::string::npos) continue;
      CAPTURE(name);
      const routh::SpatialPlane& plane = d.planes[name.ends_with("floor") ? 0 : 1];
      const double z = (name.find("top") != std::string::npos ? 0.5 : -0.5) * cylinder.height_m;
      double lowest = std::numeric_limits<double>::infinity();
      double highest = -lowest;
      constexpr int kSamples = 100000;
      for (int i = 0; i < kSamples; ++i) {
        const double phi = 2.0 * std::numbers::pi * i / kSamples;
        const Vector3d r(cylinder.radius_m * std::cos(phi), cylinder.radius_m * std::sin(phi), z);
        const double height = plane.normal.dot(p.x + p.R * r - plane.point_m);
        lowest = std::min(lowest, height);
        highest = std::max(highest, height);
      }
      // sampling misses the extremes by at most ρ (1 − cos(π/N)) ≈ 1e-10 m; an open end is the
      // deepest point exactly where its support is positive, a held one always
      CHECK(held.gap[k] <= lowest);
      CHECK(held.gap[k] > lowest - 1e-9);
      if (open.support[k] > 0.0) {
        CHECK(open.gap[k] == doctest::Approx(held.gap[k]).epsilon(1e-12).scale(1.0));
      } else {
        CHECK(open.gap[k] >= highest);
        CHECK(open.gap[k] < highest + 1e-9);
      }
      CHECK(held.support[k] == open.support[k]);
    }
  }
}

namespace {

// A coin lying on the floor on its bottom base, its centre at (0.3, −0.2), turned `angle` about
// `axis` through its centre.
SpatialBodies flat_coin() {
  SpatialBodiesDescription d;
  d.bodies.push_back({"coin", 0.01, {1e-6, 1e-6, 2e-6}, routh::CylinderShape{0.012, 0.002}});
  d.planes.push_back({"floor", Vector3d::Zero(), Vector3d::UnitZ()});
  return SpatialBodies(d);
}

VectorXd coin_pose(double angle, const Vector3d& axis) {
  const Eigen::Quaterniond turn(Eigen::AngleAxisd(angle, axis));
  VectorXd q(7);
  q << 0.3, -0.2, 0.001, turn.w(), turn.x(), turn.y(), turn.z();
  return q;
}

int contact_index(const SpatialBodies& model, const std::string& name) {
  const auto& names = model.contact_names();
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

TEST_CASE("spatial contacts: a coin lying flat stands on the square of its four rim ends") {
  const SpatialBodies model = flat_coin();
  const auto workspace = model.make_workspace();
  const VectorXd q = coin_pose(0.0, Vector3d::UnitX());
  std::vector<int> nearby;
  model.nearby_contacts(q, *workspace, nearby);
  // both rims within the broad phase's margin, each with its four ends
  CHECK(nearby == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  const routh::ContactKinematics flat = kinematics(model, q, VectorXd::Zero(6));
  const routh::ContactKinematics held = kinematics(model, q, VectorXd::Zero(6), /*held=*/true);
  // the bottom ends at the body points (±ρ, 0, −h/2) and (0, ±ρ, −h/2), held or not: their
  // normal rows are (0, 0, 1) against v and r × n against ω
  const double rho = 0.012, half_height = 0.001;
  const std::vector<std::pair<std::string, Vector3d>> ends = {
      {"x+", Vector3d(rho, 0.0, -half_height)},
      {"x-", Vector3d(-rho, 0.0, -half_height)},
      {"y+", Vector3d(0.0, rho, -half_height)},
      {"y-", Vector3d(0.0, -rho, -half_height)}};
  Eigen::Matrix<double, 4, 3> normal_rows;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const auto& [end, point] = ends[i];
    CAPTURE(end);
    const int k = contact_index(model, "coin.bottom_rim." + end + "/floor");
    CHECK(std::abs(flat.gap[k]) < 1e-15);
    Eigen::Matrix<double, 1, 6> expected;
    expected << 0.0, 0.0, 1.0, point.cross(Vector3d::UnitZ()).transpose();
    CHECK((flat.jacobian.row(3 * k) - expected).norm() < 1e-15);
    CHECK((held.jacobian.middleRows(3 * k, 3) - flat.jacobian.middleRows(3 * k, 3)).norm() == 0.0);
    CHECK(flat.support[k] == (end[0] == 'x' ? rho : routh::kFlatRim_m));
    normal_rows.row(static_cast<Eigen::Index>(i)) << expected[2], expected[3], expected[4];
  }
  // they span the base's vertical motion and its tilts about x and y
  CHECK(Eigen::FullPivLU<Eigen::MatrixXd>(normal_rows).rank() == 3);
}

TEST_CASE(
    "spatial contacts: a rim rocking in the x–z plane keeps its ends on the body through flat") {
  const SpatialBodies model = flat_coin();
  const double rho = 0.012, half_height = 0.001;
  const int x_plus = contact_index(model, "coin.bottom_rim.x+/floor");
  const int x_minus = contact_index(model, "coin.bottom_rim.x-/floor");
  // turned by ±θ about y, through flat: x+ is the body point (ρ, 0, −h/2) on both sides, the
  // deepest point at +θ (its support ρ > 0), the highest at −θ (support −ρ); a held x− reads the
  // deepest point too while x+ is it, with support −ρ: past the end of its name's half-rim
  for (const double angle : {1e-3, 1e-12, -1e-12, -1e-3}) {
    CAPTURE(angle);
    const VectorXd q = coin_pose(angle, Vector3d::UnitY());
    const Eigen::Matrix3d R = model.orientation(q, 0).toRotationMatrix();
    const routh::ContactKinematics open = kinematics(model, q, VectorXd::Zero(6));
    const routh::ContactKinematics held = kinematics(model, q, VectorXd::Zero(6), /*held=*/true);
    const double z = q[2] + (R * Vector3d(rho, 0.0, -half_height)).z();
    CHECK(open.gap[x_plus] == doctest::Approx(z).epsilon(1e-15).scale(1e-3));
    const bool flat = rho * std::sin(std::abs(angle)) < routh::kFlatRim_m;
    const double support = flat ? rho : (angle > 0.0 ? rho : -rho);
    CHECK(open.support[x_plus] == doctest::Approx(support).epsilon(1e-12));
    CHECK(open.support[x_minus] == doctest::Approx(flat ? rho : -support).epsilon(1e-12));
    if (angle > 0.0 && !flat) CHECK(held.gap[x_minus] == doctest::Approx(z).epsilon(1e-15));
  }
}

TEST_CASE("spatial contacts: a flat base turned to psi stands on the square turned by psi") {
  const SpatialBodies model = flat_coin();
  const auto workspace = model.make_workspace();
  const double rho = 0.012, half_height = 0.001, psi = 0.7;
  const Eigen::Vector2d base(std::cos(psi), std::sin(psi)), across(-std::sin(psi), std::cos(psi));
  const int x_plus = contact_index(model, "coin.bottom_rim.x+/floor");
  routh::ContactBase square;
  REQUIRE(model.flat_base(coin_pose(0.0, Vector3d::UnitX()), x_plus, *workspace, square));
  CHECK(square.contacts == std::vector<int>{4, 5, 6, 7});
  CHECK(square.radius_m == rho);
  CHECK(square.direction == Eigen::Vector2d::UnitX());
  model.orient_base(x_plus, 2.0 * base, *workspace);  // any length: the direction is kept
  REQUIRE(model.flat_base(coin_pose(0.0, Vector3d::UnitX()), x_plus, *workspace, square));
  CHECK((square.direction - base).norm() < 1e-15);
  // the ends at ±ρ e(ψ), ±ρ e(ψ + 90°): gaps 0 and, for a base spinning about its axis and
  // sliding (no tilt rate), normal velocities 0, so that the turn moves no contact off the floor
  // or into it
  VectorXd v(6);
  v << 0.5, -0.2, 0.0, 0.0, 0.0, 3.0;
  const VectorXd q = coin_pose(0.0, Vector3d::UnitX());
  routh::StateQuantities out;
  model.evaluate(0.0, q, v, {.contacts = true}, *workspace, out);
  const std::vector<std::pair<std::string, Eigen::Vector2d>> ends = {
      {"x+", rho * base}, {"x-", -rho * base}, {"y+", rho * across}, {"y-", -rho * across}};
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const auto& [end, point] = ends[i];
    CAPTURE(end);
    const int k = contact_index(model, "coin.bottom_rim." + end + "/floor");
    CHECK((square.points_m[i] - point).norm() < 1e-15);
    CHECK(std::abs(out.contacts.gap[k]) < 1e-15);
    CHECK(std::abs(out.contacts.jacobian.row(3 * k).dot(v)) < 1e-15);
    Eigen::Matrix<double, 1, 6> expected;
    expected << 0.0, 0.0, 1.0,
        Vector3d(point.x(), point.y(), -half_height).cross(Vector3d::UnitZ()).transpose();
    CHECK((out.contacts.jacobian.row(3 * k) - expected).norm() < 1e-15);
  }
  // tilted about e(ψ + 90°) onto x+: out of the band, no flat base; x+ is the deepest point, the
  // material point ρ e(ψ) with support ρ, x− the highest with support −ρ (named along e(ψ))
  const VectorXd tilted = coin_pose(1e-3, Vector3d(across.x(), across.y(), 0.0));
  CHECK_FALSE(model.flat_base(tilted, x_plus, *workspace, square));
  model.evaluate(0.0, tilted, VectorXd::Zero(6), {.contacts = true}, *workspace, out);
  const Eigen::Matrix3d R = model.orientation(tilted, 0).toRotationMatrix();
  const double z = tilted[2] + (R * Vector3d(rho * base.x(), rho * base.y(), -half_height)).z();
  CHECK(out.contacts.gap[x_plus] == doctest::Approx(z).epsilon(1e-12));
  CHECK(out.contacts.gap[x_plus] < out.contacts.gap[x_plus + 1]);
  CHECK(out.contacts.support[x_plus] == doctest::Approx(rho).epsilon(1e-12));
  CHECK(out.contacts.support[x_plus + 1] == doctest::Approx(-rho).epsilon(1e-12));
}
