#pragma once
// Stopping a run cleanly on SIGINT (Ctrl-C), SIGTERM (kill, batch schedulers) or SIGUSR1.
// SIGUSR1 is the one OpenMPI's mpirun forwards to every rank: SIGINT or SIGTERM sent to mpirun
// makes it terminate the ranks (SIGTERM, which they take as a stop) and exit 1 itself, whatever
// the ranks return, while after a forwarded SIGUSR1 mpirun exits with the ranks' code (130).
//
// HDF5 is not async-signal-safe, so a signal handler must not touch the recorder. The contract:
//   1. the program calls install_stop_request_handlers() (or holds a StopRequestHandlers) before
//      it starts a run;
//   2. the handlers only record the signal in a `volatile std::sig_atomic_t`;
//   3. the simulation loop polls stop_requested() between steps; when it is true the loop records
//      an `interrupted` event, leaves, and closes the recorder normally (TrajectoryRecorder::close
//      or its destructor), so the file holds everything up to the signal;
//   4. a second signal while the first is still pending is taken as "abort now": the handler
//      restores the default action and re-raises, and the process dies as if no handler were
//      installed. The file then holds what the recorder flushed last (see trajectory_recorder.hpp).
// uninstall_stop_request_handlers() (or the destructor) restores the handlers that were there
// before, normally the defaults. The flag is process-wide.

#include <csignal>

namespace routh {

/// Installs the SIGINT, SIGTERM and SIGUSR1 handlers and clears the flag. Throws std::runtime_error
/// if sigaction fails. Installing twice is harmless (the first saved handlers are kept).
void install_stop_request_handlers();
/// Restores the handlers saved by install_stop_request_handlers().
void uninstall_stop_request_handlers();

/// True once SIGINT, SIGTERM or SIGUSR1 arrived after install (async-signal-safe, cheap: one load).
bool stop_requested();
/// The signal that asked to stop (SIGINT, SIGTERM or SIGUSR1), 0 if none.
int stop_signal();
/// Forgets a pending request (e.g. between the runs of a sweep).
void clear_stop_request();

/// RAII: installs the handlers on construction, restores the previous ones on destruction.
class StopRequestHandlers {
 public:
  StopRequestHandlers() { install_stop_request_handlers(); }
  ~StopRequestHandlers() { uninstall_stop_request_handlers(); }
  StopRequestHandlers(const StopRequestHandlers&) = delete;
  StopRequestHandlers& operator=(const StopRequestHandlers&) = delete;
};

}  // namespace routh
