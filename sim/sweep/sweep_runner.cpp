#include "sim/sweep/sweep_runner.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "sim/simulation/stop_request.hpp"
#include "sim/sweep/sweep_journal.hpp"
#include "sim/sweep/sweep_run.hpp"

namespace routh {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(5);
constexpr std::size_t kRowsPerWake = 16;

// What the workers and the calling thread share, under `mutex`.
struct ShareState {
  std::mutex mutex;
  std::condition_variable worker_wake;  // the window moved, or stop
  std::condition_variable row_ready;    // a row finished, or a worker left
  std::int64_t next_run;                // the next run to hand out
  std::int64_t window_end = 0;          // runs at or past it wait
  bool stop = false;
  std::exception_ptr fault;  // what ended a worker or the calling thread's callbacks, if anything
  int workers_left = 0;
  std::deque<std::pair<std::int64_t, std::string>> finished;
};

void work(const SweepPlan& plan, const RunShare& share, const ShareOptions& options,
          ShareState& state) {
  const std::int64_t run_count = plan.run_count();
  const std::size_t status = status_column(plan);
  for (;;) {
    std::unique_lock lock(state.mutex);
    const std::int64_t run = state.next_run;
    if (state.stop || run >= run_count) break;
    state.next_run += share.ranks;
    state.worker_wake.wait(lock, [&] { return state.stop || run < state.window_end; });
    if (state.stop) break;
    lock.unlock();
    const std::filesystem::path trajectory = options.trajectories.empty()
                                                 ? std::filesystem::path()
                                                 : options.trajectories / trajectory_file_name(run);
    TableRow row = sweep_run(plan, run, trajectory);
    // a run cut short by the sweep's own stop is not a result: a resume runs it again
    const bool abandoned = stop_requested() && std::get<std::string>(row[status]) == "interrupted";
    std::string line = abandoned ? std::string() : encode_row(row);
    lock.lock();
    if (!abandoned) state.finished.emplace_back(run, std::move(line));
    // The calling thread writes the rows every kPollInterval anyway. Waking it for each row cost
    // a run of a millisecond 5 % more (a wake-up across cores), so only a batch, or a worker
    // about to wait for the window, wakes it.
    if (state.finished.size() >= kRowsPerWake || state.next_run >= state.window_end) {
      state.row_ready.notify_one();
    }
  }
}

}  // namespace

std::string trajectory_file_name(std::int64_t run) {
  std::array<char, 40> name{};
  std::snprintf(name.data(), name.size(), "run_%06lld.h5", static_cast<long long>(run));
  return name.data();
}

ShareEnd run_share(const SweepPlan& plan, const RunShare& share, const ShareOptions& options,
                   const ShareCallbacks& callbacks) {
  ShareState state;
  // the first run of the share at or after first_run
  const std::int64_t offset =
      ((share.rank - share.first_run % share.ranks) % share.ranks + share.ranks) % share.ranks;
  state.next_run = share.first_run + offset;
  state.workers_left = options.jobs;
  const auto open_window = [&] {
    const std::int64_t written = callbacks.written();
    state.window_end = written > INT64_MAX - options.window ? INT64_MAX : written + options.window;
  };
  open_window();
  std::vector<std::jthread> workers;
  // A fault anywhere (a row or trajectory that cannot be written, memory) stops the share like
  // a stop request, and is rethrown once every worker has left: a worker waiting for a window
  // that no longer moves would otherwise keep the process alive for ever.
  const auto stop_for = [&](std::exception_ptr fault) {
    const std::lock_guard lock(state.mutex);
    if (!state.fault) state.fault = std::move(fault);
    state.stop = true;
    state.worker_wake.notify_all();
  };
  for (int j = 0; j < options.jobs; ++j) {
    workers.emplace_back([&] {
      try {
        work(plan, share, options, state);
      } catch (...) {
        stop_for(std::current_exception());
      }
      const std::lock_guard lock(state.mutex);
      --state.workers_left;
      state.row_ready.notify_one();
    });
  }
  std::unique_lock lock(state.mutex);
  for (;;) {
    state.row_ready.wait_for(lock, kPollInterval,
                             [&] { return !state.finished.empty() || state.workers_left == 0; });
    std::deque<std::pair<std::int64_t, std::string>> finished;
    finished.swap(state.finished);
    const bool workers_done = state.workers_left == 0;
    const bool faulted = state.fault != nullptr;
    lock.unlock();
    bool stop = stop_requested();
    try {
      // after a fault the rows still arriving are dropped: a resume runs them again
      if (!faulted) {
        for (auto& [run, line] : finished) callbacks.deliver(run, std::move(line));
      }
      stop = callbacks.poll() || stop;
    } catch (...) {
      stop_for(std::current_exception());
    }
    lock.lock();
    if (stop) state.stop = true;
    open_window();
    state.worker_wake.notify_all();
    if (workers_done && state.finished.empty()) break;
  }
  const bool stopped = state.stop;
  lock.unlock();
  workers.clear();
  if (state.fault) std::rethrow_exception(state.fault);
  return stopped ? ShareEnd::stopped : ShareEnd::finished;
}

}  // namespace routh
