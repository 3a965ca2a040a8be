#include "sim/simulation/dynamic_jam.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
#include <algorithm>
#include <span>
#include <string>

#include "sim/simulation/event_response.hpp"
#include "sim/simulation/run_state.hpp"
#include "sim/simulation/slip_reference.hpp"
#include "sim/simulation/sticking_impulse.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Eigenvalues of S₀ below this fraction of its largest are round-off of 0: the normal rows are
// dependent there (a box flat on four corners, whose four normal rows span three motions).
constexpr double kDependentRows = 1e-9;

// r of the island's sliding contacts `sliding` (dynamic_jam.hpp), with the spatial slip directions
// `scratch.slips` of the force solve. Where their normal rows are dependent, the forces along
// S₀'s kernel move no body normally and the force solve takes the minimum-norm ones: r is S's on
// the range of S₀, S₀ = U Λ Uᵀ, r = σ_min(Λ^-½ Uᵀ S U Λ^-½) (for a regular S₀ the same as with
// L₀); +∞ when nothing is left.
double sliding_compliance(const SystemEvaluation& evaluation, const ContactKinematics& kinematics,
                          std::span<const int> sliding, const std::vector<ContactMode>& modes,
                          JamWorkspace& scratch) {
  const int rows = evaluation.rows_per_contact;
  const auto count = static_cast<Eigen::Index>(sliding.size());
  Eigen::MatrixXd &normals = scratch.normals, &W = scratch.directions;
  normals.resize(kinematics.jacobian.cols(), count);
  W.resize(kinematics.jacobian.cols(), count);
  for (Eigen::Index i = 0; i < count; ++i) {
    const int k = sliding[static_cast<std::size_t>(i)];
    const Eigen::Vector2d direction = rows > 2 ? scratch.slips[static_cast<std::size_t>(k)]
                                               : mode_direction(evaluation, k, modes[k]);
    normals.col(i) = kinematics.jacobian.row(rows * k).transpose();
    W.col(i) = normals.col(i);
    for (int j = 1; j < rows; ++j) {
      W.col(i) -= evaluation.parameters[k].kinetic_friction * direction[j - 1] *
                  kinematics.jacobian.row(rows * k + j).transpose();
    }
  }
  scratch.inverse_mass_normals = scratch.mass.solve(normals);
  scratch.product.noalias() = normals.transpose() * scratch.inverse_mass_normals;
  scratch.frictionless.compute(scratch.product);
  const Eigen::VectorXd& eigenvalues = scratch.frictionless.eigenvalues();  // ascending
  Eigen::Index dependent = 0;
  while (dependent < count && !(eigenvalues[dependent] > kDependentRows * eigenvalues[count - 1]))
    ++dependent;
  if (dependent == count) return std::numeric_limits<double>::infinity();
  const Eigen::Index kept = count - dependent;
  scratch.scale.noalias() = scratch.frictionless.eigenvectors().rightCols(kept) *
                            eigenvalues.tail(kept).cwiseSqrt().cwiseInverse().asDiagonal();
  scratch.product.noalias() = scratch.inverse_mass_normals.transpose() * W;  // S
  scratch.half.noalias() = scratch.product * scratch.scale;
  scratch.scaled.noalias() = scratch.scale.transpose() * scratch.half;
  scratch.svd.compute(scratch.scaled);
  return scratch.svd.singularValues().minCoeff();
}

}  // namespace

std::optional<Jam> jam_at(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v, const std::vector<ContactMode>& modes,
                          JamWorkspace& scratch) {
  if (std::none_of(modes.begin(), modes.end(), is_sliding)) return std::nullopt;
  // the islands with a sliding contact, and the sliding contacts of each, one after another
  std::vector<int>&islands = scratch.islands, &sliding = scratch.sliding;
  std::vector<std::size_t>&island_start = scratch.island_start,
  &sliding_start = scratch.sliding_start;
  islands.clear(), sliding.clear(), island_start.assign(1, 0), sliding_start.assign(1, 0);
  scratch.judged.assign(modes.size(), false);
  for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
    if (!is_sliding(modes[static_cast<std::size_t>(k)]) ||
        scratch.judged[static_cast<std::size_t>(k)])
      continue;
    closed_island_of(evaluation, q, v, modes, k, scratch.island);
    for (const int c : scratch.island) {
      scratch.judged[static_cast<std::size_t>(c)] = true;
      islands.push_back(c);
      if (is_sliding(modes[static_cast<std::size_t>(c)])) sliding.push_back(c);
    }
    island_start.push_back(islands.size());
    sliding_start.push_back(sliding.size());
  }
  // the slip directions and rows the force solve of `modes` reads (system_evaluation.hpp)
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v, modes);
  slip_directions_at(kinematics, modes, evaluation.active, evaluation.slip_reference,
                     evaluation.slip_aligned, v, scratch.slips);
  scratch.mass.compute(mass_matrix_at(evaluation, q));
  for (std::size_t i = 0; i + 1 < island_start.size(); ++i) {
    const std::span<const int> island_sliding(sliding.data() + sliding_start[i],
                                              sliding_start[i + 1] - sliding_start[i]);
    const double r = sliding_compliance(evaluation, kinematics, island_sliding, modes, scratch);
    if (!(r < kJamCompliance)) continue;
    // pressed in: every sliding contact pushes (a contact pulled off lifts off instead)
    const ConstrainedAcceleration& dynamics = dynamics_at(evaluation, t, q, v, modes);
    if (std::all_of(island_sliding.begin(), island_sliding.end(),
                    [&](int c) { return dynamics.forces[c].normal > 0.0; }))
      return Jam{{islands.begin() + static_cast<std::ptrdiff_t>(island_start[i]),
                  islands.begin() + static_cast<std::ptrdiff_t>(island_start[i + 1])},
                 r};
    return std::nullopt;  // the kinematics above are no longer the evaluation's
  }
  return std::nullopt;
}

ImpactResolution jam_impulse(SystemEvaluation& evaluation, const SimulationSettings& settings,
                             double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             const std::vector<ContactMode>& modes, const Jam& jam) {
  std::vector<double> cones;
  for (const int k : jam.contacts) {
    const ContactParameters& contact = evaluation.parameters[static_cast<std::size_t>(k)];
    cones.push_back(
        is_sliding(modes[static_cast<std::size_t>(k)])
            ? std::max(contact.static_friction, contact.kinetic_friction * (1.0 + kJamCompliance))
            : contact.static_friction);
  }
  return sticking_impulse(evaluation, settings, t, q, v, jam.contacts, cones, "dynamic jam");
}

StageReport respond_to_jam(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v, const Jam& jam,
                           const SimulationSettings& settings, RunState& state,
                           RunWorkspace& workspace) {
  StageReport report;
  const ImpactResolution impact =
      jam_impulse(workspace.evaluation, settings, t, q, v, state.modes, jam);
  if (!impact.resolved) return report;
  EventRecord event;
  event.t = t;
  event.kind = EventKind::painleve;
  for (const int k : jam.contacts) {
    if (is_sliding(state.modes[static_cast<std::size_t>(k)])) event.contacts.push_back(k);
  }
  event.status =
      cat("dynamic jam: sliding compliance ", jam.compliance, " of its value without friction");
  report.events.push_back(std::move(event));
  report.events.push_back(impact.event);  // ΔT ≤ 0: sticking_impulse.hpp
  ++report.impacts;
  v += impact.velocity_change;
  StageReport settled = settle_modes(t, q, v, /*log_changes=*/true, settings, state, workspace);
  for (EventRecord& row : settled.events) report.events.push_back(std::move(row));
  report.impacts += settled.impacts;
  report.end = std::move(settled.end);
  return report;
}

}  // namespace routh
