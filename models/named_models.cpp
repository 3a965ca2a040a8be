#include "models/named_models.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/planar/planar_body.hpp"
#include "models/planar/shape.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

void require_positive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw std::invalid_argument(cat(what, " = ", value, ": must be > 0"));
  }
}

PlanarTreeBuilder builder_with(const ModelOptions& options) {
  if (!(options.gravity_m_s2 >= 0.0)) {
    throw std::invalid_argument(cat("gravity = ", options.gravity_m_s2, " m/s^2: must be >= 0"));
  }
  PlanarTreeBuilder builder;
  builder.set_gravity({0.0, -options.gravity_m_s2});
  builder.set_ground_acceleration(options.ground_acceleration);
  return builder;
}

// A free body `name` with `shape` (centred on the body origin) above the floor y ≥ 0; `aliases`
// rename its generated contacts to the model's own names. The presets take their inertia from the
// closed forms (planar_body.hpp) rather than uniform_body's polygon sums, whose round-off moved a
// Zeno rest time of the rocking campaign's closed-form comparison by 1.5e-6 s.
std::unique_ptr<PlanarTree> free_shape_on_floor(
    const std::string& name, const PlanarBody& body, const Shape& shape,
    std::initializer_list<std::pair<const char*, const char*>> aliases,
    const ModelOptions& options) {
  PlanarTreeBuilder builder = builder_with(options);
  const int index = builder.add_body(name, body, free_joint());
  builder.set_shape(index, shape);
  builder.add_obstacle("floor", floor_at(0.0));
  for (const auto& [generated, kept] : aliases) builder.rename_contact(generated, kept);
  return builder.build();
}

// A link's free end in its frame, whose origin is its proximal joint and which hangs along −y at
// θ = 0 (centre of mass halfway).
Eigen::Vector2d free_end(const ChainLink& link) { return {0.0, -link.length_m}; }

// `links` hanging in series from a pivot at the origin, without contacts: the caller adds those
// at their free ends. A single link's coordinate is "theta" unless `numbered`, else "theta<i>".
// Returns the builder and each link's body index.
std::pair<PlanarTreeBuilder, std::vector<int>> hanging_links(std::span<const ChainLink> links,
                                                             AngleReference angles,
                                                             const ModelOptions& options,
                                                             bool numbered) {
  PlanarTreeBuilder builder = builder_with(options);
  std::vector<int> bodies;
  int parent = kGround;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const ChainLink& link = links[i];
    require_positive(link.length_m, "link length [m]");
    require_positive(link.mass_kg, "link mass [kg]");
    const Eigen::Vector2d pivot =
        parent == kGround ? Eigen::Vector2d::Zero() : free_end(links[i - 1]);
    const std::string name = numbered ? cat("theta", i + 1) : std::string("theta");
    parent = builder.add_body(cat("link", i + 1),
                              uniform_rod(link.length_m, link.mass_kg, 0.5 * free_end(link)),
                              revolute_joint(parent, pivot, name, angles));
    bodies.push_back(parent);
  }
  return {std::move(builder), std::move(bodies)};
}

}  // namespace

std::unique_ptr<PlanarTree> make_ball(double radius_m, double mass_kg,
                                      const ModelOptions& options) {
  require_positive(radius_m, "ball radius [m]");
  require_positive(mass_kg, "ball mass [kg]");
  return free_shape_on_floor("ball", uniform_disk(radius_m, mass_kg), DiskShape{radius_m},
                             {{"ball/floor", "floor"}}, options);
}

std::unique_ptr<PlanarTree> make_rod(double length_m, double mass_kg, const ModelOptions& options) {
  require_positive(length_m, "rod length [m]");
  require_positive(mass_kg, "rod mass [kg]");
  return free_shape_on_floor(
      "rod", uniform_rod(length_m, mass_kg), segment_shape(length_m),
      {{"rod.left_end/floor", "left_end"}, {"rod.right_end/floor", "right_end"}}, options);
}

std::unique_ptr<PlanarTree> make_rocking_block(double width_m, double height_m, double mass_kg,
                                               const ModelOptions& options) {
  require_positive(width_m, "block width [m]");
  require_positive(height_m, "block height [m]");
  require_positive(mass_kg, "block mass [kg]");
  return free_shape_on_floor("block", uniform_rectangle(width_m, height_m, mass_kg),
                             rectangle_shape(width_m, height_m),
                             {{"block.bottom_left/floor", "left_corner"},
                              {"block.bottom_right/floor", "right_corner"},
                              {"block.top_right/floor", "top_right_corner"},
                              {"block.top_left/floor", "top_left_corner"}},
                             options);
}

std::unique_ptr<PlanarTree> make_pendulum(double length_m, double mass_kg,
                                          const HalfPlane& obstacle, const ModelOptions& options) {
  const ChainLink link{length_m, mass_kg};
  auto [builder, bodies] = hanging_links({&link, 1}, AngleReference::absolute, options, false);
  builder.add_contact("tip", ContactGeometry{bodies.back(), free_end(link), 0.0, obstacle});
  return builder.build();
}

std::unique_ptr<PlanarTree> make_chain(const std::vector<ChainLink>& links,
                                       const std::optional<HalfPlane>& obstacle,
                                       AngleReference angles, const ModelOptions& options) {
  if (links.empty()) throw std::invalid_argument("a chain needs at least one link");
  auto [builder, bodies] = hanging_links(links, angles, options, true);
  for (std::size_t i = 0; obstacle && i < links.size(); ++i) {
    const bool last = i + 1 == links.size();
    builder.add_contact(last ? std::string("tip") : cat("link", i + 1, ".end"),
                        ContactGeometry{bodies[i], free_end(links[i]), 0.0, *obstacle});
  }
  return builder.build();
}

std::unique_ptr<PlanarTree> make_chain(int links, double link_length_m, double link_mass_kg,
                                       const std::optional<HalfPlane>& obstacle,
                                       AngleReference angles, const ModelOptions& options) {
  if (links < 1) throw std::invalid_argument(cat("chain links = ", links, ": must be >= 1"));
  return make_chain(std::vector<ChainLink>(static_cast<std::size_t>(links),
                                           ChainLink{link_length_m, link_mass_kg}),
                    obstacle, angles, options);
}

HalfPlane paper000_floor(const std::array<double, 2>& lengths_m) {
  constexpr double kDegree = std::numbers::pi / 180.0;
  return floor_at(
      -(lengths_m[0] * std::cos(20.0 * kDegree) + lengths_m[1] * std::cos(30.0 * kDegree)));
}

std::unique_ptr<PlanarTree> make_double_pendulum(const std::array<ChainLink, 2>& links,
                                                 const HalfPlane& obstacle,
                                                 const ModelOptions& options) {
  auto [builder, bodies] = hanging_links(links, AngleReference::absolute, options, true);
  builder.add_contact("tip", ContactGeometry{bodies.back(), free_end(links[1]), 0.0, obstacle});
  return builder.build();
}

std::unique_ptr<PlanarTree> make_double_pendulum(const ModelOptions& options) {
  constexpr ChainLink kPaperRod{2.0, 3.0};
  return make_double_pendulum({kPaperRod, kPaperRod}, paper000_floor({2.0, 2.0}), options);
}

std::unique_ptr<PlanarTree> make_stacked_blocks(const std::vector<StackedBlock>& blocks,
                                                const std::optional<Obstacle>& obstacle,
                                                const ModelOptions& options) {
  if (blocks.empty()) throw std::invalid_argument("a stack needs at least one block");
  PlanarTreeBuilder builder = builder_with(options);
  std::vector<std::string> names;  // the obstacle's and the blocks', which name the contacts
  if (obstacle) names.push_back(obstacle->name);
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const StackedBlock& block = blocks[i];
    require_positive(block.width_m, "block width [m]");
    require_positive(block.height_m, "block height [m]");
    require_positive(block.mass_kg, "block mass [kg]");
    const std::string name = block.name.empty() ? cat("block", i + 1) : block.name;
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw std::invalid_argument(cat("stacked block ", i + 1, " is named '", name,
                                      "', which names another block or the obstacle"));
    }
    names.push_back(name);
    const int body =
        builder.add_body(name, uniform_rectangle(block.width_m, block.height_m, block.mass_kg),
                         free_joint(cat(name, ".x"), cat(name, ".y"), cat(name, ".theta")));
    builder.set_shape(body, rectangle_shape(block.width_m, block.height_m));
  }
  if (obstacle) builder.add_obstacle(obstacle->name, obstacle->surface);
  return builder.build();
}

std::unique_ptr<PlanarTree> make_two_disks(const std::array<SphereDisk, 2>& disks,
                                           const ModelOptions& options) {
  PlanarTreeBuilder builder = builder_with(options);
  for (std::size_t i = 0; i < disks.size(); ++i) {
    const SphereDisk& disk = disks[i];
    require_positive(disk.radius_m, "disk radius [m]");
    require_positive(disk.mass_kg, "disk mass [kg]");
    const std::string name = cat("disk", i + 1);
    const double inertia = 0.4 * disk.mass_kg * disk.radius_m * disk.radius_m;  // a solid sphere's
    const int index =
        builder.add_body(name, PlanarBody{disk.mass_kg, Eigen::Vector2d::Zero(), inertia},
                         free_joint(cat(name, ".x"), cat(name, ".y"), cat(name, ".theta")));
    builder.set_shape(index, DiskShape{disk.radius_m});
  }
  return builder.build();
}

}  // namespace routh
