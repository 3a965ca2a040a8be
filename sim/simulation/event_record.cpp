#include "sim/simulation/event_record.hpp"

#include <array>
#include <charconv>
#include <type_traits>
#include <utility>

namespace routh {

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::impact: return "impact";
    case EventKind::liftoff: return "liftoff";
    case EventKind::stick: return "stick";
    case EventKind::slip: return "slip";
    case EventKind::reversal: return "reversal";
    case EventKind::zeno: return "zeno";
    case EventKind::rest: return "rest";
    case EventKind::painleve: return "painleve";
    case EventKind::edge_end: return "edge_end";
    case EventKind::uplift: return "uplift";
    case EventKind::overturn: return "overturn";
    case EventKind::trouble: return "trouble";
    case EventKind::interrupted: return "interrupted";
  }
  return "?";
}

std::optional<EventKind> event_kind_from_string(std::string_view text) {
  for (EventKind kind : kAllEventKinds) {
    if (to_string(kind) == text) return kind;
  }
  return std::nullopt;
}

namespace {

// Appends `number` as cat() prints it (printf's %.10g), without a stream: every impact of a run
// is described, and a stream per number cost more than the rest of the impact.
template <class Number>
void append(std::string& text, Number number) {
  std::array<char, 32> buffer{};
  std::to_chars_result written{};
  if constexpr (std::is_floating_point_v<Number>) {
    written = std::to_chars(buffer.begin(), buffer.end(), number, std::chars_format::general, 10);
  } else {
    written = std::to_chars(buffer.begin(), buffer.end(), number);
  }
  text.append(buffer.data(), written.ptr);
}

}  // namespace

std::string describe_phases(const PhaseTrace& phases) {
  bool several_contacts = false;
  for (const Phase& phase : phases) several_contacts |= phase.contact != 0;
  std::string text;
  for (const Phase& phase : phases) {
    if (!text.empty()) text += ' ';
    if (several_contacts) {
      text += 'c';
      append(text, phase.contact);
      text += ':';
    }
    text.append(to_string(phase.kind)).append("/").append(to_string(phase.stage)).append("[");
    append(text, phase.normal_impulse_from);
    text += ',';
    append(text, phase.normal_impulse_to);
    text += ']';
  }
  return text;
}

std::string describe_flags(const ImpactFlags& flags) {
  std::string text;
  for (ImpactFlag flag : kAllImpactFlags) {
    if (!flags.has(flag)) continue;
    if (!text.empty()) text += ',';
    text += to_string(flag);
  }
  return text;
}

EventRecord impact_event(double t, std::vector<int> contacts, const ContactVector& u_pre,
                         const ImpactResult& result) {
  EventRecord event;
  event.t = t;
  event.kind = EventKind::impact;
  event.contacts = std::move(contacts);
  event.phases = describe_phases(result.phases);
  event.impulse.assign(result.impulse.data(), result.impulse.data() + result.impulse.size());
  event.u_pre.assign(u_pre.data(), u_pre.data() + u_pre.size());
  event.u_post.assign(result.u_post.data(), result.u_post.data() + result.u_post.size());
  event.delta_T = result.delta_T;
  event.normal_work = result.normal_work;
  event.tangential_work = result.tangential_work;
  event.flags = describe_flags(result.flags);
  event.status = std::string(to_string(result.status));
  return event;
}

}  // namespace routh
