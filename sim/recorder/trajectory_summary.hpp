#pragma once
// Reading a trajectory file back for a human summary (`routh info`): header, time span, sample
// and event counts, energy balance and the flags that were raised; and its event log row by row
// (`routh info --events`). Reads in blocks, so memory stays bounded for any file size.

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/simulation/energy.hpp"
#include "sim/simulation/event_record.hpp"

namespace routh {

/// The file is HDF5 (and may be a routh trajectory) but HDF5 cannot read what a trajectory
/// holds: bytes changed or cut off, or a writer killed at a moment no flush protects.
class DamagedTrajectoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TrajectorySummary {
  std::string format;  ///< "routh-trajectory"
  int format_version = 0;
  std::string routh_version;
  std::string law;
  std::string status;  ///< how the run ended (RunStatus name), "unfinished", or "not recorded"
  std::string status_detail;  ///< its words; "" for a completed run or an old file
  /// The writer never recorded how the run ended (status "unfinished", or unreadable): it was
  /// killed or crashed, and the file holds the run up to its last flush.
  bool incomplete = false;
  std::size_t scenario_bytes = 0;  ///< length of the /scenario YAML text
  std::size_t model_bytes = 0;     ///< length of the /model JSON text; 0: no /model

  std::int64_t sample_count = 0;
  double t_first = 0.0;  ///< [s], valid when sample_count > 0
  double t_last = 0.0;   ///< [s]
  std::vector<std::string> coordinate_names;
  std::vector<std::string> coordinate_units;
  std::vector<std::string> contact_names;

  Energy energy_first;             ///< [J] at the first sample
  Energy energy_last;              ///< [J] at the last sample
  double max_energy_rise = 0.0;    ///< max_i E_total(t_i) − E_total(t_0) [J], ≥ 0
  double max_energy_rise_t = 0.0;  ///< where it happens [s]

  std::int64_t event_count = 0;
  /// (kind, count) in the order of EventKind, then unknown kinds by name; zero counts left out.
  std::vector<std::pair<std::string, std::int64_t>> events_by_kind;
  /// (flag, number of events raising it), by first appearance.
  std::vector<std::pair<std::string, std::int64_t>> flags_seen;
  /// (status, count) of impact and trouble events whose status is not "solved", by first
  /// appearance.
  std::vector<std::pair<std::string, std::int64_t>> unusual_statuses;

  /// Largest |a_g| along x and y (and z, for a spatial model) over the samples [m/s²], from
  /// /ground_acceleration; nothing for a run without excitation.
  std::optional<Eigen::VectorXd> peak_ground_acceleration;

  /// The /summary figures that are numbers (name, value; NaN for an event that did not
  /// happen), in the order the recorder documents: the whole model's, then each watched body's
  /// (BODY.figure); empty for a file without /summary.
  std::vector<std::pair<std::string, double>> outcome;

  /// Readable but suspect, e.g. /time and /q of different lengths (a writer killed mid-write).
  std::vector<std::string> warnings;
};

/// Reads and checks the file. Throws std::runtime_error naming the file when it is missing, not
/// HDF5, not a routh trajectory or of an unsupported format_version, and DamagedTrajectoryError
/// when HDF5 cannot open or read it, or it is inconsistent. HDF5 itself may crash or hang on some
/// damaged files: a caller that must survive them reads in a child process (`routh info` does).
TrajectorySummary summarize_trajectory(const std::filesystem::path& path);

/// A trajectory file's event log, /events, row by row as the recorder wrote it: read in blocks,
/// so that memory stays bounded for any number of events, and as often as asked.
class EventLogReader {
 public:
  /// Opens the file and checks it as summarize_trajectory does; throws std::runtime_error naming
  /// it.
  explicit EventLogReader(const std::filesystem::path& path);
  ~EventLogReader();
  EventLogReader(const EventLogReader&) = delete;
  EventLogReader& operator=(const EventLogReader&) = delete;

  /// The names the rows' contact indices refer to.
  const std::vector<std::string>& contact_names() const;
  /// The unit of the field `field` ("t", "impulse", ...) from /events' units attribute, e.g.
  /// "s" or "N s"; "" for a text field or a field the file does not list.
  std::string unit(std::string_view field) const;
  /// Calls `visit` with each row in order. Returns "" or, when the rows from one on cannot be
  /// read (a writer killed while appending an event), a warning naming them; the rows before
  /// were visited. Throws std::runtime_error naming the file for a row it cannot make sense of.
  std::string for_each_event(const std::function<void(const EventRecord&)>& visit) const;

 private:
  struct Files;
  std::unique_ptr<Files> files_;
};

}  // namespace routh
