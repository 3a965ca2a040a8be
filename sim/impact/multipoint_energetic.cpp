#include "sim/impact/multipoint_energetic.hpp"
#include "sim/impact/law_guard.hpp"
#include "sim/impact/round_off_velocity.hpp"
#include "sim/static_friction.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>

#include "sim/impact/routh_incremental.hpp"

namespace routh {

namespace {

// The rate system of hypothesis 3 has 2|A| + 1 unknowns: (g_n, g_t) per active contact and φ'.
constexpr int kMaxRateUnknowns = 2 * kMultipointEnergeticMaxContacts + 1;
using RateMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                 kMaxRateUnknowns, kMaxRateUnknowns>;
using RateVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxRateUnknowns, 1>;
// Contact-space rows of at most kMultipointEnergeticMaxContacts contacts, in place: the law's own
// capacity, so plain Eigen types that its decompositions take.
constexpr int kMaxRows = 2 * kMultipointEnergeticMaxContacts;
using RowMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxRows, kMaxRows>;
using RowVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxRows, 1>;

// Pivots below this fraction of the largest count as zero: two sticking corners of one rigid body
// make the system singular exactly, up to the round-off of forming D (~1e-16).
constexpr double kRankThreshold = 1e-10;
// A rate system whose least-squares residual exceeds this fraction of its terms has no solution.
constexpr double kResidualTolerance = 1e-9;
// Rates are per unit total normal impulse (Σ g_n = 1), so they are dimensionless and O(1):
// g_n,k below −kPullTolerance pulls; the cone and slip tests allow the same relative slack.
constexpr double kPullTolerance = 1e-12;
constexpr double kConeTolerance = 1e-12;
constexpr double kSlipTolerance = 1e-12;
// u_n⁺ below −kPenetrationTolerance times the velocity scale penetrates: u⁺ = u⁻ + DΓ is summed
// phase by phase, each term of size |u⁻| or |D||Γ|.
constexpr double kPenetrationTolerance = 1e-10;
// As in planar_contact.hpp: ΔT above this fraction of |Γᵀu⁻| is a real gain, not round-off.
constexpr double kEnergyGainTolerance = 1e-12;
constexpr double kNormalDissipationTolerance = 1e-9;

double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

using ContactMask = std::uint32_t;
static_assert(kMultipointEnergeticMaxContacts <= 32, "active sets are bit masks");
constexpr bool is_active(ContactMask mask, int k) { return ((mask >> k) & 1u) != 0; }

/// The problem as the law reads it: D symmetrised, round-off velocities set to zero, approach
/// speeds w_k = max(−u_n,k⁻, 0).
struct MultiContact {
  int count = 0;
  RowMatrix D;
  RowVector u_pre;      ///< u⁻ with round-off entries exactly zero [m/s]
  RowVector round_off;  ///< the given u⁻ minus `u_pre` [m/s]
  std::array<double, kMultipointEnergeticMaxContacts> approach_speed{};  ///< w_k [m/s]
  const ContactParameterList* parameters = nullptr;
  double stick_friction(int k) const {
    const auto& p = (*parameters)[k];
    return std::max(p.static_friction, p.kinetic_friction);
  }
  double kinetic_friction(int k) const { return (*parameters)[k].kinetic_friction; }
};

/// The friction mode of one active contact in the current phase.
struct ContactMode {
  PhaseKind kind = PhaseKind::stick;
  double slip_direction = 0.0;  ///< σ while sliding, 0 while sticking
  bool from_rest = false;       ///< slides from zero slip: its slip must grow (hypothesis 4)
};

/// Where the impact stands, for one active set, after the total normal impulse P.
struct ImpactState {
  RowVector impulse;  ///< Γ [N s]
  RowVector u;        ///< u = u⁻ + DΓ [m/s]
  double phi = 0.0;   ///< progress along the ray of hypothesis 2 (1 = end of compression)
  double total_normal_impulse = 0.0;  ///< P [N s]
  Stage stage = Stage::compression;
  std::array<ContactMode, kMultipointEnergeticMaxContacts> modes{};
  std::array<double, kMultipointEnergeticMaxContacts>
      last_slip_direction{};  ///< σ of the latest slide, 0 if none
  std::array<double, kMultipointEnergeticMaxContacts> normal_work{};       ///< W_n,k [J]
  std::array<double, kMultipointEnergeticMaxContacts> tangential_work{};   ///< W_t,k [J]
  std::array<double, kMultipointEnergeticMaxContacts> compression_work{};  ///< W_nc,k [J]
  std::array<int, kMultipointEnergeticMaxContacts> last_phase{};  ///< index in `phases`, −1 if none
  PhaseTrace phases;
  bool phases_truncated = false;  ///< a phase did not fit in `phases`

  void start(const MultiContact& problem) {
    *this = ImpactState{};
    impulse.setZero(2 * problem.count);
    u = problem.u_pre;
    last_phase.fill(-1);
  }
};

/// Rates of one phase: dΓ/dP = g, du/dP = D g, and φ' = dφ/dP.
struct PhaseRates {
  RowVector impulse_rate;
  RowVector velocity_rate;
  double phi_rate = 0.0;
};

/// Hypothesis 4 for a statically indeterminate set. Sticking contacts of one rigid body (a block
/// landing flat on two corners: their tangential rows of D coincide) leave the rate system
/// singular, and its solutions x + K z (K a basis of B's kernel) differ only in how the sticking
/// impulse is shared between them. The minimum-norm share can leave one corner's cone while
/// another share sticks both; as at acceleration level (static_friction.hpp), the set sticks when
/// some share lies inside every cone, so the share is chosen there: the one that keeps every cone
/// with the largest margin relative to its load, and every g_n ≥ 0. When no share sticks the set,
/// the per-contact cone test that follows finds the contact that must slide.
void distribute_sticking_impulse(const MultiContact& problem, const ImpactState& state,
                                 const std::array<int, kMultipointEnergeticMaxContacts>& index,
                                 int m, const RateMatrix& B, RateVector& x) {
  const Eigen::FullPivLU<RateMatrix> lu(B);
  const RateMatrix kernel = lu.kernel();
  const auto d = kernel.cols();
  if (d == 0 || d > kMaxIndeterminacy) return;
  RowVector particular = x.head(2 * m);
  const RowMatrix null_basis = kernel.topRows(2 * m);
  SetContacts contacts;
  for (int i = 0; i < m; ++i) {
    const int k = index[i];
    const bool sticks = state.modes[k].kind == PhaseKind::stick;
    contacts.push_back({2 * i, sticks ? 2 * i + 1 : -1, problem.stick_friction(k)});
  }
  StaticFrictionDistribution share;
  distribute_static_friction(particular, null_basis, contacts, share);
  if (!std::isfinite(share.stick_reserve)) return;  // some g_n ≤ 0: the pull test decides
  // z from the shared impulses, then φ' moves with the same kernel combination
  const Eigen::ColPivHouseholderQR<RowMatrix> least_squares(null_basis);
  const RowVector z = least_squares.solve(RowVector(share.forces - particular));
  x += kernel * z;
  // the share keeps every g_n ≥ 0; a vertex with g_n = 0 leaves round-off of either sign there
  for (int i = 0; i < m; ++i) x[2 * i] = std::max(x[2 * i], 0.0);
}

/// Solves hypothesis 3's linear system for the current modes (least squares when it is
/// singular). Returns false when the system is inconsistent: then `rates` holds the least-squares
/// rates and `slip_tendency[k]` the residual (D g)_t,k of each sticking contact k, the slip that
/// sticking everywhere would have to allow. `rates.impulse_rate` is not finite when even that
/// failed.
bool solve_rates(const MultiContact& problem, ContactMask active, const ImpactState& state,
                 PhaseRates& rates,
                 std::array<double, kMultipointEnergeticMaxContacts>& slip_tendency) {
  std::array<int, kMultipointEnergeticMaxContacts> index{};
  int m = 0;
  for (int k = 0; k < problem.count; ++k) {
    if (is_active(active, k)) index[m++] = k;
  }
  const int n = 2 * m + 1;
  RateMatrix B = RateMatrix::Zero(n, n);
  RateVector rhs = RateVector::Zero(n);
  for (int i = 0; i < m; ++i) {
    const int k = index[i];
    for (int j = 0; j < m; ++j) {
      const int l = index[j];
      B(2 * i, 2 * j) = problem.D(2 * k, 2 * l);
      B(2 * i, 2 * j + 1) = problem.D(2 * k, 2 * l + 1);
    }
    B(2 * i, 2 * m) = -problem.approach_speed[k];
    const ContactMode& mode = state.modes[k];
    if (mode.kind == PhaseKind::stick) {
      for (int j = 0; j < m; ++j) {
        const int l = index[j];
        B(2 * i + 1, 2 * j) = problem.D(2 * k + 1, 2 * l);
        B(2 * i + 1, 2 * j + 1) = problem.D(2 * k + 1, 2 * l + 1);
      }
    } else {
      B(2 * i + 1, 2 * i + 1) = 1.0;
      B(2 * i + 1, 2 * i) = problem.kinetic_friction(k) * mode.slip_direction;
    }
    B(2 * m, 2 * i) = 1.0;
  }
  rhs[2 * m] = 1.0;

  Eigen::CompleteOrthogonalDecomposition<RateMatrix> decomposition(n, n);
  decomposition.setThreshold(kRankThreshold);
  decomposition.compute(B);
  RateVector x = decomposition.solve(rhs);
  // one step of iterative refinement: the rates then match closed forms (one contact: g_t =
  // −c/b) to a few ulps even when D is strongly coupled
  x += decomposition.solve(RateVector(rhs - B * x));

  if (decomposition.rank() < n) distribute_sticking_impulse(problem, state, index, m, B, x);

  rates.impulse_rate.setZero(2 * problem.count);
  for (int i = 0; i < m; ++i) {
    const int k = index[i];
    const ContactMode& mode = state.modes[k];
    rates.impulse_rate[2 * k] = x[2 * i];
    // sliding friction is exactly −μd σ times the normal rate (Γ_t = 0 exactly when μd = 0)
    rates.impulse_rate[2 * k + 1] =
        mode.kind == PhaseKind::stick
            ? x[2 * i + 1]
            : -problem.kinetic_friction(k) * mode.slip_direction * x[2 * i];
  }
  rates.phi_rate = x[2 * m];
  rates.velocity_rate = problem.D * rates.impulse_rate;
  if (!x.allFinite()) return false;

  // consistent when every equation holds to round-off of its own size, |row| |x| + |rhs|
  const RateVector residual = B * x - rhs;
  const double x_norm = x.norm();
  bool consistent = true;
  for (int i = 0; i < n; ++i) {
    consistent =
        consistent &&
        std::abs(residual[i]) <= kResidualTolerance * (B.row(i).norm() * x_norm + std::abs(rhs[i]));
  }
  for (int i = 0; i < m; ++i) {
    const int k = index[i];
    if (state.modes[k].kind != PhaseKind::stick) continue;
    slip_tendency[k] = rates.velocity_rate[2 * k + 1];
    rates.velocity_rate[2 * k + 1] = 0.0;  // exactly no slip, as the consistency check allows
  }
  return consistent;
}

enum class PhaseOutcome { ok, pulls, no_solution };

/// Decides every active contact's friction mode at the start of a phase (hypothesis 4) and the
/// rates that go with it. `pulling` receives the most pulling contact when the outcome is pulls.
PhaseOutcome choose_modes(const MultiContact& problem, ContactMask active, ImpactState& state,
                          PhaseRates& rates, int& pulling) {
  pulling = -1;
  int sticking = 0;
  for (int k = 0; k < problem.count; ++k) {
    if (!is_active(active, k)) continue;
    ContactMode& mode = state.modes[k];
    const double slip = state.u[2 * k + 1];
    if (slip != 0.0) {
      const double sigma = sign(slip);
      // a slide that goes on keeps its kind; one that starts here is a (reverse) slide
      if (mode.kind == PhaseKind::stick || mode.slip_direction != sigma) {
        mode.kind =
            state.last_slip_direction[k] == -sigma ? PhaseKind::reverse_slide : PhaseKind::slide;
      }
      mode.slip_direction = sigma;
      mode.from_rest = false;
    } else {
      mode = ContactMode{};
      ++sticking;
    }
  }
  // each round turns at least one sticking contact into a sliding one
  std::array<double, kMultipointEnergeticMaxContacts> slip_tendency{};
  bool settled = false;
  for (int round = 0; round <= sticking && !settled; ++round) {
    const bool consistent = solve_rates(problem, active, state, rates, slip_tendency);
    if (!rates.impulse_rate.allFinite()) return PhaseOutcome::no_solution;
    int to_slide = -1;
    double sigma = 0.0;
    if (!consistent) {
      // the ray of hypothesis 2 and the sticking contacts ask more than the bodies' freedom
      // allows (D singular: several contacts on one rigid body). The sticking contact whose
      // slip the least-squares rates leave largest cannot stick: it slides the way it tends to.
      double largest = 0.0;
      for (int k = 0; k < problem.count; ++k) {
        if (!is_active(active, k) || state.modes[k].kind != PhaseKind::stick) continue;
        if (std::abs(slip_tendency[k]) > largest) {
          largest = std::abs(slip_tendency[k]);
          to_slide = k;
        }
      }
      if (to_slide < 0) return PhaseOutcome::no_solution;
      sigma = sign(slip_tendency[to_slide]);
    } else {
      // a sticking contact whose stick impulse leaves the cone slides, its friction saturated in
      // the direction it pushed; the one furthest outside first
      double worst = 0.0;
      for (int k = 0; k < problem.count; ++k) {
        if (!is_active(active, k) || state.modes[k].kind != PhaseKind::stick) continue;
        const double g_n = rates.impulse_rate[2 * k];
        const double g_t = rates.impulse_rate[2 * k + 1];
        // (a contact that would pull to stick may push once it slides: the pull test waits)
        const double excess = std::abs(g_t) - problem.stick_friction(k) * g_n -
                              kConeTolerance * (std::abs(g_n) + std::abs(g_t));
        if (excess > worst && g_t != 0.0) {
          worst = excess;
          to_slide = k;
          sigma = -sign(g_t);
        }
      }
      settled = to_slide < 0;
      if (settled) break;
    }
    const PhaseKind kind =
        state.last_slip_direction[to_slide] == -sigma ? PhaseKind::reverse_slide : PhaseKind::slide;
    state.modes[to_slide] = ContactMode{kind, sigma, true};
  }
  if (!settled) return PhaseOutcome::no_solution;

  // Some g_n,k < 0: no orientation of the phase pushes at every contact. The contact to release
  // is the one that pulls while compression progresses (φ' > 0); with Σ g_n = 1 and φ' < 0 that
  // is the contact pushing hardest. (φ' < 0 with every g_n ≥ 0 is legitimate: friction can make
  // the bodies approach faster while they are pushed apart, paper 004's a − μd σ c < 0.)
  bool pulls = false;
  for (int k = 0; k < problem.count; ++k) {
    pulls = pulls || (is_active(active, k) && rates.impulse_rate[2 * k] < -kPullTolerance);
  }
  if (pulls) {
    const double orientation = rates.phi_rate > 0.0 ? 1.0 : -1.0;
    double most_pulling = 0.0;
    for (int k = 0; k < problem.count; ++k) {
      const double push = orientation * rates.impulse_rate[2 * k];
      if (is_active(active, k) && push < most_pulling) {
        most_pulling = push;
        pulling = k;
      }
    }
    return pulling >= 0 ? PhaseOutcome::pulls : PhaseOutcome::no_solution;
  }

  const double slip_scale = problem.D.cwiseAbs().maxCoeff();
  for (int k = 0; k < problem.count; ++k) {
    if (!is_active(active, k)) continue;
    const ContactMode& mode = state.modes[k];
    if (mode.kind == PhaseKind::stick) continue;
    state.last_slip_direction[k] = mode.slip_direction;
    // a slide started from rest must open the slip it assumed (not needed without friction)
    if (mode.from_rest && problem.kinetic_friction(k) > 0.0 &&
        mode.slip_direction * rates.velocity_rate[2 * k + 1] < -kSlipTolerance * slip_scale) {
      return PhaseOutcome::no_solution;
    }
  }
  return PhaseOutcome::ok;
}

/// Appends (or extends) contact k's entry in the trace; the trace stops at kMaxPhases, and the
/// result says so (ImpactFlag::phase_trace_truncated).
void record_phase(ImpactState& state, int k, double from, double to) {
  if (!(to > from)) return;
  const PhaseKind kind = state.modes[k].kind;
  const int last = state.last_phase[k];
  if (last >= 0) {
    Phase& phase = state.phases[last];
    if (phase.kind == kind && phase.stage == state.stage && phase.normal_impulse_to == from) {
      phase.normal_impulse_to = to;
      return;
    }
  }
  if (state.phases.size() == state.phases.capacity()) {
    state.phases_truncated = true;
    return;
  }
  state.phases.push_back(Phase{kind, state.stage, from, to, k});
  state.last_phase[k] = static_cast<int>(state.phases.size()) - 1;
}

/// Moves the state along the phase's rates by `step` total normal impulse.
void advance(const MultiContact& problem, ContactMask active, const PhaseRates& rates, double step,
             ImpactState& state) {
  for (int k = 0; k < problem.count; ++k) {
    if (!is_active(active, k)) continue;
    const double g_n = rates.impulse_rate[2 * k];
    const double g_t = rates.impulse_rate[2 * k + 1];
    // exact integrals of the linear velocities over the phase (paper 004 eqs. 28, 30)
    const double mean_u_n = state.u[2 * k] + 0.5 * rates.velocity_rate[2 * k] * step;
    const double mean_u_t = state.u[2 * k + 1] + 0.5 * rates.velocity_rate[2 * k + 1] * step;
    state.normal_work[k] += mean_u_n * g_n * step;
    state.tangential_work[k] += mean_u_t * g_t * step;
    record_phase(state, k, state.impulse[2 * k], state.impulse[2 * k] + g_n * step);
  }
  state.impulse += rates.impulse_rate * step;
  state.u += rates.velocity_rate * step;
  state.phi += rates.phi_rate * step;
  state.total_normal_impulse += step;
}

/// Normal-impulse increment to the next slip halt of a sliding contact, or ∞.
double impulse_to_slip_halt(ContactMask active, const ImpactState& state, const PhaseRates& rates,
                            int k) {
  if (!is_active(active, k) || state.modes[k].kind == PhaseKind::stick) return kNeverInImpulse;
  const double slip = state.u[2 * k + 1];
  const double slip_rate = rates.velocity_rate[2 * k + 1];
  return slip * slip_rate < 0.0 ? -slip / slip_rate : kNeverInImpulse;
}

/// Restitution work still owed, −Σ e_k² W_nc,k − W_nR [J] (hypothesis 5).
double restitution_work_remaining(const MultiContact& problem, const ImpactState& state) {
  double owed = 0.0;
  double done = 0.0;
  for (int k = 0; k < problem.count; ++k) {
    const double e = (*problem.parameters)[k].restitution;
    owed -= e * e * state.compression_work[k];
    done += state.normal_work[k] - state.compression_work[k];
  }
  return owed - done;
}

/// Total-normal-impulse increment after which the restitution work owed is returned, if the
/// phase went on; ∞ if it never is. W(s) = A s + ½ B s² within the phase.
double impulse_to_impact_end(const MultiContact& problem, ContactMask active,
                             const ImpactState& state, const PhaseRates& rates) {
  const double remaining = restitution_work_remaining(problem, state);
  if (remaining <= 0.0) return 0.0;
  double A = 0.0;
  double B = 0.0;
  for (int k = 0; k < problem.count; ++k) {
    if (!is_active(active, k)) continue;
    A += state.u[2 * k] * rates.impulse_rate[2 * k];
    B += rates.velocity_rate[2 * k] * rates.impulse_rate[2 * k];
  }
  const double discriminant = A * A + 2.0 * B * remaining;
  if (discriminant < 0.0) return kNeverInImpulse;
  // the first root of ½ B s² + A s − R = 0, written without cancellation
  const double denominator = A + std::sqrt(discriminant);
  return denominator > 0.0 ? 2.0 * remaining / denominator : kNeverInImpulse;
}

void enter_restitution(const MultiContact& problem, ContactMask active, ImpactState& state) {
  state.stage = Stage::restitution;
  state.phi = 1.0;
  for (int k = 0; k < problem.count; ++k) {
    if (!is_active(active, k)) continue;
    if (problem.approach_speed[k] > 0.0) state.u[2 * k] = 0.0;  // exactly on the ray's end
    state.compression_work[k] = state.normal_work[k];
  }
}

struct RoundOutcome {
  enum class Kind { solved, pulls, no_solution } kind = Kind::no_solution;
  int contact = -1;
};

/// Follows the impact with a fixed active set from the start to its end (hypotheses 2–6). An
/// active contact that separates at first (u_n⁻ > 0) engages only when its normal velocity
/// reaches zero, and is then held there (w_k = 0).
RoundOutcome follow_impact(const MultiContact& problem, ContactMask active, ImpactState& state) {
  state.start(problem);
  ContactMask engaged = 0;
  bool approaching = false;
  for (int k = 0; k < problem.count; ++k) {
    if (!is_active(active, k)) continue;
    if (problem.u_pre[2 * k] <= 0.0) engaged |= ContactMask{1} << k;
    approaching = approaching || problem.approach_speed[k] > 0.0;
  }
  if (!approaching) return {RoundOutcome::Kind::solved, -1};  // nothing active closes: Γ = 0

  const int max_phases = 8 + 8 * problem.count;
  PhaseRates rates;
  for (int phase = 0; phase < max_phases; ++phase) {
    int pulling = -1;
    switch (choose_modes(problem, engaged, state, rates, pulling)) {
      case PhaseOutcome::pulls: return {RoundOutcome::Kind::pulls, pulling};
      case PhaseOutcome::no_solution: return {};
      case PhaseOutcome::ok: break;
    }
    const double so_far = state.total_normal_impulse;
    std::array<double, kMultipointEnergeticMaxContacts> to_halt{};
    std::array<double, kMultipointEnergeticMaxContacts> to_join{};
    double first_halt = kNeverInImpulse;
    for (int k = 0; k < problem.count; ++k) {
      to_halt[k] = impulse_to_slip_halt(engaged, state, rates, k);
      to_join[k] = kNeverInImpulse;
      const double u_n = state.u[2 * k];
      const double rate = rates.velocity_rate[2 * k];
      if (is_active(active, k) && !is_active(engaged, k) && u_n > 0.0 && rate < 0.0) {
        to_join[k] = -u_n / rate;
      }
      first_halt = std::min({first_halt, to_halt[k], to_join[k]});
    }
    // every slip halt and every engagement that coincides with the event taken happens exactly
    const auto take_event = [&](double step) {
      advance(problem, engaged, rates, step, state);
      for (int k = 0; k < problem.count; ++k) {
        if (to_halt[k] < kNeverInImpulse && no_later_than(to_halt[k], step, so_far)) {
          state.u[2 * k + 1] = 0.0;
        }
        if (to_join[k] < kNeverInImpulse && no_later_than(to_join[k], step, so_far)) {
          state.u[2 * k] = 0.0;
          engaged |= ContactMask{1} << k;
        }
      }
    };

    if (state.stage == Stage::compression) {
      const double to_compression_end =
          rates.phi_rate > 0.0 ? (1.0 - state.phi) / rates.phi_rate : kNeverInImpulse;
      if (!no_later_than(to_compression_end, first_halt, so_far)) {
        if (!(first_halt < kNeverInImpulse)) return {};  // stalled
        take_event(first_halt);
        continue;
      }
      take_event(to_compression_end);
      enter_restitution(problem, engaged, state);
      continue;
    }
    // restitution: φ falling back to 1 would close the active contacts again (not modelled)
    const double to_closing =
        rates.phi_rate < 0.0 ? (state.phi - 1.0) / -rates.phi_rate : kNeverInImpulse;
    const double horizon = std::min(first_halt, to_closing);
    const double to_end = std::max(0.0, impulse_to_impact_end(problem, engaged, state, rates));
    if (no_later_than(to_end, horizon, so_far)) {
      take_event(to_end);
      return {RoundOutcome::Kind::solved, -1};
    }
    if (!(first_halt <= to_closing) || !(first_halt < kNeverInImpulse)) return {};
    take_event(first_halt);
  }
  return {};
}

/// Reads and checks the problem; false with `result.status` set when the law should stop.
bool read_multi_contact(const ImpactProblem& problem, MultiContact& contacts,
                        ImpactResult& result) {
  const int count = static_cast<int>(problem.contacts.size());
  if (problem.dimension != ContactDimension::planar || count < 1 ||
      count > kMultipointEnergeticMaxContacts || problem.D.rows() != 2 * count ||
      problem.D.cols() != 2 * count || problem.u_pre.size() != 2 * count) {
    result.status = ImpactStatus::unsupported;
    return false;
  }
  contacts.count = count;
  contacts.D = 0.5 * (problem.D + problem.D.transpose());  // symmetric up to round-off
  contacts.parameters = &problem.contacts;
  if (!contacts.D.allFinite() || !problem.u_pre.allFinite()) {
    result.status = ImpactStatus::invalid_problem;
    return false;
  }
  // Hypothesis 1: a contact at rest to round-off touches and does not slip; the law picks
  // between consistent answers by the signs of u_n,k⁻ and u_t,k⁻ (round_off_velocity.hpp).
  contacts.u_pre = without_round_off(problem.u_pre, count, 2);
  contacts.round_off = problem.u_pre - contacts.u_pre;
  bool approaching = false;
  for (int k = 0; k < count; ++k) {
    // every contact on its own must be a valid planar contact; D as a whole may be singular
    // (several contacts on one rigid body), which the rate system handles
    const double a = contacts.D(2 * k, 2 * k);
    const double b = contacts.D(2 * k + 1, 2 * k + 1);
    const double c = contacts.D(2 * k, 2 * k + 1);
    if (!(a > 0.0 && b > 0.0 && a * b - c * c > 0.0)) {
      result.status = ImpactStatus::invalid_problem;
      return false;
    }
    contacts.approach_speed[k] = std::max(-contacts.u_pre[2 * k], 0.0);
    approaching = approaching || contacts.u_pre[2 * k] < 0.0;
  }
  if (!approaching) {
    result.status = ImpactStatus::no_impact;
    result.impulse.setZero(2 * count);
    result.u_post = problem.u_pre;
    return false;
  }
  return true;
}

void finish_result(const MultiContact& problem, const ImpactState& state, ImpactResult& result) {
  result.status = ImpactStatus::solved;
  result.type = ImpactType::multi_contact;
  result.impulse = state.impulse;
  result.u_post = state.u + problem.round_off;  // u⁺ = u⁻ + DΓ for the u⁻ given
  result.phases = state.phases;
  if (state.phases_truncated) result.flags.set(ImpactFlag::phase_trace_truncated);
  double compression_work = 0.0;
  double owed = 0.0;
  result.normal_work = 0.0;
  result.tangential_work = 0.0;
  for (int k = 0; k < problem.count; ++k) {
    const double e = (*problem.parameters)[k].restitution;
    result.normal_work += state.normal_work[k];
    result.tangential_work += state.tangential_work[k];
    compression_work += state.compression_work[k];
    owed -= e * e * state.compression_work[k];
  }
  const double work_of_impulse = state.impulse.dot(problem.u_pre + problem.round_off);
  result.delta_T = work_of_impulse + 0.5 * state.impulse.dot(problem.D * state.impulse);
  if (result.delta_T > kEnergyGainTolerance * std::abs(work_of_impulse)) {
    result.flags.set(ImpactFlag::energy_gain);
  }
  const double restitution_work = result.normal_work - compression_work;
  if (std::abs(restitution_work - owed) >
      kNormalDissipationTolerance * std::abs(compression_work)) {
    result.flags.set(ImpactFlag::nonphysical_normal_dissipation);
  }
}

/// The law proper; solve_multipoint_energetic passes its answer through the guard (law_guard.hpp).
/// What following the impact with one active set gave: an answer, or why the set is wrong.
struct SetTrial {
  enum class Kind { solved, pulls, penetrates, fails } kind = Kind::fails;
  int contact = -1;  ///< the contact that pulls, or the deepest released one that penetrates
};

/// Follows the impact with the contacts of `active` (hypotheses 2–5) and checks hypothesis 6 on
/// the answer: every impulse pushes and every released contact ends separating.
SetTrial try_active_set(const MultiContact& contacts, ContactMask active, ImpactState& state) {
  const RoundOutcome outcome = follow_impact(contacts, active, state);
  if (outcome.kind == RoundOutcome::Kind::no_solution) return {};
  if (outcome.kind == RoundOutcome::Kind::pulls) {
    return {SetTrial::Kind::pulls, outcome.contact};
  }
  const double scale = contacts.u_pre.cwiseAbs().maxCoeff() +
                       contacts.D.cwiseAbs().maxCoeff() * state.impulse.cwiseAbs().sum();
  int deepest = -1;
  double depth = -kPenetrationTolerance * scale;
  for (int k = 0; k < contacts.count; ++k) {
    if (!is_active(active, k) && state.u[2 * k] < depth) {
      depth = state.u[2 * k];
      deepest = k;
    }
  }
  if (deepest >= 0) return {SetTrial::Kind::penetrates, deepest};
  // The guarantee u_n,k⁺ ≥ 0 checked on the answer itself, both as summed phase by phase and as
  // u⁻ + DΓ: on rank-deficient or badly scaled D the phase-wise sums can leave an active contact
  // penetrating (robustness campaign, tests/test_law_robustness.cpp); such an answer is none.
  const RowVector u_end = contacts.u_pre + contacts.D * state.impulse;
  for (int k = 0; k < contacts.count; ++k) {
    if (std::min(state.u[2 * k], u_end[2 * k]) < -kPenetrationTolerance * scale) return {};
  }
  return {SetTrial::Kind::solved, -1};
}

/// Hypothesis 6 by iteration: from the touching contacts, release the most pulling one or
/// re-activate the deepest penetrating one until an answer stands, the set cycles, or
/// kMaxActiveSetRounds pass.
bool iterate_active_set(const MultiContact& contacts, ImpactState& state) {
  ContactMask active = 0;
  for (int k = 0; k < contacts.count; ++k) {
    if (contacts.u_pre[2 * k] <= 0.0) active |= ContactMask{1} << k;
  }
  std::array<ContactMask, kMaxActiveSetRounds> visited{};
  for (int round = 0; round < kMaxActiveSetRounds; ++round) {
    if (std::find(visited.begin(), visited.begin() + round, active) != visited.begin() + round) {
      return false;  // the active set cycles
    }
    visited[round] = active;
    const SetTrial trial = try_active_set(contacts, active, state);
    switch (trial.kind) {
      case SetTrial::Kind::solved: return true;
      case SetTrial::Kind::pulls: active &= ~(ContactMask{1} << trial.contact); break;
      case SetTrial::Kind::penetrates: active |= ContactMask{1} << trial.contact; break;
      case SetTrial::Kind::fails: return false;
    }
  }
  return false;
}

/// Hypothesis 6 by exhaustion, when the iteration found nothing: every non-empty active set of
/// at most kMaxExhaustiveContacts contacts, the largest first (ties by contact order); the first
/// that stands is the answer. If none stands, the formulation has no solution for this problem.
bool search_active_sets(const MultiContact& contacts, ImpactState& state) {
  if (contacts.count > kMaxExhaustiveContacts) return false;
  const ContactMask all = (ContactMask{1} << contacts.count) - 1;
  for (int size = contacts.count; size >= 1; --size) {
    for (ContactMask active = 1; active <= all; ++active) {
      if (std::popcount(active) != size) continue;
      if (try_active_set(contacts, active, state).kind == SetTrial::Kind::solved) return true;
    }
  }
  return false;
}

ImpactResult multipoint_energetic_impact(const ImpactProblem& problem) {
  ImpactResult result;
  MultiContact contacts;
  if (!read_multi_contact(problem, contacts, result)) return result;
  ImpactState state;
  if (iterate_active_set(contacts, state) || search_active_sets(contacts, state)) {
    finish_result(contacts, state, result);
    return result;
  }
  result.status = ImpactStatus::no_solution;
  result.type = ImpactType::multi_contact;
  return result;
}

}  // namespace

ImpactResult solve_multipoint_energetic(const ImpactProblem& problem) {
  return guarded_law([&] { return multipoint_energetic_impact(problem); });
}

}  // namespace routh
