#include "sim/simulation/stop_request.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "sim/text.hpp"

namespace routh {

namespace {

// Written only by the handler (and clear/install outside any handler); read by the loop.
volatile std::sig_atomic_t g_stop_signal = 0;

struct SavedHandlers {
  bool installed = false;
  struct sigaction interrupt {};
  struct sigaction terminate {};
  struct sigaction user1 {};
};
SavedHandlers g_saved;

// Async-signal-safe: touches only the sig_atomic_t flag, sigaction-free signal() and raise().
extern "C" void on_stop_signal(int signal_number) {
  if (g_stop_signal != 0) {
    // second signal: abort now, the way the process would have died without us
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
    return;
  }
  g_stop_signal = signal_number;
}

}  // namespace

void install_stop_request_handlers() {
  g_stop_signal = 0;
  if (g_saved.installed) return;
  struct sigaction action {};
  action.sa_handler = &on_stop_signal;
  sigemptyset(&action.sa_mask);
  // restart interrupted system calls, so a signal arriving inside an HDF5 write does not make
  // that write fail with EINTR; the loop sees the flag at its next poll anyway
  action.sa_flags = SA_RESTART;
  if (sigaction(SIGINT, &action, &g_saved.interrupt) != 0 ||
      sigaction(SIGTERM, &action, &g_saved.terminate) != 0 ||
      sigaction(SIGUSR1, &action, &g_saved.user1) != 0) {
    const int error = errno;
    sigaction(SIGINT, &g_saved.interrupt, nullptr);
    sigaction(SIGTERM, &g_saved.terminate, nullptr);
    throw std::runtime_error(
        cat("cannot install the SIGINT/SIGTERM/SIGUSR1 handlers: ", std::strerror(error)));
  }
  g_saved.installed = true;
}

void uninstall_stop_request_handlers() {
  if (!g_saved.installed) return;
  sigaction(SIGINT, &g_saved.interrupt, nullptr);
  sigaction(SIGTERM, &g_saved.terminate, nullptr);
  sigaction(SIGUSR1, &g_saved.user1, nullptr);
  g_saved.installed = false;
}

bool stop_requested() { return g_stop_signal != 0; }

int stop_signal() { return g_stop_signal; }

void clear_stop_request() { g_stop_signal = 0; }

}  // namespace routh
