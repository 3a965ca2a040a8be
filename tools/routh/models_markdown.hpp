#pragma once
// `routh models --markdown`: the model catalogue of `routh models` as a Markdown page, written
// from the same tables the scenario loader checks a `model` against (model_factory.hpp,
// model_input.hpp, multibody_input.hpp). Its output is committed as docs/models.md, and a test
// regenerates it and compares, so the page cannot drift from the checker.

#include <ostream>
#include <string_view>

namespace routh::cli {

/// The command that regenerates docs/models.md, from the repository root.
inline constexpr std::string_view kModelsMarkdownCommand =
    "build/release/tools/routh/routh models --markdown > docs/models.md";

/// Writes the page: every named model (its parameters with unit, default and range, and the
/// coordinates and contacts it has with its defaults), the obstacles and the multibody form.
void write_models_markdown(std::ostream& out);

}  // namespace routh::cli
