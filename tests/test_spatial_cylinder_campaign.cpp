// Seeded campaign of cylinders in 3D: random drops and throws of one or two cylinders — tall
// drums, squat cylinders and coins, their radius, height and mass drawn over decades — onto a
// floor, or onto an incline alone, with random orientations, velocities, spins, μ, e and impact
// laws (any spatial law that takes one contact, and any that takes several). Some start
// standing on a base or lying on their side, sliding and spinning. Cylinders touch the plane only
// (with its rims, at four contacts per rim: models/spatial/spatial_contact_geometry.hpp), not
// each other. Each run goes through the campaign frame (support/spatial_campaign.hpp: status,
// finite samples, energy, unit quaternions; ROUTH_CAMPAIGN_RUNS, ROUTH_CAMPAIGN_RUN), and must
// also:
//  - keep each cylinder out of the plane by more than 1e-9 m at every sample, its depth computed
//    here from q: a cylinder of radius r and height h on axis a reaches along −n to
//        n · (x − p) − (h/2) |n · a| − r |n × a|
//    (its deepest point lies on a rim, whose circle reaches r |n × a| below its centre);
//  - if a cylinder ends at rest (every sample of the last kRestWindow slower than kRestSpeed),
//    rest in equilibrium: on the plane, standing on a base (a ∥ n) or lying on its side (a ⊥ n) —
//    a tilted cylinder touches at one rim point only and cannot rest unless its centre of mass is
//    plumb above it — with the vertical through its centre of mass meeting the plane inside the
//    disk or the segment it touches with, and the plane's slope within the friction cone,
//    tan β ≤ μ.
// 100 runs take about 5 s in release (18 runs/s); ROUTH_CAMPAIGN_RUNS=3000 runs the issue's
// thousands. A few runs in a hundred are stopped by the wall-clock limit (most crawl after a
// `slip` event, as the box campaign's do), and are checked up to there.

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/text.hpp"
#include "support/random_source.hpp"
#include "support/sanitizers.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/spatial_campaign.hpp"

namespace routh {
namespace {

using test::kCampaignGravity;
using test::kPenetrationTolerance;
using test::vector_text;

constexpr std::uint64_t kSeed = 20261127;
constexpr double kDuration = 0.5;       // [s] per run
constexpr double kWallTimeLimit = 0.2;  // [s] per run: a run that needs more is reported
constexpr double kSceneSize = 1.0;      // [m], the drop heights' scale, for the energy scale
// A cylinder ends at rest when its material points all move slower than kRestSpeed over the run's
// last kRestWindow: under gravity an unsupported or unbalanced body would gain g kRestWindow,
// half a metre per second, in that time.
constexpr double kRestWindow = 0.05;  // [s]
constexpr double kRestSpeed = 1e-6;   // [m/s]
// How far from a standing or lying pose, and from the edge of the disk or segment it touches
// with, a cylinder at rest may be: its centre of mass's vertical meets the plane there to this.
constexpr double kRestPose = 1e-6;  // [rad] and [m]

struct Cylinder {
  double radius, height, mass;  // [m], [m], [kg]
};

struct Scene {
  std::string yaml;
  std::vector<Cylinder> cylinders;
  test::CampaignPlane plane;
  double friction = 0.0;
};

// The laws a scenario may name for impacts at `contacts` spatial contacts.
std::vector<std::string_view> spatial_laws(int contacts) {
  std::vector<std::string_view> names;
  for (const LawEntry& law : impact_laws()) {
    if (covers(law.scope, ContactDimension::spatial, contacts)) names.push_back(law.name);
  }
  return names;
}

template <class T>
const T& pick(test::RandomSource& random, const std::vector<T>& from) {
  return from[static_cast<std::size_t>(random.uniform(0.0, static_cast<double>(from.size())))];
}

// A drum (h/r from 3 to 8), a squat cylinder (h/r from 0.5 to 2) or a coin (h/r from 0.05 to
// 0.3), of radius 1 cm to 20 cm and 3 g to 10 kg.
Cylinder random_cylinder(test::RandomSource& random) {
  const double radius = random.decade(-2.0, -0.7);
  const double kind = random.uniform(0.0, 3.0);
  const double aspect = kind < 1.0   ? random.uniform(3.0, 8.0)
                        : kind < 2.0 ? random.uniform(0.5, 2.0)
                                     : random.uniform(0.05, 0.3);
  return {radius, aspect * radius, random.decade(-2.5, 1.0)};
}

// Uniform on the rotations (Shoemake's unit quaternions).
Eigen::Quaterniond random_rotation(test::RandomSource& random) {
  const double u1 = random.uniform(0.0, 1.0), u2 = random.uniform(0.0, 2.0 * std::numbers::pi),
               u3 = random.uniform(0.0, 2.0 * std::numbers::pi);
  return Eigen::Quaterniond(std::sqrt(u1) * std::cos(u3), std::sqrt(1.0 - u1) * std::sin(u2),
                            std::sqrt(1.0 - u1) * std::cos(u2), std::sqrt(u1) * std::sin(u3));
}

// A unit vector in the plane of normal n, at a random heading.
Eigen::Vector3d random_tangent(test::RandomSource& random, const Eigen::Vector3d& n) {
  const Eigen::Vector3d t1 = n.unitOrthogonal(), t2 = n.cross(t1);
  const double angle = random.uniform(0.0, 2.0 * std::numbers::pi);
  return std::cos(angle) * t1 + std::sin(angle) * t2;
}

// One run: one or two cylinders (every other run), onto an incline every third run, else a
// floor; each starts in the air (60 %), standing on a base (20 %) or lying on its side (20 %).
Scene random_scene(int index) {
  test::RandomSource random(kSeed + static_cast<std::uint64_t>(index));
  Scene scene;
  const int count = 1 + index % 2;
  Eigen::Vector3d n = Eigen::Vector3d::UnitZ();
  if (index % 3 == 2) {  // tilted 5° to 35° towards a random heading
    const double slope = random.uniform(5.0, 35.0) * std::numbers::pi / 180.0;
    const double heading = random.uniform(0.0, 2.0 * std::numbers::pi);
    n = Eigen::Vector3d(std::sin(slope) * std::cos(heading), std::sin(slope) * std::sin(heading),
                        std::cos(slope));
  }
  scene.plane = {Eigen::Vector3d::Zero(), n};
  std::ostringstream yaml, q, v;
  yaml.precision(17);
  q.precision(17);
  v.precision(17);
  yaml << "name: cylinder_campaign_" << index << "\nduration: " << kDuration
       << "\nmodel:\n  dimension: 3\n  bodies:\n";
  for (int b = 0; b < count; ++b) {
    const Cylinder cylinder = random_cylinder(random);
    scene.cylinders.push_back(cylinder);
    yaml << "    - {name: c" << b << ", mass: " << cylinder.mass
         << ", shape: {cylinder: {radius: " << cylinder.radius << ", height: " << cylinder.height
         << "}}}\n";
    // its foot on the plane, 0.8 m from the other's
    const double fx = count == 1 ? 0.0 : -0.4 + 0.8 * b, fy = random.uniform(-0.2, 0.2);
    const Eigen::Vector3d foot(fx, fy, -(n.x() * fx + n.y() * fy) / n.z());
    const double start = random.uniform(0.0, 1.0);
    Eigen::Quaterniond rotation;
    Eigen::Vector3d centre, velocity, omega;  // ω in the world frame
    if (start < 0.6) {                        // in the air, up to 30 cm above the plane
      rotation = random_rotation(random);
      const double reach = std::hypot(cylinder.radius, 0.5 * cylinder.height);
      centre = foot + (reach + random.uniform(0.0, 0.3)) * n;
      velocity = Eigen::Vector3d(random.uniform(-2.0, 2.0), random.uniform(-2.0, 2.0),
                                 random.uniform(-2.0, 1.0));
      omega = Eigen::Vector3d(random.uniform(-40.0, 40.0), random.uniform(-40.0, 40.0),
                              random.uniform(-40.0, 40.0));
    } else {
      // on the plane, sliding along it and spinning about its normal, and a lying one rolling
      // about its axis: no point of the contact approaches or leaves the plane
      const bool standing = start < 0.8;
      const Eigen::Vector3d axis =
          standing ? (random.chance(0.5) ? n : Eigen::Vector3d(-n)) : random_tangent(random, n);
      rotation =
          Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), axis) *
          Eigen::AngleAxisd(random.uniform(0.0, 2.0 * std::numbers::pi), Eigen::Vector3d::UnitZ());
      centre = foot + (standing ? 0.5 * cylinder.height : cylinder.radius) * n;
      velocity = random.uniform(0.0, 1.5) * random_tangent(random, n);
      omega =
          random.uniform(-40.0, 40.0) * n + (standing ? 0.0 : random.uniform(-40.0, 40.0)) * axis;
    }
    const Eigen::Vector3d omega_body = rotation.conjugate() * omega;
    const std::string c = routh::cat("c", b);
    q << c << ".x: " << centre.x() << ", " << c << ".y: " << centre.y() << ", " << c
      << ".z: " << centre.z() << ", " << c << ".orientation: [" << rotation.w() << ", "
      << rotation.x() << ", " << rotation.y() << ", " << rotation.z() << "], ";
    v << c << ".vx: " << velocity.x() << ", " << c << ".vy: " << velocity.y() << ", " << c
      << ".vz: " << velocity.z() << ", " << c << ".wx: " << omega_body.x() << ", " << c
      << ".wy: " << omega_body.y() << ", " << c << ".wz: " << omega_body.z() << ", ";
  }
  yaml << "  obstacles:\n    - {type: plane, name: " << (index % 3 == 2 ? "incline" : "floor")
       << ", point: " << vector_text(scene.plane.point)
       << ", normal: " << vector_text(scene.plane.normal) << "}\n";
  std::string q_text = q.str(), v_text = v.str();
  q_text.resize(q_text.size() - 2);
  v_text.resize(v_text.size() - 2);
  yaml << "initial:\n  q: {" << q_text << "}\n  v: {" << v_text << "}\n";
  scene.friction = random.uniform(0.0, 1.0);
  yaml << "contact:\n  law: " << pick(random, spatial_laws(1))
       << "\n  multi_contact_law: " << pick(random, spatial_laws(2))
       << "\n  restitution: " << random.uniform(0.0, 0.9) << "\n  friction: " << scene.friction
       << "\noutput:\n  rate: 200\n";
  scene.yaml = yaml.str();
  return scene;
}

// Cylinder b's centre, axis and the speed bound of its points (|v| + |ω| times its reach) at a
// sample.
struct Pose {
  Eigen::Vector3d centre, axis;
  double speed;
};

Pose pose(const Cylinder& cylinder, const test::TrajectoryMemory::Sample& sample, int b) {
  const Eigen::Vector4d w = sample.q.segment<4>(7 * b + 3);
  const Eigen::Quaterniond rotation = Eigen::Quaterniond(w[0], w[1], w[2], w[3]).normalized();
  const double reach = std::hypot(cylinder.radius, 0.5 * cylinder.height);
  return {sample.q.segment<3>(7 * b), rotation * Eigen::Vector3d::UnitZ(),
          sample.v.segment<3>(6 * b).norm() + sample.v.segment<3>(6 * b + 3).norm() * reach};
}

// How far the cylinder reaches along −n below the plane's level: its gap, < 0 inside.
double gap(const Cylinder& cylinder, const Pose& body, const test::CampaignPlane& plane) {
  // the sine from the cross product: √(1 − c²) loses half the digits of an upright cylinder's
  // tiny tilt (c = 1 − 1e-16 gives √2e-8)
  return plane.normal.dot(body.centre - plane.point) -
         0.5 * cylinder.height * std::abs(plane.normal.dot(body.axis)) -
         cylinder.radius * plane.normal.cross(body.axis).norm();
}

// "" if cylinder b, at rest at the last sample, rests in equilibrium on the plane (the header
// comment); else why not.
std::string unbalanced_rest(const Scene& scene, const Cylinder& cylinder, const Pose& body, int b) {
  const test::CampaignPlane& plane = scene.plane;
  const Eigen::Vector3d& n = plane.normal;
  std::ostringstream out;
  out.precision(10);
  out << "c" << b << " ends at rest ";
  const double clearance = gap(cylinder, body, plane);
  if (clearance > kRestPose) {
    out << clearance << " m above the plane";
    return out.str();
  }
  const double slope = std::acos(std::min(1.0, n.z()));
  if (std::tan(slope) > scene.friction * (1.0 + 1e-12)) {
    out << "on a slope of tan β = " << std::tan(slope) << " > μ = " << scene.friction;
    return out.str();
  }
  // where the vertical through the centre of mass meets the plane
  const Eigen::Vector3d plumb =
      body.centre - n.dot(body.centre - plane.point) / n.z() * Eigen::Vector3d::UnitZ();
  const double c = n.dot(body.axis);
  if (std::abs(c) > std::cos(kRestPose)) {  // standing: the plumb point inside the base's disk
    const Eigen::Vector3d base = body.centre - std::copysign(0.5 * cylinder.height, c) * body.axis;
    if ((plumb - base).norm() > cylinder.radius + kRestPose) {
      out << "on a base, its centre of mass " << (plumb - base).norm() - cylinder.radius
          << " m beyond the base's rim";
      return out.str();
    }
  } else if (std::abs(c) < std::sin(kRestPose)) {  // lying: on its contact segment
    const Eigen::Vector3d middle = body.centre - cylinder.radius * n;
    const double along = body.axis.dot(plumb - middle);
    const double across = (plumb - middle - along * body.axis).norm();
    if (across > kRestPose || std::abs(along) > 0.5 * cylinder.height + kRestPose) {
      out << "on its side, its centre of mass " << across << " m across and " << along
          << " m along its contact line from the line's middle";
      return out.str();
    }
  } else {
    out << "tilted on a rim point, its axis " << std::acos(std::abs(c))
        << " rad from the plane's normal";
    return out.str();
  }
  return "";
}

// "" when no cylinder reaches into the plane deeper than kPenetrationTolerance at any sample of
// the run, else the first that does, where and how deep.
std::string first_overlap(const Scene& scene, const test::ScenarioRun& run) {
  std::ostringstream out;
  out.precision(10);
  for (const auto& sample : run.trajectory.samples) {
    for (int b = 0; b < static_cast<int>(scene.cylinders.size()); ++b) {
      const Cylinder& cylinder = scene.cylinders[static_cast<std::size_t>(b)];
      const double depth = -gap(cylinder, pose(cylinder, sample, b), scene.plane);
      if (depth > kPenetrationTolerance) {
        out << "c" << b << " " << depth << " m inside the plane at t = " << sample.t << " s";
        return out.str();
      }
    }
  }
  return "";
}

// "" when every check holds for the run, else the first failure; counts the cylinders that end
// at rest into `rested`.
std::string first_failure(const Scene& scene, const test::ScenarioRun& run, int& rested) {
  double weight = 0.0;
  for (const Cylinder& cylinder : scene.cylinders) weight += cylinder.mass * kCampaignGravity;
  const int count = static_cast<int>(scene.cylinders.size());
  if (std::string bad = test::first_common_failure(run, count, weight * kSceneSize); !bad.empty())
    return bad;
  if (std::string bad = first_overlap(scene, run); !bad.empty()) return bad;
  const auto& samples = run.trajectory.samples;
  if (run.outcome.status != RunStatus::completed) return "";
  for (int b = 0; b < count; ++b) {
    const Cylinder& cylinder = scene.cylinders[static_cast<std::size_t>(b)];
    bool at_rest = true;
    for (auto s = samples.rbegin(); s != samples.rend() && s->t >= kDuration - kRestWindow; ++s)
      at_rest = at_rest && pose(cylinder, *s, b).speed < kRestSpeed;
    if (!at_rest) continue;
    ++rested;
    if (std::string bad = unbalanced_rest(scene, cylinder, pose(cylinder, samples.back(), b), b);
        !bad.empty())
      return bad;
  }
  return "";
}

// The speed [m/s] of the material point at the deepest point of each of the cylinder's rims,
// the larger of the two, at a sample: both are at rest while it rolls on its side without
// slipping. The deepest point of the rim at height z = ±h/2 lies at −r û on it, û the unit xy
// part of the plane's normal in the body frame.
double rim_slip_speed(const Cylinder& cylinder, const test::TrajectoryMemory::Sample& sample,
                      const Eigen::Vector3d& normal) {
  const Eigen::Vector4d w = sample.q.segment<4>(3);
  const Eigen::Matrix3d rotation =
      Eigen::Quaterniond(w[0], w[1], w[2], w[3]).normalized().toRotationMatrix();
  const Eigen::Vector3d m = rotation.transpose() * normal;
  const Eigen::Vector2d tilt = m.head<2>().normalized();
  const Eigen::Vector3d omega = rotation * sample.v.segment<3>(3);  // world frame
  double fastest = 0.0;
  for (const double side : {0.5, -0.5}) {
    const Eigen::Vector3d point(-cylinder.radius * tilt.x(), -cylinder.radius * tilt.y(),
                                side * cylinder.height);
    const Eigen::Vector3d velocity = sample.v.head<3>() + omega.cross(rotation * point);
    fastest = std::max(fastest, velocity.norm());
  }
  return fastest;
}

// The campaign's `scene` run alone: it completes, and every check of the campaign holds.
test::ScenarioRun run_completing(const Scene& scene) {
  test::ScenarioRun run = test::run_scene(scene.yaml, "cylinder_campaign.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
  int rested = 0;
  CHECK(first_failure(scene, run, rested) == "");
  return run;
}

}  // namespace

TEST_CASE(
    "spatial cylinders: campaign of random drops and throws of drums, squat cylinders and coins "
    "onto a floor or an incline") {
  int rested = 0;
  // no run is known to end in trouble (support/spatial_campaign.hpp lists them with their cause)
  test::run_campaign({"cylinder_campaign.yaml", test::kSanitized ? 10 : 100, kWallTimeLimit}, {},
                     random_scene, [&](const Scene& scene, const test::ScenarioRun& run) {
                       return first_failure(scene, run, rested);
                     });
  MESSAGE(rested << " cylinders ended at rest, each checked for equilibrium");
}

TEST_CASE(
    "spatial cylinders: a drum standing on its base, sliding and spinning, tips off its base at "
    "the edge of the flat rim band (campaign run 40)") {
  // random_scene(40) (ROUTH_CAMPAIGN_RUN=40 prints it): a drum (r = 0.0234 m, h = 0.134 m,
  // 0.3 kg) standing upside down on the floor, sliding at 1.01 m/s and spinning at 8.1 rad/s
  // about its axis, μ = 0.81, so that μ h/2 > r and it must tip. It tips about the chord between
  // two adjacent points of its base's square of contacts, and the rim's deepest point lies between
  // them, below the chord once tilted. When the fixed rim points carried the base on past the
  // edge of the flat band (kFlatRim_m), the rim's depth below its centre stayed at 0.9–1.0e-9 m,
  // its held gaps drifting and projected back in every step: 0.004 s of simulation per minute of
  // wall time. The fixed points leave the rim at the band's edge (spatial_contact_geometry.hpp),
  // and the deepest point carries it from there.
  run_completing(random_scene(40));
}

TEST_CASE(
    "spatial cylinders: a squat cylinder lying on an incline rolls on both rims through their "
    "hand-overs (campaign run 2702)") {
  // random_scene(2702): a squat cylinder (r = 0.0143 m, h = 0.0173 m, 41 g) lying on its side on
  // an incline of 29.4° (tan β = 0.56), μ = 0.67, sliding and spinning; its slip stops by
  // 0.140 s, and it rolls down on both rims, touching at their deepest points. The axial squeeze
  // of the two is indeterminate, and the weighted split of spatial_static_friction.hpp (1) gave
  // the lightly loaded top rim more than its cone (1.03 of it), though a squeeze holds both rims
  // inside theirs: the top rim was held "sliding" along the axis, where its slip cannot grow (the
  // rims' distance is fixed), its slip acceleration round-off; at t = 0.1827 s, where both rims
  // hand their deepest points over from x− to x+ at once and were settled anew, that round-off's
  // sign refused the slide, sticking was refused too, and the run ended in
  // contact_modes_unresolved. Program (3) now decides where the split (1) leaves a cone: both rims
  // stick, and the cylinder rolls without slipping.
  const Scene scene = random_scene(2702);
  const test::ScenarioRun run = run_completing(scene);
  // from 0.15 s, after its top rim's slip has halted (0.140 s), it rolls on both rims
  const Cylinder& cylinder = scene.cylinders.front();
  double fastest = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    if (sample.t >= 0.15)
      fastest = std::max(fastest, rim_slip_speed(cylinder, sample, scene.plane.normal));
  }
  CHECK(fastest < run.scenario.settings.rest_speed);
}

TEST_CASE(
    "spatial cylinders: a drum chattering on its base keeps its rim out of the floor where its "
    "tilt line swings across the body's y axis within a step (campaign run 130)") {
  // random_scene(130) (ROUTH_CAMPAIGN_RUN=130 prints it): a drum (r = 0.0484 m, h = 0.188 m,
  // 0.77 kg) standing upside down on the floor, sliding at 0.87 m/s and spinning at 15 rad/s,
  // μ = 0.47: μ h/2 < r, but its base stands on the square of its four contacts, whose half-width
  // r/√2 is less than μ h/2 where an edge of the square faces the slip, and the base chatters
  // about such edges. At t = 0.03247 s an impact leaves it free, its tilt just past the flat band,
  // the rim's deepest point (a tilt line's end, x−) 2.3e-10 m above the floor and falling. Within
  // the next step the tilt line swung across the body's y axis, where its ends swap names
  // (spatial_contact_geometry.hpp): x− read the highest point at the step's end, its crossing was
  // not seen, and x+, which then read the deepest point, jumped across zero, no landing: the rim
  // sank 1.4e-8 m into the floor by t = 0.03253 s. A contact falling onto its surface that leaves
  // its extent within a step lands before it leaves (event_location.hpp, leaves_extent), and an
  // end that takes over a deepest point touching and approaching lands there
  // (event_scan.hpp, crossing_is_no_landing). The depth is the campaign's, from q by the
  // cylinder's own geometry. The chatter itself was the square's: turned toward its load
  // (sim/simulation/base_orientation.hpp), the base reaches the rim, and a drum sliding on a disk
  // of radius r with μ h/2 < r does not tip (the friction's moment about the leading rim point,
  // μ m g h/2, is less than the weight's, m g r): it slides on its base without an impact.
  const Scene scene = random_scene(130);
  // to 0.035 s, past the chatter that sank it
  const test::ScenarioRun run = test::run_scene(scene.yaml, "cylinder_campaign.yaml", 0.035);
  CHECK(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.impacts == 0);
  CHECK(first_overlap(scene, run) == "");
}

}  // namespace routh
