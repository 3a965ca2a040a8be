// Seeded campaign of boxes in 3D: random drops and throws of one to three boxes (sizes, masses,
// μ, e, velocities and spins drawn over wide ranges) onto a floor, or into a "box of planes" (a
// floor and four walls), run and checked by the campaign frame (support/spatial_campaign.hpp:
// status, finite samples, energy, unit quaternions; ROUTH_CAMPAIGN_RUNS, ROUTH_CAMPAIGN_RUN).
// Boxes touch the planes only (box pairs have no contacts). Runs stopped by the wall-clock limit
// are checked up to where they stopped: none or one of the first 2000 (once 41, most of them
// crawling after a slip event: the last test case below). Every run must also keep
// every corner out of every plane by more than 1e-9 m, the corners and the planes' signed
// distances computed here from q (Eigen's rotation of the box's half-sizes).

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <array>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
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
constexpr double kWallTimeLimit = 0.2;  // [s] per run: a run that needs more is reported

struct Scene {
  std::string yaml;
  std::vector<Eigen::Vector3d> half_sizes;  // per box [m]
  std::vector<double> masses;               // [kg]
  std::vector<test::CampaignPlane> planes;
  double size_m = 0.0;  // the scene's extent, for the energy scale
};

// One run: 1–3 boxes dropped or thrown; in a box of planes every other run.
Scene random_scene(int index) {
  test::RandomSource random(kSeed + static_cast<std::uint64_t>(index));
  Scene scene;
  const bool walled = index % 2 == 1;
  const int boxes = 1 + index % 3;
  const double room = 1.0;  // [m], the walls' half-distance
  scene.planes.push_back({Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()});
  if (walled) {
    for (const Eigen::Vector3d& n : {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(-1, 0, 0),
                                     Eigen::Vector3d(0, 1, 0), Eigen::Vector3d(0, -1, 0)})
      scene.planes.push_back({-room * n, n});
  }
  std::ostringstream yaml;
  yaml.precision(17);
  yaml << "name: box_campaign_" << index << "\nduration: 0.3\nmodel:\n  dimension: 3\n  bodies:\n";
  std::ostringstream q, v;
  for (int b = 0; b < boxes; ++b) {
    const Eigen::Vector3d size(random.decade(-1.5, -0.5), random.decade(-1.5, -0.5),
                               random.decade(-1.5, -0.5));  // 3 cm to 32 cm
    const double mass = random.decade(-2.0, 1.0);           // 10 g to 10 kg
    scene.half_sizes.push_back(0.5 * size);
    scene.masses.push_back(mass);
    yaml << "    - {name: b" << b << ", mass: " << mass
         << ", shape: {box: {size: " << vector_text(size) << "}}}\n";
    // apart from each other and from the walls, above the floor by up to 30 cm
    const double radius = 0.5 * size.norm();
    const Eigen::Vector3d centre(-0.6 + 0.6 * b, random.uniform(-0.2, 0.2),
                                 radius + random.uniform(0.0, 0.3));
    q << "b" << b << ".x: " << centre.x() << ", b" << b << ".y: " << centre.y() << ", b" << b
      << ".z: " << centre.z() << ", b" << b << ".orientation: {rpy: [" << random.uniform(-3.1, 3.1)
      << ", " << random.uniform(-1.5, 1.5) << ", " << random.uniform(-3.1, 3.1) << "]}, ";
    v << "b" << b << ".vx: " << random.uniform(-2.0, 2.0) << ", b" << b
      << ".vy: " << random.uniform(-2.0, 2.0) << ", b" << b << ".vz: " << random.uniform(-2.0, 1.0)
      << ", b" << b << ".wx: " << random.uniform(-20.0, 20.0) << ", b" << b
      << ".wy: " << random.uniform(-20.0, 20.0) << ", b" << b
      << ".wz: " << random.uniform(-20.0, 20.0) << ", ";
  }
  yaml << "  obstacles:\n";
  for (std::size_t p = 0; p < scene.planes.size(); ++p) {
    yaml << "    - {type: plane, name: " << (p == 0 ? "floor" : "wall" + std::to_string(p))
         << ", point: " << vector_text(scene.planes[p].point)
         << ", normal: " << vector_text(scene.planes[p].normal) << "}\n";
  }
  std::string q_text = q.str(), v_text = v.str();
  q_text.resize(q_text.size() - 2);
  v_text.resize(v_text.size() - 2);
  yaml << "initial:\n  q: {" << q_text << "}\n  v: {" << v_text << "}\n";
  yaml << "contact:\n  restitution: " << random.uniform(0.0, 0.9)
       << "\n  friction: " << random.uniform(0.0, 1.0) << "\noutput:\n  rate: 200\n";
  scene.yaml = yaml.str();
  scene.size_m = 2.0 * room;
  return scene;
}

// "" when every check holds for the run, else the first failure.
std::string first_failure(const Scene& scene, const test::ScenarioRun& run) {
  double weight = 0.0;
  for (const double m : scene.masses) weight += m * kCampaignGravity;
  const int boxes = static_cast<int>(scene.half_sizes.size());
  if (std::string bad = test::first_common_failure(run, boxes, weight * scene.size_m); !bad.empty())
    return bad;
  std::ostringstream out;
  out.precision(10);
  for (const auto& sample : run.trajectory.samples) {
    for (std::size_t b = 0; b < scene.half_sizes.size(); ++b) {
      const Eigen::Index s = 7 * static_cast<Eigen::Index>(b);
      const Eigen::Vector4d quaternion = sample.q.segment<4>(s + 3);
      const Eigen::Matrix3d R =
          Eigen::Quaterniond(quaternion[0], quaternion[1], quaternion[2], quaternion[3])
              .normalized()
              .toRotationMatrix();
      for (int c = 0; c < 8; ++c) {
        const Eigen::Vector3d h = scene.half_sizes[b];
        const Eigen::Vector3d corner =
            sample.q.segment<3>(s) + R * Eigen::Vector3d((c & 1) ? h.x() : -h.x(),
                                                         (c & 2) ? h.y() : -h.y(),
                                                         (c & 4) ? h.z() : -h.z());
        for (const test::CampaignPlane& plane : scene.planes) {
          const double gap = plane.normal.dot(corner - plane.point);
          if (gap < -kPenetrationTolerance) {
            out << "box " << b << " corner " << c << " " << -gap
                << " m inside a plane at t = " << sample.t << " s";
            return out.str();
          }
        }
      }
    }
  }
  return "";
}

// The campaign's scenes `indices` complete, and every check of the campaign holds.
void check_scenes_complete(std::initializer_list<int> indices) {
  for (const int index : indices) {
    CAPTURE(index);
    const Scene scene = random_scene(index);
    // as the campaign simulates it, without its wall-clock limit
    const test::ScenarioRun run = test::run_scene(scene.yaml, "box_campaign.yaml", 0.0, 0.0);
    CHECK(run.outcome.status == RunStatus::completed);
    CHECK(first_failure(scene, run) == "");
  }
}

// Runs that end in a trouble status today, each a known defect of the spatial contact modes that
// is still to be fixed (support/spatial_campaign.hpp): none of the first 5000.
// ROUTH_CAMPAIGN_RUN=N prints one's scene.
constexpr std::array<test::KnownTrouble, 0> kKnownTrouble{};

}  // namespace

TEST_CASE(
    "spatial boxes: campaign of random drops and throws of boxes onto a floor and into a box of "
    "planes") {
  test::run_campaign({"box_campaign.yaml", test::kSanitized ? 60 : 2000, kWallTimeLimit},
                     kKnownTrouble, random_scene, first_failure);
}

TEST_CASE(
    "spatial boxes: three boxes in a box of planes go on past a slip event without crawling "
    "(campaign run 5, 0.5 s of simulation)") {
  // The scene of random_scene(5) with duration 0.5 s (ROUTH_CAMPAIGN_RUN=5 prints it): 38
  // impacts, then a `slip` event of b2.x+y+z-/floor at t = 0.4099532 s. Its slip from rest
  // followed u_t/|u_t| while it was slow, a stiff direction (aligned_slip.hpp): the run then
  // handled 1449 event instants within 8 µs that logged no event and changed nothing (9.7 s of
  // wall time). Aligned with its acceleration while slow, the slip goes on in milliseconds.
  Scene scene = random_scene(5);
  scene.yaml.replace(scene.yaml.find("duration: 0.3"), 13, "duration: 0.5");
  const test::ScenarioRun run = test::run_scene(scene.yaml, "box_campaign.yaml");
  CHECK(run.outcome.status == RunStatus::completed);
}

namespace {

TEST_CASE(
    "spatial boxes: a box whose slow slip turns toward Painlevé's singularity jams and sticks "
    "(campaign run 3213)") {
  // After a rest event b0 slides slowly on one corner; its slip turns to a direction where the
  // sliding compliance J_n M⁻¹ (J_n − μd û·J_t)ᵀ falls toward 0 from the positive side: λ_n grew
  // to 8e6 N, the slip decelerated at 1e8 m/s², and at t = 0.251343 s the step no longer advanced
  // time (step_size_failure). It is a dynamic jam (sim/simulation/dynamic_jam.hpp): its witness
  // finds the compliance below 1e-4 of its value without friction, the plastic impulse that stops
  // the slip lies inside the cone (|Γ_t| / Γ_n = 0.97 against μ = 0.9966) and the corner sticks.
  // The run completes, and every check of the campaign holds: no event raises the kinetic
  // energy, the total energy does not rise.
  check_scenes_complete({3213});
}

TEST_CASE(
    "spatial boxes: two corners of an edge that approach Painlevé's singularity together jam, "
    "one sticking and one sliding on (campaign run 3551)") {
  // A box slides on two corners of an edge, whose 2 × 2 sliding compliance nears singular
  // (determinant 6e-9 of its entries' product 0.11): λ_n reached 1e9 N and at t = 0.215774 s the
  // step no longer advanced time. The jam's witness finds r < 1e-4; the impulse that leaves both
  // corners at rest needs |Γ_t| / Γ_n = 5.2 at one of them against μ = 0.95, so the jam ends with
  // that corner sliding on its cone's edge (its slip 0.105 m/s falls to 0.041 m/s) and the other
  // at rest inside its cone, ΔT = −5 mJ (sticking_impulse.hpp's impulse of settled modes). The
  // run completes, and every check of the campaign holds.
  check_scenes_complete({3551});
}

TEST_CASE(
    "spatial boxes: a box on an edge whose friction reaches the edge of its static cone slides "
    "on (campaign runs 271, 1048 and 1520)") {
  // Each ends with one box on two corners of an edge, an indeterminate sticking set whose stick
  // reserve reaches 0 (a slip event: run 271 at t = 0.2934 s, 1048 at 0.2331 s, 1520 at
  // 0.1925 s, μs = μd). Both corners slipping from the direction against their sticking forces is
  // consistent; it was tried from the directions the one-corner trials before it had aligned, and
  // the runs ended in contact_modes_unresolved. They complete, and every check of the campaign
  // holds: no event raises the kinetic energy, the total energy does not rise.
  check_scenes_complete({271, 1048, 1520});
}

TEST_CASE(
    "spatial boxes: a box leaning from a floor corner against a wall corner sticks where "
    "squeezing the corners holds it (campaign runs 1101 and 1165)") {
  // Each ends with a box on one floor corner and one wall corner (1101 at t = 0.1916 s, 1165 at
  // 0.2199 s). Sticking at both was refused for the wall corner's pull in the minimum-norm
  // forces, though squeezing the corners together pushes at both, inside both cones (by 1.6 N
  // and 0.15 N); no other assignment was consistent, and the runs ended in Painlevé's paradox,
  // whose tangential impact the law could not resolve (painleve_unresolved). They complete, and
  // every check of the campaign holds: no event raises the kinetic energy, the total energy does
  // not rise.
  check_scenes_complete({1101, 1165});
}

TEST_CASE(
    "spatial boxes: a box squeezed between a floor corner and a wall corner sticks where its "
    "cones hold it by a small margin (campaign run 953)") {
  // At t = 0.2428875 s, after a train of sliding impacts, b0 is at rest on a floor corner and a
  // wall corner. Its minimum-norm sticking forces pull at the wall (λ_n = −0.11 N); squeezing the
  // corners together pushes at both, inside both cones by a few per cent of μs λ_n, less than the 8
  // % that polygons inscribed in the cones give up, so the largest-margin program found none. Every
  // other assignment was inconsistent too (the floor corner slipping alone has d·a_t of
  // round-off, now and a moment later), and the run ended in Painlevé's paradox with no impulse
  // (painleve_unresolved). It completes, and every check of the campaign holds: no event raises
  // the kinetic energy, the total energy does not rise.
  check_scenes_complete({953});
}

}  // namespace
}  // namespace routh
