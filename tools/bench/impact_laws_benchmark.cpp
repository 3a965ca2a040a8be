// Nanoseconds per planar impact solve, for every law in the catalogue (so a new law is measured
// as soon as it is registered), plus a closed-form Coulomb stick solve for scale.
//
// Each benchmark cycles through a pool of pre-generated random, well-conditioned planar problems
// so that the branches of the incremental laws (slide, stick, reversal; compression, restitution)
// see realistic variety instead of one perfectly predicted path. Target (issue): median ≤ 25 ns.
//
// Run: tools/setup.sh bench   (or build/release/tools/bench/impact_laws_benchmark)

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/law_catalogue.hpp"

namespace {

constexpr std::size_t kPoolSize = 1024;  // a power of two: the cycling index is a mask
constexpr double kMaxConditionNumber = 100.0;

/// The pool, as law inputs and as the raw numbers the closed-form reference uses.
struct PlanarSample {
  double a, b, c;   ///< D = [[a, c], [c, b]] [1/kg]
  double u_n, u_t;  ///< u⁻ [m/s]
  routh::ContactParameters contact;
};

struct ProblemPool {
  std::vector<PlanarSample> samples;
  std::vector<routh::ImpactProblem> problems;
};

/// Random SPD 2x2 D = R diag(λ1, λ2) Rᵀ with λ1/λ2 ≤ kMaxConditionNumber, approaching u_n,
/// either slip direction, e ∈ [0, 1], 0 ≤ μd ≤ μs ≤ 1. Fixed seed: every run sees the same pool.
ProblemPool make_pool() {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };

  ProblemPool pool;
  pool.samples.reserve(kPoolSize);
  pool.problems.reserve(kPoolSize);
  while (pool.samples.size() < kPoolSize) {
    const double smallest = std::exp(uniform(std::log(0.1), std::log(10.0)));  // [1/kg]
    const double condition = std::exp(uniform(0.0, std::log(kMaxConditionNumber)));
    const double largest = smallest * condition;
    const double angle = uniform(0.0, std::numbers::pi);
    const double cs = std::cos(angle);
    const double sn = std::sin(angle);
    PlanarSample s{};
    s.a = largest * cs * cs + smallest * sn * sn;
    s.b = largest * sn * sn + smallest * cs * cs;
    s.c = (largest - smallest) * cs * sn;
    s.u_n = uniform(-2.0, -0.1);
    s.u_t = uniform(-2.0, 2.0);
    const double mu_s = uniform(0.0, 1.0);
    s.contact = routh::ContactParameters{uniform(0.0, 1.0), mu_s, uniform(0.0, mu_s)};
    if (!(s.a * s.b - s.c * s.c > 0.0)) continue;  // round-off at the extremes: draw again
    pool.problems.push_back(routh::planar_impact_problem(s.a, s.b, s.c, s.u_n, s.u_t, s.contact));
    pool.samples.push_back(s);
  }
  return pool;
}

const ProblemPool& pool() {
  static const ProblemPool kPool = make_pool();
  return kPool;
}

void bm_law(benchmark::State& state, routh::ImpactLaw solve) {
  const auto& problems = pool().problems;
  std::size_t i = 0;
  for (auto _ : state) {
    auto result = solve(problems[i]);
    benchmark::DoNotOptimize(result);
    i = (i + 1) & (kPoolSize - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

/// The conventional stick solve in closed form: Newton restitution with the slip stopped,
/// D Γ = (−(1 + e) u_n, −u_t) by Cramer's rule. No friction-cone check, no phases, no energy:
/// the least any planar law has to do.
struct StickImpulse {
  double normal, tangential;
};

StickImpulse cramer_stick(const PlanarSample& s) {
  const double du_n = -(1.0 + s.contact.restitution) * s.u_n;
  const double du_t = -s.u_t;
  const double inverse_determinant = 1.0 / (s.a * s.b - s.c * s.c);
  return {(s.b * du_n - s.c * du_t) * inverse_determinant,
          (s.a * du_t - s.c * du_n) * inverse_determinant};
}

void bm_cramer_stick_reference(benchmark::State& state) {
  const auto& samples = pool().samples;
  std::size_t i = 0;
  for (auto _ : state) {
    StickImpulse impulse = cramer_stick(samples[i]);
    benchmark::DoNotOptimize(impulse);
    i = (i + 1) & (kPoolSize - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  static_assert((kPoolSize & (kPoolSize - 1)) == 0, "kPoolSize must be a power of two");
  for (const routh::LawEntry& law : routh::impact_laws()) {
    benchmark::RegisterBenchmark(("planar_solve/" + std::string(law.name)).c_str(), bm_law,
                                 law.solve)
        ->Unit(benchmark::kNanosecond);
  }
  benchmark::RegisterBenchmark("planar_solve/reference_cramer_stick", bm_cramer_stick_reference)
      ->Unit(benchmark::kNanosecond);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
