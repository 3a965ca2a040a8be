#pragma once
// The catalogue of impact laws, selected by name from scenarios and the command line.
// Adding a law: write its header and source in sim/impact/ (hypothesis, scope, paper equations),
// then add one line to the table in law_catalogue.cpp. Its public entry point must pass its
// answer through guarded_law (law_guard.hpp): a law in the table never throws for a problem that
// passes validation, and never reports a non-finite number as solved (ImpactStatus::non_finite).

#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "sim/impact/impact_problem.hpp"
#include "sim/impact/impact_result.hpp"

namespace routh {

/// A law is a pure function of its problem.
using ImpactLaw = ImpactResult (*)(const ImpactProblem&);

/// max_contacts of a law that takes an impact at any number of contacts.
inline constexpr int kAnyNumberOfContacts = std::numeric_limits<int>::max();

/// Which problems a law accepts; it answers ImpactStatus::unsupported to any other. No law caps
/// what a simulation can meet: an impact beyond the scenario's law's max_contacts is answered
/// by `lcp`, which takes any number (impact_step.hpp).
struct LawScope {
  bool planar = false;   ///< contacts with one tangential direction
  bool spatial = false;  ///< contacts with two
  int max_contacts = 1;  ///< the most contacts of one impact it takes, or kAnyNumberOfContacts
  /// A calibration of the rocking motion (rocking.hpp), not a contact law: its restitution is the
  /// rocking block's ratio of angular velocities, it takes in every touching contact of the bodies
  /// the impact moves (impact_step.hpp; a rocking block's old pivot), and its normal impulse there
  /// pulls when the calibrated η is below Housner's.
  bool rocking_calibration = false;
};

/// "planar, one contact", "planar, up to 12 contacts", "planar or spatial, any number of
/// contacts": as `routh laws` prints it.
std::string to_string(const LawScope& scope);

/// Whether a law of `scope` takes an impact at `contacts` contacts of `dimension`.
bool covers(const LawScope& scope, ContactDimension dimension, int contacts);

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

/// The catalogue's entry of the law `solve`, or nullptr (a law from elsewhere, e.g. a test's).
const LawEntry* catalogue_entry(ImpactLaw solve);

/// "unknown law 'posson'; did you mean 'poisson'? (known: ...)" for error messages.
std::string unknown_law_message(std::string_view name);

}  // namespace routh
