#pragma once
// The processes of a sweep under MPI (`mpirun -n K routh sweep ...`). Rank 0 reads the journal,
// writes the journal and the table; every rank runs a strided share of the runs (sweep_runner.hpp)
// and ranks other than 0 send each finished row, as its journal line, to rank 0, then a last
// message saying it is done (empty, or the output fault that stopped it). After an output fault
// rank 0 sends every other rank an empty stop message. Only the main thread of a process calls MPI
// (MPI_THREAD_FUNNELED).
//
// MPI starts only when the process was launched by an MPI launcher (OpenMPI's mpirun sets
// OMPI_COMM_WORLD_SIZE, PMI-based launchers PMI_SIZE, PMIx ones PMIX_RANK): a plain
// `routh sweep` never touches MPI. In a build without MPI (ROUTH_MPI=OFF) every process is rank
// 0 of 1.

#include <cstdint>
#include <optional>
#include <string>

namespace routh {

class SweepRanks {
 public:
  SweepRanks();
  ~SweepRanks();
  SweepRanks(const SweepRanks&) = delete;
  SweepRanks& operator=(const SweepRanks&) = delete;

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  /// True in a build with MPI support.
  static bool available();

  /// Rank 0's `value` on every rank.
  std::int64_t broadcast(std::int64_t value) const;
  /// Ranks other than 0: sends a finished run's journal line to rank 0.
  void send_row(const std::string& line) const;
  /// Ranks other than 0: tells rank 0 this rank's share is done, with the output fault that ended
  /// it ("" none).
  void send_done(const std::string& fault = {}) const;
  /// Rank 0: a row that arrived from another rank, if any (does not wait).
  std::optional<std::string> receive_row();
  /// Rank 0: whether every other rank said it was done.
  bool others_done() const { return done_ranks_ == ranks_ - 1; }
  /// Rank 0: the first output fault another rank reported when done ("" none).
  const std::string& remote_fault() const { return remote_fault_; }
  /// Rank 0: asks the other ranks to stop (after an output fault); once.
  void send_stop();
  /// Ranks other than 0: whether rank 0 asked to stop (does not wait).
  bool stop_received();

 private:
  int rank_ = 0;
  int ranks_ = 1;
  int done_ranks_ = 0;
  std::string remote_fault_;
  bool stop_sent_ = false;
  bool stop_received_ = false;
  bool initialized_ = false;
};

}  // namespace routh
