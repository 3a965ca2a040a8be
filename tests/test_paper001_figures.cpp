// tools/paper001_figures.py reproduces paper 001's Figs. 2–4 from `routh compare`: run headless
// (matplotlib's Agg backend, Debian's python3-matplotlib), it must write one PNG per friction
// coefficient and print, per (μ, e), how many of the 32 directions each law ends sticking — the
// same counts the laws give when called directly (test_paper001_example.cpp).

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "sim/text.hpp"
#include "support/scratch_files.hpp"

namespace {

bool is_png(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  char signature[8] = {};
  file.read(signature, 8);
  return file && std::string(signature + 1, 3) == "PNG" && std::filesystem::file_size(path) > 10000;
}

}  // namespace

TEST_CASE("paper001 figures: the script draws Figs. 2-4 headless and counts the sticking ends") {
  const std::filesystem::path out = routh::test::scratch() / "paper001_figures";
  const std::filesystem::path log = routh::test::scratch() / "paper001_figures.txt";
  const std::string command =
      routh::cat("MPLBACKEND=Agg /usr/bin/python3 '", ROUTH_SOURCE_DIR,
                 "/tools/paper001_figures.py' --routh '", ROUTH_BINARY, "' --out '", out.string(),
                 "' --laws park,sliding_ode,lcp --mu 0.01,0.5,1.0 > '", log.string(), "' 2>&1");
  REQUIRE(std::system(command.c_str()) == 0);
  for (const char* mu : {"0.01", "0.5", "1.0"}) {
    CAPTURE(mu);
    CHECK(is_png(out / routh::cat("paper001_mu", mu, ".png")));
  }
  std::ifstream lines(log);
  std::string text((std::istreambuf_iterator<char>(lines)), std::istreambuf_iterator<char>());
  CHECK(text.find("mu e park_sticking sliding_ode_sticking lcp_sticking") != std::string::npos);
  // μ = 1, e = 0.9: every direction ends sticking for all three laws (paper 001 Fig. 4c);
  // μ = 0.01: none does
  CHECK(text.find("1.0 0.9 32 32 32") != std::string::npos);
  CHECK(text.find("0.01 0.1 0 0 0") != std::string::npos);
}
