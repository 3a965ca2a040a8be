// SweepRanks over MPI (sweep_ranks.hpp).
#include <mpi.h>

#include <cstdlib>
#include <stdexcept>

#include "sim/sweep/sweep_ranks.hpp"

namespace routh {

namespace {

constexpr int kRowTag = 1;
constexpr int kDoneTag = 2;
constexpr int kStopTag = 3;

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    if (std::getenv(variable) != nullptr) return true;
  }
  return false;
}

}  // namespace

SweepRanks::SweepRanks() {
  if (!launched_by_mpi()) return;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Init_thread failed");
  }
  initialized_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
}

SweepRanks::~SweepRanks() {
  if (initialized_) MPI_Finalize();
}

bool SweepRanks::available() { return true; }

std::int64_t SweepRanks::broadcast(std::int64_t value) const {
  if (ranks_ > 1) MPI_Bcast(&value, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  return value;
}

void SweepRanks::send_row(const std::string& line) const {
  MPI_Send(line.data(), static_cast<int>(line.size()), MPI_CHAR, 0, kRowTag, MPI_COMM_WORLD);
}

void SweepRanks::send_done(const std::string& fault) const {
  MPI_Send(fault.data(), static_cast<int>(fault.size()), MPI_CHAR, 0, kDoneTag, MPI_COMM_WORLD);
}

void SweepRanks::send_stop() {
  if (stop_sent_) return;
  stop_sent_ = true;
  for (int rank = 1; rank < ranks_; ++rank) {
    MPI_Send(nullptr, 0, MPI_CHAR, rank, kStopTag, MPI_COMM_WORLD);
  }
}

bool SweepRanks::stop_received() {
  if (stop_received_ || ranks_ == 1) return stop_received_;
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(0, kStopTag, MPI_COMM_WORLD, &arrived, &status);
  if (arrived == 0) return false;
  MPI_Recv(nullptr, 0, MPI_CHAR, 0, kStopTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  stop_received_ = true;
  return true;
}

std::optional<std::string> SweepRanks::receive_row() {
  if (ranks_ == 1) return std::nullopt;
  for (;;) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
    if (arrived == 0) return std::nullopt;
    int size = 0;
    MPI_Get_count(&status, MPI_CHAR, &size);
    std::string line(static_cast<std::size_t>(size), '\0');
    MPI_Recv(line.data(), size, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kRowTag) return line;
    ++done_ranks_;
    if (remote_fault_.empty()) remote_fault_ = line;
  }
}

}  // namespace routh
