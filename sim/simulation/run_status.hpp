#pragma once
// How a run ended (docs/design.md §4 step 7). A run that completes is right; a run that cannot
// complete says why, with one of these names in its event log (a `trouble` or `interrupted` event),
// in its file (the root attribute `status`) and in the program's exit code.

#include <optional>
#include <string_view>

namespace routh {

enum class RunStatus {
  completed,            ///< simulated to the requested duration
  stopped_on_event,     ///< ended early, as asked, at an event of `events.stop_on` (an overturn)
  interrupted,          ///< stopped on request (SIGINT/SIGTERM); the output ends cleanly there
  time_limit,           ///< the wall-clock limit (`routh run --time-limit`) was reached
  non_finite_state,     ///< q, v, an acceleration or a contact force became NaN or infinite
  step_size_failure,    ///< the integrator could not meet its tolerances with any step size
  event_storm,          ///< events followed each other without simulated time advancing
  impact_law_failure,   ///< no law could resolve an impact (the event names the law's status)
  painleve_unresolved,  ///< no contact force is consistent and an impulse could not resolve it
  contact_modes_unresolved,  ///< no consistent assignment of the touching contacts' modes found
  interpenetration,          ///< bodies overlap: a contact closed unseen (run_guards.hpp)
};

inline constexpr RunStatus kAllRunStatuses[] = {
    RunStatus::completed,           RunStatus::stopped_on_event,
    RunStatus::interrupted,         RunStatus::time_limit,
    RunStatus::non_finite_state,    RunStatus::step_size_failure,
    RunStatus::event_storm,         RunStatus::impact_law_failure,
    RunStatus::painleve_unresolved, RunStatus::contact_modes_unresolved,
    RunStatus::interpenetration};

/// "completed", "interrupted", "time_limit", ... (the names the file and the log use).
std::string_view to_string(RunStatus status);
/// The status whose to_string() is `text`, or nothing.
std::optional<RunStatus> run_status_from_string(std::string_view text);

/// The exit code of `routh run` for a run that ended this way: 0 completed or stopped on an
/// event it was asked to stop on; 130 interrupted (the
/// shell's code for SIGINT); 3 to 10 for the others, in the order of the enumeration. Codes 1 and
/// 2 stay for bad input and bad usage.
int exit_code(RunStatus status);

}  // namespace routh
