#pragma once
// The physics lines of a trajectory's report, shared by `routh info` and `routh run`: what
// happened (events by kind), where the energy went (start, end, largest rise) and what looked
// suspect (impact flags, unsolved impacts, trouble).

#include <ostream>

#include "sim/recorder/trajectory_summary.hpp"

namespace routh::cli {

/// Writes the "events", "energy ...", "flags" and (when any) "statuses" lines, each label padded
/// to `indent` characters.
void print_physics_report(std::ostream& out, const TrajectorySummary& summary, int indent);

}  // namespace routh::cli
