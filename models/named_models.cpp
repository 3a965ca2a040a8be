#include "models/named_models.hpp"

#include <cmath>
#include <initializer_list>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

#include "models/planar/planar_body.hpp"
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

// A free body above the floor y ≥ 0 with point contacts at `corners` (body frame).
std::unique_ptr<PlanarTree> free_body_on_floor(
    const char* name, const PlanarBody& body,
    std::initializer_list<std::pair<const char*, Eigen::Vector2d>> corners,
    const ModelOptions& options) {
  PlanarTreeBuilder builder = builder_with(options);
  const int index = builder.add_body(name, body, free_joint());
  for (const auto& [contact, corner] : corners) {
    builder.add_contact(contact, ContactGeometry{index, corner, 0.0, floor_at(0.0)});
  }
  return builder.build();
}

// Each link's frame has its origin at its proximal joint and hangs along −y at θ = 0: centre of
// mass (0, −L/2), distal end (0, −L). A single link's coordinate is "theta", else "theta<i>".
std::unique_ptr<PlanarTree> hanging_links(int links, double link_length_m, double link_mass_kg,
                                          const std::optional<HalfPlane>& tip_obstacle,
                                          AngleReference angles, const ModelOptions& options,
                                          bool numbered) {
  require_positive(link_length_m, "link length [m]");
  require_positive(link_mass_kg, "link mass [kg]");
  const Eigen::Vector2d distal_end(0.0, -link_length_m);
  const PlanarBody link = uniform_rod(link_length_m, link_mass_kg, 0.5 * distal_end);
  PlanarTreeBuilder builder = builder_with(options);
  int parent = kGround;
  for (int i = 1; i <= links; ++i) {
    const Eigen::Vector2d pivot = parent == kGround ? Eigen::Vector2d::Zero() : distal_end;
    const std::string name = numbered ? cat("theta", i) : std::string("theta");
    parent = builder.add_body(cat("link", i), link, revolute_joint(parent, pivot, name, angles));
  }
  if (tip_obstacle)
    builder.add_contact("tip", ContactGeometry{parent, distal_end, 0.0, *tip_obstacle});
  return builder.build();
}

}  // namespace

std::unique_ptr<PlanarTree> make_ball(double radius_m, double mass_kg,
                                      const ModelOptions& options) {
  require_positive(radius_m, "ball radius [m]");
  require_positive(mass_kg, "ball mass [kg]");
  PlanarTreeBuilder builder = builder_with(options);
  const int ball = builder.add_body("ball", uniform_disk(radius_m, mass_kg), free_joint());
  builder.add_contact("floor",
                      ContactGeometry{ball, Eigen::Vector2d::Zero(), radius_m, floor_at(0.0)});
  return builder.build();
}

std::unique_ptr<PlanarTree> make_rod(double length_m, double mass_kg, const ModelOptions& options) {
  require_positive(length_m, "rod length [m]");
  require_positive(mass_kg, "rod mass [kg]");
  const double half = 0.5 * length_m;
  return free_body_on_floor("rod", uniform_rod(length_m, mass_kg),
                            {{"left_end", {-half, 0.0}}, {"right_end", {half, 0.0}}}, options);
}

std::unique_ptr<PlanarTree> make_rocking_block(double width_m, double height_m, double mass_kg,
                                               const ModelOptions& options) {
  require_positive(width_m, "block width [m]");
  require_positive(height_m, "block height [m]");
  require_positive(mass_kg, "block mass [kg]");
  const Eigen::Vector2d half(0.5 * width_m, 0.5 * height_m);
  return free_body_on_floor(
      "block", uniform_rectangle(width_m, height_m, mass_kg),
      {{"left_corner", {-half.x(), -half.y()}}, {"right_corner", {half.x(), -half.y()}}}, options);
}

std::unique_ptr<PlanarTree> make_pendulum(double length_m, double mass_kg,
                                          const HalfPlane& obstacle, const ModelOptions& options) {
  return hanging_links(1, length_m, mass_kg, obstacle, AngleReference::absolute, options, false);
}

std::unique_ptr<PlanarTree> make_chain(int links, double link_length_m, double link_mass_kg,
                                       const std::optional<HalfPlane>& tip_obstacle,
                                       AngleReference angles, const ModelOptions& options) {
  if (links < 1) throw std::invalid_argument(cat("chain links = ", links, ": must be >= 1"));
  return hanging_links(links, link_length_m, link_mass_kg, tip_obstacle, angles, options, true);
}

std::unique_ptr<PlanarTree> make_double_pendulum(const ModelOptions& options) {
  constexpr double kLength_m = 2.0, kMass_kg = 3.0;
  constexpr double kDegree = std::numbers::pi / 180.0;
  const double floor_m = -kLength_m * (std::cos(20.0 * kDegree) + std::cos(30.0 * kDegree));
  return make_chain(2, kLength_m, kMass_kg, floor_at(floor_m), AngleReference::absolute, options);
}

}  // namespace routh
