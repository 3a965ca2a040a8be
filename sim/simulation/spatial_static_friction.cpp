#include "sim/simulation/spatial_static_friction.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "sim/impact/lemke.hpp"

namespace routh {

namespace {

// ρ = max_k ‖λ_t,k‖ / (μs,k λ_n,k) over the sticking contacts (+∞ where one has no normal force
// or no friction while it needs some), and Σ_k μs,k λ_n,k over them.
struct Utilization {
  double largest = 0.0;
  double capacity = 0.0;
};

Utilization utilization(const std::vector<SpatialSetContact>& contacts,
                        const Eigen::VectorXd& lambda) {
  Utilization out;
  for (const SpatialSetContact& contact : contacts) {
    if (!contact.sticks) continue;
    const double normal = lambda[contact.normal];
    const double cone = contact.static_friction * normal;
    const double tangential = lambda.segment(contact.normal + 1, 2).norm();
    out.capacity += std::max(cone, 0.0);
    if (!(normal > 0.0)) {
      out.largest = std::numeric_limits<double>::infinity();
    } else if (tangential > 0.0) {
      out.largest = std::max(
          out.largest, cone > 0.0 ? tangential / cone : std::numeric_limits<double>::infinity());
    }
  }
  return out;
}

// [1] Facets of the polygon that first stands for each quadratic cone in the program (3): tangent
// to the cone, so that the polygon holds the cone.
constexpr int kConeFacets = 8;
// [1] The price of |z| against m in (3), in units of the scale S: among distributions of one
// margin the program keeps one near λ0, and its optimum stays bounded where squeezing harder
// costs no margin.
constexpr double kDistributionCost = 1e-6;
// [1] The polygons are cut until the true margin at the program's distribution is within this
// fraction of the program's own m, an upper bound of the largest true margin: R is then reported
// to this fraction of itself.
constexpr double kMarginResolution = 1e-3;

// A tangent facet of a sticking contact's cone: e·λ_t ≤ μs λ_n − μs m S, e at `angle`.
struct ConeFacet {
  const SpatialSetContact* contact = nullptr;
  double angle = 0.0;
};

// The distribution of (3) of the header, for a set whose λ0 has a normal force ≤ 0 or whose split
// (1) leaves a cone, and its reserve R (+∞ where no distribution of positive margin is found: λ0
// stays). Each cone is replaced by a polygon of tangent facets, which holds it, in the linear
// program
// maximize cᵀx  subject to  G x ≤ h, x ≥ 0,  with x = (z⁺, z⁻, m) and z = S (z⁺ − z⁻),
// solved as the LCP of its optimality conditions (Cottle, Pang & Stone, "The Linear
// Complementarity Problem", §1.2): with the dual prices y,
//     w = [0 Gᵀ; −G 0] (x, y) + (−c, h) ≥ 0 ⟂ (x, y) ≥ 0,
// whose matrix is skew-symmetric, hence copositive-plus: Lemke's method solves it whenever the
// program has an optimum, and its ray proves that it has none. Where a contact's λ_t lies outside
// its true cone (shrunk by the margin), the facet tangent to it along λ_t is added and the program
// solved again (Kelley's cutting planes, "The cutting-plane method for solving convex programs"):
// the polygons close in on the cones from outside, so that a distribution the cones hold with any
// positive margin is found, however small (box campaign run 953: a box on a floor corner and a
// wall corner, squeezed, held with a margin of 2 % of its cones, which polygons inscribed in them
// miss: every assignment was refused, and the run ended in Painlevé's paradox).
double distribute_widest_margin(const std::vector<SpatialSetContact>& contacts,
                                const Eigen::MatrixXd& force_free, Eigen::VectorXd& lambda) {
  const double no_verdict = std::numeric_limits<double>::infinity();
  const auto d = static_cast<int>(force_free.cols());
  const int variables = 2 * d + 1;
  const double scale = lambda.cwiseAbs().maxCoeff();
  if (!(scale > 0.0)) return no_verdict;
  const Eigen::VectorXd particular = lambda / scale;
  std::vector<ConeFacet> facets;
  for (const SpatialSetContact& contact : contacts) {
    if (!contact.sticks) continue;
    for (int facet = 0; facet < kConeFacets; ++facet)
      facets.push_back({&contact, 2.0 * std::numbers::pi * facet / kConeFacets});
  }
  const auto size = [&] {
    return variables + static_cast<int>(contacts.size() + facets.size()) + 1;
  };
  Eigen::VectorXd distributed;
  double margin = 0.0;
  while (size() <= kInlineLcpSize) {
    const int constraints = size() - variables;
    // G x ≤ h, one row per constraint of (3), the cones' as their polygons' facets
    Eigen::MatrixXd G = Eigen::MatrixXd::Zero(constraints, variables);
    Eigen::VectorXd h = Eigen::VectorXd::Zero(constraints);
    const auto on_z = [&](int row, const Eigen::RowVectorXd& gradient) {
      G.block(row, 0, 1, d) = gradient;
      G.block(row, d, 1, d) = -gradient;
    };
    int row = 0;
    for (const SpatialSetContact& contact : contacts) {
      // λ_n ≥ m S:  −N_n z + m ≤ λ0_n
      on_z(row, -force_free.row(contact.normal));
      G(row, 2 * d) = 1.0;
      h[row++] = particular[contact.normal];
    }
    for (const ConeFacet& facet : facets) {
      // e·λ_t − μs λ_n + μs m S ≤ 0
      const int n = facet.contact->normal;
      const double mu = facet.contact->static_friction;
      const double c = std::cos(facet.angle), s = std::sin(facet.angle);
      on_z(row, c * force_free.row(n + 1) + s * force_free.row(n + 2) - mu * force_free.row(n));
      G(row, 2 * d) = mu;
      h[row++] = mu * particular[n] - c * particular[n + 1] - s * particular[n + 2];
    }
    G(row, 2 * d) = 1.0;  // m ≤ 1
    h[row] = 1.0;
    Eigen::VectorXd c = Eigen::VectorXd::Constant(variables, -kDistributionCost);
    c[2 * d] = 1.0;
    const int n = variables + constraints;
    LcpMatrix M(n, n);
    M.setZero();
    M.topRightCorner(variables, constraints) = G.transpose();
    M.bottomLeftCorner(constraints, variables) = -G;
    LcpVector q(n);
    q.head(variables) = -c;
    q.tail(constraints) = h;
    const LemkeResult solution = solve_lcp_lemke(M, q);
    if (solution.status != LemkeStatus::solved) return no_verdict;
    const double bound = solution.z[2 * d];
    const Eigen::VectorXd z = solution.z.head(d) - solution.z.segment(d, d);
    distributed = lambda + scale * (force_free * z);
    // the margin of the true cones there, relative as in (3); a cut where a cone is left
    margin = 1.0;
    std::vector<ConeFacet> cuts;
    for (const SpatialSetContact& contact : contacts) {
      const double normal = distributed[contact.normal];
      margin = std::min(margin, normal / scale);
      const double mu = contact.static_friction;
      if (!contact.sticks || !(mu > 0.0)) continue;
      const Eigen::Vector2d tangential = distributed.segment(contact.normal + 1, 2);
      margin = std::min(margin, (mu * normal - tangential.norm()) / (mu * scale));
      if (tangential.norm() > mu * (normal - bound * scale))
        cuts.push_back({&contact, std::atan2(tangential.y(), tangential.x())});
    }
    if (cuts.empty() || margin >= (1.0 - kMarginResolution) * bound) break;
    facets.insert(facets.end(), cuts.begin(), cuts.end());
  }
  if (!(margin > 0.0)) return no_verdict;
  lambda = distributed;
  double capacity = 0.0;
  for (const SpatialSetContact& contact : contacts)
    capacity += contact.sticks ? contact.static_friction : 0.0;
  return margin * scale * capacity;
}

}  // namespace

double distribute_spatial_static_friction(const std::vector<SpatialSetContact>& contacts,
                                          const Eigen::MatrixXd& force_free,
                                          Eigen::VectorXd& lambda) {
  double mean_load = 0.0;
  for (const SpatialSetContact& contact : contacts) {
    if (!(lambda[contact.normal] > 0.0))
      return distribute_widest_margin(contacts, force_free, lambda);
    mean_load += lambda[contact.normal];
  }
  mean_load /= static_cast<double>(contacts.size());
  // the weights of (1): a frictionless sticking contact's tangential force costs the most
  constexpr double kLeastFriction = 1e-12;
  Eigen::VectorXd weight = Eigen::VectorXd::Zero(lambda.size());
  for (const SpatialSetContact& contact : contacts) {
    weight[contact.normal] = 1.0 / mean_load;
    if (!contact.sticks) continue;
    const double capacity =
        std::max(contact.static_friction, kLeastFriction) * lambda[contact.normal];
    weight.segment(contact.normal + 1, 2).setConstant(1.0 / capacity);
  }
  const Eigen::MatrixXd weighted = weight.asDiagonal() * force_free;
  const Eigen::VectorXd z =
      -(force_free.transpose() * weighted).ldlt().solve(weighted.transpose() * lambda);
  const Eigen::VectorXd distributed = lambda + force_free * z;
  const Utilization before = utilization(contacts, lambda);
  const Utilization after = utilization(contacts, distributed);
  const Utilization& chosen = after.largest < before.largest ? after : before;
  if (!(chosen.largest < 1.0)) {
    // (1) is sufficient, not exact: where its split leaves a cone, (3) decides (the header)
    Eigen::VectorXd widest = lambda;
    const double reserve = distribute_widest_margin(contacts, force_free, widest);
    if (std::isfinite(reserve)) {
      lambda = widest;
      return reserve;
    }
  }
  if (after.largest < before.largest) lambda = distributed;
  if (!std::isfinite(chosen.largest)) return -std::numeric_limits<double>::infinity();
  return (1.0 - chosen.largest) * chosen.capacity;
}

}  // namespace routh
