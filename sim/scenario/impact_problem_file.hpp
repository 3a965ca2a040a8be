#pragma once
// Impact problem files: one impact, read by `routh impact` (and later `routh compare`).
//
// A problem is given in contact space or in generalized form (docs/design.md §2):
//
//   law: poisson                       # optional here when the command line names a law
//   D: [[2.5, -1.5], [-1.5, 2.5]]      # contact space: D = J M⁻¹ Jᵀ [1/kg] and u⁻ [m/s]
//   u: [-1, 0.6]
//   # or M [kg, kg m²] (n × n), J (rows: per contact normal then tangential; n columns), v⁻ (n)
//   restitution: 0.82                  # one for all contacts, or a list with one per contact
//   friction: {static: 0.73, kinetic: 0.7}   # a map (or one number μs = μd), or a list of them
//   dimension: 2                       # 2 planar, 3 spatial; needed only when the rows allow both
//   name: ..., description: ...        # optional text

#include <optional>
#include <string>
#include <vector>

#include "sim/contact_space.hpp"
#include "sim/impact/impact_problem.hpp"
#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// The generalized form of a problem, kept to report v⁺ = v⁻ + M⁻¹ Jᵀ Γ.
struct GeneralizedImpact {
  Eigen::VectorXd v_pre;  ///< v⁻ [m/s, rad/s]
  ContactSpace space;     ///< the factor of M and M⁻¹ Jᵀ
};

/// Everything a problem file says, checked.
struct ImpactProblemFile {
  std::string name;                              ///< optional `name`
  std::string description;                       ///< optional `description`
  std::optional<std::string> law;                ///< `law`, a name from the catalogue, if given
  ImpactProblem problem;                         ///< passes diagnose() without errors
  std::optional<GeneralizedImpact> generalized;  ///< present when given as M, J, v
  std::vector<std::string> warnings;  ///< "file:line:column: warning: ..." (e.g. μd > μs)
};

/// Reads and checks the problem file at `path`. Throws InputError, naming the file, line and
/// column, on a missing file, YAML syntax, unknown or missing keys, wrong shapes, non-symmetric
/// or indefinite D or M, e outside [0, 1], negative friction or an unknown law.
ImpactProblemFile load_impact_problem_file(const std::string& path);

/// Reads and checks a problem already parsed (parse_yaml_text), as load_impact_problem_file does.
ImpactProblemFile read_impact_problem(const InputNode& root);

}  // namespace routh
