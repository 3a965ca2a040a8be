#pragma once
// `routh models`: the named models a scenario's `model.type` may select, each with its
// parameters (unit, default, range), its coordinates and its contacts, then the generic form
// `model: {bodies: ...}`.

#include "tools/routh/command.hpp"

namespace routh::cli {

inline constexpr std::string_view kModelsUsage =
    "usage: routh models [--markdown]\n"
    "Lists the named models (model: {type: NAME, ...}): each parameter with its unit, default\n"
    "and range, and the coordinates and contacts the model has with its defaults; then the\n"
    "generic multibody form (model: {bodies: [...], joints: [...], obstacles: [...]}).\n"
    "--markdown prints the same as a Markdown page, the one committed as docs/models.md.\n";

int run_models_command(CommandArguments arguments);

}  // namespace routh::cli
