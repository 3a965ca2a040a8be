#pragma once
// The catalogue of impact laws, selected by name from scenarios and the command line.
// Adding a law: write its header and source in sim/impact/ (hypothesis, scope, paper equations),
// then add one line to the table in law_catalogue.cpp. Its public entry point must pass its
// answer through guarded_law (law_guard.hpp): a law in the table never throws for a problem that
// passes validation, and never reports a non-finite number as solved (ImpactStatus::non_finite).

#include <span>
#include <string>
#include <string_view>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// A law is a pure function of its problem (DESIGN §3).
using ImpactLaw = ImpactResult (*)(const ImpactProblem&);

/// Which problems a law accepts; it answers ImpactStatus::unsupported to any other.
struct LawScope {
  bool planar = false;            ///< contacts with one tangential direction
  bool spatial = false;           ///< contacts with two
  bool several_contacts = false;  ///< simultaneous impacts at several contacts, not only one
};

/// "planar, one contact", "planar or spatial, several contacts": as `routh laws` prints it.
std::string to_string(const LawScope& scope);

/// Whether a law of `scope` takes contacts of `dimension`, several at once if `several_contacts`.
bool covers(const LawScope& scope, ContactDimension dimension, bool several_contacts);

struct LawEntry {
  std::string_view name;     ///< the name scenarios use, e.g. "poisson"
  std::string_view summary;  ///< one line for `routh laws`
  LawScope scope;            ///< which problems it accepts
  ImpactLaw solve;
};

/// Every registered law, in catalogue order.
std::span<const LawEntry> impact_laws();

/// The law called `name`, or nullptr.
const LawEntry* find_law(std::string_view name);

/// "unknown law 'posson'; did you mean 'poisson'? (known: ...)" for error messages.
std::string unknown_law_message(std::string_view name);

}  // namespace routh
