// Blocks standing side by side on the floor, their side faces flush: two blocks, two of unequal
// heights, a block bridging the joint of two others, and running-bond walls. Under gravity alone a
// rigid assembly at rest on its supports stays at rest, every coordinate as placed, with no event.
// Under a harmonic ground acceleration below the closed-form thresholds of sliding (a_g < μ g) and
// of uplift (a_g < g b/h for every block's half-width b and half-height h) nothing moves relative
// to the ground either. The expected positions are written here from the blocks' sizes: a block
// given only its x rests on the floor, or on the course beneath it, its centre half its height
// above that course's top.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace {

using routh::RunStatus;
using routh::test::ScenarioRun;

constexpr double kGravity = 9.81;  // [m/s²], the preset's default
constexpr double kMu = 0.6;

// A block of the stacked_blocks preset, its centre where it must stay.
struct PlacedBlock {
  double x, y, width, height;  // [m]
};

// The stacked_blocks scenario of `blocks` (block1 first), each given only its x, μ = 0.6, e = 0,
// 35.2 kg each, with `excitation` (YAML, may be empty) for `duration` seconds.
std::string wall_scenario(const std::vector<PlacedBlock>& blocks, const std::string& excitation,
                          double duration) {
  std::ostringstream widths, heights, xs;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const char* comma = i == 0 ? "" : ", ";
    widths << comma << blocks[i].width;
    heights << comma << blocks[i].height;
    xs << comma << "block" << i + 1 << ".x: " << blocks[i].x;
  }
  std::ostringstream yaml;
  yaml << "duration: " << duration
       << "\nmodel:\n  type: stacked_blocks\n  blocks: " << blocks.size() << "\n  width: ["
       << widths.str() << "]\n  height: [" << heights.str() << "]\n  mass: 35.2\ninitial:\n  q: {"
       << xs.str() << "}\ncontact:\n  law: poisson\n  restitution: 0\n"
       << "  friction: " << kMu << "\n"
       << excitation << "output: {rate: 100}\n";
  return yaml.str();
}

ScenarioRun run_blocks(const std::vector<PlacedBlock>& blocks, const std::string& name,
                       const std::string& excitation = "", double duration = 1.0) {
  return routh::test::run_scenario_file(
      routh::test::write_problem(wall_scenario(blocks, excitation, duration), name));
}

// The run completes without any event (`events`: every kind; `impacts`: impacts only), and every
// sample has each block at its (x, y) and upright: to 1e-9 m and rad, far above the round-off the
// resting force solve leaves (its accelerations of 1e-15 m/s² move a block by 1e-14 m in a second)
// and far below any motion (a block tipping off a corner turned 0.149 rad in 0.1 s).
enum class Events { none, no_impacts };
void check_at_rest(const ScenarioRun& run, const std::vector<PlacedBlock>& blocks,
                   Events allowed = Events::none) {
  INFO(run.outcome.detail);
  REQUIRE(run.outcome.status == RunStatus::completed);
  CHECK(run.outcome.final_state.t == doctest::Approx(run.scenario.settings.duration));
  for (const auto& event : run.trajectory.events) {
    INFO(to_string(event.kind) << " at t = " << event.t << " s: " << event.status);
    CHECK(allowed == Events::no_impacts);
    CHECK(event.kind != routh::EventKind::impact);
  }
  CHECK(run.trajectory.samples.size() > 90);
  double largest = 0.0;
  for (const auto& sample : run.trajectory.samples) {
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      const auto first = static_cast<Eigen::Index>(3 * i);
      largest =
          std::max({largest, std::abs(sample.q[first] - blocks[i].x),
                    std::abs(sample.q[first + 1] - blocks[i].y), std::abs(sample.q[first + 2])});
    }
  }
  CHECK(largest < 1e-9);
}

// A running-bond wall of `courses` courses of blocks w × h on the floor from x = 0: the odd
// courses (the first, third, ...) hold `per_course` whole blocks, the even ones a half block at
// each end and per_course − 1 whole blocks between, each joint over the middle of a block below.
std::vector<PlacedBlock> running_bond(int courses, int per_course, double w, double h) {
  std::vector<PlacedBlock> blocks;
  for (int c = 0; c < courses; ++c) {
    const double y = (c + 0.5) * h;
    if (c % 2 == 0) {
      for (int i = 0; i < per_course; ++i) blocks.push_back({(i + 0.5) * w, y, w, h});
      continue;
    }
    blocks.push_back({0.25 * w, y, 0.5 * w, h});
    for (int i = 1; i < per_course; ++i) blocks.push_back({i * w, y, w, h});
    blocks.push_back({(per_course - 0.25) * w, y, 0.5 * w, h});
  }
  return blocks;
}

}  // namespace

TEST_CASE("side by side: two flush blocks on the floor stay at rest under gravity") {
  // block1 spans [0, 0.4], block2 [0.4, 0.8] (0.6 − 0.2 is 0.39999999999999997): the defect set
  // block2 on block1's top corner, where it tipped 0.149 rad in 0.1 s
  const std::vector<PlacedBlock> blocks = {{0.2, 0.1, 0.4, 0.2}, {0.6, 0.1, 0.4, 0.2}};
  const ScenarioRun run = run_blocks(blocks, "two_side_by_side.yaml");
  check_at_rest(run, blocks);
  for (const auto& sample : run.trajectory.samples) {
    CHECK(std::abs(sample.q[2]) < 1e-12);
    CHECK(std::abs(sample.q[5]) < 1e-12);
  }
}

TEST_CASE("side by side: blocks of unequal heights and a block bridging their joint stay at rest") {
  // a 0.2 m block beside a 0.3 m one: each rests on the floor
  const std::vector<PlacedBlock> unequal = {{0.2, 0.1, 0.4, 0.2}, {0.6, 0.15, 0.4, 0.3}};
  check_at_rest(run_blocks(unequal, "unequal_side_by_side.yaml"), unequal);
  // a third block centred over the joint of two flush ones rests on both tops
  const std::vector<PlacedBlock> bridged = {
      {0.2, 0.1, 0.4, 0.2}, {0.6, 0.1, 0.4, 0.2}, {0.4, 0.3, 0.4, 0.2}};
  check_at_rest(run_blocks(bridged, "bridged_joint.yaml"), bridged);
}

TEST_CASE("side by side: a running-bond wall of three courses stays at rest under gravity") {
  const std::vector<PlacedBlock> wall = running_bond(3, 3, 0.4, 0.2);
  REQUIRE(wall.size() == 10);
  check_at_rest(run_blocks(wall, "running_bond_wall.yaml"), wall);
}

TEST_CASE("side by side: a running-bond wall shaken below its sliding and uplift thresholds") {
  constexpr double w = 0.4, h = 0.2;
  const std::vector<PlacedBlock> wall = running_bond(3, 3, w, h);
  // Sliding: a block slides on its support only once the inertial load m a_g exceeds μ m g; a
  // block (or any group of them) tips over a base corner only once its moment m a_g h_c exceeds
  // the weight's m g b_c about it, b_c / h_c ≥ min(b/h) over single blocks (a group is wider
  // relative to its height than its most slender member). Half the smaller threshold is safely
  // below both.
  double slenderest = 1e9;  // min b/h
  for (const PlacedBlock& block : wall)
    slenderest = std::min(slenderest, block.width / block.height);
  const double threshold = std::min(kMu * kGravity, kGravity * slenderest);
  const double amplitude = 0.5 * threshold;  // [m/s²]
  std::ostringstream excitation;
  excitation << "excitation:\n  - harmonic: {amplitude: " << amplitude << ", frequency: 2}\n";
  // Nothing moves and nothing strikes; the settled modes of the side faces' contacts, which
  // carry a statically indeterminate share of nothing, still change as the load turns (slip and
  // lift-off events at zero slip and zero gap, an `uplift` that lifts nothing): logged noise.
  check_at_rest(run_blocks(wall, "shaken_wall.yaml", excitation.str()), wall, Events::no_impacts);
}
