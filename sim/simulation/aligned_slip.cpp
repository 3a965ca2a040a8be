#include "sim/simulation/aligned_slip.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>

#include "sim/simulation/system_evaluation.hpp"

namespace routh {

namespace {

// [rad] The forward-difference step of ∂c/∂θ: the derivative's relative error is about this
// times |c''/c'|, far below what Newton's method needs.
constexpr double kAngleDifference = 1e-7;
// [rad] The alignment has converged when a step turns no direction further than this: the
// iteration's contraction leaves an error of a fraction of it, below the round-off of a unit
// vector's angle times 1e4, which the integrator's error control does not see.
constexpr double kAngleResolution = 1e-12;
// [rad] A Newton step turns no direction further than this, so that it stays with the root
// nearest its start rather than jumping to another one.
constexpr double kLargestTurn = 0.25;
// Newton's method re-differentiates after a step that turned a direction further than
// kChordTurn [rad], or that left the misalignment above kChordContraction of what it was; else it
// keeps its Jacobian (a chord method), one solve per iteration near the root, where the
// alignment starts within a step of the root it had at the step's start. (Near Painlevé's
// configurations λ_n, and with it c, varies steeply with the direction: a stale Jacobian there
// contracted by 1 % per iteration.)
constexpr double kChordTurn = 1e-3;
constexpr double kChordContraction = 0.5;
// A misalignment within this fraction of |a_t| is round-off of zero: the slip's acceleration
// lies along it to the last digits (a sphere on a plane, where every direction is a root, or a
// slip starting at the cone's edge, with a_t = 0).
constexpr double kMisalignmentRoundOff = 1e-13;
// Past this many iterations there is no root near.
constexpr int kMaxIterations = 30;

Eigen::Vector2d turned(const Eigen::Vector2d& direction, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return Eigen::Vector2d(c * direction.x() - s * direction.y(),
                         s * direction.x() + c * direction.y())
      .normalized();
}

}  // namespace

void align_slow_slips(const StateQuantities& quantities, const std::vector<ContactMode>& modes,
                      const std::vector<int>& model_index, const std::vector<bool>& aligned,
                      const ContactParameterTable& parameters, ContactForceWorkspace& workspace,
                      SlipAlignment& alignment, ConstrainedAcceleration& out,
                      SlipDirections& slips) {
  alignment.aligned = false;
  const auto is_aligned = [&](std::size_t k) {
    return modes[k] == ContactMode::slide && aligned[static_cast<std::size_t>(model_index[k])];
  };
  int n = 0;
  for (std::size_t k = 0; k < modes.size(); ++k) n += is_aligned(k) ? 1 : 0;
  if (n == 0 || n > kMaxAlignedSlips) return;
  alignment.contacts.resize(n);
  for (std::size_t k = 0, i = 0; k < modes.size(); ++k) {
    if (is_aligned(k)) alignment.contacts[static_cast<Eigen::Index>(i++)] = static_cast<int>(k);
  }
  const auto direction = [&](int i) -> Eigen::Vector2d& {
    return slips[static_cast<std::size_t>(alignment.contacts[i])];
  };
  // c of every aligned contact from `solved`, and whether each is round-off of zero
  const auto measure = [&](const ConstrainedAcceleration& solved, SlipAlignment::Vector& c) {
    c.resize(n);
    bool round_off = true;
    for (int i = 0; i < n; ++i) {
      const Eigen::Vector2d a_t = tangential_acceleration(
          quantities.contacts, 3, alignment.contacts[i], solved.acceleration);
      c[i] = direction(i).x() * a_t.y() - direction(i).y() * a_t.x();
      round_off = round_off && std::abs(c[i]) <= kMisalignmentRoundOff * a_t.norm();
    }
    return round_off;
  };
  // ∂c/∂θ by forward differences at the current directions, solved apart from `out`
  const auto differentiate = [&] {
    alignment.jacobian.resize(n, n);
    for (int j = 0; j < n; ++j) {
      const Eigen::Vector2d at = direction(j);
      direction(j) = turned(at, kAngleDifference);
      constrained_acceleration(quantities, modes, parameters, workspace, alignment.perturbed,
                               slips);
      measure(alignment.perturbed, alignment.trial);
      alignment.jacobian.col(j) = (alignment.trial - alignment.misalignment) / kAngleDifference;
      direction(j) = at;
    }
    return Eigen::FullPivLU<SlipAlignment::Matrix>(alignment.jacobian);
  };
  std::array<Eigen::Vector2d, kMaxAlignedSlips> start;
  for (int i = 0; i < n; ++i) start[static_cast<std::size_t>(i)] = direction(i);
  // `out` holds the solve at the start directions (the caller's)
  bool converged = measure(out, alignment.misalignment);
  Eigen::FullPivLU<SlipAlignment::Matrix> lu = differentiate();
  for (int iteration = 0; !converged && iteration < kMaxIterations && lu.isInvertible();
       ++iteration) {
    alignment.step = -lu.solve(alignment.misalignment);
    if (!alignment.step.allFinite()) break;
    alignment.step = alignment.step.cwiseMax(-kLargestTurn).cwiseMin(kLargestTurn);
    for (int i = 0; i < n; ++i) direction(i) = turned(direction(i), alignment.step[i]);
    const double before = alignment.misalignment.cwiseAbs().maxCoeff();
    constrained_acceleration(quantities, modes, parameters, workspace, out, slips);
    converged = measure(out, alignment.misalignment);
    const double turn = alignment.step.cwiseAbs().maxCoeff();
    converged = converged || turn <= kAngleResolution;
    if (!converged && (turn > kChordTurn ||
                       alignment.misalignment.cwiseAbs().maxCoeff() > kChordContraction * before))
      lu = differentiate();
  }
  alignment.aligned = converged;
  if (converged) return;
  for (int i = 0; i < n; ++i) direction(i) = start[static_cast<std::size_t>(i)];
  constrained_acceleration(quantities, modes, parameters, workspace, out, slips);
}

}  // namespace routh
