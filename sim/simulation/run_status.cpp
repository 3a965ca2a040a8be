#include "sim/simulation/run_status.hpp"

namespace routh {

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::completed: return "completed";
    case RunStatus::stopped_on_event: return "stopped_on_event";
    case RunStatus::interrupted: return "interrupted";
    case RunStatus::time_limit: return "time_limit";
    case RunStatus::non_finite_state: return "non_finite_state";
    case RunStatus::step_size_failure: return "step_size_failure";
    case RunStatus::event_storm: return "event_storm";
    case RunStatus::impact_law_failure: return "impact_law_failure";
    case RunStatus::painleve_unresolved: return "painleve_unresolved";
    case RunStatus::contact_modes_unresolved: return "contact_modes_unresolved";
    case RunStatus::interpenetration: return "interpenetration";
  }
  return "?";
}

std::optional<RunStatus> run_status_from_string(std::string_view text) {
  for (const RunStatus status : kAllRunStatuses) {
    if (to_string(status) == text) return status;
  }
  return std::nullopt;
}

int exit_code(RunStatus status) {
  switch (status) {
    case RunStatus::completed:
    case RunStatus::stopped_on_event: return 0;
    case RunStatus::interrupted: return 130;
    case RunStatus::time_limit: return 3;
    case RunStatus::non_finite_state: return 4;
    case RunStatus::step_size_failure: return 5;
    case RunStatus::event_storm: return 6;
    case RunStatus::impact_law_failure: return 7;
    case RunStatus::painleve_unresolved: return 8;
    case RunStatus::contact_modes_unresolved: return 9;
    case RunStatus::interpenetration: return 10;
  }
  return 1;
}

}  // namespace routh
