#include "sim/recorder/trajectory_summary.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "sim/recorder/event_table_row.hpp"
#include "sim/recorder/hdf5_support.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/outcome_figures.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

using hdf5::check;
using hdf5::checked;
using hdf5::Handle;
using hdf5::RowSelection;
using hdf5::select_rows;

constexpr hsize_t kReadBlockRows = 16384;

[[noreturn]] void fail(std::string_view context, std::string_view message) {
  throw std::runtime_error(cat(context, ": ", message));
}

// Runs `read` (reading a file known to be HDF5), rethrowing what it throws as damage.
template <typename Read>
auto as_damage(std::string_view context, Read&& read) -> decltype(read()) {
  return hdf5::rethrow_as_damage<DamagedTrajectoryError>(context, std::forward<Read>(read));
}

// The file at `path` opened for reading, once it is known to be a routh trajectory of a
// format_version this routh reads (`format_version` receives it). HDF5's errors must be quiet.
Handle open_trajectory(const std::filesystem::path& path, int& format_version) {
  const std::string context = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail(context, "is a directory, not a file");
  if (!std::filesystem::is_regular_file(path, error)) fail(context, "no such file");
  if (std::filesystem::file_size(path, error) == 0 && !error) {
    fail(context, "empty file (a run killed while its recorder created the file?)");
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(context, "not an HDF5 file");
  Handle file = as_damage(context, [&] { return hdf5::open_for_reading(path.c_str(), context); });
  const hid_t root = file.get();
  if (H5Aexists(root, "format") <= 0) {
    fail(context, "not a routh trajectory (no 'format' attribute on /)");
  }
  const std::string format =
      as_damage(context, [&] { return hdf5::read_string_attribute(root, "format", context); });
  if (format != kTrajectoryFormat) {
    fail(context, cat("format is '", format, "', not '", kTrajectoryFormat, "'"));
  }
  const long long version = hdf5::read_integer_attribute(root, "format_version", context);
  if (version < 1 || version > kTrajectoryFormatVersion) {
    fail(context, cat("format_version ", version, " is not supported (this routh reads up to ",
                      kTrajectoryFormatVersion, ")"));
  }
  format_version = static_cast<int>(version);
  return file;
}

Handle open_dataset(hid_t file, const char* name, std::string_view context) {
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) {
    fail(context, cat("dataset /", name, " is missing; not a complete routh trajectory"));
  }
  return checked(H5Dopen2(file, name, H5P_DEFAULT), &H5Dclose, context,
                 cat("open dataset /", name));
}

// Extent of a dataset: rows, and columns (0 for one-dimensional).
std::pair<hsize_t, hsize_t> extent(const Handle& dataset, const char* name, int expected_rank,
                                   std::string_view context) {
  const Handle space = checked(H5Dget_space(dataset.get()), &H5Sclose, context, "read a dataspace");
  std::array<hsize_t, 2> dims = {0, 0};
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank != expected_rank) {
    fail(context, cat("dataset /", name, " has ", rank, " dimensions, expected ", expected_rank));
  }
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return {dims[0], expected_rank == 2 ? dims[1] : 0};
}

// Reads rows [first, first + rows) of a float64 dataset with `columns` columns (0: 1-D).
std::vector<double> read_rows(const Handle& dataset, hsize_t first, hsize_t rows, hsize_t columns,
                              std::string_view context) {
  const RowSelection selected = select_rows(dataset.get(), first, rows, columns, context);
  std::vector<double> values(rows * std::max<hsize_t>(columns, 1));
  check(H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, selected.memory_space.get(),
                selected.file_space.get(), H5P_DEFAULT, values.data()),
        context, "read samples");
  return values;
}

void count(std::vector<std::pair<std::string, std::int64_t>>& counts, std::string_view name) {
  for (auto& [seen, n] : counts) {
    if (seen == name) {
      ++n;
      return;
    }
  }
  counts.emplace_back(name, 1);
}

// What read_event_rows read: the rows before the first it could not read, and why it stopped
// ("" when it read them all).
struct EventRowsRead {
  hsize_t rows = 0;
  std::string failure;
};

// Frees what HDF5 allocated for a block's text and sequences, also when its reader throws.
class ReclaimedBlock {
 public:
  ReclaimedBlock(hid_t type, hid_t space, void* rows) : type_(type), space_(space), rows_(rows) {}
  ~ReclaimedBlock() { H5Dvlen_reclaim(type_, space_, H5P_DEFAULT, rows_); }
  ReclaimedBlock(const ReclaimedBlock&) = delete;
  ReclaimedBlock& operator=(const ReclaimedBlock&) = delete;

 private:
  hid_t type_;
  hid_t space_;
  void* rows_;
};

// Reads the `rows` rows of /events in blocks of `Row`, the compound memory type `type` (some of
// the fields, which HDF5 matches by name), and calls use(block, index of its first row). Stops at
// a block HDF5 cannot read: a writer killed while appending an event can leave its text
// unreadable.
template <typename Row, typename Use>
EventRowsRead read_event_rows(const Handle& events, const Handle& type, hsize_t rows,
                              std::string_view context, Use&& use) {
  std::vector<Row> block;
  const Handle transfer = hdf5::conversion_transfer(context);
  std::string failure;  // HDF5's words for the first failed read
  // reads rows [first, first + n) into `block`, or returns false
  const auto read = [&](hsize_t first, hsize_t n) {
    block.assign(n, Row{});
    const RowSelection selected = select_rows(events.get(), first, n, 0, context);
    if (H5Dread(events.get(), type.get(), selected.memory_space.get(), selected.file_space.get(),
                transfer.get(), block.data()) < 0) {
      if (failure.empty()) failure = hdf5::error_detail();
      return false;
    }
    const ReclaimedBlock reclaimed(type.get(), selected.memory_space.get(), block.data());
    use(block, first);
    return true;
  };
  for (hsize_t first = 0; first < rows; first += kReadBlockRows) {
    hsize_t n = std::min(kReadBlockRows, rows - first);
    if (read(first, n)) continue;
    // the rows of the block before the first unreadable one, in halves
    while (n > 1) {
      const hsize_t half = n / 2;
      const bool readable = read(first, half);
      first += readable ? half : 0;
      n = readable ? n - half : half;
    }
    return {first, cat("cannot read /events rows from ", first, " on: ", failure)};
  }
  return {rows, ""};
}

// The fields of an /events row that the summary needs; HDF5 matches them by name.
struct EventSummaryRow {
  double t;
  char* kind;
  char* flags;
  char* status;
};

void summarize_events(hid_t file, std::string_view context, TrajectorySummary& summary) {
  const Handle events = open_dataset(file, "events", context);
  summary.contact_names =
      hdf5::read_string_array_attribute(events.get(), "contact_names", cat(context, ", /events"));
  const hsize_t rows = extent(events, "events", 1, context).first;
  summary.event_count = static_cast<std::int64_t>(rows);

  const Handle text = hdf5::utf8_string_type();
  const Handle type = checked(H5Tcreate(H5T_COMPOUND, sizeof(EventSummaryRow)), &H5Tclose, context,
                              "create a type");
  H5Tinsert(type.get(), "t", offsetof(EventSummaryRow, t), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.get(), "kind", offsetof(EventSummaryRow, kind), text.get());
  H5Tinsert(type.get(), "flags", offsetof(EventSummaryRow, flags), text.get());
  H5Tinsert(type.get(), "status", offsetof(EventSummaryRow, status), text.get());

  std::vector<std::pair<std::string, std::int64_t>> kinds;
  const auto summarize = [&](const std::vector<EventSummaryRow>& block, hsize_t) {
    for (const EventSummaryRow& row : block) {
      count(kinds, row.kind != nullptr ? row.kind : "");
      const std::string_view flags = row.flags != nullptr ? row.flags : "";
      for (std::size_t begin = 0; begin < flags.size();) {
        const std::size_t end = std::min(flags.find(',', begin), flags.size());
        if (end > begin) count(summary.flags_seen, flags.substr(begin, end - begin));
        begin = end + 1;
      }
      // Mode events carry the new mode and zeno events their limit as status; only an impact
      // that was not solved, or trouble, is unusual.
      const std::string_view kind = row.kind != nullptr ? row.kind : "";
      const std::string_view status = row.status != nullptr ? row.status : "";
      const bool judged =
          kind == to_string(EventKind::impact) || kind == to_string(EventKind::trouble);
      if (judged && !status.empty() && status != "solved") count(summary.unusual_statuses, status);
    }
  };
  const EventRowsRead read =
      read_event_rows<EventSummaryRow>(events, type, rows, context, summarize);
  if (!read.failure.empty()) {
    summary.warnings.push_back(cat(read.failure, "; counting the events before"));
    summary.event_count = static_cast<std::int64_t>(read.rows);
  }
  // known kinds in their enum order, then any others
  for (EventKind kind : kAllEventKinds) {
    for (const auto& entry : kinds) {
      if (entry.first == to_string(kind)) summary.events_by_kind.push_back(entry);
    }
  }
  for (const auto& entry : kinds) {
    if (!event_kind_from_string(entry.first)) summary.events_by_kind.push_back(entry);
  }
}

std::string text_of(const char* text) { return text != nullptr ? text : ""; }

std::vector<double> values_of(const hvl_t& sequence) {
  const auto* first = static_cast<const double*>(sequence.p);
  return first != nullptr ? std::vector<double>(first, first + sequence.len)
                          : std::vector<double>();
}

// "0,1" -> {0, 1}: the row's contact indices, each one of the `count` contacts.
std::vector<int> contact_indices(std::string_view text, std::size_t count, hsize_t row,
                                 std::string_view context) {
  std::vector<int> indices;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = std::min(text.find(',', begin), text.size());
    int index = -1;
    const auto parsed = std::from_chars(text.data() + begin, text.data() + end, index);
    if (parsed.ec != std::errc() || parsed.ptr != text.data() + end || index < 0 ||
        static_cast<std::size_t>(index) >= count) {
      fail(context, cat("/events row ", row, ": contacts '", text, "' are not indices of its ",
                        count, " contact_names"));
    }
    indices.push_back(index);
    begin = end + 1;
  }
  return indices;
}

}  // namespace

namespace {

// How the run ended, from the root's status attributes. A writer killed while closing the file
// (rewriting them) can leave them unreadable: the run's end was then never recorded.
void read_run_status(hid_t root, const std::string& context, TrajectorySummary& summary) {
  // files written before routh recorded how runs end have no status
  summary.status = "not recorded";
  if (H5Aexists(root, "status") <= 0) return;
  try {
    summary.status = hdf5::read_string_attribute(root, "status", context);
    if (H5Aexists(root, "status_detail") > 0) {
      summary.status_detail = hdf5::read_string_attribute(root, "status_detail", context);
    }
  } catch (const std::runtime_error& error) {
    summary.status = kUnfinishedRunStatus;
    summary.status_detail = "its status cannot be read: the writer died while closing the file";
    summary.warnings.push_back(error.what());
  }
  if (summary.status != kUnfinishedRunStatus && !run_status_from_string(summary.status)) {
    summary.warnings.push_back(cat("status '", summary.status, "' is not a run status"));
  }
  // a run that ended, however, recorded one of the statuses
  summary.incomplete = !run_status_from_string(summary.status);
}

// The watched bodies' figures (BODY.figure, numbers all) in the order they were written, from
// a /summary that keeps its attributes' creation order (files before the per-body figures had
// neither).
void read_body_figures(const Handle& group, const std::string& context,
                       TrajectorySummary& summary) {
  const Handle creation = checked(H5Gget_create_plist(group.get()), &H5Pclose, context,
                                  "read /summary's creation properties");
  unsigned order = 0;
  check(H5Pget_attr_creation_order(creation.get(), &order), context,
        "read /summary's attribute order");
  if ((order & H5P_CRT_ORDER_INDEXED) == 0) return;
  std::vector<std::string> names;
  const auto collect = [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
    static_cast<std::vector<std::string>*>(data)->emplace_back(name);
    return 0;
  };
  check(H5Aiterate2(group.get(), H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, collect, &names),
        context, "list /summary's attributes");
  for (const std::string& name : names) {
    if (name.find('.') == std::string::npos) continue;  // the whole model's, read above
    const Handle attribute = checked(H5Aopen(group.get(), name.c_str(), H5P_DEFAULT), &H5Aclose,
                                     context, cat("open /summary's ", name));
    const Handle type =
        checked(H5Aget_type(attribute.get()), &H5Tclose, context, cat("read ", name, "'s type"));
    const H5T_class_t kind = H5Tget_class(type.get());
    if (kind != H5T_INTEGER && kind != H5T_FLOAT) continue;
    summary.outcome.emplace_back(name,
                                 hdf5::read_double_attribute(group.get(), name.c_str(), context));
  }
}

void summarize_contents(const Handle& file, const std::string& context,
                        TrajectorySummary& summary) {
  summary.format = kTrajectoryFormat;
  const hid_t root = file.get();
  summary.routh_version = hdf5::read_string_attribute(root, "routh_version", context);
  summary.law = hdf5::read_string_attribute(root, "law", context);
  read_run_status(root, context, summary);

  // the outcome figures, in a file whose run recorded them
  if (H5Lexists(root, "summary", H5P_DEFAULT) > 0) {
    const Handle group =
        checked(H5Gopen2(root, "summary", H5P_DEFAULT), &H5Gclose, context, "open /summary");
    for (const OutcomeFigure& figure : model_figures(SimulationOutcome{})) {
      const std::string name(figure.name);
      if (std::holds_alternative<std::string>(figure.value)) continue;  // the numbers only
      if (H5Aexists(group.get(), name.c_str()) > 0) {
        summary.outcome.emplace_back(
            name, hdf5::read_double_attribute(group.get(), name.c_str(), context));
      }
    }
    read_body_figures(group, context, summary);
  }

  // the length of a scalar text dataset
  const auto text_bytes = [&](const char* name) -> std::size_t {
    return hdf5::read_text_dataset(open_dataset(root, name, context).get(), name, context).size();
  };
  summary.scenario_bytes = text_bytes("scenario");
  // files before format version 2 have no /model
  if (H5Lexists(root, "model", H5P_DEFAULT) > 0) summary.model_bytes = text_bytes("model");

  const Handle time = open_dataset(root, "time", context);
  const Handle q = open_dataset(root, "q", context);
  const Handle v = open_dataset(root, "v", context);
  const Handle energy = open_dataset(root, "energy", context);
  const auto time_extent = extent(time, "time", 1, context);
  const auto q_extent = extent(q, "q", 2, context);
  const auto v_extent = extent(v, "v", 2, context);
  const auto energy_extent = extent(energy, "energy", 2, context);
  if (energy_extent.second != 3) fail(context, "dataset /energy must have 3 columns");
  summary.coordinate_names = hdf5::read_string_array_attribute(q.get(), "names", context + ", /q");
  summary.coordinate_units = hdf5::read_string_array_attribute(q.get(), "units", context + ", /q");
  if (summary.coordinate_names.size() != q_extent.second) {
    summary.warnings.push_back(cat("/q has ", q_extent.second, " columns but ",
                                   summary.coordinate_names.size(), " names"));
  }
  hsize_t rows = std::min({time_extent.first, q_extent.first, v_extent.first, energy_extent.first});
  if (rows != time_extent.first || rows != q_extent.first || rows != v_extent.first ||
      rows != energy_extent.first) {
    summary.warnings.push_back(cat("datasets differ in length (time ", time_extent.first, ", q ",
                                   q_extent.first, ", v ", v_extent.first, ", energy ",
                                   energy_extent.first, "); using the first ", rows));
  }
  // a writer killed inside an append leaves rows that read as the fill value, NaN
  hsize_t rows_written = rows;
  while (rows_written > 0) {
    const hsize_t n = std::min(kReadBlockRows, rows_written);
    const std::vector<double> block = read_rows(time, rows_written - n, n, 0, context);
    hsize_t finite = n;
    while (finite > 0 && std::isnan(block[finite - 1])) --finite;
    rows_written -= n - finite;
    if (finite > 0) break;
  }
  if (rows_written < rows) {
    summary.warnings.push_back(cat("the last ", rows - rows_written,
                                   " rows were never written (the writer died while appending "
                                   "them); using the first ",
                                   rows_written));
    rows = rows_written;
  }
  summary.sample_count = static_cast<std::int64_t>(rows);

  if (rows > 0) {
    summary.t_first = read_rows(time, 0, 1, 0, context).front();
    summary.t_last = read_rows(time, rows - 1, 1, 0, context).front();
    double start_total = 0.0;
    double max_total = -HUGE_VAL;
    hsize_t max_row = 0;
    for (hsize_t first = 0; first < rows; first += kReadBlockRows) {
      const hsize_t n = std::min(kReadBlockRows, rows - first);
      const std::vector<double> block = read_rows(energy, first, n, 3, context);
      if (first == 0) {
        summary.energy_first = Energy{block[0], block[1]};
        start_total = block[2];
      }
      for (hsize_t i = 0; i < n; ++i) {
        if (block[3 * i + 2] > max_total) max_total = block[3 * i + 2], max_row = first + i;
      }
      if (first + n == rows) summary.energy_last = Energy{block[3 * (n - 1)], block[3 * n - 2]};
    }
    summary.max_energy_rise = std::max(0.0, max_total - start_total);
    summary.max_energy_rise_t = summary.max_energy_rise > 0.0
                                    ? read_rows(time, max_row, 1, 0, context).front()
                                    : summary.t_first;
  }

  if (rows > 0 && H5Lexists(root, "ground_acceleration", H5P_DEFAULT) > 0) {
    const Handle ground = open_dataset(root, "ground_acceleration", context);
    const hsize_t columns = extent(ground, "ground_acceleration", 2, context).second;
    if (columns != 2 && columns != 3) {
      fail(context, "dataset /ground_acceleration must have 2 columns (x, y) or 3 (x, y, z)");
    }
    const auto width = static_cast<Eigen::Index>(columns);
    Eigen::VectorXd peak = Eigen::VectorXd::Zero(width);
    for (hsize_t first = 0; first < rows; first += kReadBlockRows) {
      const hsize_t n = std::min(kReadBlockRows, rows - first);
      const std::vector<double> block = read_rows(ground, first, n, columns, context);
      const Eigen::Map<const Eigen::MatrixXd> samples(block.data(), width,
                                                      static_cast<Eigen::Index>(n));
      peak = peak.cwiseMax(samples.cwiseAbs().rowwise().maxCoeff());
    }
    summary.peak_ground_acceleration = peak;
  }

  summarize_events(root, context, summary);
}

}  // namespace

TrajectorySummary summarize_trajectory(const std::filesystem::path& path) {
  const std::string context = path.string();
  const hdf5::QuietErrors quiet;
  TrajectorySummary summary;
  const Handle file = open_trajectory(path, summary.format_version);
  as_damage(context, [&] { summarize_contents(file, context, summary); });
  return summary;
}

struct EventLogReader::Files {
  hdf5::QuietErrors quiet;  // first: HDF5 stays quiet until the handles below are closed
  std::string context;
  Handle file;
  Handle events;
  Handle row_type;
  hsize_t rows = 0;
  std::vector<std::string> contact_names;
  std::vector<std::pair<std::string, std::string>> units;  ///< (field, unit) in field order
};

EventLogReader::EventLogReader(const std::filesystem::path& path)
    : files_(std::make_unique<Files>()) {
  Files& files = *files_;
  files.context = path.string();
  const std::string& context = files.context;
  int format_version = 0;
  files.file = open_trajectory(path, format_version);
  files.events = open_dataset(files.file.get(), "events", context);
  files.rows = extent(files.events, "events", 1, context).first;
  files.row_type = hdf5::event_table_row_type(context);
  const std::string events_context = cat(context, ", /events");
  files.contact_names =
      hdf5::read_string_array_attribute(files.events.get(), "contact_names", events_context);
  if (H5Aexists(files.events.get(), "units") <= 0) return;
  const std::vector<std::string> units =
      hdf5::read_string_array_attribute(files.events.get(), "units", events_context);
  const Handle file_type =
      checked(H5Dget_type(files.events.get()), &H5Tclose, context, "read the /events type");
  const int fields = H5Tget_nmembers(file_type.get());
  for (int f = 0; f < fields && static_cast<std::size_t>(f) < units.size(); ++f) {
    char* name = H5Tget_member_name(file_type.get(), static_cast<unsigned>(f));
    if (name == nullptr) continue;
    files.units.emplace_back(name, units[static_cast<std::size_t>(f)]);
    H5free_memory(name);
  }
}

EventLogReader::~EventLogReader() = default;

const std::vector<std::string>& EventLogReader::contact_names() const {
  return files_->contact_names;
}

std::string EventLogReader::unit(std::string_view field) const {
  for (const auto& [name, unit] : files_->units) {
    if (name == field) return unit;
  }
  return "";
}

std::string EventLogReader::for_each_event(
    const std::function<void(const EventRecord&)>& visit) const {
  const Files& files = *files_;
  EventRecord event;
  const auto convert = [&](const std::vector<hdf5::EventTableRow>& block, hsize_t first) {
    for (std::size_t i = 0; i < block.size(); ++i) {
      const hdf5::EventTableRow& row = block[i];
      const hsize_t index = first + i;
      const std::string kind = text_of(row.kind);
      const std::optional<EventKind> known = event_kind_from_string(kind);
      if (!known) fail(files.context, cat("/events row ", index, ": unknown kind '", kind, "'"));
      event.t = row.t;
      event.kind = *known;
      event.contacts =
          contact_indices(text_of(row.contacts), files.contact_names.size(), index, files.context);
      event.phases = text_of(row.phases);
      event.impulse = values_of(row.impulse);
      event.u_pre = values_of(row.u_pre);
      event.u_post = values_of(row.u_post);
      event.delta_T = row.delta_T;
      event.normal_work = row.normal_work;
      event.tangential_work = row.tangential_work;
      event.flags = text_of(row.flags);
      event.status = text_of(row.status);
      visit(event);
    }
  };
  const EventRowsRead read = read_event_rows<hdf5::EventTableRow>(
      files.events, files.row_type, files.rows, files.context, convert);
  if (read.failure.empty()) return "";
  return cat(files.context, ": ", read.failure, "; the ", read.rows, " events before are listed");
}

}  // namespace routh
