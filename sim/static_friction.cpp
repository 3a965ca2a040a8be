#include "sim/static_friction.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace routh {

namespace {

constexpr int kMaxVariables = kMaxIndeterminacy + 1;  // z and m
// Vertices tried at most: two corners have C(7, 2) = 21, three contacts on a face C(10, 4) = 210.
constexpr long kMaxVertexCandidates = 4096;
// Constraints of a program whose vertices are enumerated: with d ≥ 1, C(count, 2) ≤ 4096.
constexpr int kMaxConstraints = 91;
static_assert(kMaxConstraints * (kMaxConstraints - 1) / 2 <= kMaxVertexCandidates &&
              (kMaxConstraints + 1) * kMaxConstraints / 2 > kMaxVertexCandidates);
// A vertex satisfies a constraint to this fraction of the magnitudes of its terms and of the
// set's largest force: λ0 and N come from a solve whose round-off is relative to the largest force
// of the set, so a contact's load of −4e-12 N beside loads of 30 N (a corner at its lift-off) is
// a zero. Measured on its own terms, λ_n ≥ 0 for that corner would demand an exact 0, and a
// round-off entry of 4e-15 in N coupling it to another pair's squeeze z would force z ≈ 1000 N
// there: the set's reserve came out at −2e4 N for a stack sticking with most of its friction left.
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
  double force_scale = 0.0;   // [N] the largest |λ0| of the set

  /// Appends  Σ_j coefficients_j z_j + margin_weight m ≤ bound.
  template <class Row>
  void add(const Row& coefficients, double margin_weight, double bound) {
    auto& row = a[count];
    for (int j = 0; j + 1 < variables; ++j) row[j] = coefficients[j];
    row[variables - 1] = margin_weight;
    b[count++] = bound;
  }
};

// w_k = μs,k N̄_k of a sticking contact, N̄_k = max(λ0_n,k, 0); 0 for a sliding one.
double margin_weight(const SetContact& contact, const ContactVector& particular) {
  if (contact.tangential < 0) return 0.0;
  return contact.static_friction * std::max(particular[contact.normal], 0.0);
}

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
    program.force_scale = std::max(program.force_scale, std::abs(load));
    if (contact.tangential >= 0) {
      program.force_scale = std::max(program.force_scale, std::abs(particular[contact.tangential]));
    }
    for (int j = 0; j < d; ++j) row[j] = -N_n[j];
    program.add(row, 0.0, load);
    if (contact.tangential < 0) continue;
    const double mu = contact.static_friction;
    const double weight = margin_weight(contact, particular);
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
    double lhs = 0.0, size = std::abs(program.b[i]) + program.force_scale;
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

// Whether (1) over d directions and `contacts` has vertices to enumerate: at least d + 1
// constraints, and few enough.
bool enumerable(int d, const SetContacts& contacts) {
  const int count = constraint_count(contacts);
  return d >= 1 && d <= kMaxIndeterminacy && count >= d + 1 && count <= kMaxConstraints &&
         binomial(count, d + 1) <= kMaxVertexCandidates;
}

// ---------------------------------------------------------------------------------------------
// Sets of many directions, split into independent groups

// Entries of the reduced basis below this fraction of its largest are zero. The directions come
// from a rank-deficient solve whose null space carries the geometry's own imperfection, not only
// round-off: contacts are closed within the contact distance (1e-9 m), so the two corners of a
// face may sit that far off one line, and the exact force-free squeeze of one interface then
// touches the unknowns of its neighbours with entries of 1e-9 (a 0.6 m drum's corners 6e-10 m
// apart in height coupled its interface to the floor contact by 1.3e-9). Below 1e-7 of the
// largest entry a direction moves a contact by nothing the closed contacts resolve (the
// threshold contact_forces.cpp applies to |W N_A| for the same reason), and must not join
// interfaces that share no contact into one program too large to enumerate.
constexpr double kMovedFraction = 1e-7;

/// The force-free directions of a large set, split into groups that move disjoint contacts, each
/// with its basis N_g (every row of λ, d_g ≤ kMaxIndeterminacy columns) and its contacts.
struct DirectionGroup {
  ContactMatrix null_basis;
  SetContacts contacts;
};

/// A reduced echelon form of Nᵀ (Gauss–Jordan with complete pivoting: each pivot the largest
/// entry left, so that a round-off entry is never a pivot): a basis of the same directions that
/// is the identity on its d pivot columns. When the subspace is a sum of parts on disjoint rows (a
/// column of blocks: each interface's squeeze of its own two corners), each of its vectors lies
/// in one part: its part in any other part vanishes at every pivot column, and the pivot columns
/// are coordinates of the subspace. Entries at round-off are exactly zero.
Eigen::MatrixXd reduced_directions(const ContactMatrix& null_basis) {
  Eigen::MatrixXd rows = null_basis.transpose();
  const double zero = kMovedFraction * rows.cwiseAbs().maxCoeff();
  std::vector<bool> pivoted(static_cast<std::size_t>(rows.cols()), false);
  for (Eigen::Index pivot_row = 0; pivot_row < rows.rows(); ++pivot_row) {
    Eigen::Index best_row = pivot_row, column = -1;
    double largest = zero;
    for (Eigen::Index j = 0; j < rows.cols(); ++j) {
      if (pivoted[static_cast<std::size_t>(j)]) continue;
      for (Eigen::Index i = pivot_row; i < rows.rows(); ++i) {
        if (std::abs(rows(i, j)) > largest)
          largest = std::abs(rows(i, j)), best_row = i, column = j;
      }
    }
    if (column < 0) break;
    pivoted[static_cast<std::size_t>(column)] = true;
    rows.row(pivot_row).swap(rows.row(best_row));
    rows.row(pivot_row) /= rows(pivot_row, column);
    for (Eigen::Index i = 0; i < rows.rows(); ++i) {
      if (i != pivot_row) rows.row(i) -= rows(i, column) * rows.row(pivot_row);
    }
  }
  for (Eigen::Index i = 0; i < rows.size(); ++i) {
    if (std::abs(rows.data()[i]) <= zero) rows.data()[i] = 0.0;
  }
  return rows;
}

/// Groups of directions that share no contact: a contact moved by two directions joins their
/// groups (union–find on the directions).
std::vector<DirectionGroup> independent_groups(const ContactMatrix& null_basis,
                                               const SetContacts& contacts) {
  const Eigen::MatrixXd directions = reduced_directions(null_basis);
  const auto d = static_cast<int>(directions.rows());
  std::vector<int> parent(static_cast<std::size_t>(d));
  for (int j = 0; j < d; ++j) parent[j] = j;
  const auto root = [&parent](int j) {
    while (parent[j] != j) j = parent[j] = parent[parent[j]];
    return j;
  };
  const auto moves = [&directions](int j, const SetContact& contact) {
    return directions(j, contact.normal) != 0.0 ||
           (contact.tangential >= 0 && directions(j, contact.tangential) != 0.0);
  };
  for (const SetContact& contact : contacts) {
    int first = -1;
    for (int j = 0; j < d; ++j) {
      if (!moves(j, contact)) continue;
      if (first < 0) first = j;
      parent[root(j)] = root(first);
    }
  }
  std::vector<DirectionGroup> groups;
  std::vector<int> group_of(static_cast<std::size_t>(d), -1);
  for (int j = 0; j < d; ++j) {
    int& group = group_of[root(j)];
    if (group < 0) {
      group = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    ContactMatrix& basis = groups[group].null_basis;
    const Eigen::Index columns = basis.cols();
    ContactMatrix widened(directions.cols(), columns + 1);
    if (columns > 0) widened.leftCols(columns) = basis;
    widened.col(columns) = directions.row(j).transpose();
    basis = std::move(widened);
  }
  for (const SetContact& contact : contacts) {
    for (int j = 0; j < d; ++j) {
      if (moves(j, contact)) {
        groups[group_of[root(j)]].contacts.push_back(contact);
        break;
      }
    }
  }
  return groups;
}

/// (1) for a set of more than kMaxIndeterminacy directions made of independent groups: the
/// program separates but for the common m, and since a smaller m only relaxes every constraint
/// (w ≥ 0), m* = min_g m*_g, each group keeping its own optimal z_g (feasible at m* too). False
/// when a group is itself beyond the enumeration, leaving `out` alone.
bool distribute_over_groups(const ContactVector& particular, const ContactMatrix& null_basis,
                            const SetContacts& contacts, StaticFrictionDistribution& out) {
  const std::vector<DirectionGroup> groups = independent_groups(null_basis, contacts);
  if (groups.size() < 2) return false;
  for (const DirectionGroup& group : groups) {
    if (!enumerable(static_cast<int>(group.null_basis.cols()), group.contacts)) return false;
  }
  ContactVector forces = particular;
  double margin = 1.0;  // m ≤ 1
  double total_weight = 0.0;
  for (const DirectionGroup& group : groups) {
    StaticFrictionDistribution part;
    distribute_static_friction(particular, group.null_basis, group.contacts, part);
    if (part.stick_reserve == std::numeric_limits<double>::infinity()) {
      out.forces = particular;  // (d): some λ0_n ≤ 0, the lift-off decides
      out.stick_reserve = part.stick_reserve;
      return true;
    }
    double weight = 0.0;
    for (const SetContact& contact : group.contacts) weight += margin_weight(contact, particular);
    if (weight > 0.0) margin = std::min(margin, part.stick_reserve / weight);
    total_weight += weight;
    forces += part.forces - particular;
  }
  out.forces = forces;
  out.stick_reserve = margin * total_weight;
  return true;
}

}  // namespace

void distribute_static_friction(const ContactVector& particular, const ContactMatrix& null_basis,
                                const SetContacts& contacts, StaticFrictionDistribution& out) {
  out.forces = particular;
  out.stick_reserve = std::numeric_limits<double>::infinity();
  const int d = static_cast<int>(null_basis.cols());
  if (d > 1 && distribute_over_groups(particular, null_basis, contacts, out)) return;
  if (!enumerable(d, contacts)) {
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
