#pragma once
// Fuzzing the impact laws. decode_law_problem turns arbitrary bytes into an impact problem of the
// kind the simulator hands a law, including the degenerate ones: D = J M⁻¹ Jᵀ from a random
// (possibly singular) M⁻¹ and a random J that may have more rows than degrees of freedom (D then
// singular), u⁻ = J v⁻, velocities and parameters that may be zero, at the edge of their ranges,
// at round-off level or at extreme scales; law_failure says what is wrong with a law's answer.
// Shared by the law fuzzer (impact_laws_fuzzer.cpp) and its regression tests
// (tests/test_fuzz_regressions.cpp), so
// that a saved input replays exactly.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include <exception>
#include <string>

#include "sim/impact/law_catalogue.hpp"
#include "sim/text.hpp"

namespace routh::fuzz {

/// Reads the bytes front to back; past their end every read gives zero bits.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::uint8_t byte() { return position_ < bytes_.size() ? bytes_[position_++] : 0; }

  /// A whole number in [0, count).
  int below(int count) { return static_cast<int>(byte() % static_cast<unsigned>(count)); }

  /// A fraction in [0, 1] from two bytes.
  double fraction() {
    const unsigned high = byte();
    return static_cast<double>(high * 256u + byte()) / 65535.0;
  }

  /// A number in [-1, 1] that is sometimes exactly 0, ±1 or at round-off level.
  double signed_unit() {
    switch (below(8)) {
      case 0: return 0.0;
      case 1: return 1.0;
      case 2: return -1.0;
      case 3: return (fraction() - 0.5) * 1e-15;
      default: return 2.0 * fraction() - 1.0;
    }
  }

  /// 10^k for k in [-12, 12]: the scale of a group of values.
  double scale() { return std::pow(10.0, below(25) - 12); }

  /// A number in [0, 1] that is sometimes exactly 0 or 1 (restitution).
  double unit_interval() {
    switch (below(4)) {
      case 0: return 0.0;
      case 1: return 1.0;
      default: return fraction();
    }
  }

  /// A friction coefficient: 0, a usual value up to 2, or a large one.
  double friction() {
    switch (below(6)) {
      case 0: return 0.0;
      case 1: return 1e6 * fraction();
      default: return 2.0 * fraction();
    }
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
};

inline constexpr int kMaxDegreesOfFreedom = 8;
inline constexpr int kMaxFuzzContacts = 4;

/// The problem the bytes describe. D is symmetric positive semidefinite by construction (exactly
/// symmetric; its definiteness is whatever M⁻¹ and J make it).
inline ImpactProblem decode_law_problem(std::span<const std::uint8_t> bytes) {
  ByteReader read(bytes);
  ImpactProblem problem;
  problem.dimension = read.below(2) == 0 ? ContactDimension::planar : ContactDimension::spatial;
  const int rows_each = rows_per_contact(problem.dimension);
  const int contacts = 1 + read.below(kMaxFuzzContacts);
  const int rows = contacts * rows_each;
  const int dof = 1 + read.below(kMaxDegreesOfFreedom);

  // M⁻¹ = B Bᵀ · scale: singular when B is
  Eigen::MatrixXd B(dof, dof);
  for (Eigen::Index i = 0; i < B.size(); ++i) B.data()[i] = read.signed_unit();
  const Eigen::MatrixXd inverse_mass = read.scale() * (B * B.transpose());
  Eigen::MatrixXd J(rows, dof);
  const double j_scale = read.scale();
  for (Eigen::Index i = 0; i < J.size(); ++i) J.data()[i] = j_scale * read.signed_unit();
  const Eigen::MatrixXd D = J * inverse_mass * J.transpose();
  problem.D = 0.5 * (D + D.transpose());

  // u⁻ = J v⁻, as the simulator forms it, so that u⁻ lies in the range of J (a u⁻ outside it
  // is no motion of the bodies), sometimes off by round-off
  Eigen::VectorXd v(dof);
  const double v_scale = read.scale();
  for (Eigen::Index i = 0; i < dof; ++i) v[i] = v_scale * read.signed_unit();
  Eigen::VectorXd u = J * v;
  if (u[0] > 0.0) u = -u;  // the first contact approaches (or is at rest), as in an impact
  if (read.below(4) == 0) {
    const double round_off = 1e-15 * u.cwiseAbs().maxCoeff();
    for (Eigen::Index i = 0; i < rows; ++i) u[i] += round_off * read.signed_unit();
  }
  problem.u_pre = u;

  problem.contacts.resize(static_cast<std::size_t>(contacts));
  for (ContactParameters& contact : problem.contacts) {
    contact.restitution = read.unit_interval();
    contact.static_friction = read.friction();
    contact.kinetic_friction = read.below(3) == 0 ? contact.static_friction : read.friction();
  }
  return problem;
}

/// What is wrong with `law`'s answer to `problem`, in words, or "" when nothing is: a law may
/// refuse a problem (any status but solved), but it must not throw, and a `solved` answer must
/// hold finite impulses, velocities and works.
inline std::string law_failure(const LawEntry& law, const ImpactProblem& problem) {
  ImpactResult result;
  try {
    result = law.solve(problem);
  } catch (const std::exception& error) {
    return cat(law.name, " threw: ", error.what());
  } catch (...) {
    return cat(law.name, " threw an exception of unknown type");
  }
  if (result.status != ImpactStatus::solved) return "";
  if (!result.impulse.allFinite() || !result.u_post.allFinite() || !std::isfinite(result.delta_T) ||
      !std::isfinite(result.normal_work) || !std::isfinite(result.tangential_work)) {
    return cat(law.name, " returned solved with a non-finite number: impulse ",
               result.impulse.transpose(), ", u_post ", result.u_post.transpose(), ", delta_T ",
               result.delta_T, ", W_n ", result.normal_work, ", W_t ", result.tangential_work);
  }
  return "";
}

/// The problem in full precision, for a finding's report.
inline std::string describe(const ImpactProblem& problem) {
  const Eigen::IOFormat full(Eigen::FullPrecision, 0, ", ", "; ", "", "", "[", "]");
  std::string text =
      cat(problem.dimension == ContactDimension::planar ? "planar" : "spatial", " problem, ",
          problem.contact_count(), " contacts\nD = ", problem.D.format(full),
          "\nu = ", problem.u_pre.transpose().format(full));
  for (const ContactParameters& contact : problem.contacts) {
    text += cat("\ne = ", contact.restitution, ", mu_s = ", contact.static_friction,
                ", mu_d = ", contact.kinetic_friction);
  }
  return text;
}

/// Every law's failure on `problem`, one line each; "" when every law behaves.
inline std::string catalogue_failures(const ImpactProblem& problem) {
  std::string failures;
  for (const LawEntry& law : impact_laws()) {
    const std::string failure = law_failure(law, problem);
    if (!failure.empty()) failures += cat(failure, "\n");
  }
  return failures;
}

}  // namespace routh::fuzz
