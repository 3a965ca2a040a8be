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

struct LawEntry {
  std::string_view name;     ///< the name scenarios use, e.g. "poisson"
  std::string_view summary;  ///< one line for `routh laws`
  std::string_view scope;    ///< which problems it accepts
  ImpactLaw solve;
};

/// Every registered law, in catalogue order.
std::span<const LawEntry> impact_laws();

/// The law called `name`, or nullptr.
const LawEntry* find_law(std::string_view name);

/// "unknown law 'posson'; did you mean 'poisson'? (known: ...)" for error messages.
std::string unknown_law_message(std::string_view name);

}  // namespace routh
