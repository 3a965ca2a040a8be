#include "sim/impact/lcp.hpp"
#include "sim/impact/law_guard.hpp"
#include "sim/impact/round_off_velocity.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace routh {

namespace {

// A slip (or λ) below this fraction of the velocity scale max|u⁻| is zero: the contact is at rest
// tangentially. Round-off in u⁻ + DΓ is ~1e-16 of that scale.
constexpr double kSlipTolerance = 1e-12;
// As in the other laws: ΔT above this fraction of |Γᵀu⁻| is a real gain, not round-off.
constexpr double kEnergyGainTolerance = 1e-12;
constexpr double kNormalDissipationTolerance = 1e-9;
// D + δ I with δ this fraction of max D_ii, where Lemke's method found no solution for D (a
// singular D, solve_lcp_stages): far above D's round-off (1e-16), far below its trusted
// accuracy (kSymmetryTolerance, 1e-9).
constexpr double kSingularRegularization = 1e-12;

using PerContact = PerContactValues;

/// The contact-space direction along which an LCP unknown pushes, a column of G: the normal of
/// its contact (one row), an edge χ_j = cos·t1 + sin·t2 of its cone (one row planar, two rows
/// spatial), or nothing (λ).
struct ImpulseDirection {  // no initialisers: impulse_map() writes every entry it uses
  int terms;
  std::array<int, 2> row;
  std::array<double, 2> weight;
};
using ImpulseMap = boost::container::small_vector<ImpulseDirection, kInlineLcpSize>;
/// D G: the contact velocity change per unit of each LCP unknown.
using VelocityMap = SmallBufferMatrix<kInlineContactRows, kInlineLcpSize>;

/// The edge directions χ_j of the polyhedral cone in a contact's tangent plane (paper 001 eq. 12).
struct FrictionEdges {
  int count = 0;                               ///< p
  std::array<double, kMaxFrictionEdges> t1{};  ///< χ_j · t1
  std::array<double, kMaxFrictionEdges> t2{};  ///< χ_j · t2 (spatial only)
};

/// Spatial: χ_j = (cos 2πj/p, sin 2πj/p), the second half the exact negatives of the first, so
/// each edge has its opposite (Anitescu–Potra's assumption) to the last bit.
FrictionEdges spatial_edges(int p) {
  FrictionEdges edges;
  edges.count = p;
  for (int j = 0; j < p / 2; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / p;
    edges.t1[j] = std::cos(angle);
    edges.t2[j] = std::sin(angle);
    edges.t1[j + p / 2] = -edges.t1[j];
    edges.t2[j + p / 2] = -edges.t2[j];
  }
  return edges;
}

/// Planar: ±t. Spatial: from a table of every allowed p, built once (the trigonometry would
/// otherwise cost a tenth of a spatial solve).
const FrictionEdges& friction_edges(ContactDimension dimension, int p) {
  static const FrictionEdges kPlanar{2, {1.0, -1.0}, {}};
  static const auto kSpatial = [] {
    std::array<FrictionEdges, kMaxFrictionEdges / 2 + 1> table{};
    for (int even = 4; even <= kMaxFrictionEdges; even += 2) table[even / 2] = spatial_edges(even);
    return table;
  }();
  return dimension == ContactDimension::planar ? kPlanar : kSpatial[p / 2];
}

/// The problem as the law reads it, with the scales that make its LCPs O(1): velocities in units
/// of V = max|u⁻|, inverse masses of s_D = max D_ii, impulses of V / s_D.
struct Contacts {
  ContactDimension dimension = ContactDimension::planar;
  int count = 0;
  int rows = 2;  ///< rows per contact
  ContactMatrix D;
  ContactVector u_pre;      ///< u⁻ with round-off entries exactly zero [m/s]
  ContactVector round_off;  ///< the given u⁻ minus `u_pre` [m/s]
  const ContactParameterList* parameters = nullptr;
  const FrictionEdges* edges = nullptr;  ///< the cone of every contact
  double velocity_scale = 1.0;           ///< V [m/s]
  double inverse_mass_scale = 1.0;       ///< s_D [1/kg]

  double impulse_scale() const { return velocity_scale / inverse_mass_scale; }  ///< [N s]
  /// μd: the friction of a contact that slides.
  double kinetic_friction(int k) const { return (*parameters)[k].kinetic_friction; }
  /// max(μs, μd): the friction that holds a contact at rest (planar_contact.hpp, stick_is_stable).
  double static_friction(int k) const {
    return std::max((*parameters)[k].static_friction, (*parameters)[k].kinetic_friction);
  }
  double restitution(int k) const { return (*parameters)[k].restitution; }
  /// |u_t,k| [m/s]
  double slip(const ContactVector& u, int k) const {
    return u.segment(rows * k + 1, rows - 1).norm();
  }
  bool slips(const ContactVector& u, int k) const {
    return slip(u, k) > kSlipTolerance * velocity_scale;
  }
};

// ---------------------------------------------------------------------------------------------
// Checks (the errors of diagnose(), without allocating)

bool shapes_fit(const ImpactProblem& problem) {
  const int rows = rows_per_contact(problem.dimension);
  const auto n = problem.D.rows();
  return n > 0 && problem.D.cols() == n && n % rows == 0 && problem.u_pre.size() == n &&
         static_cast<int>(problem.contacts.size()) == n / rows;
}

/// D symmetric and positive semidefinite with a positive diagonal where a direction must move
/// the bodies (direction_must_move); e ∈ [0, 1], μ ≥ 0. diagnose()
/// asks for no eigenvalue below −δ, δ = kSymmetryTolerance · max|D_ij|; that is exactly when
/// D + δI is positive definite, which a Cholesky factorisation decides without an eigensolver
/// (a pivoted LDLᵀ of a singular D is not reliable: its last pivots are cancellation noise).
bool is_valid(const ImpactProblem& problem) {
  const ContactMatrix& D = problem.D;
  if (!D.allFinite() || !problem.u_pre.allFinite()) return false;
  const double scale = D.cwiseAbs().maxCoeff();
  if ((D - D.transpose()).cwiseAbs().maxCoeff() > kSymmetryTolerance * scale) return false;
  for (int row = 0; row < D.rows(); ++row) {
    if (direction_must_move(problem, row) && !(D(row, row) > 0.0)) return false;
  }
  ContactMatrix shifted = D;
  shifted.diagonal().array() += kSymmetryTolerance * scale;
  // in place: the factor overwrites `shifted`, whatever its size, without allocating
  if (Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>>(shifted).info() != Eigen::Success) return false;
  for (const ContactParameters& p : problem.contacts) {
    if (!(p.restitution >= 0.0 && p.restitution <= 1.0)) return false;
    if (!(p.static_friction >= 0.0 && p.kinetic_friction >= 0.0)) return false;
  }
  return true;
}

/// Reads and checks the problem; false with `result.status` set when the law should stop.
bool read_contacts(const ImpactProblem& problem, const LcpLawOptions& options, Contacts& contacts,
                   ImpactResult& result) {
  if (!shapes_fit(problem) || !is_valid(problem)) {
    result.status = ImpactStatus::invalid_problem;
    return false;
  }
  contacts.dimension = problem.dimension;
  contacts.rows = rows_per_contact(problem.dimension);
  contacts.count = static_cast<int>(problem.contacts.size());
  contacts.D = 0.5 * (problem.D + problem.D.transpose());  // symmetric up to round-off
  // a contact at rest to round-off is at rest: whether it slips decides μs or μd and the cone
  // edges the LCP offers, so its round-off would otherwise decide the answer
  contacts.u_pre = without_round_off(problem.u_pre, contacts.count, contacts.rows);
  contacts.round_off = problem.u_pre - contacts.u_pre;
  contacts.parameters = &problem.contacts;
  contacts.edges = &friction_edges(problem.dimension, options.friction_edges);
  bool approaching = false;
  for (int k = 0; k < contacts.count; ++k) {
    approaching = approaching || contacts.u_pre[contacts.rows * k] < 0.0;
  }
  if (!approaching) {
    result.status = ImpactStatus::no_impact;
    result.impulse.setZero(problem.u_pre.size());
    result.u_post = problem.u_pre;
    return false;
  }
  contacts.velocity_scale = contacts.u_pre.cwiseAbs().maxCoeff();
  contacts.inverse_mass_scale = contacts.D.diagonal().maxCoeff();
  return true;
}

// ---------------------------------------------------------------------------------------------
// One stage: its LCP, solved, with the static → kinetic re-solves

/// What a stage starts from.
struct StageInput {
  ContactVector u_start;       ///< u⁻ (compression) or u(t) (expansion) [m/s]
  ContactVector base_impulse;  ///< impulse applied before the LCP's: e_k Γ_n,c,k n_k, or 0 [N s]
  PerContact mu;               ///< μ_k of the stage (changed by the re-solves)
  PerContact cone_offset;      ///< normal impulse already under the cone: e_k Γ_n,c,k or 0 [N s]
};

/// Where each contact's unknowns sit in the stage's LCP: Γ_n, then p edges and λ if frictional.
struct StageLayout {
  boost::container::small_vector<int, kInlineContacts> first;
  boost::container::small_vector<bool, kInlineContacts> frictional;
  int size = 0;
};

StageLayout stage_layout(const Contacts& contacts, const PerContact& mu) {
  StageLayout layout;
  layout.first.resize(static_cast<std::size_t>(contacts.count));
  layout.frictional.resize(static_cast<std::size_t>(contacts.count));
  for (int k = 0; k < contacts.count; ++k) {
    layout.first[k] = layout.size;
    layout.frictional[k] = mu[k] > 0.0;
    layout.size += layout.frictional[k] ? contacts.edges->count + 2 : 1;
  }
  return layout;
}

/// G: unknown Γ_n,k pushes along the normal of contact k, β_k,j along its edge χ_j (paper 001
/// eq. 11), λ_k nowhere.
void impulse_map(const Contacts& contacts, const StageLayout& layout, ImpulseMap& G) {
  G.resize(static_cast<std::size_t>(layout.size));
  for (int k = 0; k < contacts.count; ++k) {
    const int row = contacts.rows * k;
    const int first = layout.first[k];
    G[first] = {1, {row, 0}, {1.0, 0.0}};
    if (!layout.frictional[k]) continue;
    for (int j = 0; j < contacts.edges->count; ++j) {
      G[first + 1 + j] = {
          contacts.rows - 1, {row + 1, row + 2}, {contacts.edges->t1[j], contacts.edges->t2[j]}};
    }
    G[first + 1 + contacts.edges->count] = {0, {0, 0}, {0.0, 0.0}};
  }
}

/// gᵀ v for a column g of G.
double along(const ImpulseDirection& g, const ContactVector& v) {
  double sum = 0.0;
  for (int t = 0; t < g.terms; ++t) sum += g.weight[t] * v[g.row[t]];
  return sum;
}

/// The stage's LCP w = M z + q in the scaled unknowns z = (Γ_n, β, λ) / (P, P, V) per contact
/// (paper 001 eq. 16 in routh's signs; lcp.hpp):
///   M = [[Gᵀ D G / s_D, E], [μ, −Eᵀ, 0]],   q = (Gᵀ (u_start + D base) / V, μ offset / P).
void build_stage_lcp(const Contacts& contacts, const StageInput& input, const StageLayout& layout,
                     const ImpulseMap& G, LcpMatrix& M, LcpVector& q) {
  const double P = contacts.impulse_scale();
  const double V = contacts.velocity_scale;
  const int n = layout.size;
  const int m = contacts.rows * contacts.count;
  VelocityMap DG(m, n);  // D G, a column per unknown
  for (int v = 0; v < n; ++v) {
    for (int i = 0; i < m; ++i) {
      double sum = 0.0;
      for (int t = 0; t < G[v].terms; ++t) sum += G[v].weight[t] * contacts.D(i, G[v].row[t]);
      DG(i, v) = sum;
    }
  }
  M.resize(n, n);
  const double to_scaled_mass = 1.0 / contacts.inverse_mass_scale;
  for (int v = 0; v < n; ++v) {
    for (int a = 0; a < n; ++a) {
      double sum = 0.0;
      for (int t = 0; t < G[a].terms; ++t) sum += G[a].weight[t] * DG(G[a].row[t], v);
      M(a, v) = sum * to_scaled_mass;
    }
  }
  ContactVector u_base = input.u_start;
  u_base.noalias() += contacts.D * input.base_impulse;
  q.resize(n);
  for (int v = 0; v < n; ++v) q[v] = along(G[v], u_base) * (1.0 / V);
  const int p = contacts.edges->count;
  for (int k = 0; k < contacts.count; ++k) {
    if (!layout.frictional[k]) continue;
    const int normal = layout.first[k];
    const int slip = normal + 1 + p;
    for (int j = 0; j < p; ++j) {
      M(normal + 1 + j, slip) = 1.0;   // χ_jᵀ u_t + λ   (13a)
      M(slip, normal + 1 + j) = -1.0;  // μ Γ_n − Σ β_j  (13b)
    }
    M(slip, normal) = input.mu[k];
    q[slip] = input.mu[k] * input.cone_offset[k] / P;
  }
}

/// A stage solved: its impulse (base included), the velocity at its end, per contact the normal
/// impulse the LCP added and the slip multiplier λ.
struct StageOutcome {
  bool solved = false;
  ContactVector impulse;            ///< [N s]
  ContactVector u_end;              ///< [m/s]
  PerContact added_normal_impulse;  ///< Γ_n,c,k or Γ̃_n,k [N s]
  PerContact slip;                  ///< λ_k [m/s]
  PerContact mu;                    ///< μ_k finally used
};

/// Reads z back into physical units. Where a complementarity condition makes a velocity zero, it
/// is set to exactly zero: u_n = 0 where w_n = 0 (eqs. 9, 10), u_t = 0 where λ = 0 (13a with edges
/// in ± pairs).
void read_stage(const Contacts& contacts, const StageInput& input, const StageLayout& layout,
                const ImpulseMap& G, const LemkeResult& lcp, StageOutcome& out) {
  const double P = contacts.impulse_scale();
  const double V = contacts.velocity_scale;
  out.impulse = input.base_impulse;
  for (int v = 0; v < layout.size; ++v) {
    for (int t = 0; t < G[v].terms; ++t) out.impulse[G[v].row[t]] += P * G[v].weight[t] * lcp.z[v];
  }
  out.u_end.resize(out.impulse.size());  // noalias() writes, it does not size (a Map)
  out.u_end.noalias() = contacts.D * out.impulse;
  out.u_end += input.u_start;
  out.added_normal_impulse.resize(static_cast<std::size_t>(contacts.count));
  out.slip.resize(static_cast<std::size_t>(contacts.count));
  const int p = contacts.edges->count;
  for (int k = 0; k < contacts.count; ++k) {
    const int normal = layout.first[k];
    const int row = contacts.rows * k;
    out.added_normal_impulse[k] = P * lcp.z[normal];
    out.slip[k] = layout.frictional[k] ? V * lcp.z[normal + 1 + p] : contacts.slip(out.u_end, k);
    if (lcp.w[normal] == 0.0) out.u_end[row] = 0.0;
    if (layout.frictional[k] && out.slip[k] <= kSlipTolerance * V) {
      out.slip[k] = 0.0;
      out.u_end.segment(row + 1, contacts.rows - 1).setZero();
    }
  }
}

/// Solves a stage. A contact held by static friction (μ_k > μd) that still ends the stage
/// slipping was not held: it slides with μd, and the stage is solved again (lcp.hpp).
StageOutcome solve_stage(const Contacts& contacts, StageInput input, const LemkeOptions& options,
                         int& pivots, int& lcps_solved) {
  StageOutcome out;
  ImpulseMap G;
  LcpMatrix M;
  LcpVector q;
  for (int pass = 0; pass <= contacts.count; ++pass) {
    const StageLayout layout = stage_layout(contacts, input.mu);
    impulse_map(contacts, layout, G);
    build_stage_lcp(contacts, input, layout, G, M, q);
    const LemkeResult lcp = solve_lcp_lemke(M, q, options);
    pivots += lcp.pivots;
    ++lcps_solved;
    if (lcp.status != LemkeStatus::solved) return out;
    read_stage(contacts, input, layout, G, lcp, out);
    bool static_friction_failed = false;
    for (int k = 0; k < contacts.count; ++k) {
      if (input.mu[k] > contacts.kinetic_friction(k) && out.slip[k] > 0.0) {
        input.mu[k] = contacts.kinetic_friction(k);
        static_friction_failed = true;
      }
    }
    if (!static_friction_failed) break;
  }
  out.mu = input.mu;
  out.solved = true;
  return out;
}

/// μ_k at the start of a stage: μd if the contact slips at `u_start`, else max(μs, μd).
PerContact stage_friction(const Contacts& contacts, const ContactVector& u_start) {
  PerContact mu(static_cast<std::size_t>(contacts.count));
  for (int k = 0; k < contacts.count; ++k) {
    mu[k] = contacts.slips(u_start, k) ? contacts.kinetic_friction(k) : contacts.static_friction(k);
  }
  return mu;
}

/// Compression (paper 001 eqs. 9, 13, 14, 16a): from u⁻, no base impulse, cone offset 0.
StageInput compression_input(const Contacts& contacts) {
  StageInput input;
  input.u_start = contacts.u_pre;
  input.base_impulse.setZero(contacts.u_pre.size());
  input.mu = stage_friction(contacts, input.u_start);
  input.cone_offset.assign(static_cast<std::size_t>(contacts.count), 0.0);
  return input;
}

/// Expansion (paper 001 eqs. 5, 10, 15, 16b): from u(t), Poisson's restitution impulse
/// e_k Γ_n,c,k along each normal, and its share of the cone per `friction` (lcp.hpp).
StageInput expansion_input(const Contacts& contacts, const StageOutcome& compression,
                           ExpansionFriction friction) {
  StageInput input;
  input.u_start = compression.u_end;
  input.base_impulse.setZero(contacts.u_pre.size());
  input.mu = stage_friction(contacts, input.u_start);
  input.cone_offset.resize(static_cast<std::size_t>(contacts.count));
  for (int k = 0; k < contacts.count; ++k) {
    const double restitution_impulse =
        contacts.restitution(k) * compression.added_normal_impulse[k];
    input.base_impulse[contacts.rows * k] = restitution_impulse;
    input.cone_offset[k] =
        friction == ExpansionFriction::whole_expansion_impulse ? restitution_impulse : 0.0;
  }
  return input;
}

// ---------------------------------------------------------------------------------------------
// The result

/// The mode a contact ends a stage in: stick without slip, reverse_slide against its initial slip.
PhaseKind stage_mode(const Contacts& contacts, const ContactVector& u_end, int k) {
  if (!contacts.slips(u_end, k)) return PhaseKind::stick;
  const int row = contacts.rows * k + 1;
  const double along_initial_slip =
      u_end.segment(row, contacts.rows - 1).dot(contacts.u_pre.segment(row, contacts.rows - 1));
  return along_initial_slip < 0.0 ? PhaseKind::reverse_slide : PhaseKind::slide;
}

void record_phases(const Contacts& contacts, const StageOutcome& compression,
                   const StageOutcome& expansion, ImpactResult& result) {
  for (int k = 0; k < contacts.count; ++k) {
    const int row = contacts.rows * k;
    const double compression_end = compression.impulse[row];
    const double end = compression_end + expansion.impulse[row];
    if (compression_end > 0.0 && result.phases.size() < kMaxPhases) {
      result.phases.push_back(Phase{stage_mode(contacts, compression.u_end, k), Stage::compression,
                                    0.0, compression_end, k});
    }
    if (end > compression_end && result.phases.size() < kMaxPhases) {
      result.phases.push_back(Phase{stage_mode(contacts, expansion.u_end, k), Stage::restitution,
                                    compression_end, end, k});
    }
  }
}

/// Works along the straight impulse path of each stage: W = Σ_rows Γ_stage (u_start + u_end)/2,
/// split into normal and tangential rows; the normal ones also per contact for Stronge's test.
void record_energy(const Contacts& contacts, const StageOutcome& compression,
                   const StageOutcome& expansion, ImpactResult& result) {
  result.normal_work = 0.0;
  result.tangential_work = 0.0;
  double compression_work = 0.0;
  double restitution_work = 0.0;
  double owed = 0.0;  // −Σ e_k² W_nc,k
  for (int k = 0; k < contacts.count; ++k) {
    for (int i = contacts.rows * k; i < contacts.rows * (k + 1); ++i) {
      const double in_compression =
          compression.impulse[i] * 0.5 * (contacts.u_pre[i] + compression.u_end[i]);
      const double in_expansion =
          expansion.impulse[i] * 0.5 * (compression.u_end[i] + expansion.u_end[i]);
      if (i == contacts.rows * k) {
        result.normal_work += in_compression + in_expansion;
        compression_work += in_compression;
        restitution_work += in_expansion;
        owed -= contacts.restitution(k) * contacts.restitution(k) * in_compression;
      } else {
        result.tangential_work += in_compression + in_expansion;
      }
    }
  }
  const double work_of_impulse = result.impulse.dot(contacts.u_pre + contacts.round_off);
  ContactVector velocity_change(result.impulse.size());
  velocity_change.noalias() = contacts.D * result.impulse;  // in place, not an Eigen temporary
  result.delta_T = work_of_impulse + 0.5 * result.impulse.dot(velocity_change);
  if (result.delta_T > kEnergyGainTolerance * std::abs(work_of_impulse)) {
    result.flags.set(ImpactFlag::energy_gain);
  }
  if (std::abs(restitution_work - owed) >
      kNormalDissipationTolerance * std::abs(compression_work)) {
    result.flags.set(ImpactFlag::nonphysical_normal_dissipation);
  }
}

/// slip_reversal_ignored: a contact that slides at the end of a stage against the slip it had at
/// the stage's start (u_t,start · u_t,end < 0) had its slip reverse within the stage, but the LCP
/// set all the stage's friction against the final slip. That friction then does positive work
/// over the first part of the stage, which the straight-path W_t shows.
void flag_ignored_reversals(const Contacts& contacts, const StageOutcome& compression,
                            const StageOutcome& expansion, ImpactResult& result) {
  const auto reversed = [&contacts](const ContactVector& from, const StageOutcome& stage, int k) {
    const int row = contacts.rows * k + 1;
    const auto start = from.segment(row, contacts.rows - 1);
    const auto end = stage.u_end.segment(row, contacts.rows - 1);
    return stage.slip[k] > 0.0 && stage.mu[k] > 0.0 && start.dot(end) < 0.0;
  };
  for (int k = 0; k < contacts.count; ++k) {
    if (reversed(contacts.u_pre, compression, k) || reversed(compression.u_end, expansion, k)) {
      result.flags.set(ImpactFlag::slip_reversal_ignored);
    }
  }
}

void check_options(const LcpLawOptions& options) {
  const int p = options.friction_edges;
  if (p < 4 || p > kMaxFrictionEdges || p % 2 != 0) {
    throw std::invalid_argument("lcp law: friction_edges = " + std::to_string(p) +
                                " must be even and in [4, " + std::to_string(kMaxFrictionEdges) +
                                "]");
  }
}

/// Both stages of `contacts`' impact into `impact`; false when a stage's LCP found no solution.
bool solve_stages(const Contacts& contacts, const LcpLawOptions& options, LcpImpact& impact) {
  ImpactResult& result = impact.result;
  const StageOutcome compression = solve_stage(contacts, compression_input(contacts), options.lemke,
                                               impact.pivots, impact.lcps_solved);
  if (!compression.solved) return false;
  const StageOutcome expansion =
      solve_stage(contacts, expansion_input(contacts, compression, options.expansion_friction),
                  options.lemke, impact.pivots, impact.lcps_solved);
  if (!expansion.solved) return false;

  result.status = ImpactStatus::solved;
  result.type = ImpactType::multi_contact;
  result.impulse = compression.impulse + expansion.impulse;
  result.u_post = expansion.u_end + contacts.round_off;  // u⁺ = u⁻ + DΓ for the u⁻ given
  record_phases(contacts, compression, expansion, result);
  record_energy(contacts, compression, expansion, result);
  flag_ignored_reversals(contacts, compression, expansion, result);

  impact.compression_impulse = compression.impulse;
  impact.compression_velocity = compression.u_end;
  impact.expansion_impulse = expansion.impulse;
  impact.additional_normal_impulse = expansion.added_normal_impulse;
  impact.compression_friction = compression.mu;
  impact.expansion_friction = expansion.mu;
  impact.compression_slip = compression.slip;
  impact.expansion_slip = expansion.slip;
  return true;
}

}  // namespace

LcpImpact solve_lcp_stages(const ImpactProblem& problem, const LcpLawOptions& options) {
  check_options(options);
  LcpImpact impact;
  Contacts contacts;
  if (!read_contacts(problem, options, contacts, impact.result)) return impact;
  if (solve_stages(contacts, options, impact)) return impact;
  // A singular D whose null space is only almost exact: two corners of one block on one face
  // have the same tangent row of D up to the block's tilt (stack:41 of the multibody campaign, a
  // block wedged between two others: rows equal to 4e-9 relative, smallest eigenvalue 1e-15 of
  // the largest). Lemke's path on such an LCP ended on a ray that exact arithmetic would not
  // take (Anitescu and Potra prove these LCPs solvable). D is known only to round-off, and is
  // accepted as positive semidefinite down to −kSymmetryTolerance of its scale; the problem is
  // solved again with D + δ I, δ = kSingularRegularization s_D, positive definite, whose answer
  // differs from any exact one by δ Γ in u⁺ (1e-12 of the velocity scale).
  contacts.D.diagonal().array() += kSingularRegularization * contacts.inverse_mass_scale;
  if (solve_stages(contacts, options, impact)) return impact;
  impact.result.status = ImpactStatus::no_solution;
  impact.result.type = ImpactType::multi_contact;
  return impact;
}

ImpactResult solve_lcp(const ImpactProblem& problem, const LcpLawOptions& options) {
  check_options(options);  // a caller's mistake, not a property of the problem: it throws
  return guarded_law([&] { return solve_lcp_stages(problem, options).result; });
}

ImpactResult solve_lcp(const ImpactProblem& problem) { return solve_lcp(problem, LcpLawOptions{}); }

}  // namespace routh
