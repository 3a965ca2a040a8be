#pragma once
// One impact law's answer to a problem file, shared by `routh impact` and `routh compare`:
// solving it and writing it as JSON.

#include <string_view>

#include "sim/impact/impact_result.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/json_writer.hpp"
#include "sim/scenario/impact_problem_file.hpp"

namespace routh::cli {

/// Whether some contact approaches (u_n < 0); otherwise there is no impact, whatever the law.
bool some_contact_approaches(const ImpactProblem& problem);

/// The law's answer, or no_impact (Γ = 0, u⁺ = u⁻) for every law when nothing approaches.
ImpactResult solve_impact(const LawEntry& law, const ImpactProblem& problem);

/// Writes the file's warnings as the member "warnings" (an array of "file:line:column: ..." text).
void write_warnings(JsonWriter& json, const ImpactProblemFile& file);

/// Writes law, status, type, impulse, u_post, v_post (generalized problems), delta_T, W_n, W_t,
/// phases and flags as members of the object `json` has open.
void write_impact_members(JsonWriter& json, std::string_view law, const ImpactProblemFile& file,
                          const ImpactResult& result);

}  // namespace routh::cli
