#include "tools/routh/trajectory_report.hpp"

#include <iomanip>
#include <string>

#include "sim/text.hpp"

namespace routh::cli {

namespace {

// "impact 5, liftoff 1"
std::string counts(const std::vector<std::pair<std::string, std::int64_t>>& entries) {
  std::string text;
  for (const auto& [name, n] : entries) {
    if (!text.empty()) text += ", ";
    text += cat(name, " ", n);
  }
  return text;
}

std::string energy_line(const Energy& energy) {
  return cat(energy.total(), " J (kinetic ", energy.kinetic, ", potential ", energy.potential, ")");
}

}  // namespace

void print_physics_report(std::ostream& out, const TrajectorySummary& summary, int indent) {
  const auto label = [&](const char* name) -> std::ostream& {
    return out << std::left << std::setw(indent) << name;
  };
  label("events") << summary.event_count;
  if (summary.event_count > 0) out << ": " << counts(summary.events_by_kind);
  out << '\n';
  if (summary.sample_count > 0) {
    label("energy start") << energy_line(summary.energy_first) << '\n';
    label("energy end") << energy_line(summary.energy_last) << '\n';
    label("energy rise") << cat(summary.max_energy_rise) << " J above the start at most";
    if (summary.max_energy_rise > 0.0) out << " (t = " << cat(summary.max_energy_rise_t) << " s)";
    out << '\n';
  }
  if (summary.peak_ground_acceleration) {
    const Eigen::VectorXd& peak = *summary.peak_ground_acceleration;
    label("ground accel") << "peak |a_x| " << cat(peak.x()) << " m/s^2, |a_y| " << cat(peak.y())
                          << " m/s^2";
    if (peak.size() == 3) out << ", |a_z| " << cat(peak.z()) << " m/s^2";
    out << " (/ground_acceleration)\n";
  }
  label("flags") << (summary.flags_seen.empty() ? std::string("none") : counts(summary.flags_seen))
                 << '\n';
  if (!summary.unusual_statuses.empty()) {
    label("statuses") << counts(summary.unusual_statuses) << '\n';
  }
}

}  // namespace routh::cli
