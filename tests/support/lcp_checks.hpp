#pragma once
// Independent checks of an `lcp` impact (sim/impact/lcp.hpp): the complementarity conditions of
// both stages of paper 001 §2.2 (eqs. 9, 10, 13a, 13b in routh's signs), Coulomb's cone and the
// energy balance, recomputed from the problem and the reported impulses only (u = u⁻ + DΓ here,
// never the law's own velocities).
//
// Tolerances. Each stage's answer comes from Lemke's method on an LCP scaled to O(1), whose final
// basis is refined once (lemke.hpp), so its residuals are a modest multiple of ε times the
// condition of that basis, which the random problems keep below ~1e4. Velocities are compared on
// the scale V = max|u⁻| + max|D| Σ|Γ| (the size of the terms in u⁻ + DΓ), impulses on G = Σ|Γ|,
// energies on E = G V; kTolerance = 1e-10 of these leaves a factor ~10 above the worst residual
// seen in the property tests.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/lcp.hpp"

namespace routh::test {

inline constexpr double kLcpTolerance = 1e-10;

struct LcpScales {
  double impulse, velocity, energy;
};

inline LcpScales lcp_scales(const ImpactProblem& problem, const ImpactResult& result) {
  const double G = result.impulse.cwiseAbs().sum() + 1e-300;
  const double V = problem.u_pre.cwiseAbs().maxCoeff() + problem.D.cwiseAbs().maxCoeff() * G;
  return {G, V, G * V};
}

/// The checks of one stage for contact k. `normal_impulse` is the stage's whole normal impulse
/// (Γ_n,c, or e Γ_n,c + Γ̃_n), `complementary_impulse` the part complementary to the end normal
/// velocity (Γ_n,c, or Γ̃_n), `cone_impulse` the normal impulse that bounds the stage's friction,
/// μ and λ the stage's coefficient and slip multiplier, `edges` the cone's p.
struct StageView {
  double normal_impulse, complementary_impulse, cone_impulse, mu, slip;
  Eigen::Vector2d tangential_impulse = Eigen::Vector2d::Zero();
  double u_n_end = 0.0;
  Eigen::Vector2d u_t_end = Eigen::Vector2d::Zero();
};

inline void check_stage(const StageView& s, int edges, const LcpScales& scale) {
  const double tol_v = kLcpTolerance * scale.velocity;
  const double tol_g = kLcpTolerance * scale.impulse;
  const double tol_e = kLcpTolerance * scale.energy;
  // eqs. 9 / 10: no approach at the end, and impulse only where the contact is closed
  CHECK(s.u_n_end >= -tol_v);
  CHECK(s.complementary_impulse >= -tol_g);
  CHECK(std::abs(s.complementary_impulse * s.u_n_end) <= tol_e);
  // eq. 13b: inside the polyhedral cone, which is inscribed in |Γ_t| ≤ μ Γ_n (eq. 11)
  CHECK(s.tangential_impulse.norm() <= s.mu * s.cone_impulse + tol_g);
  // eqs. 13a–b: friction does work −λ μ Γ_n (maximal dissipation over the polyhedron) ...
  const double slip = s.u_t_end.norm();
  CHECK(std::abs(s.tangential_impulse.dot(s.u_t_end) + s.slip * s.mu * s.cone_impulse) <= tol_e);
  // ... and λ is the slip speed seen along the edge most opposed to it: |u_t| cos(π/p) ≤ λ ≤ |u_t|
  CHECK(s.slip >= slip * std::cos(std::numbers::pi / edges) - tol_v);
  if (s.mu * s.cone_impulse > tol_g) CHECK(s.slip <= slip + tol_v);
  if (s.slip == 0.0 && s.mu > 0.0) CHECK(slip <= tol_v);  // stuck
}

/// Every condition of both stages, for every contact, plus Γ = Γ_c + Γ_e, u⁺ = u⁻ + DΓ and ΔT.
inline void check_lcp_impact(const ImpactProblem& problem, const LcpImpact& impact,
                             const LcpLawOptions& options = {}) {
  const ImpactResult& result = impact.result;
  REQUIRE(result.status == ImpactStatus::solved);
  const LcpScales scale = lcp_scales(problem, result);
  const int rows = rows_per_contact(problem.dimension);
  const int edges = rows == 2 ? 2 : options.friction_edges;
  const ContactVector u_compression = problem.u_pre + problem.D * impact.compression_impulse;
  const ContactVector u_post = u_compression + problem.D * impact.expansion_impulse;
  CHECK((result.impulse - impact.compression_impulse - impact.expansion_impulse)
            .cwiseAbs()
            .maxCoeff() <= kLcpTolerance * scale.impulse);
  CHECK((result.u_post - u_post).cwiseAbs().maxCoeff() <= kLcpTolerance * scale.velocity);
  CHECK((impact.compression_velocity - u_compression).cwiseAbs().maxCoeff() <=
        kLcpTolerance * scale.velocity);
  const double delta_T =
      result.impulse.dot(problem.u_pre) + 0.5 * result.impulse.dot(problem.D * result.impulse);
  CHECK(std::abs(result.delta_T - delta_T) <= kLcpTolerance * scale.energy);
  CHECK(std::abs(result.normal_work + result.tangential_work - delta_T) <=
        kLcpTolerance * scale.energy);

  const auto tangential = [rows](const ContactVector& v, int k) {
    Eigen::Vector2d t = Eigen::Vector2d::Zero();
    t.head(rows - 1) = v.segment(rows * k + 1, rows - 1);
    return t;
  };
  for (int k = 0; k < problem.contact_count(); ++k) {
    CAPTURE(k);
    const int n = rows * k;
    const double e = problem.contacts[k].restitution;
    const double compression_normal = impact.compression_impulse[n];
    StageView compression{compression_normal, compression_normal, compression_normal,
                          impact.compression_friction[k], impact.compression_slip[k]};
    compression.tangential_impulse = tangential(impact.compression_impulse, k);
    compression.u_n_end = u_compression[n];
    compression.u_t_end = tangential(u_compression, k);
    INFO("compression");
    check_stage(compression, edges, scale);

    const double additional = impact.additional_normal_impulse[k];
    const double restitution = e * compression_normal;
    CHECK(std::abs(impact.expansion_impulse[n] - restitution - additional) <=
          kLcpTolerance * scale.impulse);  // Poisson, eq. 15
    const double cone = options.expansion_friction == ExpansionFriction::whole_expansion_impulse
                            ? restitution + additional
                            : additional;
    StageView expansion{impact.expansion_impulse[n], additional, cone, impact.expansion_friction[k],
                        impact.expansion_slip[k]};
    expansion.tangential_impulse = tangential(impact.expansion_impulse, k);
    expansion.u_n_end = u_post[n];
    expansion.u_t_end = tangential(u_post, k);
    INFO("expansion");
    check_stage(expansion, edges, scale);

    // the μ of each stage is the contact's kinetic or (when it did not slip) static coefficient
    const auto& p = problem.contacts[k];
    const double mu_static = std::max(p.static_friction, p.kinetic_friction);
    CHECK((impact.compression_friction[k] == p.kinetic_friction ||
           impact.compression_friction[k] == mu_static));
    CHECK((impact.expansion_friction[k] == p.kinetic_friction ||
           impact.expansion_friction[k] == mu_static));
  }
}

}  // namespace routh::test
