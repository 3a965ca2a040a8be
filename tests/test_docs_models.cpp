// docs/models.md is the output of `routh models --markdown`, written from the tables the scenario
// loader checks a model against: regenerating it must reproduce the committed page, so that the
// documentation cannot drift from the checker.

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/scenario/model_factory.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/text.hpp"
#include "support/routh_process.hpp"
#include "tools/routh/models_markdown.hpp"

namespace routh {

TEST_CASE("docs: docs/models.md is what routh models --markdown prints") {
  const test::RouthRun run = test::run_routh("models --markdown");
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.empty());
  std::ostringstream committed;
  committed << std::ifstream(cat(ROUTH_SOURCE_DIR, "/docs/models.md")).rdbuf();
  const bool same = committed.str() == run.out;
  CHECK_MESSAGE(same,
                "docs/models.md differs from `routh models --markdown`; regenerate it "
                "from the repository root with\n    ",
                cli::kModelsMarkdownCommand, "\nand commit the result");
  // every model has its section, with its coordinates and contacts
  for (const ModelPreset& preset : model_presets()) {
    CHECK(run.out.find(cat("\n## `", preset.name, "`\n")) != std::string::npos);
  }
  CHECK(run.out.find("coordinates `x`, `y`, `theta`; contacts `floor`.") != std::string::npos);
  CHECK(run.out.find("## A generic multibody: `bodies`") != std::string::npos);
  // and the keys the loader accepts in each of the scenario's other maps
  for (const ScenarioKeyTable& table : scenario_key_tables()) {
    if (!table.map.empty()) CHECK(run.out.find(cat("| `", table.map, "` |")) != std::string::npos);
  }
}

}  // namespace routh
