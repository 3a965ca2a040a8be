#include "sim/simulation/contact_forces.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "sim/simulation/spatial_static_friction.hpp"

namespace routh {

namespace {

// Up to two planar bodies' velocities (a block, a block on a block) there is nothing to split
// into islands and no zero in a contact row to skip: the dense solve, without the bookkeeping,
// serves one rocking block best.
constexpr Eigen::Index kSmallSystemVelocities = 6;

// The rows per contact of `kinematics`: 2 planar, 3 spatial.
int rows_per_contact_of(const ContactKinematics& kinematics) {
  return kinematics.gap.size() == 0
             ? 2
             : static_cast<int>(kinematics.jacobian.rows() / kinematics.gap.size());
}

// The force unknowns of a contact in `mode`: every row of a sticking one, the normal of a
// sliding one (its friction is tied to it), none of an open one.
int unknowns_of(ContactMode mode, int rows_per_contact) {
  return mode == ContactMode::stick ? rows_per_contact : (is_closed(mode) ? 1 : 0);
}

// Counts the constraint rows (= force unknowns) of the closed contacts.
int unknown_count(const std::vector<ContactMode>& modes, int rows_per_contact) {
  int count = 0;
  for (const ContactMode mode : modes) count += unknowns_of(mode, rows_per_contact);
  return count;
}

// The unit tangential direction a sliding contact's friction opposes, in its tangential rows'
// frame: σ for a planar one, û for a spatial one.
Eigen::Vector2d friction_direction(ContactMode mode, std::size_t k, const SlipDirections& slips) {
  if (mode == ContactMode::slide) return slips[k];
  return {slip_direction(mode), 0.0};
}

// Fills J_c, W and J̇_c v for the closed contacts, in contact order.
void assemble_constraints(const ContactKinematics& kinematics,
                          const std::vector<ContactMode>& modes,
                          const ContactParameterTable& parameters, const SlipDirections& slips,
                          ContactForceWorkspace& ws) {
  const auto n = kinematics.jacobian.cols();
  // contact k's rows in the stacked kinematics: its normal, then its tangential row(s)
  const int rows_per_contact = rows_per_contact_of(kinematics);
  const int unknowns = unknown_count(modes, rows_per_contact);
  ws.constraint_rows.resize(unknowns, n);
  ws.force_directions.resize(n, unknowns);
  ws.velocity_product.resize(unknowns);
  int row = 0;
  for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
    if (!is_closed(modes[k])) continue;
    const auto r = k * rows_per_contact;
    const auto J_n = kinematics.jacobian.row(r);
    ws.constraint_rows.row(row) = J_n;
    ws.velocity_product[row] = kinematics.jacobian_dot_v[r];
    if (modes[k] == ContactMode::stick) {
      ws.force_directions.col(row) = J_n.transpose();
      for (int t = 1; t < rows_per_contact; ++t) {
        ws.constraint_rows.row(row + t) = kinematics.jacobian.row(r + t);
        ws.velocity_product[row + t] = kinematics.jacobian_dot_v[r + t];
        ws.force_directions.col(row + t) = kinematics.jacobian.row(r + t).transpose();
      }
      row += rows_per_contact;
    } else {
      // Coulomb sliding: λ_t = −μd û λ_n, so the one unknown λ_n acts along
      // J_nᵀ − μd (û₁ J_t1ᵀ + û₂ J_t2ᵀ) (planar: û = σ, one tangential row).
      const Eigen::Vector2d slip = friction_direction(modes[k], static_cast<std::size_t>(k), slips);
      ws.force_directions.col(row) = J_n.transpose();
      for (int t = 1; t < rows_per_contact; ++t) {
        ws.force_directions.col(row) -= parameters[k].kinetic_friction * slip[t - 1] *
                                        kinematics.jacobian.row(r + t).transpose();
      }
      row += 1;
    }
  }
}

// Distributes the solved unknowns back to per-contact normal and tangential forces.
void scatter_forces(const std::vector<ContactMode>& modes, const ContactParameterTable& parameters,
                    const SlipDirections& slips, int rows_per_contact,
                    const Eigen::Ref<const Eigen::VectorXd>& lambda,
                    std::vector<ContactForce>& forces) {
  forces.assign(modes.size(), ContactForce{});
  int row = 0;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (!is_closed(modes[k])) continue;
    forces[k].normal = lambda[row];
    if (modes[k] == ContactMode::stick) {
      forces[k].tangential = lambda[row + 1];
      if (rows_per_contact > 2) forces[k].tangential_2 = lambda[row + 2];
    } else {
      const Eigen::Vector2d slip = friction_direction(modes[k], k, slips);
      forces[k].tangential = -parameters[k].kinetic_friction * slip[0] * lambda[row];
      forces[k].tangential_2 = -parameters[k].kinetic_friction * slip[1] * lambda[row];
      if (modes[k] == ContactMode::slide) forces[k].slip = slip;
    }
    row += unknowns_of(modes[k], rows_per_contact);
  }
}

// Replaces the minimum-norm forces of an indeterminate spatial set by the distribution of
// spatial_static_friction.hpp and reports its stick reserve. The set is every closed contact the
// force-free directions move.
void distribute_spatial_set(const std::vector<ContactMode>& modes,
                            const ContactParameterTable& parameters, const SlipDirections& slips,
                            ContactForceWorkspace& ws, ConstrainedAcceleration& out);

// M⁻¹ into ws.inverse_mass, unless M is the matrix inverted last: a free body's M is constant,
// so its inverse is formed once per run (and, when the system says M is constant, without
// comparing its n² entries at every evaluation). With M⁻¹ at hand every solve with M is a
// product, which at the few coordinates of a planar model costs a fraction of two triangular
// substitutions (Eigen's set-up, and the stalls of their chained loads and stores).
void invert_mass_matrix(const Eigen::MatrixXd& M, ContactForceWorkspace& ws) {
  const Eigen::MatrixXd& last = ws.inverted_mass_matrix;
  if (last.size() == M.size() &&
      (ws.constant_mass_matrix || std::equal(M.data(), M.data() + M.size(), last.data())))
    return;
  ws.inverted_mass_matrix = M;
  find_mechanisms(M, ws.mechanisms);
  ws.mass.compute(M);
  ws.inverse_mass.setIdentity(M.rows(), M.cols());
  ws.mass.solveInPlace(ws.inverse_mass);
}

// M⁻¹ f: M⁻¹ is block diagonal over the mechanisms, so beyond one or two bodies it is applied
// one block at a time, and many free bodies cost the sum of their blocks, not n².
void apply_inverse_mass(const ContactForceWorkspace& ws, const Eigen::VectorXd& f,
                        Eigen::VectorXd& out) {
  const Eigen::Index n = f.size();
  const auto mechanisms = static_cast<std::size_t>(ws.mechanisms.count());
  if (n <= kSmallSystemVelocities || mechanisms == 1) {
    out.noalias() = ws.inverse_mass.lazyProduct(f);
    return;
  }
  out.resize(n);
  for (std::size_t m = 0; m < mechanisms; ++m) {
    const int first = ws.mechanisms.start[m], end = ws.mechanisms.start[m + 1];
    for (int a = first; a < end; ++a) {
      const int i = ws.mechanisms.velocities[static_cast<std::size_t>(a)];
      double sum = 0.0;
      for (int b = first; b < end; ++b) {
        const int j = ws.mechanisms.velocities[static_cast<std::size_t>(b)];
        sum += ws.inverse_mass(i, j) * f[j];
      }
      out[i] = sum;
    }
  }
}

// λ from A λ = b; false when A is singular and b is not in its range. Several closed contacts on
// one body are statically indeterminate (a block sticking on both corners: four constraint rows,
// three degrees of freedom): A is singular but the constraints are consistent, and the
// minimum-norm forces are one valid distribution. Only a residual says the modes cannot hold
// (Painlevé's paradox). Full-pivot LU gives the solution of a regular A, and of a singular one a
// particular solution and the null space of A, whose part it then removes: the solution
// orthogonal to the null space is the one of least norm. (A complete orthogonal decomposition
// gives the same at several times the cost.) `Matrix` is A's type: fixed 1 × 1 or 2 × 2 for one
// closed contact, the common case, where Eigen's fixed-size LU decides the rank (with the same
// threshold) at a fraction of the general one's cost and a regular A is inverted in closed form;
// up to the contact-space capacity the scratch lives on the stack, beyond it (a stack of blocks)
// on the heap.
template <class Matrix>
bool solve_force_unknowns(ContactForceWorkspace& ws) {
  using Kernel = std::conditional_t<Matrix::MaxRowsAtCompileTime == Eigen::Dynamic, Eigen::MatrixXd,
                                    InlineContactMatrix>;
  const Eigen::FullPivLU<Matrix> lu(ws.A);
  if (lu.isInvertible()) {  // A λ = b holds to round-off
    ws.null_basis.resize(ws.A.rows(), 0);
    if constexpr (Matrix::RowsAtCompileTime == Eigen::Dynamic) {
      ws.lambda = lu.solve(ws.b);
    } else {
      ws.lambda = Matrix(ws.A).inverse() * ws.b;
    }
    return true;
  }
  ws.lambda = lu.solve(ws.b);
  const Kernel N = lu.kernel();
  ws.null_basis = N;
  ws.lambda -= N * (N.transpose() * N).ldlt().solve(N.transpose() * ws.lambda);
  constexpr double kConsistency = 1e-9;
  return (ws.A.lazyProduct(ws.lambda) - ws.b).norm() <=
         kConsistency * (ws.b.norm() + ws.A.norm() * ws.lambda.norm());
}

bool solve_force_unknowns(ContactForceWorkspace& ws) {
  switch (ws.A.rows()) {
    case 1: return solve_force_unknowns<Eigen::Matrix<double, 1, 1>>(ws);
    case 2: return solve_force_unknowns<Eigen::Matrix2d>(ws);
    default:
      if (ws.A.rows() <= kInlineContactRows) return solve_force_unknowns<InlineContactMatrix>(ws);
      return solve_force_unknowns<Eigen::MatrixXd>(ws);
  }
}

// N, the null directions of A that move no body (W N = 0), into ws.force_free. When every
// closed contact sticks, all of ker A (W = J_cᵀ; see contact_forces.hpp). Otherwise N = N_A K
// with K a basis of ker(W N_A), found as the kernel of the d × d Gram matrix
// H = (W N_A)ᵀ (W N_A) = N_Aᵀ (Wᵀ W) N_A; all of ker A when |W N_A|² = tr H is negligible
// against |W|² |N_A|². Negligible is set by geometry, not by arithmetic: contacts touch within
// the contact distance (1e-9 m), so two corners on one face sit up to that far off its line, and
// moving tangential force between them turns the body with that lever, 1e-8 of a 0.1 m block's
// size. Below 1e-7 of |W| |N_A| a direction moves no body to the resolution at which contacts
// are closed; a 1 × 1 H's own pivot could not tell (its rank is 1 unless exactly 0).
template <class Matrix>
void find_force_free_directions_as(ContactForceWorkspace& ws) {
  const Matrix gram_W = ws.force_directions.transpose().lazyProduct(ws.force_directions);
  const Matrix H = ws.null_basis.transpose() * gram_W * ws.null_basis;
  constexpr double kRoundOff = 1e-14;  // |W N_A| below 1e-7 of |W| |N_A|
  if (H.trace() <= kRoundOff * gram_W.trace() * ws.null_basis.squaredNorm()) {
    ws.force_free = ws.null_basis;
    return;
  }
  Eigen::FullPivLU<Matrix> lu(H);
  lu.setThreshold(1e-14);  // eigenvalues of H: squared singular values of W N_A
  if (lu.rank() == H.rows()) {
    ws.force_free.resize(ws.null_basis.rows(), 0);
    return;
  }
  ws.force_free = ws.null_basis * Matrix(lu.kernel());
}

void find_force_free_directions(const std::vector<ContactMode>& modes, ContactForceWorkspace& ws) {
  const bool all_stick = std::none_of(modes.begin(), modes.end(), is_sliding);
  if (all_stick) {
    ws.force_free = ws.null_basis;
    return;
  }
  if (ws.force_directions.cols() <= kInlineContactRows) {
    find_force_free_directions_as<InlineContactMatrix>(ws);
  } else {
    find_force_free_directions_as<Eigen::MatrixXd>(ws);
  }
}

// The closed contacts whose unknowns N moves, with where those sit in λ; true when one of them
// sticks (only then is there static friction to distribute).
bool collect_indeterminate_set(const std::vector<ContactMode>& modes,
                               const ContactParameterTable& parameters, ContactForceWorkspace& ws) {
  ws.set_contacts.clear();
  ws.set_members.clear();
  if (ws.force_free.cols() == 0) return false;
  constexpr double kMoved = 1e-10;  // rows of N below this fraction of its largest entry are 0
  const double moved = kMoved * ws.force_free.cwiseAbs().maxCoeff();
  bool sticks = false;
  int row = 0;
  for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
    if (!is_closed(modes[k])) continue;
    const int rows = modes[k] == ContactMode::stick ? 2 : 1;
    if (ws.force_free.middleRows(row, rows).cwiseAbs().maxCoeff() > moved) {
      ws.set_contacts.push_back(
          {row, rows == 2 ? row + 1 : -1, parameters[static_cast<std::size_t>(k)].static_friction});
      ws.set_members.push_back(k);
      sticks = sticks || rows == 2;
    }
    row += rows;
  }
  return sticks;
}

// The independent sets of a force-free space too large for one distribution, each distributed
// on its own. Two closed contacts are in one set when the orthogonal projector onto the space,
// P = N (NᵀN)⁻¹ Nᵀ, couples one's unknowns with the other's: a space that is the sum of parts on
// disjoint unknowns (a stack's interfaces) has orthogonal parts and a P block-diagonal over them,
// and P's block over a set's unknowns is the projector onto its part, whose independent columns
// are a basis of it. Each set within the stage's capacity gets the distribution of
// static_friction.hpp and its own reserve R; a larger one keeps its minimum-norm forces.
void distribute_independent_sets(const std::vector<ContactMode>& modes,
                                 const ContactParameterTable& parameters, ContactForceWorkspace& ws,
                                 ConstrainedAcceleration& out) {
  const Eigen::MatrixXd& N = ws.force_free;
  const auto K = static_cast<int>(modes.size());
  std::vector<int> contact_of(static_cast<std::size_t>(N.rows())), first_row(modes.size(), -1);
  for (int k = 0, row = 0; k < K; ++k) {
    if (!is_closed(modes[k])) continue;
    first_row[static_cast<std::size_t>(k)] = row;
    const int rows = modes[k] == ContactMode::stick ? 2 : 1;
    for (int r = 0; r < rows; ++r) contact_of[static_cast<std::size_t>(row + r)] = k;
    row += rows;
  }
  const Eigen::MatrixXd P = N * (N.transpose() * N).ldlt().solve(N.transpose());
  // entries of P below this fraction of its largest are 0: corners that touch within the contact
  // distance (1e-9 m) off one line couple one interface's squeeze to its neighbours' by 1e-9 of
  // geometry, not by a shared contact (the threshold static_friction.cpp applies to its groups)
  constexpr double kCoupled = 1e-7;
  const double coupled = kCoupled * P.cwiseAbs().maxCoeff();
  std::vector<int> set_of(modes.size());
  for (int k = 0; k < K; ++k) set_of[static_cast<std::size_t>(k)] = k;
  const auto root = [&](int k) {
    while (set_of[static_cast<std::size_t>(k)] != k) k = set_of[static_cast<std::size_t>(k)];
    return k;
  };
  // an unknown the space does not move (P_aa = |P e_a|² of round-off) is in no set, and its
  // round-off entries |P_ab| ≤ (P_aa P_bb)^½ couple nothing
  std::vector<bool> moved(modes.size(), false);
  for (Eigen::Index a = 0; a < N.rows(); ++a) {
    if (!(P(a, a) > coupled)) continue;
    const int k = contact_of[static_cast<std::size_t>(a)];
    moved[static_cast<std::size_t>(k)] = true;
    for (Eigen::Index b = 0; b < a; ++b) {
      if (P(b, b) > coupled && std::abs(P(a, b)) > coupled)
        set_of[static_cast<std::size_t>(root(k))] = root(contact_of[static_cast<std::size_t>(b)]);
    }
  }
  Eigen::VectorXd lambda = ws.lambda;
  std::vector<double> reserve(modes.size(), std::numeric_limits<double>::infinity());
  std::vector<bool> distributed(modes.size(), false);
  for (int r = 0; r < K; ++r) {
    if (!moved[static_cast<std::size_t>(r)] || root(r) != r) continue;
    std::vector<int> members, unknowns;
    SetContacts contacts;
    bool sticks = false, fits = true;
    for (int k = 0; k < K; ++k) {
      if (!moved[static_cast<std::size_t>(k)] || root(k) != r) continue;
      const bool stick = modes[k] == ContactMode::stick;
      const int at = static_cast<int>(unknowns.size());
      fits = fits && contacts.size() < kInlineContacts && at + 2 <= kInlineContactRows;
      if (!fits) break;
      members.push_back(k);
      contacts.push_back(
          {at, stick ? at + 1 : -1, parameters[static_cast<std::size_t>(k)].static_friction});
      for (int i = 0; i < (stick ? 2 : 1); ++i)
        unknowns.push_back(first_row[static_cast<std::size_t>(k)] + i);
      sticks = sticks || stick;
    }
    if (!fits || !sticks) continue;
    const auto size = static_cast<Eigen::Index>(unknowns.size());
    InlineContactMatrix projector(size, size);
    ContactVector particular(size);
    for (Eigen::Index i = 0; i < size; ++i) {
      particular[i] = ws.lambda[unknowns[static_cast<std::size_t>(i)]];
      for (Eigen::Index j = 0; j < size; ++j)
        projector(i, j) =
            P(unknowns[static_cast<std::size_t>(i)], unknowns[static_cast<std::size_t>(j)]);
    }
    Eigen::FullPivLU<InlineContactMatrix> lu(projector);
    lu.setThreshold(1e-8);  // the eigenvalues of a projector are 0 and 1
    if (lu.rank() == 0 || lu.rank() > kMaxIndeterminacy) continue;
    const ContactMatrix basis(lu.image(projector));
    distribute_static_friction(particular, basis, contacts, ws.distribution);
    for (Eigen::Index i = 0; i < size; ++i)
      lambda[unknowns[static_cast<std::size_t>(i)]] = ws.distribution.forces[i];
    for (const int k : members) {
      distributed[static_cast<std::size_t>(k)] = true;
      reserve[static_cast<std::size_t>(k)] = ws.distribution.stick_reserve;
    }
  }
  scatter_forces(modes, parameters, {}, 2, lambda, out.forces);
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (!distributed[k]) continue;
    out.forces[k].in_indeterminate_set = true;
    out.forces[k].stick_reserve = reserve[k];
    out.stick_reserve = std::min(out.stick_reserve, reserve[k]);
  }
}

// Replaces the minimum-norm forces of an indeterminate sticking set by the distribution of
// static_friction.hpp and reports its stick reserve; determinate contacts keep theirs.
void distribute_indeterminate_set(const std::vector<ContactMode>& modes,
                                  const ContactParameterTable& parameters,
                                  ContactForceWorkspace& ws, ConstrainedAcceleration& out) {
  find_force_free_directions(modes, ws);
  if (ws.force_free.cols() == 0) return;
  if (ws.lambda.size() > kInlineContactRows || ws.force_free.cols() > kMaxIndeterminacy) {
    distribute_independent_sets(modes, parameters, ws, out);
    return;
  }
  if (!collect_indeterminate_set(modes, parameters, ws)) return;
  const ContactVector particular = ws.lambda;
  const ContactMatrix force_free = ws.force_free;
  distribute_static_friction(particular, force_free, ws.set_contacts, ws.distribution);
  scatter_forces(modes, parameters, {}, 2, ws.distribution.forces, out.forces);
  for (const int k : ws.set_members) {
    out.forces[static_cast<std::size_t>(k)].in_indeterminate_set = true;
    out.forces[static_cast<std::size_t>(k)].stick_reserve = ws.distribution.stick_reserve;
  }
  out.stick_reserve = ws.distribution.stick_reserve;
}

void distribute_spatial_set(const std::vector<ContactMode>& modes,
                            const ContactParameterTable& parameters, const SlipDirections& slips,
                            ContactForceWorkspace& ws, ConstrainedAcceleration& out) {
  find_force_free_directions(modes, ws);
  if (ws.force_free.cols() == 0) return;
  constexpr double kMoved = 1e-10;  // rows of N below this fraction of its largest entry are 0
  const double moved = kMoved * ws.force_free.cwiseAbs().maxCoeff();
  std::vector<SpatialSetContact> set;
  std::vector<int> members;
  bool sticks = false;
  for (int k = 0, row = 0; k < static_cast<int>(modes.size()); ++k) {
    const int unknowns = unknowns_of(modes[k], 3);
    if (unknowns == 0) continue;
    if (ws.force_free.middleRows(row, unknowns).cwiseAbs().maxCoeff() > moved) {
      const bool stick = modes[k] == ContactMode::stick;
      set.push_back({row, stick, parameters[static_cast<std::size_t>(k)].static_friction});
      members.push_back(k);
      sticks = sticks || stick;
    }
    row += unknowns;
  }
  if (!sticks) return;
  Eigen::VectorXd lambda = ws.lambda;
  const double reserve = distribute_spatial_static_friction(set, ws.force_free, lambda);
  scatter_forces(modes, parameters, slips, 3, lambda, out.forces);
  for (const int k : members) {
    out.forces[static_cast<std::size_t>(k)].in_indeterminate_set = true;
    out.forces[static_cast<std::size_t>(k)].stick_reserve = reserve;
  }
  out.stick_reserve = std::min(out.stick_reserve, reserve);
}

}  // namespace

bool any_closed(const std::vector<ContactMode>& modes) {
  return std::any_of(modes.begin(), modes.end(), is_closed);
}

namespace {

// The indices of the nonzero entries of the vectors column(0) … column(columns − 1), concatenated,
// into `entries`, with column j's in [start[j], start[j + 1]).
template <class Column>
void nonzero_pattern(Eigen::Index columns, const Column& column, std::vector<int>& entries,
                     std::vector<int>& start) {
  entries.clear();
  start.assign(1, 0);
  for (Eigen::Index j = 0; j < columns; ++j) {
    const auto c = column(j);
    for (Eigen::Index i = 0; i < c.size(); ++i) {
      if (c[i] != 0.0) entries.push_back(static_cast<int>(i));
    }
    start.push_back(static_cast<int>(entries.size()));
  }
}

// M⁻¹ W and A = J_c M⁻¹ W, summed over the nonzero entries of J_c, W and M⁻¹ only. A contact's
// row touches its two bodies' velocities (six of a stack's sixty), and M⁻¹ is block diagonal
// over the mechanisms (a free body's three velocities are three of them), so each column of
// M⁻¹ W is nonzero on the few velocities of its contact's bodies, and A couples two unknowns only
// when their contacts share a body: a column of A has about twenty nonzero entries of a 20-drum
// column's eighty. Each column of M⁻¹ W sums its few columns of M⁻¹ over their nonzero entries,
// and each entry of A that may be nonzero is the dot product of its row of J_c with that column
// over the row's nonzero entries, in the dense products' order; the terms left out are products
// with exact zeros, so the sums are the dense products' sums without their zero terms (their
// order of summation may differ from a blocked dense product by round-off), and an entry of two
// contacts that share no body is exactly 0. Both products then cost O(u) for u force unknowns
// instead of the dense O(u n²) and O(u² n).
void multiply_by_contact_rows(const Eigen::MatrixXd& inverse_mass, ContactForceWorkspace& ws) {
  const Eigen::Index n = inverse_mass.rows(), unknowns = ws.force_directions.cols();
  const Eigen::MatrixXd &W = ws.force_directions, &J = ws.constraint_rows;
  if (n <= kSmallSystemVelocities) {
    ws.inverse_mass_W.noalias() = inverse_mass.lazyProduct(W);
    ws.A.noalias() = J.lazyProduct(ws.inverse_mass_W);
    return;
  }
  nonzero_pattern(
      unknowns, [&](Eigen::Index j) { return W.col(j); }, ws.direction_entries, ws.direction_start);
  ws.row_transposed = J.transpose();
  nonzero_pattern(
      unknowns, [&](Eigen::Index i) { return ws.row_transposed.col(i); }, ws.row_entries,
      ws.row_start);
  nonzero_pattern(
      n, [&](Eigen::Index c) { return inverse_mass.col(c); }, ws.mass_entries, ws.mass_start);
  // the rows of J_c each velocity appears in, ascending
  std::vector<int>& next = ws.grouping_scratch;
  group_by_label(
      static_cast<int>(ws.row_entries.size()), static_cast<int>(n),
      [&](int e) { return ws.row_entries[static_cast<std::size_t>(e)]; }, ws.velocity_rows,
      ws.velocity_row_start, next);
  std::vector<int>& row_of_entry = next;  // reused: the row of each entry of the row pattern
  row_of_entry.resize(ws.row_entries.size());
  for (Eigen::Index i = 0; i < unknowns; ++i) {
    for (int e = ws.row_start[static_cast<std::size_t>(i)];
         e < ws.row_start[static_cast<std::size_t>(i) + 1]; ++e)
      row_of_entry[static_cast<std::size_t>(e)] = static_cast<int>(i);
  }
  for (int& entry : ws.velocity_rows) entry = row_of_entry[static_cast<std::size_t>(entry)];
  ws.inverse_mass_W.setZero(n, unknowns);
  ws.A.setZero(unknowns, unknowns);
  ws.row_mark.assign(static_cast<std::size_t>(unknowns), -1);
  for (Eigen::Index j = 0; j < unknowns; ++j) {
    const auto column = static_cast<std::size_t>(j);
    ws.coupled_rows.clear();
    for (int e = ws.direction_start[column]; e < ws.direction_start[column + 1]; ++e) {
      const int c = ws.direction_entries[static_cast<std::size_t>(e)];
      const double w = W(c, j);
      for (int f = ws.mass_start[static_cast<std::size_t>(c)];
           f < ws.mass_start[static_cast<std::size_t>(c) + 1]; ++f) {
        const int r = ws.mass_entries[static_cast<std::size_t>(f)];
        ws.inverse_mass_W(r, j) += w * inverse_mass(r, c);
        // the rows that read velocity r: their entries of A in column j may be nonzero
        for (int g = ws.velocity_row_start[static_cast<std::size_t>(r)];
             g < ws.velocity_row_start[static_cast<std::size_t>(r) + 1]; ++g) {
          const int i = ws.velocity_rows[static_cast<std::size_t>(g)];
          if (ws.row_mark[static_cast<std::size_t>(i)] == j) continue;
          ws.row_mark[static_cast<std::size_t>(i)] = static_cast<int>(j);
          ws.coupled_rows.push_back(i);
        }
      }
    }
    for (const int i : ws.coupled_rows) {
      double entry = 0.0;
      for (int e = ws.row_start[static_cast<std::size_t>(i)];
           e < ws.row_start[static_cast<std::size_t>(i) + 1]; ++e) {
        const int c = ws.row_entries[static_cast<std::size_t>(e)];
        entry += J(i, c) * ws.inverse_mass_W(c, j);
      }
      ws.A(i, j) = entry;
    }
  }
}

// A = J_c M⁻¹ W from the model's factor G of M⁻¹ = Gᵀ G (InverseMass::solve_half()):
// A = (G J_cᵀ)ᵀ (G W), one inward pass per column for a tree. When every closed contact sticks,
// W = J_cᵀ and A = (G W)ᵀ (G W). (Coefficient-wise products: at these sizes the blocked
// kernels' set-up outweighs the flops.)
void multiply_by_contact_rows(const InverseMass& inverse_mass, bool all_stick,
                              ContactForceWorkspace& ws) {
  ws.half_solved_W = ws.force_directions;
  inverse_mass.solve_half(ws.half_solved_W);
  if (all_stick) {
    ws.A.noalias() = ws.half_solved_W.transpose().lazyProduct(ws.half_solved_W);
    return;
  }
  ws.row_transposed = ws.constraint_rows.transpose();
  inverse_mass.solve_half(ws.row_transposed);
  ws.A.noalias() = ws.row_transposed.transpose().lazyProduct(ws.half_solved_W);
}

// The closed contacts' forces and their share of v̇ for one island (or the whole system):
// `kinematics`, `modes` and `parameters` hold the island's contacts, `inverse_mass` its block of
// M⁻¹ (or `by_model`, the model's M⁻¹ of the whole system) and `acceleration` its part of M⁻¹ f
// on entry, v̇ on return.
void solve_island(const ContactKinematics& kinematics, const std::vector<ContactMode>& modes,
                  const ContactParameterTable& parameters, const Eigen::MatrixXd& inverse_mass,
                  const InverseMass* by_model, const SlipDirections& slips,
                  ContactForceWorkspace& ws, ConstrainedAcceleration& out) {
  assemble_constraints(kinematics, modes, parameters, slips, ws);
  const int rows_per_contact = rows_per_contact_of(kinematics);
  if (by_model) {
    multiply_by_contact_rows(*by_model, std::none_of(modes.begin(), modes.end(), is_sliding), ws);
  } else {
    multiply_by_contact_rows(inverse_mass, ws);
  }
  ws.b.noalias() = -ws.constraint_rows.lazyProduct(out.acceleration) - ws.velocity_product;
  out.stick_reserve = std::numeric_limits<double>::infinity();
  out.consistent = solve_force_unknowns(ws);
  if (!out.consistent) {  // the free acceleration stands
    out.forces.assign(modes.size(), ContactForce{});
    return;
  }
  if (by_model) {  // M⁻¹ W λ as one solve
    ws.constraint_force.noalias() = ws.force_directions * ws.lambda;
    by_model->solve(ws.constraint_force);
    out.acceleration += ws.constraint_force;
  } else {
    out.acceleration.noalias() += ws.inverse_mass_W.lazyProduct(ws.lambda);
  }
  scatter_forces(modes, parameters, slips, rows_per_contact, ws.lambda, out.forces);
  if (ws.null_basis.cols() == 0) return;
  if (rows_per_contact > 2) {
    distribute_spatial_set(modes, parameters, slips, ws, out);
  } else {
    distribute_indeterminate_set(modes, parameters, ws, out);
  }
}

// Island i's contacts, columns of the kinematics, block of M⁻¹ and part of M⁻¹ f, gathered into
// ws.island so that it is solved as a system of its own.
void gather_island(const StateQuantities& state, const std::vector<ContactMode>& modes,
                   const ContactParameterTable& parameters, const SlipDirections& slips,
                   const ConstrainedAcceleration& free, int i, ContactForceWorkspace& ws) {
  const ContactIslands& islands = ws.islands;
  IslandProblem& island = ws.island;
  const ContactKinematics& all = state.contacts;
  const auto rows_per_contact = all.jacobian.rows() / all.gap.size();
  const auto first_contact =
      static_cast<std::size_t>(islands.contact_start[static_cast<std::size_t>(i)]);
  const auto contacts =
      static_cast<Eigen::Index>(islands.contact_start[static_cast<std::size_t>(i) + 1] -
                                islands.contact_start[static_cast<std::size_t>(i)]);
  const auto first_velocity =
      static_cast<std::size_t>(islands.velocity_start[static_cast<std::size_t>(i)]);
  const auto velocities =
      static_cast<Eigen::Index>(islands.velocity_start[static_cast<std::size_t>(i) + 1] -
                                islands.velocity_start[static_cast<std::size_t>(i)]);
  const auto velocity = [&](Eigen::Index j) {
    return islands.velocities[first_velocity + static_cast<std::size_t>(j)];
  };
  island.kinematics.gap.resize(contacts);
  island.kinematics.jacobian.resize(rows_per_contact * contacts, velocities);
  island.kinematics.jacobian_dot_v.resize(rows_per_contact * contacts);
  island.modes.clear();
  island.slips.clear();
  island.parameters.clear();
  for (Eigen::Index c = 0; c < contacts; ++c) {
    const int k = islands.contacts[first_contact + static_cast<std::size_t>(c)];
    island.kinematics.gap[c] = all.gap[k];
    island.modes.push_back(modes[static_cast<std::size_t>(k)]);
    if (!slips.empty()) island.slips.push_back(slips[static_cast<std::size_t>(k)]);
    island.parameters.push_back(parameters[static_cast<std::size_t>(k)]);
    for (Eigen::Index r = 0; r < rows_per_contact; ++r) {
      const Eigen::Index from = k * rows_per_contact + r, to = c * rows_per_contact + r;
      island.kinematics.jacobian_dot_v[to] = all.jacobian_dot_v[from];
      for (Eigen::Index j = 0; j < velocities; ++j)
        island.kinematics.jacobian(to, j) = all.jacobian(from, velocity(j));
    }
  }
  island.inverse_mass.resize(velocities, velocities);
  island.out.acceleration.resize(velocities);
  for (Eigen::Index j = 0; j < velocities; ++j) {
    island.out.acceleration[j] = free.acceleration[velocity(j)];
    for (Eigen::Index l = 0; l < velocities; ++l)
      island.inverse_mass(l, j) = ws.inverse_mass(velocity(l), velocity(j));
  }
}

// Island i's solution back into the whole system's: its v̇ and its contacts' forces.
void scatter_island(int i, ContactForceWorkspace& ws, ConstrainedAcceleration& out) {
  const ContactIslands& islands = ws.islands;
  const ConstrainedAcceleration& solved = ws.island.out;
  const auto first_contact = islands.contact_start[static_cast<std::size_t>(i)];
  const auto first_velocity = islands.velocity_start[static_cast<std::size_t>(i)];
  for (Eigen::Index j = 0; j < solved.acceleration.size(); ++j) {
    out.acceleration[islands.velocities[static_cast<std::size_t>(first_velocity + j)]] =
        solved.acceleration[j];
  }
  for (std::size_t c = 0; c < solved.forces.size(); ++c) {
    out.forces[static_cast<std::size_t>(
        islands.contacts[static_cast<std::size_t>(first_contact) + c])] = solved.forces[c];
  }
  out.consistent = out.consistent && solved.consistent;
  out.stick_reserve = std::min(out.stick_reserve, solved.stick_reserve);
}

}  // namespace

void constrained_acceleration(const StateQuantities& state, const std::vector<ContactMode>& modes,
                              const ContactParameterTable& parameters, ContactForceWorkspace& ws,
                              ConstrainedAcceleration& out, const SlipDirections& slips) {
  if (state.inverse_mass) {  // one mechanism (MechanicalSystem::applies_inverse_mass())
    out.consistent = true;
    out.stick_reserve = std::numeric_limits<double>::infinity();
    out.acceleration = state.generalized_force;
    state.inverse_mass->solve(out.acceleration);  // M⁻¹ f
    out.forces.assign(modes.size(), ContactForce{});
    if (any_closed(modes))
      solve_island(state.contacts, modes, parameters, ws.inverse_mass, state.inverse_mass, slips,
                   ws, out);
    return;
  }
  // coefficient-wise products: at these sizes the blocked kernels' set-up outweighs the flops
  invert_mass_matrix(state.mass_matrix, ws);
  out.consistent = true;
  out.stick_reserve = std::numeric_limits<double>::infinity();
  apply_inverse_mass(ws, state.generalized_force, out.acceleration);  // M⁻¹ f
  out.forces.assign(modes.size(), ContactForce{});
  if (!any_closed(modes)) return;
  const bool one_mechanism = ws.mechanisms.count() == 1;
  if (one_mechanism || state.mass_matrix.rows() <= kSmallSystemVelocities) {  // one island
    solve_island(state.contacts, modes, parameters, ws.inverse_mass, nullptr, slips, ws, out);
    return;
  }
  ws.closed.assign(modes.size(), false);
  for (std::size_t k = 0; k < modes.size(); ++k) ws.closed[k] = is_closed(modes[k]);
  find_contact_islands(state.contacts, ws.closed, ws.mechanisms.of_velocity, ws.islands);
  if (ws.islands.count == 1 &&
      static_cast<Eigen::Index>(ws.islands.velocities.size()) == state.mass_matrix.rows()) {
    solve_island(state.contacts, modes, parameters, ws.inverse_mass, nullptr, slips, ws,
                 out);  // one system
    return;
  }
  for (int i = 0; i < ws.islands.count; ++i) {
    gather_island(state, modes, parameters, slips, out, i, ws);
    solve_island(ws.island.kinematics, ws.island.modes, ws.island.parameters,
                 ws.island.inverse_mass, nullptr, ws.island.slips, ws, ws.island.out);
    scatter_island(i, ws, out);
  }
}

}  // namespace routh
