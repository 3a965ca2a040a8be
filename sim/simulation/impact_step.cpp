#include "sim/simulation/impact_step.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <span>

#include "sim/contact_space.hpp"
#include "sim/simulation/contact_islands.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// One law's answer over the contacts `involved`, with the problem it answered.
struct LawAnswer {
  ImpactProblem problem;
  ImpactResult result;
  ContactSpace space;
  std::string trouble;  ///< why no law answered; "" if one did
  std::string refusal;  ///< what the scenario's law said when the fallback law answered
};

// The law to try when the scenario's law cannot answer.
ImpactLaw fallback_law() {
  static const ImpactLaw lcp = find_law("lcp")->solve;
  return lcp;
}

bool answered(const ImpactResult& result) {
  return result.status == ImpactStatus::solved && is_finite(result);
}

std::string status_text(const ImpactResult& result) {
  return result.status == ImpactStatus::solved ? "non-finite result"
                                               : std::string(to_string(result.status));
}

// A contact whose tangential directions move nothing (their diagonal of D within the round-off D
// is known to, kSymmetryTolerance): no impulse can change its slip, so its friction does nothing,
// and it is frictionless for the impact. A link folded back onto the next one touches it with
// their common joint, whose velocity relative to that link is along the normal only (its
// tangential row of J is zero); with friction, every law refused the problem as invalid.
void without_friction_where_no_slip_can_change(ImpactProblem& problem) {
  const int rows = rows_per_contact(problem.dimension);
  const double immobile = kSymmetryTolerance * problem.D.cwiseAbs().maxCoeff();
  for (int k = 0; k < problem.contact_count(); ++k) {
    const auto tangential = problem.D.diagonal().segment(rows * k + 1, rows - 1);
    if (tangential.maxCoeff() > immobile) continue;
    ContactParameters& contact = problem.contacts[static_cast<std::size_t>(k)];
    contact.static_friction = contact.kinetic_friction = 0.0;
  }
}

// Whether the law that answers an impact starting at `involved` is a rocking calibration
// (rocking.hpp), which takes every touching contact of the bodies the impact moves: a rocking
// block's old pivot, at rest when the other corner lands, must be in the problem for the law to
// set the angular velocity about the new one.
bool takes_resting_contacts(const SimulationSettings& settings, const std::vector<int>& involved) {
  const LawEntry* entry =
      catalogue_entry(involved.size() == 1 ? settings.law : settings.multi_contact_law);
  return entry != nullptr && entry->scope.rocking_calibration;
}

// The contacts an impact may take and their contact space, factored once per impact: M does not
// change within it, and each round's contact space is rows of this one (select_contact_rows).
struct Candidates {
  std::vector<int> contacts;  ///< ascending
  ContactSpace space;
};

// Every touching contact of the islands (contact_islands.hpp) that the touching contacts form
// with the contacts `involved`, and `involved` themselves, ascending: the contacts that the
// impulses at `involved` can drive into their faces, through the bodies they move and the
// touching contacts of those bodies. Any contact a round adds is one of them. `mechanisms` are
// M's at q.
std::vector<int> contacts_an_impact_may_take(const SystemEvaluation& evaluation,
                                             const SimulationSettings& settings,
                                             const Mechanisms& mechanisms,
                                             const std::vector<int>& involved) {
  const ContactKinematics& kinematics = evaluation.quantities.contacts;
  std::vector<bool> touching(static_cast<std::size_t>(evaluation.contacts), false);
  for (int k = 0; k < evaluation.contacts; ++k) {
    touching[static_cast<std::size_t>(k)] = is_touching(kinematics, k, settings.contact_distance);
  }
  ContactIslands islands;
  find_contact_islands(kinematics, touching, mechanisms.of_velocity, islands);
  const auto involves = [&involved](int k) {
    return std::find(involved.begin(), involved.end(), k) != involved.end();
  };
  std::vector<int> contacts = involved;
  for (int i = 0; i < islands.count; ++i) {
    const auto first =
        islands.contacts.begin() + islands.contact_start[static_cast<std::size_t>(i)];
    const auto end =
        islands.contacts.begin() + islands.contact_start[static_cast<std::size_t>(i) + 1];
    if (!std::any_of(first, end, involves)) continue;
    std::copy_if(first, end, std::back_inserter(contacts), [&](int k) { return !involves(k); });
  }
  std::sort(contacts.begin(), contacts.end());
  return contacts;
}

// The contact space of `contacts` at the state in evaluation.quantities, mechanism by mechanism
// (`mechanisms`, M's at q): M is block diagonal over its mechanisms (contact_islands.hpp), and so
// is M⁻¹, so each mechanism the contacts touch solves for its rows of M⁻¹Jᵀ with the Cholesky
// factor of its own block of M, and the rows of the others are zero. The cost follows the bodies
// the impact may move, not the model: the factor of a 50-sphere pile's whole 300 × 300 M at
// every impact was a fifth of its run, where its spheres' blocks are 1 × 1. J and M⁻¹Jᵀ keep all
// of the model's columns, so that D, u⁻ and Δv are the sums they were with a factor of the whole
// M; a model that is one mechanism (a chain) factors all of M, as before.
void factor_candidates(const SystemEvaluation& evaluation, const Mechanisms& mechanisms,
                       std::vector<int> contacts, Candidates& candidates) {
  const int rows = evaluation.rows_per_contact;
  const ContactKinematics& kinematics = evaluation.quantities.contacts;
  const Eigen::MatrixXd& M = evaluation.quantities.mass_matrix;
  std::vector<bool> touched(static_cast<std::size_t>(mechanisms.count()), false);
  for (const int k : contacts) {
    for (int e = kinematics.touched_start[static_cast<std::size_t>(k)];
         e < kinematics.touched_start[static_cast<std::size_t>(k) + 1]; ++e) {
      const int j = kinematics.touched_velocities[static_cast<std::size_t>(e)];
      touched[static_cast<std::size_t>(mechanisms.of_velocity[static_cast<std::size_t>(j)])] = true;
    }
  }
  Eigen::MatrixXd& J = candidates.space.jacobian;
  J.resize(rows * static_cast<Eigen::Index>(contacts.size()), evaluation.velocities);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    J.middleRows(rows * static_cast<Eigen::Index>(i), rows) =
        kinematics.jacobian.middleRows(rows * contacts[i], rows);
  }
  Eigen::MatrixXd& solved = candidates.space.inverse_mass_jacobian_transpose;
  solved.setZero(J.cols(), J.rows());
  for (int m = 0; m < mechanisms.count(); ++m) {
    if (!touched[static_cast<std::size_t>(m)]) continue;
    const auto block = std::span(
        mechanisms.velocities.begin() + mechanisms.start[static_cast<std::size_t>(m)],
        mechanisms.velocities.begin() + mechanisms.start[static_cast<std::size_t>(m) + 1]);
    const Eigen::MatrixXd rows_transposed = J(Eigen::all, block).transpose();
    const Eigen::MatrixXd block_solved =
        Eigen::LLT<Eigen::MatrixXd>(M(block, block)).solve(rows_transposed);
    solved(block, Eigen::all) = block_solved;
  }
  candidates.contacts = std::move(contacts);
}

// The impact problem of `involved` (all of them candidates) at the state in
// evaluation.quantities (M and the contacts at q) and v⁻ = `v`, and its contact space.
void problem_of(const SystemEvaluation& evaluation, const Candidates& candidates,
                const Eigen::VectorXd& v, const std::vector<int>& involved, bool at_rest,
                ImpactStart start, ImpactProblem& problem, ContactSpace& space) {
  const int rows = evaluation.rows_per_contact;
  const auto count = static_cast<Eigen::Index>(involved.size());
  std::vector<Eigen::Index> candidate_rows;
  ContactParameterList parameters;
  for (Eigen::Index i = 0; i < count; ++i) {
    const auto candidate =
        std::lower_bound(candidates.contacts.begin(), candidates.contacts.end(), involved[i]) -
        candidates.contacts.begin();
    for (int r = 0; r < rows; ++r) candidate_rows.push_back(rows * candidate + r);
    ContactParameters contact = evaluation.parameters[involved[i]];
    if (at_rest) contact.restitution = 0.0;  // too slow to bounce: the contact closes
    parameters.push_back(contact);
  }
  select_contact_rows(candidates.space, candidate_rows, space);
  problem = generalized_impact_problem(space, v, evaluation.system.contact_dimension(), parameters);
  without_friction_where_no_slip_can_change(problem);
  if (start == ImpactStart::without_collision) {
    // The contacts were closed: their u_n is zero up to round-off, and the law must see the zero
    // that makes it an impact without collision (planar_contact.hpp).
    for (Eigen::Index i = 0; i < count; ++i) problem.u_pre[rows * i] = 0.0;
  }
}

// The impact problem of `involved` (all of them candidates) at the state in
// evaluation.quantities (M and the contacts at q), answered by the scenario's law or, failing
// that, by the fallback law.
LawAnswer answer_impact(const SystemEvaluation& evaluation, const SimulationSettings& settings,
                        const Candidates& candidates, const Eigen::VectorXd& v,
                        const std::vector<int>& involved, bool at_rest, ImpactStart start) {
  LawAnswer answer;
  problem_of(evaluation, candidates, v, involved, at_rest, start, answer.problem, answer.space);
  const ImpactLaw law = involved.size() == 1 ? settings.law : settings.multi_contact_law;
  if (law == nullptr) {
    answer.trouble = "no law for a simultaneous impact at several contacts";
    return answer;
  }
  answer.result = law(answer.problem);
  if (answered(answer.result)) return answer;
  const std::string refused = status_text(answer.result);
  if (start == ImpactStart::collision) {
    ImpactResult fallback = fallback_law()(answer.problem);
    if (answered(fallback)) {
      fallback.flags.set(ImpactFlag::law_fallback);
      answer.result = fallback;
      answer.refusal = refused;
      return answer;
    }
    answer.trouble = cat("impact law: ", refused, "; fallback lcp: ", status_text(fallback));
    return answer;
  }
  answer.trouble = cat("impact law: ", refused);
  return answer;
}

// Relative round-off of the kinetic energy change of the velocities applied, against T⁻ + T⁺.
constexpr double kAppliedEnergyRoundOff = 1e-9;

// The law reports ΔT = Γᵀu⁻ + ½ΓᵀDΓ in contact space, and flags a gain there. The velocities the
// simulator applies are v⁺ = v⁻ + M⁻¹JᵀΓ, whose change of T = ½vᵀMv is the same only while D is
// well conditioned: with a singular D (a vertex against both faces of a segment: impulses of
// 1e15 N s that cancel but for round-off) the law reported ΔT = −96 J while T rose by 3.8 J.
// Measured on the velocities themselves, a rise beyond round-off is flagged energy_gain and
// reported as the event's ΔT, the law's own figure kept in the status.
void check_applied_energy(const Mechanisms& mechanisms, const Eigen::MatrixXd& M,
                          const Eigen::VectorXd& v, const Eigen::VectorXd& velocity_change,
                          ImpactResult& result, std::string& status) {
  const double gain = mass_product(mechanisms, M, velocity_change, v) +
                      0.5 * mass_product(mechanisms, M, velocity_change, velocity_change);
  const double before = 0.5 * mass_product(mechanisms, M, v, v);
  if (!(gain > kAppliedEnergyRoundOff * (2.0 * before + gain))) return;
  if (result.flags.has(ImpactFlag::energy_gain) && result.delta_T > 0.0) return;  // reported
  status = cat(status, "; the velocities gain ", gain, " J, the law's ΔT = ", result.delta_T, " J");
  result.flags.set(ImpactFlag::energy_gain);
  result.delta_T = gain;
}

}  // namespace

bool is_finite(const ImpactResult& result) {
  return result.impulse.allFinite() && result.u_post.allFinite() && std::isfinite(result.delta_T) &&
         std::isfinite(result.normal_work) && std::isfinite(result.tangential_work);
}

ApproachingContacts approaching_contacts(SystemEvaluation& evaluation,
                                         const SimulationSettings& settings,
                                         const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const ContactKinematics& kinematics = contacts_at(evaluation, q, v);
  const Eigen::VectorXd contact_velocity = kinematics.jacobian * v;
  const double round_off = std::max(kApproachRoundOff * contact_velocity.lpNorm<Eigen::Infinity>(),
                                    settings.absolute_tolerance);
  ApproachingContacts approaching;
  for (int k = 0; k < evaluation.contacts; ++k) {
    const double u_n = contact_velocity[k * evaluation.rows_per_contact];
    if (is_touching(kinematics, k, settings.contact_distance) && u_n < -round_off) {
      approaching.contacts.push_back(k);
      approaching.approach_speed = std::max(approaching.approach_speed, -u_n);
    }
  }
  return approaching;
}

ImpactProblem impact_problem_at(SystemEvaluation& evaluation, double t, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& v, const std::vector<int>& involved,
                                bool at_rest, ImpactStart start) {
  evaluate_into(evaluation, t, q, v,
                restricted(evaluation, {.mass_matrix = true, .contacts = true}),
                evaluation.quantities);
  Candidates candidates;
  factor_candidates(evaluation, mechanisms_of(evaluation, evaluation.quantities.mass_matrix),
                    involved, candidates);
  ImpactProblem problem;
  ContactSpace space;
  problem_of(evaluation, candidates, v, involved, at_rest, start, problem, space);
  return problem;
}

ImpactResolution resolve_impact(SystemEvaluation& evaluation, const SimulationSettings& settings,
                                double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                std::vector<int> involved, bool at_rest, ImpactStart start) {
  const int rows = evaluation.rows_per_contact;
  // M and the contacts at q, for the whole impact
  evaluate_into(evaluation, t, q, v,
                restricted(evaluation, {.mass_matrix = true, .contacts = true}),
                evaluation.quantities);
  const ContactKinematics& kinematics = evaluation.quantities.contacts;
  const Eigen::MatrixXd& M = evaluation.quantities.mass_matrix;
  const Mechanisms& mechanisms = mechanisms_of(evaluation, M);
  Candidates candidates;
  factor_candidates(evaluation, mechanisms,
                    contacts_an_impact_may_take(evaluation, settings, mechanisms, involved),
                    candidates);
  if (start == ImpactStart::collision && takes_resting_contacts(settings, involved)) {
    involved = candidates.contacts;
  }
  LawAnswer answer;
  Eigen::VectorXd velocity_change;  // of the last answer without trouble
  for (int round = 0; round <= evaluation.contacts; ++round) {
    answer = answer_impact(evaluation, settings, candidates, v, involved, at_rest, start);
    if (!answer.trouble.empty()) break;
    velocity_change = generalized_velocity_change(answer.space, answer.result.impulse);
    const Eigen::VectorXd v_post = v + velocity_change;
    int penetrating = -1;
    for (int k = 0; k < evaluation.contacts && penetrating < 0; ++k) {
      const bool in = std::find(involved.begin(), involved.end(), k) != involved.end();
      if (!in && is_touching(kinematics, k, settings.contact_distance) &&
          normal_velocity(kinematics, rows, k, v_post) < -settings.rest_speed) {
        penetrating = k;
      }
    }
    if (penetrating < 0) break;
    involved.insert(std::upper_bound(involved.begin(), involved.end(), penetrating), penetrating);
    if (!std::binary_search(candidates.contacts.begin(), candidates.contacts.end(), penetrating)) {
      // not reached by the islands' argument; kept so that a round never reads a missing row
      std::vector<int> more = candidates.contacts;
      more.insert(std::upper_bound(more.begin(), more.end(), penetrating), penetrating);
      factor_candidates(evaluation, mechanisms, std::move(more), candidates);
    }
  }
  ImpactResolution resolution;
  if (!answer.trouble.empty()) {
    resolution.event = impact_event(t, involved, answer.problem.u_pre, answer.result);
    resolution.contacts = std::move(involved);
    resolution.event.kind = EventKind::trouble;
    resolution.event.status = answer.trouble;
    return resolution;
  }
  std::string status = answer.refusal.empty()
                           ? std::string(to_string(answer.result.status))
                           : cat("solved by lcp; the scenario's law: ", answer.refusal);
  // before the event copies the result's ΔT and flags
  check_applied_energy(mechanisms, M, v, velocity_change, answer.result, status);
  resolution.event = impact_event(t, involved, answer.problem.u_pre, answer.result);
  resolution.event.status = std::move(status);
  resolution.contacts = std::move(involved);
  resolution.resolved = true;
  resolution.velocity_change = std::move(velocity_change);
  return resolution;
}

}  // namespace routh
