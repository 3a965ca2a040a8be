#pragma once
// One row of a trajectory's event log (docs/design.md §5, /events): what happened, when, to which
// contacts, and, for impacts, the law's answer (impulses, velocities, phases, energy, flags).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/impact/impact_result.hpp"

namespace routh {

/// What an event log row records. Stored in the file as its to_string() text.
enum class EventKind : std::uint8_t {
  impact,       ///< one impact solved by the scenario's law (several contacts if simultaneous)
  liftoff,      ///< a closed contact opens: its normal force λ_n fell to 0
  stick,        ///< a sliding contact sticks: u_t reached 0 and |λ_t| ≤ μs λ_n holds
  slip,         ///< a sticking contact starts to slide: |λ_t| reached μs λ_n
  reversal,     ///< a sliding contact reverses its slip direction
  zeno,         ///< a geometric accumulation of impacts was jumped to its limit
  rest,         ///< approach speed fell below the Zeno speed: the contact closes for good
  painleve,     ///< no consistent contact mode exists (Painlevé's paradox)
  edge_end,     ///< a closed contact slid or rolled off the end of the edge it touched
  uplift,       ///< the first lift-off of a contact from a set of several closed ones
  overturn,     ///< a free body turned ±π/2 from upright (onto its side)
  trouble,      ///< numerical trouble (step underflow, no LCP solution...): `status` names it
  interrupted,  ///< the run was stopped on request (SIGINT/SIGTERM), the file ends here
};

inline constexpr EventKind kAllEventKinds[] = {
    EventKind::impact,     EventKind::liftoff, EventKind::stick,    EventKind::slip,
    EventKind::reversal,   EventKind::zeno,    EventKind::rest,     EventKind::painleve,
    EventKind::edge_end,   EventKind::uplift,  EventKind::overturn, EventKind::trouble,
    EventKind::interrupted};

std::string_view to_string(EventKind kind);
/// The kind whose to_string() is `text`, or nothing.
std::optional<EventKind> event_kind_from_string(std::string_view text);

/// One event. Vectors are per contact, normal component first, in the order of `contacts`;
/// they are empty for events that are not impacts.
struct EventRecord {
  double t = 0.0;  ///< event time [s]; for impacts the left limit (pre-impact state)
  EventKind kind = EventKind::impact;
  std::vector<int> contacts;     ///< indices into the header's contact_names
  std::string phases;            ///< describe_phases() of the impact, "" otherwise
  std::vector<double> impulse;   ///< Γ [N s]
  std::vector<double> u_pre;     ///< u⁻ [m/s]
  std::vector<double> u_post;    ///< u⁺ [m/s]
  double delta_T = 0.0;          ///< ΔT = Γᵀu⁻ + ½ΓᵀDΓ [J]
  double normal_work = 0.0;      ///< W_n [J]
  double tangential_work = 0.0;  ///< W_t [J]
  std::string flags;             ///< describe_flags(): comma-separated flag names, "" if none
  std::string status;            ///< the law's status ("solved"...) or the trouble's name
};

/// "slide/compression[0,0.1846] stick/compression[0.1846,0.4]": each phase's kind, stage and
/// normal impulse range [N s]. Phases carry a "c<k>:" prefix when some phase belongs to a
/// contact other than 0 (multi-contact laws).
std::string describe_phases(const PhaseTrace& phases);

/// "energy_gain,slip_reversal_ignored": the set flags' names, comma-separated, "" if none.
std::string describe_flags(const ImpactFlags& flags);

/// The event row of one impact at time `t` [s] on `contacts` with pre-impact contact velocity
/// `u_pre` [m/s], filled from the law's result.
EventRecord impact_event(double t, std::vector<int> contacts, const ContactVector& u_pre,
                         const ImpactResult& result);

}  // namespace routh
