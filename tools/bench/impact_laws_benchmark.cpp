// Nanoseconds per impact solve, for every law in the catalogue (so a new law is measured as soon
// as it is registered), plus a closed-form Coulomb stick solve for scale. Each law is measured on
// the problems it accepts: planar_solve/NAME on planar problems, spatial_solve/NAME on spatial
// ones, landing_solve/NAME on a rocking block landing on its second corner (two planar
// contacts: the multi-contact laws), column_solve/NAME/drums:N on a column of N drums landing
// flat on the floor (2N planar contacts in one impact: the laws that take that many).
//
// Each benchmark cycles through a pool of pre-generated random, well-conditioned problems so that
// the branches of the incremental laws (slide, stick, reversal; compression, restitution) see
// realistic variety instead of one perfectly predicted path. Targets (issues): median ≤ 25 ns per
// planar solve, ≤ 1 µs per spatial solve.
//
// Run: tools/setup.sh bench   (or build/release/tools/bench/impact_laws_benchmark)

#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/contact_space.hpp"
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

/// Random spatial problems: H = Q diag(λ) Qᵀ with a random rotation Q and λmax/λmin ≤
/// kMaxConditionNumber, approaching u_n, slip of random direction and size (5 % without slip),
/// e ∈ [0, 1], 0 ≤ μd ≤ μs ≤ 1. Fixed seed, like the planar pool.
std::vector<routh::ImpactProblem> make_spatial_pool() {
  std::mt19937_64 rng(20240612);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  std::vector<routh::ImpactProblem> problems;
  problems.reserve(kPoolSize);
  while (problems.size() < kPoolSize) {
    Eigen::Matrix3d random;
    for (double& entry : random.reshaped()) entry = uniform(-1.0, 1.0);
    const Eigen::Matrix3d Q = Eigen::HouseholderQR<Eigen::Matrix3d>(random).householderQ();
    const double smallest = std::exp(uniform(std::log(0.1), std::log(10.0)));  // [1/kg]
    const Eigen::Vector3d spectrum(
        smallest, smallest * std::exp(uniform(0.0, std::log(kMaxConditionNumber))),
        smallest * std::exp(uniform(0.0, std::log(kMaxConditionNumber))));
    Eigen::Matrix3d H = Q * spectrum.asDiagonal() * Q.transpose();
    H = (0.5 * (H + H.transpose())).eval();
    if (Eigen::LLT<Eigen::Matrix3d>(H).info() != Eigen::Success) continue;  // round-off: again
    const double slip = unit(rng) < 0.05 ? 0.0 : uniform(0.0, 2.0);
    const double direction = uniform(0.0, 2.0 * std::numbers::pi);
    const Eigen::Vector3d u(uniform(-2.0, -0.1), slip * std::cos(direction),
                            slip * std::sin(direction));
    const double mu_s = uniform(0.0, 1.0);
    problems.push_back(routh::spatial_impact_problem(
        H, u, routh::ContactParameters{uniform(0.0, 1.0), mu_s, uniform(0.0, mu_s)}));
  }
  return problems;
}

const std::vector<routh::ImpactProblem>& spatial_pool() {
  static const std::vector<routh::ImpactProblem> kPool = make_spatial_pool();
  return kPool;
}

/// A rectangular block (planar, q = (x, y, θ)) rocking on one corner lands on the other: both
/// corners in the problem (D = J M⁻¹ Jᵀ, 4 × 4, rank 3), random aspect ratio, angular velocity,
/// drift, e and μ (docs/design.md §4: the simulator's multi-contact impact).
std::vector<routh::ImpactProblem> make_landing_pool() {
  std::mt19937_64 rng(20240613);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  std::vector<routh::ImpactProblem> problems;
  problems.reserve(kPoolSize);
  while (problems.size() < kPoolSize) {
    const double b = uniform(0.05, 0.5);
    const double h = uniform(0.1, 1.0);
    const double m = uniform(0.5, 5.0);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(3, 3);
    M.diagonal() << m, m, m * (b * b + h * h) / 3.0;
    Eigen::MatrixXd J(4, 3);
    J << 0.0, 1.0, -b, 1.0, 0.0, h, 0.0, 1.0, b, 1.0, 0.0, h;
    routh::ContactSpace space;
    if (!routh::factor_contact_space(M, J, space)) continue;
    const double omega = -uniform(0.2, 3.0);  // [rad/s] about the left corner
    Eigen::VectorXd v(3);
    v << -omega * h + uniform(-0.3, 0.3), omega * b, omega;
    const double mu_s = uniform(0.0, 1.0);
    const routh::ContactParameters contact{uniform(0.0, 1.0), mu_s, uniform(0.0, mu_s)};
    routh::ContactParameterList contacts;
    contacts.push_back(contact);
    contacts.push_back(contact);
    problems.push_back(
        routh::generalized_impact_problem(space, v, routh::ContactDimension::planar, contacts));
  }
  return problems;
}

const std::vector<routh::ImpactProblem>& landing_pool() {
  static const std::vector<routh::ImpactProblem> kPool = make_landing_pool();
  return kPool;
}

/// A column of `drums` equal drums (0.6 m × 0.5 m, 382 kg: the scaling benchmark's marble drums)
/// standing on each other and dropped flat onto the floor: every drum falls at the same speed,
/// so the floor's two corners approach and every joint above is closed at rest, and the impact
/// takes all 2·drums contacts at once (the plastic impact through the whole column that a
/// dropped column makes). Each problem adds a small random rocking and sway to every drum, and
/// draws e and μ. Contact 2k and 2k+1 are drum k's bottom corners on drum k−1's top (on the
/// floor for k = 0): normal row v_y + ω r_x − (the same of the drum below), tangent row
/// v_x − ω r_y − (the same of the drum below), with r the corner from each centre.
std::vector<routh::ImpactProblem> make_column_pool(int drums) {
  constexpr double width = 0.6, height = 0.5, mass = 382.0;  // [m], [m], [kg]
  std::mt19937_64 rng(20261127 + static_cast<unsigned>(drums));
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * unit(rng); };
  const int n = 3 * drums;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (int k = 0; k < drums; ++k) {
    M.diagonal().segment(3 * k, 3) << mass, mass, mass * (width * width + height * height) / 12.0;
  }
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(4 * drums, n);
  for (int k = 0; k < drums; ++k) {
    for (int side = 0; side < 2; ++side) {
      const double r_x = side == 0 ? -0.5 * width : 0.5 * width;
      const int normal = 2 * (2 * k + side);
      J.row(normal).segment(3 * k, 3) << 0.0, 1.0, r_x;
      J.row(normal + 1).segment(3 * k, 3) << 1.0, 0.0, 0.5 * height;
      if (k > 0) {
        J.row(normal).segment(3 * (k - 1), 3) << 0.0, -1.0, -r_x;
        J.row(normal + 1).segment(3 * (k - 1), 3) << -1.0, 0.0, 0.5 * height;
      }
    }
  }
  routh::ContactSpace space;
  routh::factor_contact_space(M, J, space);
  std::vector<routh::ImpactProblem> problems;
  problems.reserve(kPoolSize);
  while (problems.size() < kPoolSize) {
    Eigen::VectorXd v(n);
    const double fall = uniform(-1.0, -0.1);  // [m/s]
    for (int k = 0; k < drums; ++k) {
      v.segment(3 * k, 3) << uniform(-0.01, 0.01), fall, uniform(-0.01, 0.01);
    }
    const double mu_s = uniform(0.3, 1.0);
    const routh::ContactParameters contact{uniform(0.0, 0.5), mu_s, uniform(0.5 * mu_s, mu_s)};
    routh::ContactParameterList contacts(static_cast<std::size_t>(2 * drums), contact);
    problems.push_back(
        routh::generalized_impact_problem(space, v, routh::ContactDimension::planar, contacts));
  }
  return problems;
}

/// The column pools, one per column size of the benchmark.
constexpr int kColumnDrums[] = {1, 5, 10, 20};
const std::vector<routh::ImpactProblem>& column_pool(int drums) {
  static const std::vector<std::vector<routh::ImpactProblem>> kPools = [] {
    std::vector<std::vector<routh::ImpactProblem>> pools;
    for (int d : kColumnDrums) pools.push_back(make_column_pool(d));
    return pools;
  }();
  const auto* at = std::find(std::begin(kColumnDrums), std::end(kColumnDrums), drums);
  return kPools[static_cast<std::size_t>(at - std::begin(kColumnDrums))];
}

/// Whether `law` takes the problems of `problems` (a law answers others `unsupported`).
bool accepts(routh::ImpactLaw solve, const std::vector<routh::ImpactProblem>& problems) {
  return solve(problems.front()).status != routh::ImpactStatus::unsupported;
}

void bm_law(benchmark::State& state, routh::ImpactLaw solve,
            const std::vector<routh::ImpactProblem>& problems) {
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
    if (accepts(law.solve, pool().problems)) {
      benchmark::RegisterBenchmark(("planar_solve/" + std::string(law.name)).c_str(), bm_law,
                                   law.solve, std::cref(pool().problems))
          ->Unit(benchmark::kNanosecond);
    }
    if (accepts(law.solve, spatial_pool())) {
      benchmark::RegisterBenchmark(("spatial_solve/" + std::string(law.name)).c_str(), bm_law,
                                   law.solve, std::cref(spatial_pool()))
          ->Unit(benchmark::kNanosecond);
    }
    if (accepts(law.solve, landing_pool())) {
      benchmark::RegisterBenchmark(("landing_solve/" + std::string(law.name)).c_str(), bm_law,
                                   law.solve, std::cref(landing_pool()))
          ->Unit(benchmark::kNanosecond);
    }
  }
  for (const routh::LawEntry& law : routh::impact_laws()) {
    for (int drums : kColumnDrums) {
      if (!routh::covers(law.scope, routh::ContactDimension::planar, 2 * drums)) continue;
      benchmark::RegisterBenchmark(
          ("column_solve/" + std::string(law.name) + "/drums:" + std::to_string(drums)).c_str(),
          bm_law, law.solve, std::cref(column_pool(drums)))
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RegisterBenchmark("planar_solve/reference_cramer_stick", bm_cramer_stick_reference)
      ->Unit(benchmark::kNanosecond);

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
