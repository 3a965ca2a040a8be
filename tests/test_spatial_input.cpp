// Spatial models in scenario files (sim/scenario/spatial_input.hpp): the `model` map with
// `dimension: 3` and its initial state read into a SpatialBodiesDescription and complete q, v;
// defaults (uniform inertia, identity orientation, plane names), roll-pitch-yaw against the
// closed-form quaternion, every error located, a z excitation, and the effective form read back
// to the same description; a whole scenario with its laws, and `routh check` on it.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "sim/excitation/excitation.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/excitation_input.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/spatial_input.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"
#include "support/ball_scenario.hpp"
#include "support/routh_process.hpp"
#include "support/scenario_errors.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

constexpr double kPi = std::numbers::pi;

// A billiard ball on the floor (the brief's example), its lines numbered.
const std::string kBilliard =
    "name: billiard\n"                                                         // 1
    "duration: 1\n"                                                            // 2
    "model:\n"                                                                 // 3
    "  dimension: 3\n"                                                         // 4
    "  gravity: 9.81\n"                                                        // 5
    "  bodies:\n"                                                              // 6
    "    - name: ball\n"                                                       // 7
    "      mass: 0.17\n"                                                       // 8
    "      shape: {sphere: {radius: 0.028575}}\n"                              // 9
    "      inertia: [2.2e-5, 2.2e-5, 2.2e-5]\n"                                // 10
    "  obstacles:\n"                                                           // 11
    "    - {type: plane, name: floor, point: [0, 0, 0], normal: [0, 0, 1]}\n"  // 12
    "  collisions: {between_bodies: true}\n"                                   // 13
    "initial:\n"                                                               // 14
    "  q: {ball.z: 0.028575, ball.orientation: [1, 0, 0, 0]}\n"                // 15
    "  v: {ball.vx: 2.0, ball.wx: 20.0}\n"                                     // 16
    "contact:\n"                                                               // 17
    "  restitution: 0.9\n"                                                     // 18
    "  friction: 0.2\n";                                                       // 19

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string with(const std::string& text, const std::string& from, const std::string& to) {
  std::string changed = text;
  const std::size_t at = changed.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from, " not in ", text);
  return changed.replace(at, from.size(), to);
}

struct SpatialRead {
  SpatialModelInput model;
  SpatialInitialInput initial;
};

SpatialRead read_spatial(const std::string& text) {
  const InputNode root = parse_yaml_text(text, "scenario.yaml");
  SpatialRead read{read_spatial_model(root.required("model")), {}};
  read.initial = read_spatial_initial(root.required("initial"), read.model.description);
  return read;
}

// The message of the InputError reading `text`'s model and initial state throws.
std::string spatial_error(const std::string& text) {
  try {
    read_spatial(text);
  } catch (const InputError& error) {
    return error.what();
  }
  FAIL("no error for:\n", text);
  return "";
}

// The error for `text` with `from` replaced by `to`: at `value` in `to`, saying `message`.
void check_error(const std::string& from, const std::string& to, const std::string& value,
                 const std::string& message) {
  const std::string text = with(kBilliard, from, to);
  const std::string error = spatial_error(text);
  CAPTURE(error);
  CHECK(contains(error, test::location_of(text, to, value) + ":"));
  CHECK(contains(error, message));
}

TEST_CASE("spatial input: the billiard ball's model and initial state are read as written") {
  const SpatialRead read = read_spatial(kBilliard);
  const SpatialBodiesDescription& d = read.model.description;
  REQUIRE(d.bodies.size() == 1);
  CHECK(d.bodies[0].name == "ball");
  CHECK(d.bodies[0].mass_kg == 0.17);
  CHECK(std::get<SphereShape>(d.bodies[0].shape).radius_m == 0.028575);
  CHECK(d.bodies[0].inertia_kg_m2 == Eigen::Vector3d::Constant(2.2e-5));
  CHECK(d.gravity_m_s2 == Eigen::Vector3d(0.0, 0.0, -9.81));
  REQUIRE(d.planes.size() == 1);
  CHECK(d.planes[0].name == "floor");
  CHECK(d.planes[0].normal == Eigen::Vector3d::UnitZ());
  CHECK(d.collide_bodies);
  Eigen::VectorXd q(7), v(6);
  q << 0.0, 0.0, 0.028575, 1.0, 0.0, 0.0, 0.0;
  v << 2.0, 0.0, 0.0, 20.0, 0.0, 0.0;
  CHECK(read.initial.q == q);
  CHECK(read.initial.v == v);
}

TEST_CASE("spatial input: defaults are uniform inertia, identity orientation and named planes") {
  const std::string text =
      "model:\n"
      "  dimension: 3\n"
      "  bodies:\n"
      "    - {name: brick, mass: 12, shape: {box: {size: [0.3, 0.2, 0.1]}}}\n"
      "    - {name: coin, mass: 0.006, shape: {cylinder: {radius: 0.012, height: 0.002}}}\n"
      "  obstacles:\n"
      "    - {type: plane, point: [1, 0, 0], normal: [-2, 0, 0]}\n"
      "    - {type: plane, point: [0, 0, 0], normal: [0, 0, 3]}\n"
      "initial:\n"
      "  q: {coin.x: 0.5, coin.z: 0.001}\n";
  const SpatialRead read = read_spatial(text);
  const SpatialBodiesDescription& d = read.model.description;
  // closed forms: a box m (b² + c², a² + c², a² + b²)/12, a cylinder m (3r² + h²)/12 and m r²/2
  CHECK(d.bodies[0].inertia_kg_m2.isApprox(
      Eigen::Vector3d(12.0 * (0.04 + 0.01) / 12.0, 12.0 * (0.09 + 0.01) / 12.0,
                      12.0 * (0.09 + 0.04) / 12.0),
      1e-15));
  const double across = 0.006 * (3.0 * 0.012 * 0.012 + 0.002 * 0.002) / 12.0;
  CHECK(d.bodies[1].inertia_kg_m2.isApprox(Eigen::Vector3d(across, across, 0.003 * 0.012 * 0.012),
                                           1e-15));
  CHECK(d.gravity_m_s2.z() == -9.81);
  CHECK(d.collide_bodies);
  // the first plane faces −x: plane1 by its place; the second faces +z: the floor
  CHECK(d.planes[0].name == "plane1");
  CHECK(d.planes[0].normal == -Eigen::Vector3d::UnitX());
  CHECK(d.planes[1].name == "floor");
  CHECK(d.planes[1].normal == Eigen::Vector3d::UnitZ());
  Eigen::VectorXd q(14);
  q << 0, 0, 0, 1, 0, 0, 0, 0.5, 0, 0.001, 1, 0, 0, 0;
  CHECK(read.initial.q == q);
  CHECK(read.initial.v == Eigen::VectorXd::Zero(12));
  CHECK(read_model_dimension(parse_yaml_text("{type: ball}", "m.yaml")) == 2);
}

TEST_CASE("spatial input: quaternions are normalised and roll-pitch-yaw matches the closed form") {
  const SpatialRead given = read_spatial(
      with(kBilliard, "ball.orientation: [1, 0, 0, 0]", "ball.orientation: [2, 0, 0, 2]"));
  CHECK(given.initial.q.segment<4>(3).isApprox(Eigen::Vector4d(1.0, 0.0, 0.0, 1.0) / std::sqrt(2.0),
                                               1e-15));
  const SpatialRead parts = read_spatial(with(kBilliard, "ball.orientation: [1, 0, 0, 0]",
                                              "ball.qw: 0, ball.qx: 3, ball.qy: 0, ball.qz: 4"));
  CHECK(parts.initial.q.segment<4>(3).isApprox(Eigen::Vector4d(0.0, 0.6, 0.0, 0.8), 1e-15));

  // R = R_z(y) R_y(p) R_x(r): q = (cr cp cy + sr sp sy, sr cp cy − cr sp sy,
  // cr sp cy + sr cp sy, cr cp sy − sr sp cy) with c, s of the half angles
  const SpatialRead rpy = read_spatial(with(kBilliard, "ball.orientation: [1, 0, 0, 0]",
                                            "ball.orientation: {rpy: [30 deg, 45 deg, 1.2]}"));
  const double r = kPi / 12.0, p = kPi / 8.0, y = 0.6;  // halves
  const Eigen::Vector4d expected(
      std::cos(r) * std::cos(p) * std::cos(y) + std::sin(r) * std::sin(p) * std::sin(y),
      std::sin(r) * std::cos(p) * std::cos(y) - std::cos(r) * std::sin(p) * std::sin(y),
      std::cos(r) * std::sin(p) * std::cos(y) + std::sin(r) * std::cos(p) * std::sin(y),
      std::cos(r) * std::cos(p) * std::sin(y) - std::sin(r) * std::sin(p) * std::cos(y));
  CHECK(rpy.initial.q.segment<4>(3).isApprox(expected, 1e-15));
  // yaw alone turns the body's x onto the world's y
  const Eigen::Vector3d turned =
      quaternion_from_rpy({0.0, 0.0, kPi / 2.0}) * Eigen::Vector3d::UnitX();
  CHECK(turned.isApprox(Eigen::Vector3d::UnitY(), 1e-15));
  // angular velocities take deg/s
  const SpatialRead spin = read_spatial(with(kBilliard, "ball.wx: 20.0", "ball.wz: 180 deg/s"));
  CHECK(spin.initial.v[5] == doctest::Approx(kPi).epsilon(1e-15));
}

TEST_CASE("spatial input: every mistake in the model is located and names the fix") {
  check_error("  dimension: 3\n", "  dimension: 4\n", "4", "must be 2 (planar bodies) or 3");
  check_error("  collisions: {between_bodies: true}\n", "  colisions: {between_bodies: true}\n",
              "colisions", "did you mean 'collisions'?");
  check_error("      mass: 0.17\n", "      mas: 0.17\n", "mas", "did you mean 'mass'?");
  check_error("{sphere: {radius: 0.028575}}", "{sphre: {radius: 0.028575}}", "sphre",
              "did you mean 'sphere'?");
  check_error("{sphere: {radius: 0.028575}}",
              "{sphere: {radius: 0.028575}, box: {size: [1, 1, 1]}}", "{sphere",
              "must hold one shape");
  check_error("{sphere: {radius: 0.028575}}", "{sphere: {radius: -1}}", "-1", "must be in");
  check_error("{sphere: {radius: 0.028575}}", "{box: {size: [1, 1]}}", "[1, 1]",
              "must be [a, b, c]");
  check_error("{sphere: {radius: 0.028575}}", "{cylinder: {radius: 0.1}}", "{radius",
              "missing required key 'height'");
  check_error("[2.2e-5, 2.2e-5, 2.2e-5]", "[1, 1, 3]", "[1, 1, 3]",
              "I3 = 3 exceeds the sum of the other two, 2");
  check_error("[2.2e-5, 2.2e-5, 2.2e-5]", "[1, 0, 1]", "0", "must be in (0,");
  check_error("[2.2e-5, 2.2e-5, 2.2e-5]", "[1, 1]", "[1, 1]", "must be [I1, I2, I3]");
  check_error(
      "      shape: {sphere: {radius: 0.028575}}\n      inertia: [2.2e-5, 2.2e-5, 2.2e-5]\n",
      "      shape: {sphere: {radius: 0.03, centre: [0, 0, 0.01]}}\n", "{sphere",
      "an eccentric sphere");
  check_error("{type: plane, name: floor,", "{type: floor, name: floor,", "floor,",
              "obstacles are planes: must be plane");
  check_error("normal: [0, 0, 1]", "normal: [0, 0, 0]", "[0, 0, 0]", "must not be zero");
  check_error("point: [0, 0, 0]", "point: [0, 0]", "[0, 0]", "must be [x, y, z]");
  check_error("name: floor,", "name: ball,", "ball,", "'ball' already names a body or obstacle");
  check_error("name: floor,", "name: 'the floor',", "'the floor'", "must be a name of letters");
  check_error("{between_bodies: true}", "{between_bodies: maybe}", "maybe",
              "must be true or false");
}

TEST_CASE("spatial input: every mistake in the initial state is located and names the fix") {
  check_error("ball.z: 0.028575", "ball.theta: 0.028575", "ball.theta",
              "unknown coordinate 'ball.theta'");
  check_error("ball.vx: 2.0", "ball.vq: 2.0", "ball.vq", "did you mean 'ball.vx'?");
  check_error("ball.vx: 2.0", "ball.x: 2.0", "ball.x", "unknown velocity 'ball.x'");
  check_error("ball.orientation: [1, 0, 0, 0]", "ball.orientation: [1, 0, 0, 0], ball.qw: 7", "7",
              "give ball.orientation or ball.qw, ball.qx, ball.qy, ball.qz, not both");
  check_error("ball.orientation: [1, 0, 0, 0]", "ball.qw: 0.5, ball.qz: 0", "0.5",
              "ball.qx is missing");
  check_error("ball.orientation: [1, 0, 0, 0]", "ball.orientation: [0, 0, 0, 0]", "[0, 0, 0, 0]",
              "must not be zero: it is a rotation");
  check_error("ball.orientation: [1, 0, 0, 0]", "ball.orientation: [1, 0, 0]", "[1, 0, 0]",
              "must be a quaternion [w, x, y, z], or {rpy: [roll, pitch, yaw]}");
  check_error("ball.orientation: [1, 0, 0, 0]", "ball.orientation: {rpy: [1, 2]}", "[1, 2]",
              "must be [roll, pitch, yaw]");
  check_error("ball.orientation: [1, 0, 0, 0]", "ball.orientation: {ryp: [1, 2, 3]}", "ryp",
              "did you mean 'rpy'?");
  check_error("ball.z: 0.028575", "ball.z: 1e9", "1e9", "must be in [-10000000, 10000000] m");
  check_error("ball.wx: 20.0", "ball.wx: 20 deg", "20 deg", "deg/s");
}

TEST_CASE("spatial input: the effective form reads back to the same description and state") {
  const std::string text = with(
      with(kBilliard, "ball.orientation: [1, 0, 0, 0]", "ball.orientation: {rpy: [10 deg, 0, 1]}"),
      "  obstacles:\n",
      "    - {name: top, mass: 2, shape: {sphere: {radius: 0.1, centre: [0, 0, 0.02]}},\n"
      "       inertia: [0.01, 0.01, 0.012]}\n"
      "    - {name: crate, mass: 3, shape: {box: {size: [0.3, 0.2, 0.1]}}}\n"
      "  obstacles:\n"
      "    - {type: plane, point: [0, 0, 0], normal: [0, 1, 1]}\n");  // before the floor
  const SpatialRead first = read_spatial(text);
  YAML::Node effective;
  effective["model"] = first.model.effective;
  effective["initial"] = first.initial.effective;
  YAML::Emitter out;
  out << effective;
  const SpatialRead second = read_spatial(out.c_str());

  const SpatialBodiesDescription& a = first.model.description;
  const SpatialBodiesDescription& b = second.model.description;
  REQUIRE(a.bodies.size() == 3);
  REQUIRE(b.bodies.size() == 3);
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    CAPTURE(i);
    CHECK(a.bodies[i].name == b.bodies[i].name);
    CHECK(a.bodies[i].mass_kg == b.bodies[i].mass_kg);
    CHECK(a.bodies[i].inertia_kg_m2 == b.bodies[i].inertia_kg_m2);
    CHECK(a.bodies[i].shape.index() == b.bodies[i].shape.index());
  }
  CHECK(std::get<SphereShape>(b.bodies[1].shape).centre_m == Eigen::Vector3d(0, 0, 0.02));
  CHECK(std::get<BoxShape>(b.bodies[2].shape).size_m == Eigen::Vector3d(0.3, 0.2, 0.1));
  REQUIRE(b.planes.size() == 2);
  CHECK(a.planes[0].name == "plane1");
  CHECK(b.planes[0].name == "plane1");
  CHECK(b.planes[1].name == "floor");
  CHECK(b.planes[0].normal == a.planes[0].normal);
  CHECK(b.planes[0].point_m == a.planes[0].point_m);
  CHECK(b.planes[0].normal.isApprox(Eigen::Vector3d(0, 1, 1) / std::sqrt(2.0), 1e-15));
  CHECK(a.gravity_m_s2 == b.gravity_m_s2);
  CHECK(a.collide_bodies == b.collide_bodies);
  CHECK(first.initial.q == second.initial.q);
  CHECK(first.initial.v == second.initial.v);
  CHECK(contains(out.c_str(), "dimension: 3"));
}

TEST_CASE(
    "spatial input: a z excitation acts along z for a spatial model, a planar one refuses it") {
  const InputNode signal = parse_yaml_text(
      "{harmonic: {amplitude: 2, frequency: 5, direction: z, phase: 90 deg}}", "scenario.yaml");
  YAML::Node described;
  const Excitation excitation = read_excitation(signal, ".", 3, described);
  // a_g(0) = 2 sin(90°) along z
  CHECK(ground_acceleration(excitation, 0.0).isApprox(Eigen::Vector3d(0.0, 0.0, 2.0), 1e-15));
  CHECK(described["harmonic"]["direction"].as<std::string>() == "z");
  YAML::Node unused;
  try {
    read_excitation(parse_yaml_text("{pulse: {amplitude: 1, period: 1, direction: w}}", "s.yaml"),
                    ".", 3, unused);
    FAIL("direction w was accepted");
  } catch (const InputError& error) {
    CHECK(contains(error.what(), "s.yaml:1:46:"));
    CHECK(contains(error.what(), "direction = w: must be x, y or z"));
  }

  const std::string planar =
      test::kBall + "excitation: {harmonic: {amplitude: 1, frequency: 1, direction: z}}\n";
  const std::string error = test::load_error(planar);
  CHECK(contains(error, test::location_of(planar, "direction: z", "z") + ":"));
  CHECK(contains(error, "must be x or y: a planar model moves in the x-y plane"));
  CHECK(contains(test::load_error(with(test::kBall, "{type: ball,", "{dimension: 5, type: ball,")),
                 "scenario.yaml:3:20: model.dimension = 5: must be 2 (planar bodies) or 3"));
}

TEST_CASE("spatial input: a planar model says dimension 2 or nothing, and loads the same") {
  const Scenario implicit = load_scenario(test::write_problem(test::kBall, "scenario.yaml"));
  const Scenario explicit_2 = load_scenario(test::write_problem(
      with(test::kBall, "{type: ball,", "{dimension: 2, type: ball,"), "scenario.yaml"));
  CHECK(implicit.dimension == 2);
  CHECK(explicit_2.dimension == 2);
  REQUIRE(explicit_2.planar != nullptr);
  CHECK(explicit_2.planar == explicit_2.model.get());
  CHECK(explicit_2.effective_yaml == implicit.effective_yaml);
  CHECK(explicit_2.model_json == implicit.model_json);
  CHECK_FALSE(contains(implicit.effective_yaml, "dimension"));
}

TEST_CASE(
    "spatial input: a spatial run's ground acceleration is recorded with z, and routh info reads "
    "it back") {
  const std::filesystem::path path = test::scratch() / "spatial_ground.h5";
  {
    // one body's layout (spatial_bodies.hpp): 7 coordinates, 6 velocities
    const RecorderHeader header{"sliding_ode",
                                "name: shaken\nduration: 1\n",
                                {"b.x", "b.y", "b.z", "b.qw", "b.qx", "b.qy", "b.qz"},
                                {"m", "m", "m", "1", "1", "1", "1"},
                                {"b/floor"},
                                "",
                                {"b.vx", "b.vy", "b.vz", "b.wx", "b.wy", "b.wz"},
                                {"m/s", "m/s", "m/s", "rad/s", "rad/s", "rad/s"}};
    TrajectoryRecorder recorder(path, header);
    recorder.record_ground_acceleration(
        [](double t) { return Eigen::Vector3d(0.5 * t, -0.25, std::cos(kPi * t)); }, 3);
    Eigen::VectorXd q = Eigen::VectorXd::Zero(7);
    q[3] = 1.0;
    for (int i = 0; i <= 4; ++i) {
      recorder.record_sample(0.25 * i, q, Eigen::VectorXd::Zero(6), Energy{0.0, 0.0});
    }
    recorder.set_run_status(RunStatus::completed, "");
    recorder.close();
  }
  const TrajectorySummary summary = summarize_trajectory(path);
  REQUIRE(summary.peak_ground_acceleration.has_value());
  REQUIRE(summary.peak_ground_acceleration->size() == 3);
  // max over t = 0, 0.25, …, 1 of |0.5 t|, 0.25, |cos π t|
  CHECK(summary.peak_ground_acceleration->isApprox(Eigen::Vector3d(0.5, 0.25, 1.0), 1e-15));
  const test::RouthRun info = test::run_routh(cat("info '", path.string(), "'"));
  CAPTURE(info.err);
  CHECK(info.exit_code == 0);
  CHECK(contains(info.out, "peak |a_x| 0.5 m/s^2, |a_y| 0.25 m/s^2, |a_z| 1 m/s^2"));
}

TEST_CASE("spatial input: a whole spatial scenario loads with spatial laws and an effective form") {
  const std::string path = test::write_problem(kBilliard, "scenario.yaml");
  const Scenario scenario = load_scenario(path);
  CHECK(scenario.dimension == 3);
  CHECK(scenario.planar == nullptr);
  CHECK(scenario.model_type == "spatial");
  CHECK(scenario.law == "sliding_ode");
  CHECK(scenario.multi_contact_law == "lcp");
  CHECK(scenario.settings.overturn_watch.empty());
  CHECK(scenario.model->coordinate_count() == 7);
  CHECK(contains(scenario.model_json, "\"dimension\": 3"));
  // the effective scenario loads again to the same one
  const Scenario again =
      load_scenario(test::write_problem(scenario.effective_yaml, "effective.yaml"));
  CHECK(again.effective_yaml == scenario.effective_yaml);
  CHECK(again.initial.q == scenario.initial.q);
  CHECK(again.initial.v == scenario.initial.v);

  CHECK(contains(scenario.effective_yaml, "ball.orientation: [1, 0, 0, 0]"));
  CHECK(contains(scenario.effective_yaml, "dimension: 3"));

  // `routh check` prints the summary of a spatial scenario: one sphere on one plane
  const test::RouthRun check = test::run_routh(cat("check '", path, "'"));
  CAPTURE(check.err);
  CHECK(check.exit_code == 0);
  CHECK(contains(check.out,
                 ": ok (model spatial, law sliding_ode, multi-contact law lcp, "
                 "7 coordinates, 1 contact, output "));

  const std::string planar_law = with(kBilliard, "contact:\n", "contact:\n  law: poisson\n");
  const std::string error = test::load_error(planar_law);
  CHECK(contains(error, test::location_of(planar_law, "law: poisson", "poisson") + ":"));
  CHECK(contains(error, "spatial contacts need one of"));
}

}  // namespace
}  // namespace routh
