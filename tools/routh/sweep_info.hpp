#pragma once
// `routh info TABLE.h5` on a sweep table: how many runs were planned and written, how they
// ended, the swept keys and their ranges, and the fraction of runs that overturned (overall and
// per body, from the `overturned` and `BODY.overturned` columns).

#include <ostream>
#include <string>

#include "sim/recorder/sweep_table_reader.hpp"

namespace routh::cli {

void print_sweep_summary(std::ostream& out, const std::string& path, const SweepColumns& table);

}  // namespace routh::cli
