#pragma once
// The reorder buffer between finished runs and the journal: runs finish in any order (threads,
// ranks), the journal takes them in run-index order, so that its rows are a prefix of the table
// and a resume starts right after them.

#include <cstdint>
#include <map>
#include <string>

#include "sim/sweep/sweep_journal.hpp"

namespace routh {

class RowSequencer {
 public:
  /// Rows before `first_run` are already in `journal`.
  RowSequencer(SweepJournal& journal, std::int64_t first_run)
      : journal_(journal), next_(first_run) {}

  /// Takes run `run`'s journal line; appends it, and every waiting line that now follows in
  /// order, to the journal.
  void push(std::int64_t run, std::string&& line);
  /// The first run whose line is not yet in the journal.
  std::int64_t written() const { return next_; }
  /// Lines waiting for an earlier run.
  std::size_t waiting() const { return waiting_.size(); }

 private:
  SweepJournal& journal_;
  std::int64_t next_;
  std::map<std::int64_t, std::string> waiting_;
};

}  // namespace routh
