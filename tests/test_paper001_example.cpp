// Paper 001 (Park, Chung & Youm) §4: one spatial contact with H = [[8,−2,1],[−2,3,−1],[1,−1,5]]
// kg⁻¹ (rows x, y, z; z normal), approach speed 15 m/s, 32 initial slip directions of 10 m/s,
// μ = μs = μd ∈ {0.01, 0.1, 0.5, 1.0}, e ∈ {0.1, 0.5, 0.9}, for Routh's sliding ODE
// (`sliding_ode`), Anitescu–Potra's LCP (`lcp`, also in its printed form) and Park's method
// (`park`). The paper's frame has v_z ≤ 0 feasible and negative impulses; ours (docs/design.md §2)
// has u_n < 0 approaching and Γ_n ≥ 0, so u = (−v_z, v_x, v_y) and D is H with its z row and column
// moved first and negated off the diagonal: D = [[5, −1, 1], [−1, 8, −2], [1, −2, 3]].
// The paper's claims (§4 text and Figs. 2–4) are checked one by one below; those that do not hold
// are shown wrong with the evidence.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>

#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/lcp.hpp"
#include "sim/impact/spatial_contact.hpp"
#include "sim/text.hpp"

namespace routh {
namespace {

constexpr int kDirections = 32;
constexpr double kApproach = 15.0, kSlip = 10.0;  // [m/s]
constexpr std::array kFrictions = {0.01, 0.1, 0.5, 1.0};
constexpr std::array kRestitutions = {0.1, 0.5, 0.9};

Eigen::Matrix3d paper_D() {
  Eigen::Matrix3d D;
  D << 5, -1, 1, -1, 8, -2, 1, -2, 3;
  return D;
}

ImpactProblem paper_problem(int j, double mu, double e) {
  const double angle = 2.0 * M_PI * j / kDirections;  // the paper's 2π(j − 1)/32, j from 1
  return spatial_impact_problem(
      paper_D(), Eigen::Vector3d(-kApproach, kSlip * std::cos(angle), kSlip * std::sin(angle)),
      {e, mu, mu});
}

ImpactResult lcp_as_printed(const ImpactProblem& problem) {
  LcpLawOptions options;
  options.expansion_friction = ExpansionFriction::additional_impulse_only;
  return solve_lcp(problem, options);
}

using Solver = ImpactResult (*)(const ImpactProblem&);
const std::map<std::string, Solver>& laws() {
  static const std::map<std::string, Solver> kLaws = {
      {"park", find_law("park")->solve},
      {"sliding_ode", find_law("sliding_ode")->solve},
      {"lcp", find_law("lcp")->solve},
      {"lcp_printed", &lcp_as_printed}};
  return kLaws;
}

double final_slip(const ImpactResult& result) { return result.u_post.segment<2>(1).norm(); }
bool sticks(const ImpactResult& result) { return final_slip(result) <= 1e-9 * kSlip; }

int sticking_count(const std::string& law, double mu, double e) {
  int count = 0;
  for (int j = 0; j < kDirections; ++j) count += sticks(laws().at(law)(paper_problem(j, mu, e)));
  return count;
}

// max over the 32 directions of |u⁺_law − u⁺_other| [m/s]
double largest_difference(const std::string& law, const std::string& other, double mu, double e) {
  double largest = 0.0;
  for (int j = 0; j < kDirections; ++j) {
    const ImpactProblem problem = paper_problem(j, mu, e);
    largest = std::max(largest,
                       (laws().at(law)(problem).u_post - laws().at(other)(problem).u_post).norm());
  }
  return largest;
}

}  // namespace

TEST_CASE("paper001 example: every law solves every case, within its cone, without energy gain") {
  for (const double mu : kFrictions) {
    for (const double e : kRestitutions) {
      std::string counts;
      for (const auto& [name, solve] : laws()) {
        int sticking = 0;
        for (int j = 0; j < kDirections; ++j) {
          CAPTURE(name);
          CAPTURE(mu);
          CAPTURE(e);
          CAPTURE(j);
          const ImpactResult result = solve(paper_problem(j, mu, e));
          REQUIRE(result.status == ImpactStatus::solved);
          const double normal = result.impulse[0];
          CHECK(normal > 0.0);
          CHECK(result.impulse.segment<2>(1).norm() <= mu * normal * (1.0 + 1e-9));
          CHECK(result.u_post[0] >= -1e-9 * kApproach);
          CHECK(result.delta_T < 0.0);
          CHECK_FALSE(result.flags.has(ImpactFlag::energy_gain));
          if (sticks(result)) ++sticking;
        }
        counts += cat(" ", name, " ", sticking);
      }
      MESSAGE("mu ", mu, " e ", e, ": directions ending in stick:", counts);
    }
  }
}

TEST_CASE("paper001 example: near-frictionless, all laws agree, and only there") {
  // §4: "for frictionless cases all the methods generate virtually same post-impact sliding
  // velocities ... The coincidence cannot be observed any more for frictional cases." We read
  // "virtually the same" as within 2 % of the approach speed (0.3 m/s; the friction impulse at
  // μ = 0.01 is at most 1 % of the normal one). Holds at μ = 0.01 for every e, and fails from
  // μ = 0.1 on, where the LCP's answers move by more than that.
  const double agreement = 0.02 * kApproach;
  for (const double e : kRestitutions) {
    CAPTURE(e);
    CHECK(largest_difference("park", "sliding_ode", 0.01, e) <= agreement);
    CHECK(largest_difference("lcp", "sliding_ode", 0.01, e) <= agreement);
    CHECK(largest_difference("lcp", "sliding_ode", 0.1, e) > agreement);
  }
}

TEST_CASE("paper001 example: high friction, Routh's and Park's methods stick only when e is high") {
  // §4 on Fig. 4 (μ = 1): "All the other methods predicted persistent sticking for all initial
  // sliding velocities, while Anitescu's predicted sliding post-impact velocity for every initial
  // velocity." Routh's method (sliding_ode) and Park's agree with each other direction for
  // direction, as the paper says, but sticking "for all" holds only at e = 0.9: with e = 0.1
  // or 0.5, restitution ends before the slip halts in many directions. Evidence, law by law: the
  // slipping answers end with slip well above round-off, and the sliding ODE records sliding
  // phases only: the slip never halted (Park's method, an independent computation, agrees on
  // which directions these are).
  const double mu = 1.0;
  for (const double e : kRestitutions) {
    CAPTURE(e);
    for (int j = 0; j < kDirections; ++j) {
      const ImpactProblem problem = paper_problem(j, mu, e);
      CHECK(sticks(laws().at("park")(problem)) == sticks(laws().at("sliding_ode")(problem)));
    }
    // the printed LCP slides after every impact, as the paper's figure shows for "Anitescu's"
    CHECK(sticking_count("lcp_printed", mu, e) == 0);
  }
  CHECK(sticking_count("sliding_ode", mu, 0.9) == kDirections);
  for (const double e : {0.1, 0.5}) {
    CAPTURE(e);
    int slipping = 0;
    for (int j = 0; j < kDirections; ++j) {
      const ImpactResult ode = laws().at("sliding_ode")(paper_problem(j, mu, e));
      if (sticks(ode)) continue;
      ++slipping;
      CHECK(final_slip(ode) > 1e-3);
      for (const Phase& phase : ode.phases) CHECK(phase.kind == PhaseKind::slide);
    }
    CHECK(slipping > 0);  // the paper's "for all" is wrong here
  }
  // our default LCP bounds expansion friction by the whole expansion impulse and sticks like the
  // sliding ODE at e = 0.9 (lcp.hpp explains the correction of eq. 16b)
  CHECK(sticking_count("lcp", mu, 0.9) == kDirections);
}

TEST_CASE("paper001 example: moderate friction, Park is closer to Routh than the LCP is") {
  // §4 on Fig. 3 (μ = 0.5): "the loci of post-impact velocities for them [Park's and Routh's]
  // are quite similar", and Anitescu's LCP "deviates conspicuously". Holds for every e.
  // "Park's method generally dissipates a less energy ... than Routh's method": holds only for
  // elastic impacts. At e = 0.1 Park's dissipates less in a minority of the 32 directions, at
  // e = 0.9 in a majority.
  const double mu = 0.5;
  for (const double e : kRestitutions) {
    CAPTURE(e);
    CHECK(largest_difference("park", "sliding_ode", mu, e) <
          largest_difference("lcp", "sliding_ode", mu, e));
  }
  const auto park_dissipates_less = [&](double e) {
    int count = 0;
    for (int j = 0; j < kDirections; ++j) {
      const ImpactProblem problem = paper_problem(j, mu, e);
      count += laws().at("park")(problem).delta_T > laws().at("sliding_ode")(problem).delta_T;
    }
    return count;
  };
  CHECK(park_dissipates_less(0.1) < kDirections / 2);
  CHECK(park_dissipates_less(0.9) > kDirections / 2);
}
}  // namespace routh
