#include "models/planar/initial_state.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

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

// Lowers or lifts free root body `root` (its y at index `y`) until its lowest contact against an
// upward-facing obstacle touches. Returns the indices of the touching contacts (none when the
// subtree has no such contact). The gap is affine in y with slope n_y for every such contact.
std::vector<int> rest_on_obstacles(const PlanarTree& tree, int root, int y, Eigen::VectorXd& q) {
  const std::vector<bool> inside = subtree(tree, root);
  const std::vector<ContactGeometry>& contacts = tree.description().contacts;
  ContactKinematics kinematics;
  tree.contact_kinematics(q, Eigen::VectorXd::Zero(q.size()), kinematics);
  double lift_m = -std::numeric_limits<double>::infinity();
  std::vector<int> candidates;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const double n_y = contacts[k].obstacle.normal.y();
    if (!inside[static_cast<std::size_t>(contacts[k].body)] || n_y <= kUpwardNormal) continue;
    lift_m = std::max(lift_m, -kinematics.gap[static_cast<Eigen::Index>(k)] / n_y);
    candidates.push_back(static_cast<int>(k));
  }
  if (candidates.empty()) return {};
  q[y] += lift_m;
  tree.contact_kinematics(q, Eigen::VectorXd::Zero(q.size()), kinematics);
  std::vector<int> touching;
  for (int k : candidates) {
    if (std::abs(kinematics.gap[k]) <= kTouchTolerance_m * (1.0 + std::abs(q[y]))) {
      touching.push_back(k);
    }
  }
  return touching;
}

// Sets the missing translational velocities `unknown` (indices into v) so that contact `pivot`
// does not move along them: its normal row if y is missing, its tangential row if x is.
void pivot_about(const PlanarTree& tree, const Eigen::VectorXd& q, int pivot,
                 const std::vector<int>& unknown, const std::vector<int>& rows,
                 Eigen::VectorXd& v) {
  ContactKinematics kinematics;
  for (int index : unknown) v[index] = 0.0;
  tree.contact_kinematics(q, v, kinematics);
  const auto size = static_cast<Eigen::Index>(unknown.size());
  Eigen::MatrixXd A(size, size);
  Eigen::VectorXd b(size);
  for (Eigen::Index r = 0; r < size; ++r) {
    const Eigen::Index row = 2 * pivot + rows[static_cast<std::size_t>(r)];
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
  ContactKinematics kinematics;
  tree.contact_kinematics(q, v, kinematics);
  const double tolerance = 1e-9 * (1.0 + v.norm());  // [m/s], round-off of J v
  return std::all_of(touching.begin(), touching.end(),
                     [&](int k) { return kinematics.jacobian.row(2 * k).dot(v) >= -tolerance; });
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
  for (int b = 0; b < tree.body_count(); ++b) {
    const PlanarJoint& joint = tree.description().joints[static_cast<std::size_t>(b)];
    if (joint.type != JointType::free || joint.parent != kGround) continue;
    const int x = tree.first_coordinate(b), y = x + 1;
    if (q_was_given[static_cast<std::size_t>(y)]) continue;
    const std::vector<int> touching = rest_on_obstacles(tree, b, y, state.q);
    complete_resting_velocities(tree, state.q, x, y, v_was_given, touching, state.v);
  }
  return state;
}

}  // namespace routh
