// Property tests of the planar single-contact impact laws (newton, newton_routh, poisson,
// energetic) over thousands of random problems, and of the multi-contact `lcp` law on single
// planar contacts and on several planar or spatial contacts (last section).
//
// Each TEST_CASE draws kProblems problems from a fixed-seed generator (so a failure is
// reproducible) and checks one family of properties that must hold for *every* problem:
// energy bounds (Wang & Mason 1992; Stronge 1990), the restitution hypotheses (paper 004 §4),
// Coulomb's cone along the phase trace (paper 004 §3), the bookkeeping contracts of docs/design.md
// §2–3. On failure doctest prints the problem with 17 digits, enough to paste it into a unit test.
//
// The phase-wise checks do not trust the law's own integration: replay_routh_trace() walks the
// reported phase trace again with its own velocities, computed from D and the friction ratio that
// the phase's kind implies (paper 004 eqs. 8, 13, 19–22), and the tests compare that replay with
// what the law reported.

#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/contact_space.hpp"
#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/lcp.hpp"
#include "support/random_source.hpp"
#include "tests/support/lcp_checks.hpp"

namespace {

using routh::ContactParameters;
using routh::ImpactFlag;
using routh::ImpactProblem;
using routh::ImpactResult;
using routh::ImpactStatus;
using routh::ImpactType;
using routh::Phase;
using routh::PhaseKind;
using routh::Stage;

constexpr int kProblems = 5000;
constexpr std::uint64_t kSeed = 0x5eed'0004'1992ULL;

// Tolerance policy. Every quantity a planar law returns is a short sum of products (at most three
// phases of a few flops each), so its round-off is a small multiple of ε ≈ 2.2e-16 times the
// magnitude of the terms summed, not of the result. kRoundOff = 1e-12 ≈ 4500 ε leaves room for that
// small multiple and nothing else. It is always applied to one of three scales (see Scales):
//   impulse  G = Γ_n + |Γ_t|
//   velocity V = |u_n⁻| + |u_t⁻| + (|a| + 2|c| + |b|) G   — the size of the terms in u⁻ + DΓ
//   energy   E = G V                                      — the size of the terms in Γᵀu⁻ + ½ΓᵀDΓ
// E ≥ ½|Γ_n u_n⁻| (the problem's natural energy scale); it is larger only when D is so strongly
// coupled that DΓ is a small difference of large products, and then that difference's round-off
// really is ε |D| |Γ|.
constexpr double kRoundOff = 1e-12;

constexpr std::array<std::string_view, 4> kAllLaws = {"newton", "newton_routh", "poisson",
                                                      "energetic"};
// The laws built on Routh's incremental method (paper 004 §5; routh_incremental.hpp).
constexpr std::array<std::string_view, 3> kRouthLaws = {"newton_routh", "poisson", "energetic"};

double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

// ---------------------------------------------------------------------------------------------
// Random problems

/// Draws random planar problems covering the corners where impact laws go wrong: strongly coupled
/// D (|c| close to √(ab), condition numbers up to ~1e4), no initial slip, e ∈ {0, 1}, μ = 0,
/// μd = μs, and μs exactly on the stick-stability boundary μc = |c|/b (paper 004 eq. 16).
class ProblemGenerator : public routh::test::RandomSource {
 public:
  explicit ProblemGenerator(std::uint64_t seed = kSeed) : RandomSource(seed) {}

  ImpactProblem next() {
    const auto [a, b, c] = inertia();
    const double u_n = -std::pow(10.0, uniform(-3.0, std::log10(3.0)));  // u_n ∈ [−3, −1e-3]
    double u_t = chance(0.1) ? 0.0 : uniform(-3.0, 3.0);
    const ContactParameters p = parameters(std::abs(c) / b);
    if (chance(0.1)) u_t = slip_halting_near_compression_end(a, b, c, u_n, p.kinetic_friction, u_t);
    return routh::planar_impact_problem(a, b, c, u_n, u_t, p);
  }

  /// Restitution and friction; `critical_friction` μc = |c|/b lets some cases sit exactly on it.
  ContactParameters parameters(double critical_friction) {
    ContactParameters p;
    const double pick_e = uniform(0.0, 1.0);
    p.restitution = pick_e < 0.1 ? 0.0 : (pick_e < 0.2 ? 1.0 : uniform(0.0, 1.0));
    const double pick_mu = uniform(0.0, 1.0);
    if (pick_mu < 0.1) return p;  // frictionless
    p.static_friction =
        pick_mu < 0.15 && critical_friction <= 1.5 ? critical_friction : uniform(0.0, 1.5);
    p.kinetic_friction = chance(0.2) ? p.static_friction : uniform(0.0, p.static_friction);
    return p;
  }

 private:
  struct Inertia {
    double a, b, c;
  };

  // D = [[a, c], [c, b]], symmetric positive definite and exactly symmetric (the laws demand it),
  // with an overall scale spanning four decades (light and heavy bodies).
  Inertia inertia() {
    const double scale = std::pow(10.0, uniform(-2.0, 2.0));
    const double pick = uniform(0.0, 1.0);
    if (pick < 0.05) {  // uncoupled, c = 0 exactly (a sphere; a rod hit below its centre)
      return {scale * std::pow(10.0, uniform(-1.0, 1.0)),
              scale * std::pow(10.0, uniform(-1.0, 1.0)), 0.0};
    }
    if (pick < 0.30) {  // strongly coupled: c² = (1 − δ)² ab with δ down to 5e-4
      const double a = scale * std::pow(10.0, uniform(-0.5, 0.5));
      const double b = scale * std::pow(10.0, uniform(-0.5, 0.5));
      const double gap = std::pow(10.0, uniform(-3.3, -1.0));
      return {a, b, (chance(0.5) ? 1.0 : -1.0) * (1.0 - gap) * std::sqrt(a * b)};
    }
    // R(θ) diag(λ1, λ2) R(θ)ᵀ with condition number λ1/λ2 ∈ [1, 1e4]
    const double l1 = scale;
    const double l2 = scale / std::pow(10.0, uniform(0.0, 4.0));
    const double theta = uniform(0.0, M_PI);
    const double cs = std::cos(theta);
    const double sn = std::sin(theta);
    return {l1 * cs * cs + l2 * sn * sn, l1 * sn * sn + l2 * cs * cs, (l1 - l2) * sn * cs};
  }

  // The initial slip for which sliding slip halts at (1 + δ) times the normal impulse that ends
  // compression, δ ∈ {0, ±1e-15, ±1e-12, ±1e-9, ±1e-6}: the events coincide (paper 000 case (ii))
  // or nearly so, where a law's event logic is most fragile. Slide with σ and r = −μd σ ends
  // compression at I_np = −u_n/(a + c r) and halts at I_nh = −u_t/(c + b r) (paper 004 eqs. 31,
  // 33). Returns `otherwise` when no slip direction halts before the end of compression.
  double slip_halting_near_compression_end(double a, double b, double c, double u_n, double mu_d,
                                           double otherwise) {
    constexpr std::array<double, 9> kOffsets = {0.0,  1e-15, -1e-15, 1e-12, -1e-12,
                                                1e-9, -1e-9, 1e-6,   -1e-6};
    const double sigma = chance(0.5) ? 1.0 : -1.0;
    const double r = -mu_d * sigma;
    const double normal_rate = a + c * r;
    const double slip_rate = c + b * r;
    if (!(normal_rate > 0.0 && sigma * slip_rate < 0.0)) return otherwise;
    const double delta = kOffsets[std::uniform_int_distribution<std::size_t>(0, 8)(engine())];
    return -slip_rate * (-u_n / normal_rate) * (1.0 + delta);
  }
};

// ---------------------------------------------------------------------------------------------
// Reading problems and results

struct Planar {  // the scalars of a single planar contact problem
  double a, b, c, u_n, u_t, e, mu_s, mu_d;
};

Planar planar(const ImpactProblem& p) {
  const ContactParameters& k = p.contacts[0];
  return {p.D(0, 0),  p.D(1, 1),     p.D(0, 1),         p.u_pre[0],
          p.u_pre[1], k.restitution, k.static_friction, k.kinetic_friction};
}

/// μc = |c|/b: the friction ratio sticking needs (paper 004 eq. 14).
double critical_friction(const Planar& q) { return std::abs(q.c) / q.b; }

/// The slip direction σ_I of the first sliding phase: the initial slip's, or without initial slip
/// the only direction in which slip can grow, σ = sign(c), since du_t/dΓ_n = c − μd σ b must then
/// have the sign of σ (paper 004 eq. 23). A reverse slide goes the other way (paper 004 §3.3).
double initial_slip_direction(const Planar& q) { return q.u_t != 0.0 ? sign(q.u_t) : sign(q.c); }

std::string describe(const ImpactProblem& p) {
  const Planar q = planar(p);
  std::ostringstream out;
  out.precision(17);
  out << "a = " << q.a << ", b = " << q.b << ", c = " << q.c << ", u_n = " << q.u_n
      << ", u_t = " << q.u_t << ", e = " << q.e << ", mu_s = " << q.mu_s << ", mu_d = " << q.mu_d
      << "  (mu_c = " << critical_friction(q) << ")";
  return out.str();
}

std::string describe(const ImpactResult& r) {
  std::ostringstream out;
  out.precision(17);
  out << routh::to_string(r.status) << ", " << routh::to_string(r.type);
  if (r.impulse.size() == 2) {
    out << ", Gamma = (" << r.impulse[0] << ", " << r.impulse[1] << "), u+ = (" << r.u_post[0]
        << ", " << r.u_post[1] << "), dT = " << r.delta_T << ", W_n = " << r.normal_work
        << ", W_t = " << r.tangential_work;
  }
  for (const Phase& ph : r.phases) {
    out << "\n  " << routh::to_string(ph.kind) << " / " << routh::to_string(ph.stage) << " ["
        << ph.normal_impulse_from << ", " << ph.normal_impulse_to << "]";
  }
  return out.str();
}

std::string status_name(const ImpactResult& r) { return std::string(routh::to_string(r.status)); }

ImpactResult solve(std::string_view law, const ImpactProblem& problem) {
  const routh::LawEntry* entry = routh::find_law(law);
  REQUIRE(entry != nullptr);
  return entry->solve(problem);
}

/// True when the law solved the problem. Every law must solve every random problem, except that
/// conventional newton may have no answer (checked by its own property below).
bool solved(std::string_view law, const ImpactResult& r) {
  if (law == "newton" && r.status == ImpactStatus::no_solution) return false;
  CHECK(status_name(r) == "solved");
  return r.status == ImpactStatus::solved;
}

struct Scales {
  double impulse, velocity, energy;  // G, V, E of the tolerance policy above
};

Scales scales(const ImpactProblem& p, const ImpactResult& r) {
  const Planar q = planar(p);
  const double G = std::abs(r.impulse[0]) + std::abs(r.impulse[1]);
  const double V =
      std::abs(q.u_n) + std::abs(q.u_t) + (std::abs(q.a) + 2.0 * std::abs(q.c) + std::abs(q.b)) * G;
  return {G, V, G * V};
}

// ---------------------------------------------------------------------------------------------
// Independent replay of a Routh phase trace

struct ReplayedPhase {
  Phase phase;
  double ratio;           ///< r = dΓ_t/dΓ_n implied by the kind
  double slip_direction;  ///< σ while sliding, 0 while sticking
  double u_n_start, u_t_start, u_n_end, u_t_end;
};

struct Replay {
  std::vector<ReplayedPhase> phases;
  double tangential_impulse = 0.0;
  double normal_work = 0.0, compression_work = 0.0, restitution_work = 0.0;
  double tangential_work = 0.0;
  double u_n = 0.0, u_t = 0.0;  ///< at the end of the trace
};

/// Walks the trace of a Routh law. In each phase dΓ_t = r dΓ_n with r = −μd σ sliding
/// (paper 004 eq. 8; σ = σ_I for slide, −σ_I for reverse_slide) or r = −c/b sticking (eq. 13), so
/// u is linear in Γ_n with du/dΓ_n = D (1, r)ᵀ and ∫u dΓ over the phase is an exact trapezoid
/// (eqs. 28–30). Nothing is snapped to zero, so the replay shows where the law's events really are.
Replay replay_routh_trace(const ImpactProblem& problem, const ImpactResult& result) {
  const Planar q = planar(problem);
  const double sigma_initial = initial_slip_direction(q);
  Replay out;
  out.u_n = q.u_n;
  out.u_t = q.u_t;
  for (const Phase& phase : result.phases) {
    const double sigma = phase.kind == PhaseKind::slide           ? sigma_initial
                         : phase.kind == PhaseKind::reverse_slide ? -sigma_initial
                                                                  : 0.0;
    const double ratio = phase.kind == PhaseKind::stick ? -q.c / q.b : -q.mu_d * sigma;
    const double dg = phase.normal_impulse_to - phase.normal_impulse_from;
    const double du_n = (q.a + q.c * ratio) * dg;
    const double du_t = (q.c + q.b * ratio) * dg;
    const double normal_work = (out.u_n + 0.5 * du_n) * dg;
    out.phases.push_back({phase, ratio, sigma, out.u_n, out.u_t, out.u_n + du_n, out.u_t + du_t});
    out.normal_work += normal_work;
    (phase.stage == Stage::compression ? out.compression_work : out.restitution_work) +=
        normal_work;
    out.tangential_work += ratio * dg * (out.u_t + 0.5 * du_t);
    out.tangential_impulse += ratio * dg;
    out.u_n += du_n;
    out.u_t += du_t;
  }
  return out;
}

/// Γ_n at the end of compression: the end of the last compression phase.
double compression_impulse(const ImpactResult& r) {
  double end = 0.0;
  for (const Phase& ph : r.phases) {
    if (ph.stage == Stage::compression) end = ph.normal_impulse_to;
  }
  return end;
}

bool is_halt_type(ImpactType type) {
  return type == ImpactType::sticking_in_compression ||
         type == ImpactType::reverse_sliding_in_compression ||
         type == ImpactType::sticking_in_restitution ||
         type == ImpactType::reverse_sliding_in_restitution;
}

}  // namespace

// =============================================================================================
// 1. Energy. Wang & Mason (1992) prove that Routh's method with Poisson's hypothesis never
// creates kinetic energy for a planar contact; Stronge's energetic hypothesis returns only
// e² ≤ 1 of the compression work and friction only dissipates (paper 004 §4, Table 2).
TEST_CASE("property: poisson and energetic never increase kinetic energy") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : {std::string_view("poisson"), std::string_view("energetic")}) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      CHECK(result.delta_T <= kRoundOff * scales(problem, result).energy);
      CHECK_FALSE(result.flags.has(ImpactFlag::energy_gain));
    }
  }
}

// =============================================================================================
// 2. Stronge's energetic hypothesis (paper 004 eq. 26): the normal impulse's restitution work is
// −e² times its compression work. Both works are recomputed from the replayed trace.
TEST_CASE("property: energetic restitution work is exactly -e^2 times compression work") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    const ImpactResult result = solve("energetic", problem);
    INFO("problem #", i, ": ", describe(problem));
    INFO("energetic: ", describe(result));
    if (!solved("energetic", result)) continue;
    const double e = planar(problem).e;
    const double tol = kRoundOff * scales(problem, result).energy;
    const Replay replay = replay_routh_trace(problem, result);
    CAPTURE(replay.compression_work);
    CAPTURE(replay.restitution_work);
    CHECK(replay.compression_work < 0.0);  // the bodies approach during compression
    CHECK(std::abs(replay.restitution_work + e * e * replay.compression_work) <= tol);
    CHECK(std::abs(replay.normal_work - result.normal_work) <= tol);
    CHECK_FALSE(result.flags.has(ImpactFlag::nonphysical_normal_dissipation));
  }
}

// Poisson's hypothesis (paper 000 eq. 5; paper 004 eq. 25): Γ_n = (1 + e) Γ_nc, with Γ_nc read
// off the trace, where the replayed normal velocity must indeed reach zero.
TEST_CASE("property: poisson ends at (1 + e) times the compression impulse") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    const ImpactResult result = solve("poisson", problem);
    INFO("problem #", i, ": ", describe(problem));
    INFO("poisson: ", describe(result));
    if (!solved("poisson", result)) continue;
    const double e = planar(problem).e;
    CHECK(std::abs(result.impulse[0] - (1.0 + e) * compression_impulse(result)) <=
          kRoundOff * scales(problem, result).impulse);
  }
}

// =============================================================================================
// 3. Coulomb friction phase by phase (paper 004 §3; Wang & Mason 1992): a sticking phase needs
// |dΓ_t| ≤ μs dΓ_n and no slip; a sliding phase has |dΓ_t| = μd dΓ_n against a slip that keeps its
// sign for the whole phase (it may reach zero only at the end). Slip that restarts from rest
// (no initial slip, or reversal after a halt) happens only when sticking cannot hold (μs < μc) and
// must grow in the direction the friction ratio assumes.
TEST_CASE("property: every Routh phase lies in the friction cone and opposes the slip") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    const Planar q = planar(problem);
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : kRouthLaws) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      const Scales s = scales(problem, result);
      const double tol_v = kRoundOff * s.velocity;
      const Replay replay = replay_routh_trace(problem, result);
      for (std::size_t k = 0; k < replay.phases.size(); ++k) {
        const ReplayedPhase& ph = replay.phases[k];
        const double dg = ph.phase.normal_impulse_to - ph.phase.normal_impulse_from;
        const double dgt = ph.ratio * dg;
        INFO("phase ", k, ": u_t from ", ph.u_t_start, " to ", ph.u_t_end);
        if (ph.phase.kind == PhaseKind::stick) {
          CHECK(std::abs(dgt) <= q.mu_s * dg + kRoundOff * s.impulse);
          CHECK(std::abs(ph.u_t_start) <= tol_v);
          CHECK(std::abs(ph.u_t_end) <= tol_v);
          continue;
        }
        // Sliding: the replay gives this phase dΓ_t = −μd σ dΓ_n, so |dΓ_t| = μd dΓ_n against σ;
        // that the law used the same increments is checked by the totals below. What remains is
        // that σ really is the slip's sign throughout the phase (u_t is linear in it).
        CHECK(ph.slip_direction != 0.0);
        CHECK(ph.slip_direction * ph.u_t_start >= -tol_v);
        CHECK(ph.slip_direction * ph.u_t_end >= -tol_v);
        // Slip restarts from rest in the first phase without initial slip, or when the kind
        // changes (slide → reverse_slide after a halt).
        const bool from_rest =
            k == 0 ? q.u_t == 0.0 : replay.phases[k - 1].phase.kind != ph.phase.kind;
        if (from_rest) {
          CHECK(std::abs(ph.u_t_start) <= tol_v);
          CHECK(q.mu_s < critical_friction(q));  // sticking would have held otherwise (eq. 16)
          CHECK(ph.slip_direction * (q.c + q.b * ph.ratio) > 0.0);  // the slip grows along σ
        }
      }
      // The replay must land where the law says it did.
      CAPTURE(replay.tangential_impulse);
      CAPTURE(replay.u_n);
      CAPTURE(replay.u_t);
      CHECK(std::abs(replay.tangential_impulse - result.impulse[1]) <= kRoundOff * s.impulse);
      CHECK(std::abs(replay.u_n - result.u_post[0]) <= tol_v);
      CHECK(std::abs(replay.u_t - result.u_post[1]) <= tol_v);
      CHECK(std::abs(replay.normal_work - result.normal_work) <= kRoundOff * s.energy);
      CHECK(std::abs(replay.tangential_work - result.tangential_work) <= kRoundOff * s.energy);
    }
  }
}

// The conventional method (Kane & Levinson §14; paper 000 §6.1) assumes one mode for the whole
// impact: sticking if Γ = D⁻¹((−e u_n⁻, 0) − u⁻) lies in the static cone, otherwise sliding
// against the initial slip with Γ_t = −μd σ Γ_n. It has no answer only when that slide cannot end
// compression, a − μd σ c ≤ 0. A final slip against the assumed one is flagged, not fixed.
//
// With μd ≤ μs that failure cannot happen: a − μd σ c ≤ 0 needs σc > 0 and μd ≥ a/|c|, and then
// the sticking impulse's ratio |Γ_t|/Γ_n = (a|u_t| + |c|Δu_n)/(bΔu_n + |c||u_t|) lies between
// |c|/b and a/|c| ≤ μd ≤ μs, so sticking is accepted first. To reach the no_solution branch every
// fifth problem swaps the coefficients (μd > μs: unusual, diagnose() warns, but allowed).
TEST_CASE(
    "property: conventional newton stays in its cone and fails only when sliding cannot end "
    "compression") {
  ProblemGenerator generator;
  int no_solution = 0;
  for (int i = 0; i < kProblems; ++i) {
    ImpactProblem problem = generator.next();
    if (i % 5 == 0) {
      std::swap(problem.contacts[0].static_friction, problem.contacts[0].kinetic_friction);
    }
    const Planar q = planar(problem);
    const ImpactResult result = solve("newton", problem);
    INFO("problem #", i, ": ", describe(problem));
    INFO("newton: ", describe(result));

    // Sticking throughout, solved here independently of the law's Cramer's rule.
    const Eigen::Matrix2d D{{q.a, q.c}, {q.c, q.b}};
    const Eigen::Vector2d stick = D.ldlt().solve(Eigen::Vector2d(-q.e * q.u_n - q.u_n, -q.u_t));
    const double stick_tol = kRoundOff * stick.lpNorm<1>();
    const bool stick_clearly_fits =
        stick[0] > stick_tol && std::abs(stick[1]) < q.mu_s * stick[0] - stick_tol;
    const bool stick_clearly_fails =
        stick[0] < -stick_tol || std::abs(stick[1]) > q.mu_s * stick[0] + stick_tol;
    const double sigma = initial_slip_direction(q);
    const double slide_normal_rate = q.a - q.mu_d * sigma * q.c;
    CAPTURE(stick);
    CAPTURE(slide_normal_rate);

    if (result.status == ImpactStatus::no_solution) {
      ++no_solution;
      CHECK_FALSE(stick_clearly_fits);
      CHECK(slide_normal_rate <= 0.0);
      continue;
    }
    REQUIRE(status_name(result) == "solved");
    const Scales s = scales(problem, result);
    if (result.type == ImpactType::sticking_throughout) {
      CHECK_FALSE(stick_clearly_fails);
      CHECK(std::abs(result.impulse[1]) <= q.mu_s * result.impulse[0] + kRoundOff * s.impulse);
      CHECK((result.impulse - stick).lpNorm<1>() <= kRoundOff * s.impulse);
      CHECK(std::abs(result.u_post[1]) <= kRoundOff * s.velocity);
      for (const Phase& ph : result.phases) CHECK(ph.kind == PhaseKind::stick);
    } else {
      CHECK(result.type == ImpactType::permanent_sliding);
      CHECK_FALSE(stick_clearly_fits);
      CHECK(slide_normal_rate > 0.0);
      CHECK(std::abs(result.impulse[1] + q.mu_d * sigma * result.impulse[0]) <=
            kRoundOff * s.impulse);
      for (const Phase& ph : result.phases) CHECK(ph.kind == PhaseKind::slide);
      CHECK(result.flags.has(ImpactFlag::slip_reversal_ignored) ==
            (sigma * result.u_post[1] < 0.0));
    }
  }
  MESSAGE("newton: no_solution for " << no_solution << " of " << kProblems << " random problems");
}

// =============================================================================================
// 4. Bookkeeping every law owes (docs/design.md §2–3): Γ_n ≥ 0, u⁺ = u⁻ + DΓ, ΔT = Γᵀu⁻ + ½ΓᵀDΓ,
// and the work–energy identity ΔT = ∫u·dΓ = W_n + W_t. Restitution leaves the bodies separating,
// u_n⁺ ≥ 0. Coulomb friction under Routh's method only dissipates: W_t ≤ 0 (paper 004 eq. 30).
TEST_CASE("property: impulses, velocities and energies are consistent for every law") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : kAllLaws) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      const Scales s = scales(problem, result);
      const routh::ContactVector& gamma = result.impulse;
      const double delta_T = gamma.dot(problem.u_pre) + 0.5 * gamma.dot(problem.D * gamma);

      CHECK(gamma[0] >= 0.0);
      CHECK((result.u_post - problem.u_pre - problem.D * gamma).lpNorm<Eigen::Infinity>() <=
            kRoundOff * s.velocity);
      CHECK(result.u_post[0] >= -kRoundOff * s.velocity);
      CHECK(std::abs(result.delta_T - delta_T) <= kRoundOff * s.energy);
      CHECK(std::abs(result.normal_work + result.tangential_work - result.delta_T) <=
            kRoundOff * s.energy);
      if (law != "newton") CHECK(result.tangential_work <= kRoundOff * s.energy);
    }
  }
}

// =============================================================================================
// 5. Without friction every restitution hypothesis coincides with Newton's (Stronge 1990; paper
// 004 §5: the three definitions agree whenever the friction ratio is constant), the tangential
// impulse vanishes, and the normal motion loses the fraction 1 − e² of its energy:
// ΔT = −½ (1 − e²) (u_n⁻)² / a.
TEST_CASE("property: without friction every law gives u_n+ = -e u_n- and no tangential impulse") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    ImpactProblem problem = generator.next();
    problem.contacts[0].static_friction = 0.0;
    problem.contacts[0].kinetic_friction = 0.0;
    const Planar q = planar(problem);
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : kAllLaws) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      const Scales s = scales(problem, result);
      CHECK(std::abs(result.u_post[0] + q.e * q.u_n) <= kRoundOff * s.velocity);
      CHECK(result.impulse[1] == 0.0);  // r = −0·σ = 0 in every phase: exactly zero, not small
      CHECK(std::abs(result.delta_T + 0.5 * (1.0 - q.e * q.e) * q.u_n * q.u_n / q.a) <=
            kRoundOff * s.energy);
    }
  }
}

// =============================================================================================
// 6. Contact space is exact (docs/design.md §2): the ΔT a law reports from (D, u⁻) is the change of
// ½vᵀMv when its impulse is applied to the generalized velocities, and J v⁺ = u⁺.
TEST_CASE(
    "property: kinetic energy change agrees between contact space and generalized velocities") {
  ProblemGenerator generator;
  std::mt19937_64& rng = generator.engine();
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  int checked = 0;
  for (int i = 0; i < kProblems; ++i) {
    const int n = 3 + static_cast<int>(rng() % 4);
    const Eigen::MatrixXd A = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return entry(rng); });
    const Eigen::MatrixXd M = A * A.transpose() + n * Eigen::MatrixXd::Identity(n, n);
    const Eigen::MatrixXd J = Eigen::MatrixXd::NullaryExpr(2, n, [&] { return entry(rng); });
    Eigen::VectorXd v = Eigen::VectorXd::NullaryExpr(n, [&] { return entry(rng); });
    if ((J * v)(0) > 0.0) v = -v;  // make the contact approach
    routh::ContactSpace space;
    REQUIRE(routh::factor_contact_space(M, J, space));
    routh::ContactParameterList contacts;
    contacts.push_back(generator.parameters(1.0));
    const ImpactProblem problem =
        routh::generalized_impact_problem(space, v, routh::ContactDimension::planar, contacts);
    if (!(problem.u_pre[0] < 0.0)) continue;  // J v exactly tangent: no impact to test
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : kAllLaws) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      ++checked;
      const Eigen::VectorXd v_post = v + routh::generalized_velocity_change(space, result.impulse);
      const double T_pre = routh::kinetic_energy(M, v);
      const double T_post = routh::kinetic_energy(M, v_post);
      // The difference of two kinetic energies is exact to round-off of the larger one.
      CHECK(std::abs((T_post - T_pre) - result.delta_T) <= 1e-10 * std::max(T_pre, T_post));
      CHECK((J * v_post - result.u_post).norm() <= 1e-10 * ((J * v).norm() + result.u_post.norm()));
    }
  }
  MESSAGE("generalized-velocity cross-checks: " << checked);
}

// =============================================================================================
// 7. The phase trace (docs/design.md §3; paper 004 §5, Fig. 1): contiguous from 0 to Γ_n,
// compression before restitution, at most three phases for Routh's method (slip halts at most once,
// paper 000 §3: a slide, possibly continued into restitution, then stick or reverse slide), stages
// that match the replayed sign of u_n, and an impact type that names what the trace shows.
TEST_CASE("property: the phase trace is contiguous, ordered and matches the impact type") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    const Planar q = planar(problem);
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : kAllLaws) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      const Scales s = scales(problem, result);
      const auto& phases = result.phases;
      REQUIRE(!phases.empty());

      // Contiguity is bookkeeping, not arithmetic: each phase starts exactly where the last ended.
      CHECK(phases.front().normal_impulse_from == 0.0);
      CHECK(phases.front().stage == Stage::compression);
      for (std::size_t k = 0; k < phases.size(); ++k) {
        CHECK(phases[k].normal_impulse_to > phases[k].normal_impulse_from);
        CHECK(phases[k].contact == 0);
        if (k == 0) continue;
        CHECK(phases[k].normal_impulse_from == phases[k - 1].normal_impulse_to);
        CHECK_FALSE(
            (phases[k - 1].stage == Stage::restitution && phases[k].stage == Stage::compression));
      }
      CHECK(std::abs(phases.back().normal_impulse_to - result.impulse[0]) <= kRoundOff * s.impulse);

      if (law == "newton") {  // one mode throughout: a compression and a restitution phase
        CHECK(phases.size() <= 2);
        CHECK(phases.back().kind == phases.front().kind);
        continue;
      }
      CHECK(phases.size() <= 3);

      // Stages match the replayed normal velocity: u_n ≤ 0 compressing, ≥ 0 restoring, and
      // compression ends exactly where u_n reaches 0.
      const double tol_v = kRoundOff * s.velocity;
      const Replay replay = replay_routh_trace(problem, result);
      for (const ReplayedPhase& ph : replay.phases) {
        const double stage_sign = ph.phase.stage == Stage::compression ? -1.0 : 1.0;
        CHECK(stage_sign * ph.u_n_start >= -tol_v);
        CHECK(stage_sign * ph.u_n_end >= -tol_v);
      }
      for (std::size_t k = 0; k + 1 < replay.phases.size(); ++k) {
        if (replay.phases[k].phase.stage != replay.phases[k + 1].phase.stage) {
          CHECK(std::abs(replay.phases[k].u_n_end) <= tol_v);
        }
      }

      // Kinds: slide phases first, then only sticking or only reverse sliding.
      std::size_t halt = 0;  // index of the first phase after the slip halted
      while (halt < phases.size() && phases[halt].kind == PhaseKind::slide) ++halt;
      for (std::size_t k = halt; k < phases.size(); ++k) {
        CHECK(phases[k].kind != PhaseKind::slide);
        CHECK(phases[k].kind == phases[halt].kind);
      }

      // The type (paper 004 §5) from the trace.
      const ImpactType type = result.type;
      CAPTURE(routh::to_string(type));
      if (halt == 0) {  // stuck from the start: only possible without initial slip
        CHECK(type == ImpactType::sticking_throughout);
        CHECK(q.u_t == 0.0);
      } else if (halt == phases.size()) {  // slid throughout
        // A slip halt that coincides with the end of compression when e = 0 ends the impact there:
        // the law reports a halt in compression with no phase after it (paper 000 case (ii)).
        const bool halted_at_the_end = q.e == 0.0 && std::abs(replay.u_t) <= tol_v;
        CHECK((type == ImpactType::permanent_sliding ||
               (halted_at_the_end && (type == ImpactType::sticking_in_compression ||
                                      type == ImpactType::reverse_sliding_in_compression))));
      } else {
        CHECK(is_halt_type(type));
        const bool sticks = phases[halt].kind == PhaseKind::stick;
        // A halt exactly at the end of compression counts as in compression
        // (routh_incremental.hpp).
        const bool in_compression = phases[halt].normal_impulse_from <= compression_impulse(result);
        const ImpactType expected = in_compression
                                        ? (sticks ? ImpactType::sticking_in_compression
                                                  : ImpactType::reverse_sliding_in_compression)
                                        : (sticks ? ImpactType::sticking_in_restitution
                                                  : ImpactType::reverse_sliding_in_restitution);
        CHECK(type == expected);
      }
    }
  }
}

// =============================================================================================
// 8. Newton's hypothesis (paper 004 eqs. 24, 48): both the Routh version and the conventional
// method end the impact at u_n⁺ = −e u_n⁻, to round-off of u_n⁻.
TEST_CASE("property: newton_routh and newton reproduce u_n+ = -e u_n-") {
  ProblemGenerator generator;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    const Planar q = planar(problem);
    INFO("problem #", i, ": ", describe(problem));
    for (std::string_view law : {std::string_view("newton_routh"), std::string_view("newton")}) {
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      CHECK(std::abs(result.u_post[0] + q.e * q.u_n) <= kRoundOff * std::abs(q.u_n));
    }
  }
}

// =============================================================================================
// 9. Sticking stability (paper 004 eq. 16; paper 000 case (i)(b)). For poisson with μs = μd = μ
// swept from 0 to 1.5 (and exactly μc): once the slip halts, the contact sticks (u_t⁺ = 0) iff
// μ ≥ μc = |c|/b, and otherwise the slip reverses. Whether it halts at all is predicted here from
// the sliding phase alone: slip halts at I_nh = |u_t|/(μ b − σ c) (eq. 31), the impact of a
// permanent slide ends at I_nf = (1 + e)|u_n|/(a − μ σ c) (eq. 33), and the slip halts iff
// I_nh < I_nf (or the slide cannot end compression at all, a − μσc ≤ 0).
TEST_CASE("property: poisson sticks once the slip halts when mu exceeds mu_c") {
  ProblemGenerator generator;
  int sticking = 0;
  int reversing = 0;
  for (int i = 0; i < kProblems / 5; ++i) {
    ImpactProblem problem = generator.next();
    const double mu_c = critical_friction(planar(problem));
    std::vector<double> sweep{mu_c};
    for (int k = 0; k <= 15; ++k) sweep.push_back(0.1 * k);
    for (double mu : sweep) {
      problem.contacts[0].static_friction = mu;
      problem.contacts[0].kinetic_friction = mu;
      const Planar q = planar(problem);
      const ImpactResult result = solve("poisson", problem);
      INFO("problem #", i, ": ", describe(problem));
      INFO("poisson: ", describe(result));
      if (!solved("poisson", result)) continue;
      const Scales s = scales(problem, result);
      const bool stable = mu >= mu_c;

      if (q.u_t == 0.0) {  // no initial slip: stick throughout if stable, else slide from rest
        CHECK(result.type ==
              (stable ? ImpactType::sticking_throughout : ImpactType::permanent_sliding));
        if (stable) CHECK(std::abs(result.u_post[1]) <= kRoundOff * s.velocity);
        continue;
      }
      const double sigma = sign(q.u_t);
      const double slip_rate = q.c - mu * sigma * q.b;    // du_t/dΓ_n while sliding
      const double normal_rate = q.a - mu * sigma * q.c;  // du_n/dΓ_n while sliding
      const double to_halt = sigma * slip_rate < 0.0 ? -q.u_t / slip_rate : INFINITY;
      const double to_end = normal_rate > 0.0 ? -(1.0 + q.e) * q.u_n / normal_rate : INFINITY;
      const bool halts = to_halt < to_end;
      const bool near_boundary = std::abs(to_halt - to_end) <= 1e-9 * to_end;
      CAPTURE(to_halt);
      CAPTURE(to_end);
      if (!near_boundary) CHECK(is_halt_type(result.type) == halts);
      if (!is_halt_type(result.type)) continue;
      if (stable) {
        ++sticking;
        CHECK((result.type == ImpactType::sticking_in_compression ||
               result.type == ImpactType::sticking_in_restitution));
        CHECK(std::abs(result.u_post[1]) <= kRoundOff * s.velocity);
      } else {
        ++reversing;
        CHECK((result.type == ImpactType::reverse_sliding_in_compression ||
               result.type == ImpactType::reverse_sliding_in_restitution));
        CHECK(sigma * result.u_post[1] <= kRoundOff * s.velocity);  // the slip reversed
      }
    }
  }
  MESSAGE("poisson sweep: " << sticking << " halts that stick, " << reversing
                            << " halts that reverse");
}

// Paper 004 §5: while the slip does not halt, the friction ratio is constant, so Newton's,
// Poisson's and the energetic coefficients coincide and the three Routh laws give one answer.
TEST_CASE("property: without a slip halt the three Routh laws agree") {
  ProblemGenerator generator;
  int compared = 0;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    INFO("problem #", i, ": ", describe(problem));
    const ImpactResult poisson = solve("poisson", problem);
    INFO("poisson: ", describe(poisson));
    if (!solved("poisson", poisson) || poisson.type != ImpactType::permanent_sliding) continue;
    const Scales s = scales(problem, poisson);
    for (std::string_view law : {std::string_view("newton_routh"), std::string_view("energetic")}) {
      const ImpactResult other = solve(law, problem);
      INFO(law, ": ", describe(other));
      if (!solved(law, other) || other.type != ImpactType::permanent_sliding) continue;
      ++compared;
      // Each law reaches the end by a different formula (eq. 24, 25 or 26); ε-level
      // differences in Γ are amplified by at most the ratio of the terms to the result.
      CHECK((other.impulse - poisson.impulse).lpNorm<1>() <= 1e-10 * s.impulse);
      CHECK((other.u_post - poisson.u_post).lpNorm<1>() <= 1e-10 * s.velocity);
    }
  }
  MESSAGE("permanent-sliding comparisons: " << compared);
}

// =============================================================================================
// Flags mean what they say (impact_result.hpp). energy_gain is set exactly when ΔT > 0 beyond
// round-off: it must be set when ΔT > kRoundOff·E and must not be set when ΔT ≤ 0 (in between,
// ΔT is round-off and either answer is right). Routh laws never ignore a slip reversal, and the
// nonphysical_normal_dissipation flag agrees with the replayed works (Stronge; paper 004 §6).
TEST_CASE("property: energy_gain is flagged exactly when kinetic energy grows") {
  ProblemGenerator generator;
  std::array<int, kAllLaws.size()> gains{};
  std::array<int, kAllLaws.size()> round_off_zone{};
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    const double e = planar(problem).e;
    INFO("problem #", i, ": ", describe(problem));
    for (std::size_t l = 0; l < kAllLaws.size(); ++l) {
      const std::string_view law = kAllLaws[l];
      const ImpactResult result = solve(law, problem);
      INFO(law, ": ", describe(result));
      if (!solved(law, result)) continue;
      const Scales s = scales(problem, result);
      const bool flagged = result.flags.has(ImpactFlag::energy_gain);
      gains[l] += flagged ? 1 : 0;
      if (result.delta_T > 0.0 && result.delta_T <= kRoundOff * s.energy) ++round_off_zone[l];
      if (result.delta_T > kRoundOff * s.energy) CHECK(flagged);
      if (result.delta_T <= 0.0) CHECK_FALSE(flagged);
      if (law == "newton") continue;

      CHECK_FALSE(result.flags.has(ImpactFlag::slip_reversal_ignored));
      const Replay replay = replay_routh_trace(problem, result);
      const double mismatch = std::abs(replay.restitution_work + e * e * replay.compression_work);
      CAPTURE(mismatch);
      CAPTURE(replay.compression_work);
      // The law judges "differs" with a relative threshold of about 1e-9 |W_nc|; a real mismatch
      // can be far below our generous round-off bound kRoundOff·E (a long stick phase makes E ≫
      // |W_nc|), so the flag is asserted only outside a factor-10 band around that threshold,
      // and only where the replay resolves the mismatch.
      const bool dissipation_flag = result.flags.has(ImpactFlag::nonphysical_normal_dissipation);
      const double resolution = kRoundOff * s.energy;
      const double threshold = 1e-9 * std::abs(replay.compression_work);
      if (mismatch > 10.0 * threshold + resolution) CHECK(dissipation_flag);
      if (mismatch + resolution < 0.1 * threshold) CHECK_FALSE(dissipation_flag);
    }
  }
  for (std::size_t l = 0; l < kAllLaws.size(); ++l) {
    MESSAGE(kAllLaws[l] << ": energy_gain flagged on " << gains[l] << " of " << kProblems
                        << " random impacts (" << round_off_zone[l]
                        << " more with 0 < dT <= round-off)");
  }
}

// =============================================================================================
// The `lcp` law (paper 001 §2.2; sim/impact/lcp.hpp). Each solve is checked against every
// complementarity condition of both stages, the cone and the energy bookkeeping by
// routh::test::check_lcp_impact (tests/support/lcp_checks.hpp), which recomputes velocities from
// D and the reported impulses.

namespace {

/// Several contacts: D = Q diag(λ) Qᵀ (Q orthogonal from a random QR) with condition number up to
/// 1e4 and an overall scale over four decades; u_n⁻ approaching, touching (0) or separating, slip
/// of either sign or none; e, μs ≥ μd as in ProblemGenerator. `common_restitution` gives every
/// contact one e (then no energy can be created, see below); `frictionless` sets every μ to 0.
class MultiContactGenerator : public routh::test::RandomSource {
 public:
  explicit MultiContactGenerator(std::uint64_t seed) : RandomSource(seed) {}

  ImpactProblem next(routh::ContactDimension dimension, int contacts, bool common_restitution,
                     bool frictionless = false) {
    const int rows = routh::rows_per_contact(dimension);
    const int m = rows * contacts;
    Eigen::MatrixXd A(m, m);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j) A(i, j) = uniform(-1.0, 1.0);
    }
    const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(A).householderQ();
    const double scale = std::pow(10.0, uniform(-2.0, 2.0));
    Eigen::VectorXd lambda(m);
    for (int i = 0; i < m; ++i) lambda[i] = scale * std::pow(10.0, uniform(-4.0, 0.0));
    const Eigen::MatrixXd D = Q * lambda.asDiagonal() * Q.transpose();

    ImpactProblem problem;
    problem.dimension = dimension;
    problem.D = 0.5 * (D + D.transpose());
    problem.u_pre.resize(m);
    const double e = uniform(0.0, 1.0);
    for (int k = 0; k < contacts; ++k) {
      const double pick = uniform(0.0, 1.0);
      problem.u_pre[rows * k] =
          pick < 0.1 ? 0.0 : (pick < 0.25 ? uniform(0.0, 1.0) : -uniform(0.01, 3.0));
      for (int r = 1; r < rows; ++r)
        problem.u_pre[rows * k + r] = uniform(0.0, 1.0) < 0.15 ? 0.0 : uniform(-3.0, 3.0);
      ContactParameters p;
      p.restitution = common_restitution ? e : uniform(0.0, 1.0);
      if (!frictionless && uniform(0.0, 1.0) > 0.1) {
        p.static_friction = uniform(0.0, 1.5);
        p.kinetic_friction =
            uniform(0.0, 1.0) < 0.2 ? p.static_friction : uniform(0.0, p.static_friction);
      }
      problem.contacts.push_back(p);
    }
    problem.u_pre[0] = -1.0;  // at least one contact approaches
    return problem;
  }

 private:
};

std::string describe_contacts(const ImpactProblem& p) {
  std::ostringstream out;
  out.precision(17);
  out << "D =\n" << p.D << "\nu = " << p.u_pre.transpose() << "\n(e, mu_s, mu_d):";
  for (const ContactParameters& k : p.contacts) {
    out << " (" << k.restitution << ", " << k.static_friction << ", " << k.kinetic_friction << ")";
  }
  return out.str();
}

}  // namespace

// One planar contact: both stages' complementarity (paper 001 eqs. 9, 10, 13), the cone, and no
// energy created. With one contact and one e the compression stage loses
// ½ Γ_cᵀDΓ_c + λ μ Γ_n,c (lcp.hpp) and the expansion cannot return more; no counterexample is
// known to us, none appears here.
TEST_CASE("property: lcp on one planar contact satisfies both LCPs and never gains energy") {
  ProblemGenerator generator;
  int sticking_compared = 0;
  for (int i = 0; i < kProblems; ++i) {
    const ImpactProblem problem = generator.next();
    INFO("problem #", i, ": ", describe(problem));
    const routh::LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    INFO("lcp: ", describe(lcp.result));
    REQUIRE(status_name(lcp.result) == "solved");
    routh::test::check_lcp_impact(problem, lcp);
    const Scales s = scales(problem, lcp.result);
    CHECK(lcp.result.delta_T <= kRoundOff * s.energy);
    CHECK_FALSE(lcp.result.flags.has(ImpactFlag::energy_gain));
    // a contact that ends a stage sliding against its slip at the stage's start is flagged
    const double u_t_end = lcp.compression_velocity[1];
    const bool compression_reverses = lcp.compression_slip[0] > 0.0 &&
                                      lcp.compression_friction[0] > 0.0 &&
                                      planar(problem).u_t * u_t_end < 0.0;
    const bool expansion_reverses = lcp.expansion_slip[0] > 0.0 &&
                                    lcp.expansion_friction[0] > 0.0 &&
                                    u_t_end * lcp.result.u_post[1] < 0.0;
    CHECK(lcp.result.flags.has(ImpactFlag::slip_reversal_ignored) ==
          (compression_reverses || expansion_reverses));
    const Planar q = planar(problem);
    CHECK(std::abs(lcp.result.impulse[1]) <=
          std::max(q.mu_s, q.mu_d) * lcp.result.impulse[0] + kRoundOff * s.impulse);
    // Sticking throughout (test_lcp.cpp derives why): the same answer as poisson.
    const ImpactResult poisson = solve("poisson", problem);
    if (poisson.type == ImpactType::sticking_throughout) {
      ++sticking_compared;
      CHECK((lcp.result.impulse - poisson.impulse).lpNorm<1>() <= 1e-10 * s.impulse);
      CHECK((lcp.result.u_post - poisson.u_post).lpNorm<1>() <= 1e-10 * s.velocity);
    }
  }
  MESSAGE("lcp = poisson on " << sticking_compared << " sticking-throughout impacts");
}

// Several contacts with one common e: complementarity of both stages at every contact, cones,
// u_n⁺ ≥ 0 everywhere, and ΔT ≤ 0. Frictionless contacts with a common e lose exactly
// ½(1 − e²) Γ_cᵀDΓ_c + ½ Γ̃ᵀDΓ̃ (Γ̃ the additional expansion impulse): compression ends with
// Γ_cᵀu(t) = 0 (eq. 9), so T⁻ − T(t) = ½ Γ_cᵀDΓ_c, and expansion gives Γ_eᵀu⁺ = e Γ_cᵀu⁺
// (eq. 10), hence T⁺ − T(t) = ½ e² Γ_cᵀDΓ_c − ½ Γ̃ᵀDΓ̃.
TEST_CASE("property: lcp on several contacts with a common restitution coefficient") {
  MultiContactGenerator generator(0x5eed'0001'1997ULL);
  int frictionless = 0;
  int solved_count = 0;
  for (int i = 0; i < kProblems / 2; ++i) {
    const auto dimension =
        i % 2 == 0 ? routh::ContactDimension::planar : routh::ContactDimension::spatial;
    const int contacts = dimension == routh::ContactDimension::planar ? 2 + i % 5 : 1 + i % 4;
    const ImpactProblem problem = generator.next(dimension, contacts, true, i % 5 == 0);
    INFO("problem #", i, ":\n", describe_contacts(problem));
    const routh::LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    INFO("lcp: ", describe(lcp.result));
    REQUIRE(status_name(lcp.result) == "solved");
    ++solved_count;
    routh::test::check_lcp_impact(problem, lcp);
    const auto s = routh::test::lcp_scales(problem, lcp.result);
    CHECK(lcp.result.delta_T <= kRoundOff * s.energy);
    CHECK_FALSE(lcp.result.flags.has(ImpactFlag::energy_gain));

    bool has_friction = false;
    for (const ContactParameters& p : problem.contacts) {
      has_friction = has_friction || p.static_friction > 0.0 || p.kinetic_friction > 0.0;
    }
    if (has_friction) continue;
    ++frictionless;
    const int rows = routh::rows_per_contact(dimension);
    routh::ContactVector additional = routh::ContactVector::Zero(problem.u_pre.size());
    for (int k = 0; k < contacts; ++k) additional[rows * k] = lcp.additional_normal_impulse[k];
    const double e = problem.contacts[0].restitution;
    const double expected =
        -0.5 * (1.0 - e * e) * lcp.compression_impulse.dot(problem.D * lcp.compression_impulse) -
        0.5 * additional.dot(problem.D * additional);
    CHECK(std::abs(lcp.result.delta_T - expected) <= routh::test::kLcpTolerance * s.energy);
  }
  MESSAGE("lcp: " << solved_count << " multi-contact impacts solved, " << frictionless
                  << " frictionless");
}

// Several contacts with their own e: every LCP condition still holds, but Poisson's hypothesis
// contact by contact can create energy when strongly coupled contacts with friction have
// different e (the restitution impulses e_k Γ_n,c,k no longer balance the large, nearly
// self-cancelling compression impulses). The law flags it; this test counts it and checks that
// the flag says exactly that.
TEST_CASE("property: lcp with unequal restitution solves every problem and flags energy gain") {
  MultiContactGenerator generator(0x5eed'0002'1997ULL);
  int gains = 0;
  for (int i = 0; i < kProblems / 2; ++i) {
    const auto dimension =
        i % 2 == 0 ? routh::ContactDimension::planar : routh::ContactDimension::spatial;
    const int contacts = dimension == routh::ContactDimension::planar ? 2 + i % 5 : 1 + i % 4;
    const ImpactProblem problem = generator.next(dimension, contacts, false);
    INFO("problem #", i, ":\n", describe_contacts(problem));
    const routh::LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    INFO("lcp: ", describe(lcp.result));
    REQUIRE(status_name(lcp.result) == "solved");
    routh::test::check_lcp_impact(problem, lcp);
    const auto s = routh::test::lcp_scales(problem, lcp.result);
    const bool flagged = lcp.result.flags.has(ImpactFlag::energy_gain);
    if (lcp.result.delta_T > kRoundOff * s.energy) CHECK(flagged);
    if (lcp.result.delta_T <= 0.0) CHECK_FALSE(flagged);
    gains += flagged ? 1 : 0;
  }
  MESSAGE("lcp with unequal e: energy gain flagged on " << gains << " of " << kProblems / 2
                                                        << " multi-contact impacts");
}

// Several contacts of one rigid body (a singular D, u⁻ = J v⁻ kinematically consistent), as the
// simulator hands them over for a landing block (docs/design.md §4): the same conditions.
TEST_CASE("property: lcp on several contacts of one rigid planar body") {
  std::mt19937_64 rng(0x5eed'0003'1963ULL);
  const auto uniform = [&rng](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  for (int i = 0; i < kProblems / 5; ++i) {
    const int contacts = 2 + i % 3;
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(3, 3);
    const double m = std::pow(10.0, uniform(-1.0, 1.0));
    M.diagonal() << m, m, m * uniform(0.05, 1.0);
    Eigen::MatrixXd J(2 * contacts, 3);
    routh::ContactParameterList parameters;
    const double e = uniform(0.0, 1.0);
    for (int k = 0; k < contacts; ++k) {
      J.row(2 * k) << 0.0, 1.0, uniform(-1.0, 1.0);
      J.row(2 * k + 1) << 1.0, 0.0, -uniform(-1.0, -0.1);
      const double mu_s = uniform(0.0, 1.5);
      parameters.push_back(ContactParameters{e, mu_s, uniform(0.0, mu_s)});
    }
    routh::ContactSpace space;
    REQUIRE(routh::factor_contact_space(M, J, space));
    Eigen::VectorXd v(3);
    v << uniform(-2.0, 2.0), -std::pow(10.0, uniform(-2.0, 0.5)), uniform(-3.0, 3.0);
    const ImpactProblem problem =
        routh::generalized_impact_problem(space, v, routh::ContactDimension::planar, parameters);
    INFO("problem #", i, ":\n", describe_contacts(problem));
    const routh::LcpImpact lcp = routh::solve_lcp_stages(problem, {});
    INFO("lcp: ", describe(lcp.result));
    if (lcp.result.status == ImpactStatus::no_impact) continue;  // every corner separating
    REQUIRE(status_name(lcp.result) == "solved");
    routh::test::check_lcp_impact(problem, lcp);
    const auto s = routh::test::lcp_scales(problem, lcp.result);
    CHECK(lcp.result.delta_T <= kRoundOff * s.energy);
  }
}
