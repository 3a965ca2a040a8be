#pragma once
// The HDF5 trajectory recorder (docs/output.md): streams samples and events of one run
// into flat datasets that h5py and pandas read directly. Layout (format_version 2; version 1 had
// no /model, /sample_kind, nor the fields and sequence_layout attributes of /events):
//
//   /           attrs format = "routh-trajectory", format_version = 2, routh_version, law,
//               status, status_detail (how the run ended: see set_run_status)
//   /scenario   scalar variable-length UTF-8 string: the effective scenario as YAML
//   /model      scalar variable-length UTF-8 string: the model as JSON, for drawing it (bodies,
//               shapes, joints, obstacles, contacts: model_description.hpp, docs/output.md);
//               attrs format = "json", format_version. Absent when the header has no model_json
//   /time       float64 (N)      chunked, unlimited; attr units = "s"
//   /sample_kind uint8 (N)       why each sample was taken (SampleKind): 0 at the output rate,
//               1 just before an event, 2 just after; an event's time appears twice in /time,
//               1 then 2. 255: a row extended but never written (a killed writer); attr meaning
//   /q          float64 (N, n)   attrs names[n], units[n] ("m", "rad")
//   /v          float64 (N, n)   attrs names[n], units[n] ("m/s", "rad/s": q's unit + "/s")
//   /energy     float64 (N, 3)   attrs names = [kinetic, potential, total], units = [J, J, J]
//   /ground_acceleration  float64 (N, 2), only for an excited run (record_ground_acceleration):
//               a_g at each sample; attrs names = [x, y], units = [m/s^2, m/s^2]
//   /events     compound (M), one row per EventRecord, fields in this order:
//                 t float64 [s] | kind str | contacts str | phases str |
//                 impulse vlen float64 [N s] | u_pre vlen float64 [m/s] |
//                 u_post vlen float64 [m/s] | delta_T, normal_work, tangential_work float64 [J] |
//                 flags str | status str
//               attrs contact_names[K], fields[12] (the field names), units[12] (one per
//               field, "" for text fields), sequence_layout (how impulse, u_pre, u_post list
//               their components: the text of kEventSequenceLayout)
//   /summary    group, the run's outcome figures as attributes (set_summary): impacts, events
//               (int), uplift_time, overturn_time [s] (NaN if none), overturned (int 0/1),
//               overturned_body (str), max_abs_theta [rad] (largest rotation of a free body
//               from upright, θ = 0), max_abs_theta_time [s], max_slide [m] (largest slide of
//               a free body's base: the least horizontal travel of its bottom corners, so
//               that rocking on a pivot is no slide),
//               dissipated_energy [J] (Σ −ΔT over the impacts), final_time [s]; then per
//               watched body BODY.max_abs_theta [rad], BODY.max_theta_over_alpha,
//               BODY.overturned (int 0/1), BODY.overturn_time [s], BODY.impacts_before_overturn
//               (int, −1 if it did not overturn), BODY.max_slide [m], BODY.residual_rotation
//               [rad], BODY.residual_slide [m] (outcome_figures.hpp; docs/output.md). The
//               group keeps its attributes' creation order: the order of that table
//
// All strings are variable-length UTF-8 (h5py: str for attributes, bytes inside datasets, use
// .decode() or .asstr()). Choices for the event table, made for h5py/pandas:
//  - contacts is text, the contact indices comma-separated ("0" or "0,1"): a pandas column one
//    can group and filter on; indices refer to /events' contact_names attribute;
//  - impulse, u_pre, u_post are variable-length float64 sequences of the exact length (rows per
//    contact × contacts, normal first per contact): h5py gives one numpy array per row, and
//    pd.DataFrame(list(zip(...))) or pd.DataFrame.from_records keeps them as object columns;
//    no padding, no separate row count;
//  - kind, flags (comma-separated ImpactFlag names) and status are text.
//
// Memory is bounded: samples are buffered (buffer_samples rows, 4096 by default) and appended
// with H5Dset_extent + a hyperslab write when the buffer fills; events are buffered too (256
// rows) and appended in one write.
//
// Durability. The recorder flushes (writes both buffers, then H5Fflush) on a wall-clock cadence,
// at most once per flush_interval (1 s by default; a scenario's output.flush_interval), checked at
// every sample and event; and at the close, which `routh run` reaches on completion, on a trouble
// status, on SIGINT/SIGTERM (see stop_request.hpp) and when the simulation throws. Flushing after
// every event made writing cost 5 to 30 times the simulation of a 4 ms run. What a SIGKILL (OOM
// killer, crash) loses is everything after the last flush: up to flush_interval of the run
// (docs/output.md, "What a kill loses"). The file on disk is readable up to the last flush
// whenever the process dies, because:
//  - the constructor writes the header in one piece, made in memory (HDF5's core driver): the
//    file is never on disk with its superblock and without the objects it points to;
//  - HDF5's metadata cache holds every change until the next flush (no evictions): between two
//    flushes the metadata on disk is the last flush's, and appends write only raw chunks past
//    its end or partial chunks again with the same rows first. The cache then keeps the file's
//    metadata in memory, about 400 bytes per event and a hundredth of the samples' bytes;
//  - a kill inside a flush (HDF5 writes the superblock last) can leave metadata that points past
//    the end the superblock declares: routh's readers raise that end to the file's size
//    (hdf5::open_for_reading); rows extended and never written read as NaN (the fill value), and
//    an event or a status whose text never reached the disk cannot be read.
// The tests kill `routh run` with SIGKILL at seeded random moments, many inside flushes, and
// read every file left (test_kill_campaign.cpp).
// A full disk (ENOSPC), a file-size limit (EFBIG) or another failed write throws
// TrajectoryWriteError; nothing more is written, and the close still completes: before each write
// the recorder makes sure the disk holds what the write may add, so the disk fills there, not
// halfway through HDF5's metadata (which left the superblock pointing past the file's end, an
// unreadable file, and crashed HDF5 at exit). It looks (fstatvfs, RLIMIT_FSIZE) while 64 MiB
// beyond the write are free and below the limit, and otherwise grows the file on disk by what
// the write may add (posix_fallocate). So near a full disk, a write fails cleanly even if another
// process fills the disk at the same time; with more room, only another process writing 64 MiB
// within one write of the recorder's can still make HDF5 fail midway. The file then holds the
// run up to the last successful write, with root status "unfinished".
// The file uses the HDF5 1.8 format (libver bounds V18, V18), read by any HDF5 since 1.8. Not
// older: the earliest format (HDF5's default) caps an object header message, so an attribute,
// at 64 KiB, about 4000 names in contact_names, which /events keeps in dense storage instead.
// Not newer: with H5F_LIBVER_LATEST (the 1.10 format), HDF5 1.10 marks the superblock "open for
// writing" and refuses to open a file whose writer died ("file is already open for write")
// until `h5clear -s` is run on it.
// The data reach the operating system, not the disk (no fsync): they survive the process, not a
// power cut.
// SIGINT/SIGTERM: see stop_request.hpp; the loop stops and closes the recorder normally.
//
// HDF5 here is built thread-safe (H5_HAVE_THREADSAFE), so recorders in different threads may
// run at once; one recorder must not be used by two threads at the same time.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/recorder/file_room.hpp"
#include "sim/simulation/energy.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/simulator.hpp"
#include "sim/simulation/trajectory_observer.hpp"

namespace routh {

inline constexpr const char* kTrajectoryFormat = "routh-trajectory";
inline constexpr int kTrajectoryFormatVersion = 2;
/// The root `status` of a file whose run has not reported how it ended: a run still being
/// written, or one whose writer crashed or was killed. Files written before routh recorded
/// statuses have no `status` attribute at all.
inline constexpr const char* kUnfinishedRunStatus = "unfinished";

/// One field of /events: its name and its unit ("" for text), written as the dataset's `fields`
/// and `units` attributes.
struct EventField {
  std::string_view name;
  std::string_view unit;
};
/// The fields of /events in the file's order (the layout above); `routh info --events` prints its
/// columns in this order.
inline constexpr std::array<EventField, 12> kEventFields = {{{"t", "s"},
                                                             {"kind", ""},
                                                             {"contacts", ""},
                                                             {"phases", ""},
                                                             {"impulse", "N s"},
                                                             {"u_pre", "m/s"},
                                                             {"u_post", "m/s"},
                                                             {"delta_T", "J"},
                                                             {"normal_work", "J"},
                                                             {"tangential_work", "J"},
                                                             {"flags", ""},
                                                             {"status", ""}}};

/// A write to the trajectory file failed: the disk is full (ENOSPC), the file reached a size limit
/// (EFBIG) or the device failed. The file stays readable up to the last successful write.
class TrajectoryWriteError : public OutputWriteError {
 public:
  using OutputWriteError::OutputWriteError;
};

/// What the recorder writes once, at creation.
struct RecorderHeader {
  std::string law;                            ///< the scenario's impact law, e.g. "poisson"
  std::string scenario_yaml;                  ///< the effective scenario, every default filled in
  std::vector<std::string> coordinate_names;  ///< n names, e.g. {"x", "y", "theta"}
  std::vector<std::string> coordinate_units;  ///< n SI units, "m" or "rad"
  std::vector<std::string> contact_names;     ///< K names, in contact index order
  /// The model for a reader to draw it (model_description_json); empty: no /model.
  std::string model_json;
  /// nv names of v (MechanicalSystem::velocity_names) and their SI units; empty: those of the
  /// coordinates, the units per second (v = q̇).
  std::vector<std::string> velocity_names = {};
  std::vector<std::string> velocity_units = {};
};

class TrajectoryRecorder final : public TrajectoryObserver {
 public:
  static constexpr int kDefaultBufferSamples = 4096;
  static constexpr double kDefaultFlushInterval = 1.0;  ///< [s] of wall-clock time

  /// Creates (truncates) the file at `path` holding the header, on disk at once. Throws
  /// std::invalid_argument if there are no coordinates, names and units differ in count,
  /// buffer_samples < 1 or flush_interval_s [s] is negative or not finite, OutputWriteError
  /// naming the path if the file cannot be created or its header and close would not fit
  /// (file_room.hpp), and std::runtime_error if HDF5 cannot create it. flush_interval_s = 0
  /// flushes at every sample and event.
  TrajectoryRecorder(const std::filesystem::path& path, RecorderHeader header,
                     int buffer_samples = kDefaultBufferSamples,
                     double flush_interval_s = kDefaultFlushInterval);
  /// Flushes and closes if still open (errors are printed to stderr, never thrown).
  ~TrajectoryRecorder();
  TrajectoryRecorder(TrajectoryRecorder&&) noexcept;
  TrajectoryRecorder& operator=(TrajectoryRecorder&&) noexcept;
  TrajectoryRecorder(const TrajectoryRecorder&) = delete;
  TrajectoryRecorder& operator=(const TrajectoryRecorder&) = delete;

  /// Appends one sample: time t [s], q and v (n each, SI), energy [J]. Buffered; writes when the
  /// buffer is full, flushes when a flush is due. Throws std::invalid_argument on a size
  /// mismatch, std::logic_error after close() and TrajectoryWriteError when a write fails.
  void record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                     const Energy& energy, SampleKind kind = SampleKind::output) override;
  /// From now on each sample also records the ground acceleration a_g(t) [m/s²] in
  /// /ground_acceleration, its first `components` (2: x, y for a planar model; 3: x, y, z for a
  /// spatial one). Call it before the first sample (std::logic_error after one).
  void record_ground_acceleration(std::function<Eigen::Vector3d(double)> ground_acceleration,
                                  int components);
  /// Buffers the event; writes when the event buffer is full, flushes when a flush is due.
  void record_event(const EventRecord& event) override;
  /// Writes the buffered samples and events and flushes the file (H5Fflush) now.
  void flush();
  /// Records how the run ended: the root attributes `status` (to_string(status)) and
  /// `status_detail` (the words, "" for a completed run), replacing the "unfinished" that the
  /// constructor wrote (on disk at the next flush or the close). Throws std::logic_error after
  /// close().
  void set_run_status(RunStatus status, const std::string& detail);
  /// Writes the /summary group from the run's outcome (once; on disk at the next flush or the
  /// close).
  void set_summary(const SimulationOutcome& outcome);
  /// Flushes and closes the file (after a TrajectoryWriteError: closes without writing the
  /// buffers). Further records throw; close() again does nothing.
  void close();

  bool is_open() const;
  std::int64_t sample_count() const;  ///< samples recorded so far (written or buffered)
  std::int64_t event_count() const;   ///< events recorded so far (written or buffered)
  const std::filesystem::path& path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace routh
