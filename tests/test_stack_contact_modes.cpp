// Contact modes of stacked blocks, end to end: runs of two- and three-block stacks in which the
// modes of six or more touching contacts are settled at once (contact_modes.hpp), each checked
// against what must hold whatever the contact model, computed here from q and v:
//  - the run completes (a Painlevé configuration, where one arises, is resolved by an impulse);
//  - a block flat on two corners never slips at them in opposite directions (both corners of a
//    rigid block on one line have the same tangential velocity): every slip or reversal event of
//    the log that names both floor corners of a block names one direction;
//  - no corner of a block enters the block above or below it, nor the floor (1e-6 m allowed: the
//    drift of closed contacts is projected back below 1e-10 m, and a sample sits within an event's
//    time tolerance of a landing);
//  - no instant's events raise the kinetic energy beyond round-off unless an impact says so
//    (energy_gain), and an unexcited stack never has more total energy than at its start.
// The energies are those of uniform rectangles, T = ½ m (ẋ² + ẏ²) + ½ m (w² + h²) θ̇² / 12 and
// V = m g y.

#include <doctest/doctest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/scenario_file.hpp"
#include "sim/simulation/contact_modes.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "support/rectangle_overlap.hpp"
#include "support/scenario_run.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

constexpr double kGravity = 9.81;       // [m/s²] the stacked_blocks preset's
constexpr double kStandardG = 9.80665;  // [m/s²] what "g" means in a scenario's amplitude
constexpr double kOverlap = 1e-6;       // [m] see the header

struct Block {
  double width, height, mass;
};

struct StackRun {
  std::vector<Block> blocks;
  test::ScenarioRun run;
};

std::string list(const std::vector<Block>& blocks, double Block::*field) {
  std::ostringstream text;
  text.precision(17);
  for (std::size_t i = 0; i < blocks.size(); ++i) text << (i ? ", " : "[") << blocks[i].*field;
  return text.str() + "]";
}

// The stacked_blocks preset with `rest` (contact, excitation, initial and output keys) appended.
StackRun run_stack(const std::vector<Block>& blocks, double duration, const std::string& rest,
                   const std::string& file) {
  std::ostringstream yaml;
  yaml << "name: " << file << "\nduration: " << duration
       << "\nmodel:\n  type: stacked_blocks\n  blocks: " << blocks.size()
       << "\n  width: " << list(blocks, &Block::width)
       << "\n  height: " << list(blocks, &Block::height)
       << "\n  mass: " << list(blocks, &Block::mass) << "\n"
       << rest;
  return {blocks, test::run_scenario_file(test::write_problem(yaml.str(), file + ".yaml"))};
}

int coordinate(const StackRun& stack, int block, const char* name) {
  return stack.run.scenario.planar->coordinate_index("block" + std::to_string(block + 1) + "." +
                                                     name);
}

struct BlockEnergy {
  double kinetic = 0.0, potential = 0.0;
};

BlockEnergy energy_of(const StackRun& stack, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  BlockEnergy energy;
  for (int i = 0; i < static_cast<int>(stack.blocks.size()); ++i) {
    const Block& b = stack.blocks[static_cast<std::size_t>(i)];
    const int x = coordinate(stack, i, "x"), y = coordinate(stack, i, "y"),
              theta = coordinate(stack, i, "theta");
    const double inertia = b.mass * (b.width * b.width + b.height * b.height) / 12.0;
    energy.kinetic +=
        0.5 * b.mass * (v[x] * v[x] + v[y] * v[y]) + 0.5 * inertia * v[theta] * v[theta];
    energy.potential += b.mass * kGravity * q[y];
  }
  return energy;
}

// Every slip or reversal event that names both floor corners of block1 names one direction.
void check_no_opposite_floor_slips(const StackRun& stack) {
  const std::vector<std::string> names = stack.run.scenario.model->contact_names();
  int checked = 0;
  for (const EventRecord& event : stack.run.trajectory.events) {
    if (event.kind != EventKind::slip && event.kind != EventKind::reversal) continue;
    int floor_corners = 0;
    for (const int k : event.contacts) {
      const std::string& name = names[static_cast<std::size_t>(k)];
      if (name == "block1.bottom_left/floor" || name == "block1.bottom_right/floor")
        ++floor_corners;
    }
    if (floor_corners < 2) continue;
    ++checked;
    INFO("t = " << event.t << " s: " << event.status);
    CHECK_FALSE((event.status.find("slide+") != std::string::npos &&
                 event.status.find("slide-") != std::string::npos));
  }
  MESSAGE(checked << " events slipped both floor corners of block1");
}

// No corner of a block inside the block above or below, none below the floor.
void check_apart(const StackRun& stack) {
  const auto& trajectory = stack.run.trajectory;
  for (int i = 0; i + 1 < static_cast<int>(stack.blocks.size()); ++i) {
    const Block& lower = stack.blocks[static_cast<std::size_t>(i)];
    const Block& upper = stack.blocks[static_cast<std::size_t>(i + 1)];
    const Eigen::Vector2d lower_half(0.5 * lower.width, 0.5 * lower.height);
    const Eigen::Vector2d upper_half(0.5 * upper.width, 0.5 * upper.height);
    const int lower_q = coordinate(stack, i, "x"), upper_q = coordinate(stack, i + 1, "x");
    CHECK(test::deepest_corner_inside(trajectory, lower_half, lower_q, upper_half, upper_q) <
          kOverlap);
    CHECK(test::deepest_corner_inside(trajectory, upper_half, upper_q, lower_half, lower_q) <
          kOverlap);
  }
  const Block& bottom = stack.blocks.front();
  double lowest = 0.0;
  for (const auto& sample : trajectory.samples) {
    const double theta = sample.q[coordinate(stack, 0, "theta")];
    const double reach = 0.5 * bottom.width * std::abs(std::sin(theta)) +
                         0.5 * bottom.height * std::abs(std::cos(theta));
    lowest = std::min(lowest, sample.q[coordinate(stack, 0, "y")] - reach);
  }
  CHECK(lowest > -kOverlap);
}

// Across the events of one instant (the samples just before and after), T rises by round-off at
// most (1e-9 of T and 1e-12 J) unless an impact there is flagged energy_gain; for an unexcited
// stack, T + V never exceeds its start by more than the integrator's error (1e-8 of m g h).
void check_energy(const StackRun& stack, bool excited) {
  const auto& samples = stack.run.trajectory.samples;
  const auto& events = stack.run.trajectory.events;
  REQUIRE(!samples.empty());
  for (std::size_t i = 0; i + 1 < samples.size(); ++i) {
    if (samples[i + 1].t != samples[i].t) continue;
    bool flagged = false;
    for (const EventRecord& event : events) {
      if (event.t == samples[i].t && event.flags.find("energy_gain") != std::string::npos)
        flagged = true;
    }
    if (flagged) continue;
    const double before = energy_of(stack, samples[i].q, samples[i].v).kinetic;
    const double after = energy_of(stack, samples[i + 1].q, samples[i + 1].v).kinetic;
    INFO("events at t = " << samples[i].t << " s");
    CHECK(after <= before + 1e-9 * before + 1e-12);
  }
  if (excited) return;
  double scale = 0.0, top = 0.0;
  for (const Block& b : stack.blocks) top += b.height;
  for (const Block& b : stack.blocks) scale += b.mass * kGravity * top;
  const BlockEnergy start = energy_of(stack, samples.front().q, samples.front().v);
  for (const auto& sample : samples) {
    const BlockEnergy now = energy_of(stack, sample.q, sample.v);
    INFO("t = " << sample.t << " s");
    CHECK(now.kinetic + now.potential <= start.kinetic + start.potential + 1e-8 * scale);
  }
}

// What every completed stack run must show: no block flat on the floor slipping at two corners in
// opposite directions, no block inside another, and no energy that its impacts or friction made.
void check_physics(const StackRun& stack, bool excited) {
  check_no_opposite_floor_slips(stack);
  check_apart(stack);
  check_energy(stack, excited);
}

// The time [s] at which a_g = A sin(2π f t) first reaches the top block's uplift threshold
// g b / h (half width b, half height h), when every block below sticks and the stack moves with
// the ground: the top block's moment balance about its trailing corner.
double top_block_uplift_time(const Block& top, double amplitude, double frequency) {
  const double threshold = kGravity * top.width / top.height;
  return std::asin(threshold / amplitude) / (2.0 * std::numbers::pi * frequency);
}

// A column of `drums` equal marble drums on the floor (0.6 m × 0.5 m, 382 kg: 2700 kg/m³ ×
// π 0.3² × 0.5 m; marble on marble μ = 0.7, plastic impacts) under one cycle of a sine pulse of
// `amplitude_g` g and 0.5 s from t = 0.1 s: the benchmark's column (tools/bench).
StackRun run_drum_column(int drums, double amplitude_g, double duration) {
  const std::vector<Block> blocks(static_cast<std::size_t>(drums), Block{0.6, 0.5, 382.0});
  std::ostringstream rest;
  rest.precision(17);
  rest << "initial: {}\ncontact: {law: poisson, restitution: 0.0, friction: {static: 0.7, "
          "kinetic: 0.7}}\nexcitation:\n  pulse: {shape: sine, amplitude: "
       << amplitude_g << " g, period: 0.5, direction: x, start: 0.1, cycles: 1}\n";
  return run_stack(blocks, duration, rest.str(),
                   "drum_column_" + std::to_string(drums) + "_" + std::to_string(amplitude_g));
}

// The deepest any drum's corner enters its neighbour over the run [m].
double deepest_drum_overlap(const StackRun& stack) {
  double deepest = 0.0;
  for (int i = 0; i + 1 < static_cast<int>(stack.blocks.size()); ++i) {
    const Eigen::Vector2d half(0.3, 0.25);
    const int lower = coordinate(stack, i, "x"), upper = coordinate(stack, i + 1, "x");
    deepest = std::max(
        {deepest, test::deepest_corner_inside(stack.run.trajectory, half, lower, half, upper),
         test::deepest_corner_inside(stack.run.trajectory, half, upper, half, lower)});
  }
  return deepest;
}

// The time [s] at which the pulse a_g = A sin(2π (t − t0) / T) first reaches the monolithic
// column's uplift threshold g b / H (width b, height H): the whole column, sticking, turns about
// its leading floor corner once m a_g H/2 exceeds m g b/2 (Housner 1963; the least threshold of
// any k drums on the joint beneath them, g b / (k h), is the whole column's).
double column_uplift_time(int drums, double amplitude, double start, double period) {
  const double threshold = kGravity * 0.6 / (0.5 * drums);
  return start + std::asin(threshold / amplitude) * period / (2.0 * std::numbers::pi);
}

}  // namespace

TEST_CASE(
    "stack contact modes: a shaken three-block stack keeps its lower blocks sticking when the "
    "top block uplifts") {
  // Three 1 kg blocks under a_g = 0.4 g sin(2π 1.15 t): the tall top block (0.12 m × 1.2 m) alone
  // reaches its threshold g b/h = 0.1 g; the two lower blocks and the top block on them would
  // need 0.25 g and 0.125 g. At the top block's lift-off six contacts touch, and the stack must
  // stay stuck below it (μs = 0.6 ≫ 0.4 g). Settling once found the set's static friction
  // reserve at −2e4 N (a round-off load at the lifting corner), slipped the bottom block's floor
  // corners in opposite directions, then declared Painlevé's paradox there.
  const std::vector<Block> blocks = {{0.15, 0.3, 1.0}, {0.15, 0.3, 1.0}, {0.12, 1.2, 1.0}};
  const StackRun stack = run_stack(blocks, 0.2, R"(initial: {}
contact: {law: poisson, restitution: 0.0, friction: 0.6}
excitation:
  - harmonic: {amplitude: 0.4 g, frequency: 1.15}
output: {rate: 200}
)",
                                   "three_block_uplift");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  const std::vector<double> uplifts = stack.run.trajectory.times_of(EventKind::uplift);
  REQUIRE(!uplifts.empty());
  // closed form; the event locator's time tolerance is far below 1e-9 s
  CHECK(uplifts.front() ==
        doctest::Approx(top_block_uplift_time(blocks[2], 0.4 * kStandardG, 1.15)).epsilon(1e-8));
  check_physics(stack, /*excited=*/true);
}

TEST_CASE(
    "stack contact modes: a heavy-based shaken stack passes its top block's uplift with its "
    "contact modes settled") {
  // Unequal blocks and masses under 0.3927 g at 1.151 Hz; the top block (0.122 m × 1.1889 m)
  // reaches g b/h first. Settling once ended in contact_modes_unresolved right there, after
  // slipping the bottom block's floor corners in opposite directions.
  const std::vector<Block> blocks = {
      {0.3145, 0.6692, 151.566}, {0.1481, 0.2273, 17.076}, {0.122, 1.1889, 33.793}};
  const StackRun stack = run_stack(blocks, 0.1, R"(initial: {}
contact:
  law: poisson
  multi_contact_law: multipoint_energetic
  restitution: 0.30578799923489425
  friction: {static: 0.6326499783855903, kinetic: 0.6326499783855903}
excitation:
  - harmonic: {amplitude: 0.3927 g, frequency: 1.1510, cycles: 3}
output: {rate: 200}
)",
                                   "heavy_base_uplift");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  const std::vector<double> uplifts = stack.run.trajectory.times_of(EventKind::uplift);
  REQUIRE(!uplifts.empty());
  CHECK(
      uplifts.front() ==
      doctest::Approx(top_block_uplift_time(blocks[2], 0.3927 * kStandardG, 1.151)).epsilon(1e-8));
  check_physics(stack, /*excited=*/true);
}

}  // namespace routh

namespace routh {

TEST_CASE(
    "stack contact modes: a shaken two-block stack where no mode assignment admits forces goes "
    "on, any sticking impulse inside every friction cone") {
  // Two blocks (1.116 m × 0.7813 m under 1.001 m × 0.8984 m), e = 0.48, μ = 1.14, shaken at
  // 0.57 g and 3.6 Hz, simultaneous impacts by the lcp law. After 122 impacts the upper block
  // slips on the lower at 3.2e-5 m/s while the lower one pivots on a floor corner, and no mode
  // assignment of the three touching contacts admits forces (settling enumerates all of them).
  // The lcp law finds no impact from u_n = 0, and the run stopped painleve_unresolved. Two ways
  // on, both Coulomb's: the slip's own friction stops it within the contact distance
  // (contact_modes.cpp, stop_slow_slips, also tried for an enumerated set since the random
  // stacks showed such slips), or the tangential impact's sticking end, which stops every
  // touching contact: a tangential impulse of 1.01 of μ Γ_n across the upper block's corners in
  // the least-norm split, within μ = 1.14 in the split that loads both equally. Any such impulse
  // must lie in every cone and dissipate.
  const std::vector<Block> blocks = {{1.116, 0.7813, 239.883}, {1.001, 0.8984, 636.289}};
  const StackRun stack = run_stack(blocks, 0.2, R"(initial: {}
contact:
  law: poisson
  multi_contact_law: lcp
  restitution: 0.4757926675007633
  friction: {static: 1.1424736385396517, kinetic: 1.1424736385396517}
excitation:
  - harmonic: {amplitude: 0.5693 g, frequency: 3.6091, cycles: 3}
output: {rate: 200}
)",
                                   "two_block_painleve");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  const auto& events = stack.run.trajectory.events;
  int resolved = 0;
  for (std::size_t i = 0; i + 1 < events.size(); ++i) {
    if (events[i].kind != EventKind::painleve) continue;
    const EventRecord& impulse = events[i + 1];
    REQUIRE(impulse.kind == EventKind::impact);
    CHECK(impulse.t == events[i].t);
    ++resolved;
    // Coulomb's cone per contact and dissipation, from the logged impulses and velocities
    const double mu = 1.1424736385396517;
    for (std::size_t k = 0; k < impulse.contacts.size(); ++k) {
      const double normal = impulse.impulse[2 * k], tangential = impulse.impulse[2 * k + 1];
      CHECK(normal >= 0.0);
      CHECK(std::abs(tangential) <= mu * normal * (1.0 + 1e-12));
      CHECK(std::abs(impulse.u_post[2 * k]) < 1e-12);      // every contact ends closed,
      CHECK(std::abs(impulse.u_post[2 * k + 1]) < 1e-12);  // and sticking
    }
    CHECK(impulse.delta_T <= 0.0);
    CHECK(impulse.delta_T == doctest::Approx(impulse.normal_work + impulse.tangential_work));
  }
  MESSAGE(resolved << " tangential impacts");
  check_physics(stack, /*excited=*/true);
}

}  // namespace routh

namespace routh {

TEST_CASE(
    "stack contact modes: a three-block stack under a rocking top block settles a grazing "
    "contact instead of storming") {
  // The top block (0.1657 m × 0.7385 m) released tilted at 0.087 rad on two wide blocks, e =
  // 0.074, μ = 0.78, simultaneous impacts by the lcp law. The lower blocks chatter with
  // micro-impacts; at t = 0.2469 s a corner's gap crossed zero with no approach at all (u_n = 0,
  // a_n < 0 open), no impact was made, and the same crossing was found again a thousand times
  // within 1e-9 s: event_storm. Settled, that corner closes and pushes.
  const std::vector<Block> blocks = {
      {0.6038, 0.3707, 59.164}, {0.4827, 0.8369, 206.746}, {0.1657, 0.7385, 92.124}};
  const StackRun stack = run_stack(blocks, 0.3, R"(initial:
  q: {block3.theta: 0.08662556284793785}
contact:
  law: poisson
  multi_contact_law: lcp
  restitution: 0.07437006306260992
  friction: {static: 0.7790138590346486, kinetic: 0.7790138590346486}
output: {rate: 200}
)",
                                   "rocking_top_block");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  CHECK(stack.run.outcome.impacts > 0);
  check_physics(stack, /*excited=*/false);
}

}  // namespace routh

namespace routh {

TEST_CASE(
    "stack contact modes: a plastic three-block stack whose slips no mode assignment carries "
    "stops them within the contact distance and goes on") {
  // The top block (0.3918 m × 1.1157 m) released tilted at 0.27 rad on two blocks, plastic, μ =
  // 0.68, simultaneous impacts by multipoint_energetic. At t = 0.6828 s a micro-impact (3.6e-5
  // m/s) leaves the bottom block's floor corner slipping at 1.3e-6 m/s and the middle block
  // slipping on the bottom one at 8.9e-6 m/s. No assignment of modes to the five touching
  // contacts is consistent (every one of 128 tried: a slipping contact slides its way or opens;
  // one without slip sticks, slips either way or opens), the laws find no impact from u_n = 0,
  // and the sticking impulse is not Coulomb's (the middle block's corners would need 0.72 of
  // their normal impulse in friction, μs = 0.68): the run stopped painleve_unresolved. Those
  // slips are slow enough that their own friction stops them within the contact distance (the
  // kinetic energy of each slip relative to the closed contacts over μd λ_n, below 1e-9 m):
  // stopped, the set settles, and the run goes on (contact_modes.cpp, stop_slow_slips, now tried
  // for an enumerated set too). Independently: no block enters another or the floor, no energy
  // appears.
  const std::vector<Block> blocks = {
      {0.5441, 0.5852, 151.58}, {0.415, 1.0384, 325.213}, {0.3918, 1.1157, 118.547}};
  const StackRun stack = run_stack(blocks, 0.7, R"(initial:
  q: {block3.theta: 0.26984244338756785}
contact:
  law: poisson
  multi_contact_law: multipoint_energetic
  restitution: 0.0
  friction: {static: 0.6823796808373601, kinetic: 0.6823796808373601}
output: {rate: 200}
)",
                                   "plastic_painleve");
  check_apart(stack);
  check_energy(stack, /*excited=*/false);
  CHECK(stack.run.outcome.status == RunStatus::completed);
}

}  // namespace routh

namespace routh {

namespace {

// A stack of general bodies (blocks named block1, block2, … from the floor up, resting on each
// other as the loader places them) from the scenario `yaml`.
StackRun run_general_stack(const std::vector<Block>& blocks, const std::string& yaml,
                           const std::string& file) {
  return {blocks, test::run_scenario_file(test::write_problem(yaml, file + ".yaml"))};
}

}  // namespace

TEST_CASE(
    "stack contact modes: a tilted block slipping off a corner of a four-block stack starts "
    "(the set's LCP with the friction its slip has)") {
  // Seven touching contacts at t = 0: block4, tilted at −0.61 rad, rests on a corner of block3,
  // which stands on two corners of the narrow block2, itself half off block1. The set's LCP,
  // with the slipping corner resisted by μs λ_n, left block2's corner on block1 unloaded; its
  // modes, in which that corner slides against μd λ_n < μs λ_n, let the corner accelerate into
  // block1 (a_n = −0.076 m/s²) and the run stopped at t = 0 (contact_modes_unresolved). With the
  // friction a slipping contact has, the set's problem has a solution and the run goes on.
  const std::vector<Block> blocks = {{0.42619091855724167, 0.13378617518592151, 4.0281806128266338},
                                     {0.11531695905281697, 0.3756163618650718, 0.80376506130188563},
                                     {0.21889344512347117, 0.43138997798772361, 3.5676954644334824},
                                     {0.7658671180877108, 0.2627910638012505, 1.1500695693470138}};
  const StackRun stack = run_general_stack(blocks, R"(duration: 0.15
model:
  gravity: 9.81
  bodies:
    - {name: block1, mass: 4.0281806128266338, shape: {rectangle: {width: 0.42619091855724167, height: 0.13378617518592151}}}
    - {name: block2, mass: 0.80376506130188563, shape: {rectangle: {width: 0.11531695905281697, height: 0.3756163618650718}}}
    - {name: block3, mass: 3.5676954644334824, shape: {rectangle: {width: 0.21889344512347117, height: 0.43138997798772361}}}
    - {name: block4, mass: 1.1500695693470138, shape: {rectangle: {width: 0.7658671180877108, height: 0.2627910638012505}}}
  obstacles:
    - {name: floor, type: plane, point: [0, 0], normal: [0, 1]}
initial:
  q: {block1.x: 0, block2.x: 0.16530349868257022, block3.x: 0.18634297346902687, block4.x: 0.158953630383353, block4.theta: -0.61293444245489215}
  v: {block4.theta: 0.50338203867951359}
contact:
  law: newton_routh
  multi_contact_law: multipoint_energetic
  restitution: 0.86736004589281213
  friction: {static: 0.92816156384936033, kinetic: 0.65743335977309225}
output: {rate: 200}
)",
                                           "corner_slip_lcp");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  check_physics(stack, /*excited=*/false);
}

TEST_CASE(
    "stack contact modes: two corners sticking on one face share their friction though they "
    "touch a contact distance apart") {
  // A tilted, spinning block4 lands on a four-block stack with μs = 0.18. At t = 0.68 s block3
  // sticks on block2's two top corners, which touch its bottom face 8e-10 m and 4e-10 m away;
  // moving tangential force from one corner to the other turns block3 with that lever only,
  // 1e-9 of its size. Not taken for force free, the least-norm split put |λ_t| = 1.06 λ_n at
  // one corner (μs = 0.18) though the two together need 0.23 of their normal force, and no
  // consistent modes were found (contact_modes_unresolved).
  const std::vector<Block> blocks = {
      {0.91604519287350006, 0.19809813290714429, 1.2029669356078958},
      {0.42644741678692183, 0.47461227129660721, 0.69658225305782462},
      {0.18737985881279484, 0.22451089593860296, 2.8070742293996251},
      {0.95875825514383439, 0.43075388011949667, 7.1585577449965481}};
  const StackRun stack = run_general_stack(blocks, R"(duration: 0.72
model:
  gravity: 9.81
  bodies:
    - {name: block1, mass: 1.2029669356078958, shape: {rectangle: {width: 0.91604519287350006, height: 0.19809813290714429}}}
    - {name: block2, mass: 0.69658225305782462, shape: {rectangle: {width: 0.42644741678692183, height: 0.47461227129660721}}}
    - {name: block3, mass: 2.8070742293996251, shape: {rectangle: {width: 0.18737985881279484, height: 0.22451089593860296}}}
    - {name: block4, mass: 7.1585577449965481, shape: {rectangle: {width: 0.95875825514383439, height: 0.43075388011949667}}}
  obstacles:
    - {name: floor, type: plane, point: [0, 0], normal: [0, 1]}
initial:
  q: {block1.x: 0, block2.x: 0.23061761831432584, block3.x: 0.3570789213335438, block4.x: 0.31866679636067591, block4.theta: 0.87355790226039631}
  v: {block4.theta: -1.0770027206906907}
contact:
  law: poisson
  multi_contact_law: multipoint_energetic
  restitution: 0.52206044031296728
  friction: {static: 0.17750261296623859, kinetic: 0.12928705923410191}
output: {rate: 200}
)",
                                           "corners_share_friction");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  check_physics(stack, /*excited=*/false);
}

}  // namespace routh

namespace routh {

TEST_CASE(
    "stack contact modes: an eight-block stack sticks at its start with every interface inside "
    "its cones (independent sets distributed one by one)") {
  // Eight blocks, each resting on two corners or a corner and a face of the one below, the top
  // one tilted on a corner (the multibody campaign's tall_stack:29). Every interface of two
  // contacts is statically indeterminate in its tangential split: more independent directions
  // than one distribution takes, so every contact kept the least-norm split, equal tangential
  // forces, 0.81 of its normal force at one corner of block7 (μs = 0.54), and no consistent
  // modes were found at t = 0 (contact_modes_unresolved). Each interface alone has a split
  // inside both its cones, and the run goes on.
  const std::vector<Block> blocks = {
      {0.44387866665954934, 0.85233740205005271, 0.38532215552800636},
      {0.11447295387028866, 0.35258638624006911, 0.40714580203460088},
      {0.12128694839006647, 0.12862523052475988, 0.4989523275894639},
      {0.12118592375067345, 0.67691582260560179, 1.9541254014613987},
      {0.42937179292643163, 0.23394471113938736, 0.40177594314537873},
      {0.69993080373992433, 0.77405403187426336, 1.7907530124822233},
      {0.16811824124970243, 0.13703458096259932, 9.7101261095509006},
      {0.49733996743431907, 0.64404268139231702, 3.6711379898535625}};
  const StackRun stack = run_general_stack(blocks, R"(duration: 0.64468899712034644
model:
  gravity: 9.81
  bodies:
    - {name: block1, mass: 0.38532215552800636, shape: {rectangle: {width: 0.44387866665954934, height: 0.85233740205005271}}}
    - {name: block2, mass: 0.40714580203460088, shape: {rectangle: {width: 0.11447295387028866, height: 0.35258638624006911}}}
    - {name: block3, mass: 0.4989523275894639, shape: {rectangle: {width: 0.12128694839006647, height: 0.12862523052475988}}}
    - {name: block4, mass: 1.9541254014613987, shape: {rectangle: {width: 0.12118592375067345, height: 0.67691582260560179}}}
    - {name: block5, mass: 0.40177594314537873, shape: {rectangle: {width: 0.42937179292643163, height: 0.23394471113938736}}}
    - {name: block6, mass: 1.7907530124822233, shape: {rectangle: {width: 0.69993080373992433, height: 0.77405403187426336}}}
    - {name: block7, mass: 9.7101261095509006, shape: {rectangle: {width: 0.16811824124970243, height: 0.13703458096259932}}}
    - {name: block8, mass: 3.6711379898535625, shape: {rectangle: {width: 0.49733996743431907, height: 0.64404268139231702}}}
  obstacles:
    - {name: floor, type: plane, point: [0, 0], normal: [0, 1]}
initial:
  q: {block1.x: 0, block2.x: -0.10298955343156467, block3.x: -0.062753141265600498, block4.x: -0.05989770708679551, block5.x: -0.088513354491520507, block6.x: -0.26145190428136117, block7.x: -0.47675889723776887, block8.x: -0.52602341260416097, block8.theta: -0.44298515884513795}
  v: {block8.theta: -0.43320864160816397}
contact:
  law: newton
  multi_contact_law: lcp
  restitution: 0.72568738739134231
  friction: {static: 0.54178024517309187, kinetic: 0.48327636778058891}
output: {rate: 200}
)",
                                           "eight_block_sets");
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  check_physics(stack, /*excited=*/false);
}

TEST_CASE(
    "stack contact modes: a drum column below its uplift threshold moves with the ground as one "
    "body") {
  // Source: the column rotates only once a_g ≥ g b / H (column_uplift_time): 0.24 g for five
  // 0.6 m × 0.5 m drums. A pulse of 0.2 g stays below it and below μ g = 0.7 g, so every joint
  // and the floor stick: no drum turns and none moves against another, to round-off.
  const StackRun stack = run_drum_column(5, 0.2, 1.0);
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  CHECK(stack.run.outcome.impacts == 0);
  CHECK(std::isnan(stack.run.outcome.summary.uplift_time));
  double turned = 0.0;
  for (const auto& sample : stack.run.trajectory.samples) {
    for (int i = 0; i < 5; ++i)
      turned = std::max(turned, std::abs(sample.q[coordinate(stack, i, "theta")]));
  }
  CHECK(turned < 1e-12);
}

TEST_CASE(
    "stack contact modes: drum columns of 5 and more drums rock under a 0.4 g pulse to the end, "
    "lifting off the floor first at the monolithic column's time") {
  // The benchmark's columns (tools/bench/scaling_benchmark.cpp, drum_column/drums:D). Each once
  // ended in trouble: 5 drums in contact_modes_unresolved at 0.506 s (three interfaces of a
  // rocking column and the sliding base corner made one static-friction program too large to
  // enumerate, and the minimum-norm split left a joint's corner outside its cone); 10 drums in
  // painleve_unresolved at 0.837 s (corners slipping at micrometres per second after an impact
  // cascade, where Lemke's method found no contact forces and stopping every touching corner was
  // not Coulomb's) and then, at 1.22 s, in contact_modes_unresolved (the interfaces coupled at the
  // contact distance were not distributed one by one).
  for (const int drums : {5, 10}) {
    CAPTURE(drums);
    const StackRun stack = run_drum_column(drums, 0.4, 3.0);
    REQUIRE(stack.run.outcome.status == RunStatus::completed);
    check_physics(stack, /*excited=*/true);
    // contacts close within the contact distance, 1e-9 m, and drift is projected back below it
    // (the 10-drum column had a corner 2.3e-9 m inside the drum above at the samples of impact
    // cascades until a landing was looked for up to where a corner leaves its face's extent)
    const double overlap = deepest_drum_overlap(stack);
    CHECK(overlap <= 1e-9);
    MESSAGE(drums << " drums: deepest corner inside a neighbour " << overlap << " m");
    // the first contact to open is a floor corner of the bottom drum, as the monolithic column's
    // moment balance says, at the instant a_g reaches g b / H (to the event location's 1e-12 s
    // and the interpolant's error, well inside 1e-9 s)
    const double expected = column_uplift_time(drums, 0.4 * kStandardG, 0.1, 0.5);
    CHECK(stack.run.outcome.summary.uplift_time == doctest::Approx(expected).epsilon(1e-9));
    const std::vector<std::string> names = stack.run.scenario.model->contact_names();
    const auto first_liftoff =
        std::find_if(stack.run.trajectory.events.begin(), stack.run.trajectory.events.end(),
                     [](const EventRecord& event) { return event.kind == EventKind::liftoff; });
    REQUIRE(first_liftoff != stack.run.trajectory.events.end());
    for (const int k : first_liftoff->contacts) {
      CHECK(names[static_cast<std::size_t>(k)].rfind("block1.bottom_", 0) == 0);
      CHECK(names[static_cast<std::size_t>(k)].find("/floor") != std::string::npos);
    }
  }
}

TEST_CASE(
    "stack contact modes: a 20-drum column's flush corners sliding over the drum below are no "
    "landing on its side face") {
  // The benchmark's 20-drum column under the 0.4 g pulse ended in event_storm at t = 0.476 s:
  // block12's bottom-left corner, flush on block11's top-left corner, read 1.5e-18 m from the end
  // of block11's left face while it slid over block11's top, and each step starting there located
  // a landing on that face at its start, found nothing approaching (u_n = −5e-16 m/s) and located
  // it again at the same instant. An open contact that starts a step at rest against its surface
  // lands only by sinking past half the contact distance (event_location.hpp, rests_touching).
  const StackRun stack = run_drum_column(20, 0.4, 0.49);
  CHECK(stack.run.outcome.status == RunStatus::completed);
  check_physics(stack, /*excited=*/true);
  CHECK(deepest_drum_overlap(stack) <= 1e-9);
}

TEST_CASE(
    "stack contact modes: a 20-drum column's joint corners slipping at micrometres per second "
    "stop under their friction where Lemke's method finds no forces for them sliding") {
  // The benchmark's 20-drum column under the 0.4 g pulse ended in contact_modes_unresolved at
  // t = 0.4987 s: two joint corners slipped at 2.2e-6 and 2.3e-6 m/s (above the rest speed,
  // 1e-6 m/s), and with their friction fixed at the edge against those slips Lemke's method
  // rayed on the island's acceleration-level problem (38 corners) under either cone; the
  // tangential impact then found nothing to stop. With the slips' friction free in its cone the
  // problem is solved, and friction at the cones' edges (λ_n of kilonewtons) takes the slips'
  // kinetic energy (≈ 1e-9 J) within far less than the contact distance: the slips stop
  // (contact_modes.cpp, stop_slow_slips). The run must go on to the end without energy from an
  // event, and no corner inside a neighbour beyond the contact distance (a corner was 3.7e-8 m
  // inside one at the samples of impact cascades until a landing was looked for up to where a
  // corner leaves its face's extent).
  const StackRun stack = run_drum_column(20, 0.4, 0.6);
  REQUIRE(stack.run.outcome.status == RunStatus::completed);
  check_physics(stack, /*excited=*/true);
  CHECK(deepest_drum_overlap(stack) <= 1e-9);
}

}  // namespace routh
