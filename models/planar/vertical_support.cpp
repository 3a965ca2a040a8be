#include "models/planar/vertical_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace routh {

namespace {

// Horizontal extents that overlap by less than this, relative to the largest |x| of the two
// shapes, only touch side by side: the overlap is the round-off of positions given as touching
// (a block at x = 0.6 of half-width 0.2 begins at 0.6 − 0.2 = 0.39999999999999997, 5.6e-17 m
// inside a neighbour at x = 0.2 that ends at 0.4). Read as an overlap, the upper block was set
// on the neighbour's top corner, balanced on its own corner, and tipped off.
constexpr double kSideBySide = 1e-12;

// > 0 when o → a → b turns counter-clockwise.
double turn(const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
}

// Andrew's monotone chain: the hull's vertices counter-clockwise, collinear points dropped; one
// or two points when the set is that degenerate.
std::vector<Eigen::Vector2d> convex_hull(std::vector<Eigen::Vector2d> points) {
  const auto before = [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  };
  std::sort(points.begin(), points.end(), before);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() <= 2) return points;
  std::vector<Eigen::Vector2d> hull;
  const auto add = [&hull](const Eigen::Vector2d& p, std::size_t floor) {
    while (hull.size() > floor && turn(hull[hull.size() - 2], hull.back(), p) <= 0.0) {
      hull.pop_back();
    }
    hull.push_back(p);
  };
  for (const Eigen::Vector2d& p : points) add(p, 1);  // lower chain
  const std::size_t lower = hull.size();
  for (auto p = points.rbegin() + 1; p != points.rend(); ++p) add(*p, lower);  // upper chain
  hull.pop_back();  // the first point again
  return hull;
}

// The highest point of `hull` grown by r on the vertical x = 0, or nullopt when the grown hull
// does not reach across it by more than `side_m` on either side. y + √(r² − x²) is concave, so on
// each edge its maximum is the stationary point x = r m / √(1 + m²) (slope m) clamped to the edge's
// part within |x| ≤ r.
std::optional<double> top_on_vertical_axis(const std::vector<Eigen::Vector2d>& hull, double r,
                                           double side_m) {
  const auto [leftmost, rightmost] = std::minmax_element(
      hull.begin(), hull.end(), [](const auto& a, const auto& b) { return a.x() < b.x(); });
  if (!(leftmost->x() - r < -side_m && side_m < rightmost->x() + r)) return std::nullopt;
  double top = -std::numeric_limits<double>::infinity();
  const auto consider = [&](double x, double y) {
    if (std::abs(x) <= r) top = std::max(top, y + std::sqrt(std::max(0.0, r * r - x * x)));
  };
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Eigen::Vector2d& p = hull[i];
    const Eigen::Vector2d& q = hull[(i + 1) % hull.size()];
    consider(p.x(), p.y());
    if (p.x() == q.x()) continue;  // a vertical edge peaks at its ends
    const double low = std::max(std::min(p.x(), q.x()), -r);
    const double high = std::min(std::max(p.x(), q.x()), r);
    if (low > high) continue;
    const double slope = (q.y() - p.y()) / (q.x() - p.x());
    const double x = std::clamp(r * slope / std::sqrt(1.0 + slope * slope), low, high);
    consider(x, p.y() + slope * (x - p.x()));
  }
  return top;
}

}  // namespace

std::optional<double> lift_to_rest_on(const PlacedShape& upper, const PlacedShape& lower) {
  std::vector<Eigen::Vector2d> difference;
  difference.reserve(upper.points_m.size() * lower.points_m.size());
  double widest_x_m = 0.0;
  for (const Eigen::Vector2d& b : lower.points_m) {
    widest_x_m = std::max(widest_x_m, std::abs(b.x()) + lower.radius_m);
    for (const Eigen::Vector2d& a : upper.points_m) difference.push_back(b - a);
  }
  for (const Eigen::Vector2d& a : upper.points_m) {
    widest_x_m = std::max(widest_x_m, std::abs(a.x()) + upper.radius_m);
  }
  return top_on_vertical_axis(convex_hull(std::move(difference)), upper.radius_m + lower.radius_m,
                              kSideBySide * widest_x_m);
}

double lift_to_rest_on(const PlacedShape& shape, const HalfPlane& obstacle) {
  double lift = -std::numeric_limits<double>::infinity();
  for (const Eigen::Vector2d& p : shape.points_m) {
    lift = std::max(lift, (shape.radius_m - obstacle.distance(p)) / obstacle.normal.y());
  }
  return lift;
}

}  // namespace routh
