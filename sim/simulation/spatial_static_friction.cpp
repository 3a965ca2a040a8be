#include "sim/simulation/spatial_static_friction.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

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

}  // namespace

double distribute_spatial_static_friction(const std::vector<SpatialSetContact>& contacts,
                                          const Eigen::MatrixXd& force_free,
                                          Eigen::VectorXd& lambda) {
  double mean_load = 0.0;
  for (const SpatialSetContact& contact : contacts) {
    if (!(lambda[contact.normal] > 0.0)) return std::numeric_limits<double>::infinity();
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
  if (after.largest < before.largest) lambda = distributed;
  if (!std::isfinite(chosen.largest)) return -std::numeric_limits<double>::infinity();
  return (1.0 - chosen.largest) * chosen.capacity;
}

}  // namespace routh
