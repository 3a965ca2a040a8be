#include "models/planar/initial_state.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <variant>
#include <vector>

#include "models/planar/vertical_support.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr double kTouchTolerance_m = 1e-12;  // contacts this close to 0 gap touch
constexpr double kUpwardNormal = 1e-12;      // n_y above this: an obstacle one can rest on

Eigen::VectorXd fill(const PlanarTree& tree, const PartialState& given, const char* what,
                     std::vector<bool>& was_given) {
  Eigen::VectorXd values = Eigen::VectorXd::Zero(tree.coordinate_count());
  was_given.assign(static_cast<std::size_t>(tree.coordinate_count()), false);
  for (const auto& [name, value] : given) {
    const int index = tree.coordinate_index(name);
    if (index < 0) {
      throw std::invalid_argument(cat("initial ", what, ": unknown coordinate '", name,
                                      "'; did you mean '",
                                      closest_name(name, tree.coordinate_names()), "'?"));
    }
    values[index] = value;
    was_given[static_cast<std::size_t>(index)] = true;
  }
  return values;
}

// Gaps, Jacobians and J̇v of the contacts `subset` only, in its order: a stack's contacts grow
// with the square of its blocks, and evaluating all of them for each block rested made loading
// a stack quartic in its blocks (50 took 18 s).
ContactKinematics contact_kinematics(const PlanarTree& tree, const Eigen::VectorXd& q,
                                     const Eigen::VectorXd& v, const std::vector<int>& subset) {
  StateQuantities quantities;
  tree.evaluate(0.0, q, v, {.contacts = true, .contact_subset = &subset}, *tree.make_workspace(),
                quantities);
  return std::move(quantities.contacts);
}

// Bodies in the subtree of `root` (parents come before children).
std::vector<bool> subtree(const PlanarTree& tree, int root) {
  std::vector<bool> inside(static_cast<std::size_t>(tree.body_count()), false);
  for (int b = root; b < tree.body_count(); ++b) {
    const int parent = tree.description().joints[static_cast<std::size_t>(b)].parent;
    inside[static_cast<std::size_t>(b)] =
        b == root || (parent != kGround && inside[static_cast<std::size_t>(parent)]);
  }
  return inside;
}

// Body `body`'s shape in the world at q, if it has one.
std::optional<PlacedShape> placed_shape(const PlanarTree& tree, const Eigen::VectorXd& q,
                                        int body) {
  const std::vector<std::optional<Shape>>& shapes = tree.description().shapes;
  const auto b = static_cast<std::size_t>(body);
  if (b >= shapes.size() || !shapes[b]) return std::nullopt;
  if (const auto* disk = std::get_if<DiskShape>(&*shapes[b])) {
    return PlacedShape{{tree.point_position(q, body, disk->centre_m)}, disk->radius_m};
  }
  PlacedShape placed;
  for (const Eigen::Vector2d& vertex : std::get<PolygonShape>(*shapes[b]).vertices_m) {
    placed.points_m.push_back(tree.point_position(q, body, vertex));
  }
  return placed;
}

// The lift (< 0: a drop) [m] that rests the `moving` bodies, translated vertically together, on
// what lies beneath them: upward-facing obstacles, through their listed contacts or their shapes,
// and the shapes of the `placed` bodies. −∞ when nothing does.
double lift_onto_supports(const PlanarTree& tree, const Eigen::VectorXd& q,
                          const std::vector<bool>& moving, const std::vector<bool>& placed) {
  const PlanarTreeDescription& description = tree.description();
  double lift_m = -std::numeric_limits<double>::infinity();
  // a listed contact's gap is affine in the lift, with slope n_y
  std::vector<int> supporting;
  for (std::size_t k = 0; k < description.contacts.size(); ++k) {
    const double n_y = description.contacts[k].obstacle.normal.y();
    if (moving[static_cast<std::size_t>(description.contacts[k].body)] && n_y > kUpwardNormal) {
      supporting.push_back(static_cast<int>(k));
    }
  }
  const ContactKinematics kinematics =
      contact_kinematics(tree, q, Eigen::VectorXd::Zero(q.size()), supporting);
  for (std::size_t i = 0; i < supporting.size(); ++i) {
    const double n_y =
        description.contacts[static_cast<std::size_t>(supporting[i])].obstacle.normal.y();
    lift_m = std::max(lift_m, -kinematics.gap[static_cast<Eigen::Index>(i)] / n_y);
  }
  for (int body = 0; body < tree.body_count(); ++body) {
    if (!moving[static_cast<std::size_t>(body)]) continue;
    const std::optional<PlacedShape> shape = placed_shape(tree, q, body);
    if (!shape) continue;
    for (const Obstacle& obstacle : description.obstacles) {
      if (obstacle.surface.normal.y() > kUpwardNormal) {
        lift_m = std::max(lift_m, lift_to_rest_on(*shape, obstacle.surface));
      }
    }
    for (int other = 0; other < tree.body_count(); ++other) {
      if (!placed[static_cast<std::size_t>(other)]) continue;
      const std::optional<PlacedShape> beneath = placed_shape(tree, q, other);
      if (!beneath) continue;
      lift_m = std::max(lift_m, lift_to_rest_on(*shape, *beneath).value_or(lift_m));
    }
  }
  return lift_m;
}

// Lowers or lifts free root body `root` (its y at index `y`), with everything hanging from it,
// until it rests on what lies beneath it. Returns the touching contacts that lifting it would
// open (none when nothing lies beneath).
std::vector<int> rest_on_supports(const PlanarTree& tree, int root, int y,
                                  const std::vector<bool>& placed, Eigen::VectorXd& q) {
  const std::vector<bool> moving = subtree(tree, root);
  const double lift_m = lift_onto_supports(tree, q, moving, placed);
  if (!std::isfinite(lift_m)) return {};
  q[y] += lift_m;
  // only contacts on a moved body have a gap that the lift changes
  const auto moves = [&](int body) {
    return body != kGround && moving[static_cast<std::size_t>(body)];
  };
  std::vector<int> lifted;
  for (int k = 0; k < tree.contact_count(); ++k) {
    const auto [body, other] = tree.contact_bodies(k);
    if (moves(body) || moves(other)) lifted.push_back(k);
  }
  const ContactKinematics kinematics =
      contact_kinematics(tree, q, Eigen::VectorXd::Zero(q.size()), lifted);
  std::vector<int> touching;
  for (std::size_t i = 0; i < lifted.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    const bool supports = kinematics.jacobian(2 * row, y) > kUpwardNormal;
    if (supports && std::abs(kinematics.gap[row]) <= kTouchTolerance_m * (1.0 + std::abs(q[y]))) {
      touching.push_back(lifted[i]);
    }
  }
  return touching;
}

// Sets the missing translational velocities `unknown` (indices into v) so that contact `pivot`
// does not move along them: its normal row if y is missing, its tangential row if x is.
void pivot_about(const PlanarTree& tree, const Eigen::VectorXd& q, int pivot,
                 const std::vector<int>& unknown, const std::vector<int>& rows,
                 Eigen::VectorXd& v) {
  for (int index : unknown) v[index] = 0.0;
  const ContactKinematics kinematics = contact_kinematics(tree, q, v, {pivot});
  const auto size = static_cast<Eigen::Index>(unknown.size());
  Eigen::MatrixXd A(size, size);
  Eigen::VectorXd b(size);
  for (Eigen::Index r = 0; r < size; ++r) {
    const Eigen::Index row = rows[static_cast<std::size_t>(r)];
    b[r] = -kinematics.jacobian.row(row).dot(v);
    for (Eigen::Index c = 0; c < size; ++c) {
      A(r, c) = kinematics.jacobian(row, unknown[static_cast<std::size_t>(c)]);
    }
  }
  const Eigen::VectorXd solution = A.fullPivLu().solve(b);
  for (Eigen::Index c = 0; c < size; ++c) v[unknown[static_cast<std::size_t>(c)]] = solution[c];
}

bool no_touching_contact_approaches(const PlanarTree& tree, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& v, const std::vector<int>& touching) {
  const ContactKinematics kinematics = contact_kinematics(tree, q, v, touching);
  const double tolerance = 1e-9 * (1.0 + v.norm());  // [m/s], round-off of J v
  for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(touching.size()); ++i) {
    if (kinematics.jacobian.row(2 * i).dot(v) < -tolerance) return false;
  }
  return true;
}

void complete_resting_velocities(const PlanarTree& tree, const Eigen::VectorXd& q, int x, int y,
                                 const std::vector<bool>& v_was_given,
                                 const std::vector<int>& touching, Eigen::VectorXd& v) {
  std::vector<int> unknown, rows;  // rows: 1 tangential (for x), 0 normal (for y)
  if (!v_was_given[static_cast<std::size_t>(x)]) unknown.push_back(x), rows.push_back(1);
  if (!v_was_given[static_cast<std::size_t>(y)]) unknown.push_back(y), rows.push_back(0);
  if (unknown.empty() || touching.empty()) return;
  const Eigen::VectorXd start = v;
  for (int pivot : touching) {
    v = start;
    pivot_about(tree, q, pivot, unknown, rows, v);
    if (no_touching_contact_approaches(tree, q, v, touching)) return;
  }
  v = start;
  pivot_about(tree, q, touching.front(), unknown, rows, v);
}

}  // namespace

PlanarState complete_initial_state(const PlanarTree& tree, const PartialState& q_given,
                                   const PartialState& v_given) {
  std::vector<bool> q_was_given, v_was_given;
  PlanarState state{fill(tree, q_given, "q", q_was_given), fill(tree, v_given, "v", v_was_given)};
  // Bodies whose height is missing rest on what is already placed: bodies placed by their given
  // coordinates, and those rested before them, bottom-up in tree order.
  const auto rests = [&](int body) {
    const PlanarJoint& joint = tree.description().joints[static_cast<std::size_t>(body)];
    const int y = tree.first_coordinate(body) + 1;
    return joint.type == JointType::free && joint.parent == kGround &&
           !q_was_given[static_cast<std::size_t>(y)];
  };
  std::vector<bool> placed(static_cast<std::size_t>(tree.body_count()), true);
  for (int b = 0; b < tree.body_count(); ++b) {
    if (!rests(b)) continue;
    const std::vector<bool> inside = subtree(tree, b);
    for (std::size_t i = 0; i < inside.size(); ++i) placed[i] = placed[i] && !inside[i];
  }
  for (int b = 0; b < tree.body_count(); ++b) {
    if (!rests(b)) continue;
    const int x = tree.first_coordinate(b), y = x + 1;
    const std::vector<int> touching = rest_on_supports(tree, b, y, placed, state.q);
    const std::vector<bool> inside = subtree(tree, b);
    for (std::size_t i = 0; i < inside.size(); ++i) placed[i] = placed[i] || inside[i];
    complete_resting_velocities(tree, state.q, x, y, v_was_given, touching, state.v);
  }
  return state;
}

}  // namespace routh
