#pragma once
// Checks of a whole recorded trajectory that hold for every run, computed from the samples and
// the block's geometry alone (never from routh's contact kinematics): finite samples, the corners
// of a rectangular block above the floor, their normal speeds, and the kinetic energy across
// each event. Each check returns "" when it holds, or a description of its first violation, so
// that campaigns can count and print failures instead of drowning in CHECK output.

#include <Eigen/Core>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "sim/simulation/event_record.hpp"
#include "trajectory_memory.hpp"

namespace routh::test {

/// A uniform rectangular block of half-width b and half-height h with q = (x, y, θ) of its
/// centre (make_rocking_block), its bottom corners at (∓b, −h) in its own frame. A body point
/// (c_x, c_y) is at (x + c_x cos θ − c_y sin θ, y + c_x sin θ + c_y cos θ).
struct BlockCorners {
  double b, h;  // [m]

  /// Heights [m] above the floor y = 0 of the left (−b) and right (+b) bottom corners.
  Eigen::Vector2d heights(const Eigen::VectorXd& q) const {
    const double c = std::cos(q[2]), s = std::sin(q[2]);
    return {q[1] - b * s - h * c, q[1] + b * s - h * c};
  }
  /// Their vertical velocities [m/s]: ẏ + θ̇ (c_x cos θ − c_y sin θ).
  Eigen::Vector2d normal_speeds(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
    const double c = std::cos(q[2]), s = std::sin(q[2]);
    return {v[1] + v[2] * (-b * c + h * s), v[1] + v[2] * (b * c + h * s)};
  }
  /// Their horizontal positions [m].
  Eigen::Vector2d abscissae(const Eigen::VectorXd& q) const {
    const double c = std::cos(q[2]), s = std::sin(q[2]);
    return {q[0] - b * c + h * s, q[0] + b * c + h * s};  // c_y = −h
  }
};

/// "" if every sample's t, q, v and energies are finite; else the first bad sample.
inline std::string first_non_finite_sample(const TrajectoryMemory& trajectory) {
  for (const auto& s : trajectory.samples) {
    if (std::isfinite(s.t) && s.q.allFinite() && s.v.allFinite() &&
        std::isfinite(s.energy.kinetic) && std::isfinite(s.energy.potential))
      continue;
    std::ostringstream out;
    out << "non-finite sample at t = " << s.t << " s: q = " << s.q.transpose()
        << ", v = " << s.v.transpose();
    return out.str();
  }
  return "";
}

/// "" if neither bottom corner is ever deeper than `floor_tolerance` [m] below the floor; else
/// the first sample where one is.
inline std::string first_corner_below_floor(const TrajectoryMemory& trajectory,
                                            const BlockCorners& block, double floor_tolerance) {
  for (const auto& s : trajectory.samples) {
    const Eigen::Vector2d gap = block.heights(s.q);
    if (gap.minCoeff() >= -floor_tolerance) continue;
    std::ostringstream out;
    out.precision(10);
    out << "corner below the floor at t = " << s.t << " s: gaps " << gap.transpose() << " m";
    return out.str();
  }
  return "";
}

/// The events recorded at time t [s].
inline std::vector<const EventRecord*> events_at(const TrajectoryMemory& trajectory, double t) {
  std::vector<const EventRecord*> found;
  for (const auto& event : trajectory.events) {
    if (event.t == t) found.push_back(&event);
  }
  return found;
}

/// "" if no event raises the kinetic energy: the simulator records the state just before and
/// just after it handles an event at t (samples with equal t), so across each such group T may
/// only fall, to round-off (relative 1e-12 of T before, plus 1e-15 J), unless an event at that t
/// carries the law's energy_gain flag. Also the law's own ΔT of every impact, unless flagged.
inline std::string first_energy_raising_event(const TrajectoryMemory& trajectory) {
  const auto& samples = trajectory.samples;
  const auto flagged = [&](double t) {
    for (const EventRecord* event : events_at(trajectory, t)) {
      if (event->flags.find("energy_gain") != std::string::npos) return true;
    }
    return false;
  };
  for (std::size_t i = 0; i + 1 < samples.size();) {
    std::size_t j = i;
    while (j + 1 < samples.size() && samples[j + 1].t == samples[i].t) ++j;
    const double before = samples[i].energy.kinetic, after = samples[j].energy.kinetic;
    if (j > i && after - before > 1e-12 * before + 1e-15 && !flagged(samples[i].t)) {
      std::ostringstream out;
      out.precision(10);
      out << "kinetic energy rises across the events at t = " << samples[i].t << " s: from "
          << before << " J to " << after << " J";
      return out.str();
    }
    i = j + 1;
  }
  for (const EventRecord& event : trajectory.events) {
    if (event.kind != EventKind::impact || event.flags.find("energy_gain") != std::string::npos)
      continue;
    // the law's own ΔT, on the scale of the impulse times the pre-impact velocity
    double scale = 0.0;
    for (std::size_t k = 0; k < event.impulse.size() && k < event.u_pre.size(); ++k)
      scale += std::abs(event.impulse[k] * event.u_pre[k]);
    if (event.delta_T > 1e-12 * scale + 1e-15) {
      std::ostringstream out;
      out.precision(10);
      out << "impact at t = " << event.t << " s reports ΔT = " << event.delta_T
          << " J > 0 without the energy_gain flag";
      return out.str();
    }
  }
  return "";
}

}  // namespace routh::test
