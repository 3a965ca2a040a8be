#include "sim/static_friction.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace routh {

namespace {

constexpr int kMaxVariables = kMaxIndeterminacy + 1;  // z and m
// Vertices tried at most: two corners have C(7, 2) = 21, three contacts on a face C(10, 4) = 210.
constexpr long kMaxVertexCandidates = 4096;
// Constraints of a program whose vertices are enumerated: with d ≥ 1, C(count, 2) ≤ 4096.
constexpr int kMaxConstraints = 91;
static_assert(kMaxConstraints * (kMaxConstraints - 1) / 2 <= kMaxVertexCandidates &&
              (kMaxConstraints + 1) * kMaxConstraints / 2 > kMaxVertexCandidates);
// A vertex satisfies a constraint to this fraction of the magnitudes of its terms.
constexpr double kFeasibility = 1e-10;
// Vertices whose margins differ by less than this (relative) are equally good.
constexpr double kSameMargin = 1e-12;

/// The program (1) as rows a · (z, m) ≤ b, the last unknown being m.
struct MarginProgram {
  int variables = 0;  // d + 1
  int count = 0;
  std::array<std::array<double, kMaxVariables>, kMaxConstraints> a{};
  std::array<double, kMaxConstraints> b{};
  double total_weight = 0.0;  // Σ w_k

  /// Appends  Σ_j coefficients_j z_j + margin_weight m ≤ bound.
  template <class Row>
  void add(const Row& coefficients, double margin_weight, double bound) {
    auto& row = a[count];
    for (int j = 0; j + 1 < variables; ++j) row[j] = coefficients[j];
    row[variables - 1] = margin_weight;
    b[count++] = bound;
  }
};

// Builds (1): per sticking contact the two sides of its cone,
//     −(μs N_n ∓ N_t) z + w m ≤ μs λ0_n ∓ λ0_t,
// per contact −N_n z ≤ λ0_n (λ_n ≥ 0), and m ≤ 1. N_n, N_t are the contact's rows of N.
MarginProgram margin_program(const ContactVector& particular, const ContactMatrix& null_basis,
                             const SetContacts& contacts) {
  MarginProgram program;
  const int d = static_cast<int>(null_basis.cols());
  program.variables = d + 1;
  std::array<double, kMaxIndeterminacy> row{};
  for (const SetContact& contact : contacts) {
    const auto N_n = null_basis.row(contact.normal);
    const double load = particular[contact.normal];
    for (int j = 0; j < d; ++j) row[j] = -N_n[j];
    program.add(row, 0.0, load);
    if (contact.tangential < 0) continue;
    const double mu = contact.static_friction;
    const double weight = mu * std::max(load, 0.0);  // w_k = μs,k N̄_k
    program.total_weight += weight;
    const auto N_t = null_basis.row(contact.tangential);
    const double friction = particular[contact.tangential];
    for (const double side : {1.0, -1.0}) {
      for (int j = 0; j < d; ++j) row[j] = -(mu * N_n[j] - side * N_t[j]);
      program.add(row, weight, mu * load - side * friction);
    }
  }
  std::array<double, kMaxIndeterminacy> none{};
  program.add(none, 1.0, 1.0);
  return program;
}

/// Rows of (1): λ_n ≥ 0 per contact, both sides of the cone per sticking one, and m ≤ 1.
int constraint_count(const SetContacts& contacts) {
  int count = 1;
  for (const SetContact& contact : contacts) count += contact.tangential < 0 ? 1 : 3;
  return count;
}

long binomial(int n, int k) {
  long value = 1;
  for (int i = 1; i <= k; ++i) value = value * (n - k + i) / i;
  return value;
}

template <int D>
bool satisfies_all(const MarginProgram& program, const Eigen::Matrix<double, D, 1>& x) {
  for (int i = 0; i < program.count; ++i) {
    double lhs = 0.0, size = std::abs(program.b[i]);
    for (int j = 0; j < D; ++j) {
      lhs += program.a[i][j] * x[j];
      size += std::abs(program.a[i][j] * x[j]);
    }
    if (lhs - program.b[i] > kFeasibility * size) return false;
  }
  return true;
}

// Whether x has a greater m than `best`, or an equal m (to kSameMargin) and a smaller |z|.
template <int D>
bool better_vertex(const Eigen::Matrix<double, D, 1>& x,
                   const std::optional<Eigen::Matrix<double, D, 1>>& best) {
  if (!best) return true;
  const double m = x[D - 1], best_m = (*best)[D - 1];
  const double tie = kSameMargin * std::max(1.0, std::abs(best_m));
  if (m > best_m + tie) return true;
  return m >= best_m - tie &&
         x.template head<D - 1>().squaredNorm() < best->template head<D - 1>().squaredNorm();
}

// The vertex of (1) of greatest m (then least |z|): every D of the constraints, solved as
// equalities where their rows are independent (|det| above 1e-12 of Hadamard's bound); the
// feasibility of a vertex is checked only when it would improve on the best so far.
template <int D>
std::optional<Eigen::Matrix<double, D, 1>> best_vertex(const MarginProgram& program) {
  using Matrix = Eigen::Matrix<double, D, D>;
  using Vector = Eigen::Matrix<double, D, 1>;
  std::optional<Vector> best;
  std::array<int, D> pick{};
  for (int i = 0; i < D; ++i) pick[i] = i;
  while (true) {
    Matrix rows;
    Vector bounds;
    double hadamard = 1.0;
    for (int i = 0; i < D; ++i) {
      for (int j = 0; j < D; ++j) rows(i, j) = program.a[pick[i]][j];
      bounds[i] = program.b[pick[i]];
      hadamard *= rows.row(i).norm();
    }
    Matrix inverse;
    double determinant = 0.0;
    bool invertible = false;
    rows.computeInverseAndDetWithCheck(inverse, determinant, invertible, 1e-12 * hadamard);
    if (invertible) {
      const Vector x = inverse * bounds;
      if (better_vertex<D>(x, best) && satisfies_all<D>(program, x)) best = x;
    }
    int i = D - 1;  // the next combination in lexicographic order
    while (i >= 0 && pick[i] == program.count - D + i) --i;
    if (i < 0) break;
    ++pick[i];
    for (int j = i + 1; j < D; ++j) pick[j] = pick[j - 1] + 1;
  }
  return best;
}

// λ0 + N z* and R = m* Σ w of the best vertex; false when (1) is infeasible.
template <int D>
bool distribute_over_vertices(const ContactVector& particular, const ContactMatrix& null_basis,
                              const MarginProgram& program, StaticFrictionDistribution& out) {
  const auto vertex = best_vertex<D>(program);
  if (!vertex) return false;
  out.forces.noalias() = particular + null_basis * vertex->template head<D - 1>();
  out.stick_reserve = (*vertex)[D - 1] * program.total_weight;
  return true;
}

// The per-contact rule on λ0, for sets the enumeration does not take: the least μs λ_n − |λ_t|.
double least_contact_margin(const ContactVector& particular, const SetContacts& contacts) {
  double least = std::numeric_limits<double>::infinity();
  for (const SetContact& contact : contacts) {
    if (contact.tangential < 0) continue;
    least = std::min(least, contact.static_friction * particular[contact.normal] -
                                std::abs(particular[contact.tangential]));
  }
  return least;
}

}  // namespace

void distribute_static_friction(const ContactVector& particular, const ContactMatrix& null_basis,
                                const SetContacts& contacts, StaticFrictionDistribution& out) {
  out.forces = particular;
  out.stick_reserve = std::numeric_limits<double>::infinity();
  const int d = static_cast<int>(null_basis.cols());
  const int count = constraint_count(contacts);
  // fewer constraints than unknowns (z, m) bound no vertex: the program has no optimum to find
  if (d < 1 || d > kMaxIndeterminacy || count < d + 1 || count > kMaxConstraints ||
      binomial(count, d + 1) > kMaxVertexCandidates) {
    out.stick_reserve = least_contact_margin(particular, contacts);
    return;
  }
  const MarginProgram program = margin_program(particular, null_basis, contacts);
  bool feasible = false;
  switch (d) {
    case 1: feasible = distribute_over_vertices<2>(particular, null_basis, program, out); break;
    case 2: feasible = distribute_over_vertices<3>(particular, null_basis, program, out); break;
    default: feasible = distribute_over_vertices<4>(particular, null_basis, program, out); break;
  }
  if (!feasible) {  // (d): some λ0_n ≤ 0, the lift-off decides
    out.forces = particular;
    out.stick_reserve = std::numeric_limits<double>::infinity();
  }
}

}  // namespace routh
