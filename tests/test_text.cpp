// Text helpers (sim/text.hpp) that files are written with: CSV fields as RFC 4180 quotes them,
// numbers that read back as the same double, and the comma lists of error messages.

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "sim/text.hpp"

namespace routh {

TEST_CASE("text: a CSV field is quoted only when it holds a comma, a quote or a line break") {
  CHECK(csv_field("impact") == "impact");
  CHECK(csv_field("") == "");
  CHECK(csv_field("energy_gain,law_fallback") == "\"energy_gain,law_fallback\"");
  CHECK(csv_field("a \"b\"") == "\"a \"\"b\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field("cr\r") == "\"cr\r\"");
}

TEST_CASE("text: round_trip gives the shortest text that reads back as the same double") {
  for (const double value : {0.1, -1.0 / 3.0, 1e-300, 6.02214076e23, 0.0, -0.0,
                             std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::max(), 0.30000000000000004}) {
    CAPTURE(value);
    const std::string text = round_trip(value);
    CHECK(std::strtod(text.c_str(), nullptr) == value);
    CHECK(std::signbit(std::strtod(text.c_str(), nullptr)) == std::signbit(value));
  }
  CHECK(round_trip(0.1) == "0.1");
  CHECK(round_trip(0.30000000000000004) == "0.30000000000000004");
  CHECK(round_trip(1e-300) == "1e-300");
  CHECK(round_trip(std::nan("")) == "nan");
  CHECK(round_trip(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("text: comma_list puts ', ' between the items, quoting each when asked") {
  CHECK(comma_list(std::vector<std::string>{}) == "");
  CHECK(comma_list(std::vector<std::string>{"x"}) == "x");
  CHECK(comma_list(std::array<std::string_view, 3>{"x", "y", "theta"}) == "x, y, theta");
  CHECK(comma_list(std::vector<std::string>{"floor", "wall"}, "`") == "`floor`, `wall`");
}

}  // namespace routh
