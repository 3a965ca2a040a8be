// SweepRanks in a build without MPI: one process, rank 0 of 1.
#include "sim/sweep/sweep_ranks.hpp"

namespace routh {

SweepRanks::SweepRanks() = default;
SweepRanks::~SweepRanks() = default;
bool SweepRanks::available() { return false; }
std::int64_t SweepRanks::broadcast(std::int64_t value) const { return value; }
void SweepRanks::send_row(const std::string&) const {}
void SweepRanks::send_done(const std::string&) const {}
void SweepRanks::send_stop() {}
bool SweepRanks::stop_received() { return false; }
std::optional<std::string> SweepRanks::receive_row() { return std::nullopt; }

}  // namespace routh
