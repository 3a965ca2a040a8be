#pragma once
// Impact laws' answers to a problem file, shared by `routh impact`, `routh compare` and the
// Python package: choosing the law, solving and writing the answers as JSON.

#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/impact/impact_result.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/json_writer.hpp"
#include "sim/scenario/impact_problem_file.hpp"

namespace routh::cli {

/// Whether some contact approaches (u_n < 0); otherwise there is no impact, whatever the law.
bool some_contact_approaches(const ImpactProblem& problem);

/// The law's answer, or no_impact (Γ = 0, u⁺ = u⁻) for every law when nothing approaches.
ImpactResult solve_impact(const LawEntry& law, const ImpactProblem& problem);

/// The law `routh impact` solves `file` with: `law` (--law, a catalogue name) over the file's
/// own. Throws InputError at `path` when neither names one or `law` is not in the catalogue.
const LawEntry& chosen_law(const std::optional<std::string>& law, const ImpactProblemFile& file,
                           const std::string& path);

/// One law's answer, as `routh compare` lists them.
struct LawAnswer {
  const LawEntry* law;
  ImpactResult result;
};

/// The answers of `laws`, in order; when `laws` is empty, of every law in the catalogue except
/// those that find the problem outside their scope.
std::vector<LawAnswer> solve_laws(std::span<const LawEntry* const> laws,
                                  const ImpactProblem& problem);

/// The problem's `name`, or `path` when it has none: `routh compare`'s title.
std::string problem_title(const ImpactProblemFile& file, std::string_view path);

/// Writes the file's warnings as the member "warnings" (an array of "file:line:column: ..." text).
void write_warnings(JsonWriter& json, const ImpactProblemFile& file);

/// Writes law, status, type, impulse, u_post, v_post (generalized problems), delta_T, W_n, W_t,
/// phases and flags as members of the object `json` has open.
void write_impact_members(JsonWriter& json, std::string_view law, const ImpactProblemFile& file,
                          const ImpactResult& result);

/// `routh impact`'s output: one JSON object, the law's answer and the file's warnings.
void write_impact_report(std::ostream& out, std::string_view law, const ImpactProblemFile& file,
                         const ImpactResult& result);

/// `routh compare --json`'s output: the title, every answer and the file's warnings.
void write_comparison(std::ostream& out, std::string_view title, const ImpactProblemFile& file,
                      std::span<const LawAnswer> answers);

}  // namespace routh::cli
