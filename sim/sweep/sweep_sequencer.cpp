#include "sim/sweep/sweep_sequencer.hpp"

namespace routh {

void RowSequencer::push(std::int64_t run, std::string&& line) {
  if (run != next_) {
    waiting_.emplace(run, std::move(line));
    return;
  }
  journal_.append(line);
  ++next_;
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_;
       it = waiting_.erase(it), ++next_) {
    journal_.append(it->second);
  }
}

}  // namespace routh
