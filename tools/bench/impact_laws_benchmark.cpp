// Nanoseconds per impact solve, for every law in the catalogue (so a new law is measured as soon
// as it is registered): planar_solve/<law> on planar problems for the laws that take them,
// spatial_solve/<law> on spatial problems for the laws that take those, plus a closed-form stick
// solve of each dimension for scale.
//
// Each benchmark cycles through a pool of pre-generated random, well-conditioned problems so that
// the branches of the laws (slide, stick, reversal; compression, restitution) see realistic
// variety instead of one perfectly predicted path. Targets (issues): planar median ≤ 25 ns;
// sliding_ode ≤ 20 µs at its default tolerance.
//
// Run: tools/setup.sh bench   (or build/release/tools/bench/impact_laws_benchmark)

#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/impact/spatial_contact.hpp"

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

/// Random SPD 3x3 H = R diag(λ) Rᵀ (R a uniformly random rotation, λ_max/λ_min ≤
/// kMaxConditionNumber), approaching u_n, a slip of random direction and size up to 2 m/s,
/// e ∈ [0, 1], 0 ≤ μd ≤ μs ≤ 1. Fixed seed.
std::vector<routh::ImpactProblem> make_spatial_pool() {
  std::mt19937_64 rng(20240612);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };

  std::vector<routh::ImpactProblem> problems;
  problems.reserve(kPoolSize);
  while (problems.size() < kPoolSize) {
    const double smallest = std::exp(uniform(std::log(0.1), std::log(10.0)));  // [1/kg]
    const double largest = smallest * std::exp(uniform(0.0, std::log(kMaxConditionNumber)));
    const double middle = std::exp(uniform(std::log(smallest), std::log(largest)));
    const Eigen::Matrix3d R = Eigen::Quaterniond(normal(rng), normal(rng), normal(rng), normal(rng))
                                  .normalized()
                                  .toRotationMatrix();
    const Eigen::Matrix3d H =
        R * Eigen::Vector3d(smallest, middle, largest).asDiagonal() * R.transpose();
    const double slip_angle = uniform(0.0, 2.0 * std::numbers::pi);
    const double slip = uniform(0.0, 2.0);
    const Eigen::Vector3d u(uniform(-2.0, -0.1), slip * std::cos(slip_angle),
                            slip * std::sin(slip_angle));
    const double mu_s = uniform(0.0, 1.0);
    const routh::ContactParameters contact{uniform(0.0, 1.0), mu_s, uniform(0.0, mu_s)};
    if (H.ldlt().info() != Eigen::Success || !H.ldlt().isPositive()) continue;
    problems.push_back(routh::spatial_impact_problem(0.5 * (H + H.transpose()), u, contact));
  }
  return problems;
}

const std::vector<routh::ImpactProblem>& spatial_pool() {
  static const std::vector<routh::ImpactProblem> kPool = make_spatial_pool();
  return kPool;
}

/// Whether `solve` takes any problem of `problems` (a law outside its scope answers unsupported).
bool law_takes(routh::ImpactLaw solve, const std::vector<routh::ImpactProblem>& problems) {
  return std::any_of(problems.begin(), problems.end(), [solve](const routh::ImpactProblem& p) {
    return solve(p).status != routh::ImpactStatus::unsupported;
  });
}

void bm_law(benchmark::State& state, routh::ImpactLaw solve,
            const std::vector<routh::ImpactProblem>* pool_problems) {
  const auto& problems = *pool_problems;
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

/// The conventional stick solve for a spatial contact: H Γ = (−(1 + e) u_n, −u_t) by LDLT.
void bm_ldlt_stick_reference(benchmark::State& state) {
  const auto& problems = spatial_pool();
  std::size_t i = 0;
  for (auto _ : state) {
    const routh::ImpactProblem& p = problems[i];
    const Eigen::Matrix3d H = p.D;
    Eigen::Vector3d du = -p.u_pre.head<3>();
    du[0] *= 1.0 + p.contacts[0].restitution;
    Eigen::Vector3d impulse = H.ldlt().solve(du);
    benchmark::DoNotOptimize(impulse);
    i = (i + 1) & (kPoolSize - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
  static_assert((kPoolSize & (kPoolSize - 1)) == 0, "kPoolSize must be a power of two");
  for (const routh::LawEntry& law : routh::impact_laws()) {
    if (!law_takes(law.solve, pool().problems)) continue;
    benchmark::RegisterBenchmark(("planar_solve/" + std::string(law.name)).c_str(), bm_law,
                                 law.solve, &pool().problems)
        ->Unit(benchmark::kNanosecond);
  }
  benchmark::RegisterBenchmark("planar_solve/reference_cramer_stick", bm_cramer_stick_reference)
      ->Unit(benchmark::kNanosecond);
  for (const routh::LawEntry& law : routh::impact_laws()) {
    if (!law_takes(law.solve, spatial_pool())) continue;
    benchmark::RegisterBenchmark(("spatial_solve/" + std::string(law.name)).c_str(), bm_law,
                                 law.solve, &spatial_pool())
        ->Unit(benchmark::kNanosecond);
  }
  benchmark::RegisterBenchmark("spatial_solve/reference_ldlt_stick", bm_ldlt_stick_reference)
      ->Unit(benchmark::kNanosecond);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
