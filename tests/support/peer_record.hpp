#pragma once
// A PEER NGA .AT2 ground-motion record read by the tests from its format, not with routh's reader,
// and the instant it first reaches a threshold: where a block at rest starts to rock (Housner
// 1963: when |a_g| reaches g tan α).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace routh::test {

/// Sample i at t = i step_s, in g.
struct PeerRecord {
  double step_s = 0.0;
  std::vector<double> g;
};

/// Four header lines, the fourth "NPTS= n, DT= dt SEC", then n values in g.
inline PeerRecord read_at2(const std::string& path) {
  std::ifstream file(path);
  REQUIRE_MESSAGE(file, "no record " << path);
  std::string line;
  for (int i = 0; i < 3; ++i) std::getline(file, line);
  std::getline(file, line);
  PeerRecord record;
  int samples = 0;
  REQUIRE(std::sscanf(line.c_str(), " NPTS= %d, DT= %lf", &samples, &record.step_s) == 2);
  double value = 0.0;
  while (file >> value) record.g.push_back(value);
  REQUIRE(static_cast<int>(record.g.size()) == samples);
  return record;
}

/// The first time |scale a(t)| reaches `threshold` [same units as a], a linear between samples;
/// NaN if it never does.
inline double first_reach_s(const PeerRecord& record, double scale, double threshold) {
  for (std::size_t i = 1; i < record.g.size(); ++i) {
    const double a0 = scale * record.g[i - 1], a1 = scale * record.g[i];
    for (const double sign : {1.0, -1.0}) {
      if (sign * a0 < threshold && sign * a1 >= threshold) {
        const double fraction = (threshold - sign * a0) / (sign * a1 - sign * a0);
        return (static_cast<double>(i - 1) + fraction) * record.step_s;
      }
    }
  }
  return std::nan("");
}

}  // namespace routh::test
