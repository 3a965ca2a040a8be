#include "sim/recorder/trajectory_recorder.hpp"

#include "sim/dynamics/mechanical_system.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "models/planar/model_description.hpp"

#include "sim/recorder/event_table_row.hpp"
#include "sim/recorder/hdf5_support.hpp"
#include "sim/simulation/outcome_figures.hpp"
#include "sim/text.hpp"

#ifndef ROUTH_VERSION
#error "ROUTH_VERSION must be defined by the build (the project version)"
#endif

namespace routh {

namespace {

using hdf5::check;
using hdf5::checked;
using hdf5::Handle;
using hdf5::RowSelection;
using hdf5::select_rows;

// A chunk stays within HDF5's default 1 MiB chunk cache, so partial chunks are cached between
// buffer writes instead of being read back from the file. Small, because a short run writes its
// partial last chunk whole (the rest is fill value) and reserve_room() keeps two of each free:
// at 512 KiB, a 10 s bouncing ball's file was 1.2 MB instead of 60 kB and writing it cost as
// much as simulating it; at 16 KiB, 10⁷ samples make 20 000 chunks per series, which HDF5's
// chunk index handles without a measurable cost.
constexpr std::size_t kMaxChunkBytes = 16 * 1024;
constexpr hsize_t kEventChunkRows = 64;
// Contact names an object header holds with room to spare (16 bytes each, of its 64 KiB).
constexpr std::size_t kCompactContactNames = 1024;
// Events wait in memory like samples; this many are written at once.
constexpr std::size_t kEventBufferRows = 256;
// The header is made in memory in steps of this many bytes (HDF5's core driver).
constexpr std::size_t kHeaderImageIncrement = 64 * 1024;
// Room kept free in the file beyond what HDF5 has allocated, for the metadata a write, a flush or
// the close adds (object headers, B-tree nodes, the global heap's vlen data), and per buffered
// event for its vlen data.
constexpr hsize_t kMetadataRoomBytes = 128 * 1024;
constexpr hsize_t kRoomBytesPerEvent = 1024;

// The flush cadence's clock: the monotonic clock as of the last timer tick (a few ms), read in
// about 3 ns instead of steady_clock's 20 ns. It is read at every sample and event, and a 1 s
// cadence needs no finer resolution: at 20 ns per read, the reads alone cost a 0.6 ms bouncing
// ball run with its 1443 records 5 % of its time.
struct Clock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<Clock>;
  static time_point now() noexcept {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    return time_point(std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec));
  }
};

// How an event row's per-contact sequences are laid out, for a reader without this header.
constexpr const char* kEventSequenceLayout =
    "impulse [N s], u_pre and u_post [m/s]: per contact of the row's `contacts`, in that order, "
    "its normal component then its tangential one (n_1, t_1, n_2, t_2, ...); contact indices "
    "refer to contact_names";
// A /sample_kind row that was extended but never written (a writer killed inside a write): no
// SampleKind has this value.
constexpr std::uint8_t kUnwrittenSampleKind = 255;

hvl_t sequence(const std::vector<double>& values) {
  // HDF5 only reads through p when writing; the const_cast does not let it write
  return hvl_t{values.size(), const_cast<double*>(values.data())};
}

std::string join_indices(const std::vector<int>& indices) {
  std::string text;
  for (int index : indices) {
    if (!text.empty()) text += ',';
    text += std::to_string(index);
  }
  return text;
}

// Keeps every change to the file's metadata (object headers, chunk indexes, heaps, the
// superblock) in HDF5's metadata cache until the next H5Fflush, which writes them all. By default
// the cache evicts entries when it fills, writing them in place between flushes: after a kill,
// the file held chunk indexes that point past the end of the file its superblock (written at the
// last flush) declares, and every series whose index was evicted was unreadable ("addr
// overflow"). Held, the metadata on disk between flushes is the last flush's, which is
// consistent; what reaches the disk meanwhile is raw data only: new chunks beyond that end, and
// partial chunks rewritten in place with the same rows first. The cost is memory: the cache
// keeps the file's metadata (about a hundredth of its data, plus the events' text and
// sequences in the global heap) instead of a few MiB of it.
void hold_metadata_until_flush(hid_t access, std::string_view context) {
  H5AC_cache_config_t config{};
  config.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  check(H5Pget_mdc_config(access, &config), context, "read the metadata cache configuration");
  // evictions can only be disabled with the automatic resizing off
  config.evictions_enabled = false;
  config.incr_mode = H5C_incr__off;
  config.flash_incr_mode = H5C_flash_incr__off;
  config.decr_mode = H5C_decr__off;
  check(H5Pset_mdc_config(access, &config), context, "configure the metadata cache");
}

// Trims the file to the size HDF5 allocated: reserve_room() grows it ahead of HDF5's writes, and
// HDF5 trims it back itself only when its own record of the file's end differs from what it
// allocated. A failure leaves a readable file with zeros at its end, so it is not reported.
void release_unused_room(const std::filesystem::path& path, haddr_t allocated) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return;
  const auto size = static_cast<off_t>(allocated);
  if (status.st_size > size) static_cast<void>(::truncate(path.c_str(), size));
}

}  // namespace

struct TrajectoryRecorder::Impl {
  std::filesystem::path path;
  Clock::duration flush_interval{};
  Clock::time_point next_flush;
  int descriptor = -1;  // the file's, from HDF5's sec2 driver: to reserve room on disk
  bool failed = false;  // a write failed: nothing more is written, the close only releases
  std::string context;  // "recorder FILE" for messages
  int coordinate_count = 0;
  int velocity_count = 0;
  int contact_count = 0;
  hsize_t buffer_capacity = 0;

  Handle file;
  Handle time;
  Handle q;
  Handle v;
  Handle energy;
  Handle sample_kind;
  Handle ground;  // /ground_acceleration, when the run is excited
  Handle events;
  Handle event_memory_type;

  hsize_t written = 0;          // samples in the file
  hsize_t unflushed_bytes = 0;  // appended since the last flush: in HDF5 chunk cache, unallocated
  hsize_t buffered = 0;         // samples in the buffers
  hsize_t event_rows = 0;       // events in the file
  std::vector<EventRecord> pending_events;
  std::vector<double> time_buffer;
  std::vector<double> q_buffer;  // row-major (buffer_capacity, n), as HDF5 stores (N, n)
  std::vector<double> v_buffer;
  std::vector<double> energy_buffer;  // row-major (buffer_capacity, 3)
  std::vector<std::uint8_t> sample_kind_buffer;
  std::function<Eigen::Vector3d(double)> ground_acceleration;
  int ground_components = 0;          // 2 (x, y) or 3 (x, y, z)
  std::vector<double> ground_buffer;  // row-major (buffer_capacity, ground_components)

  Handle create_series(const char* name, int columns, hsize_t chunk_rows) {
    // rows that were extended but whose data never reached the disk (a writer killed inside a
    // write or flush) read as NaN, not as plausible zeros
    const double unwritten = std::numeric_limits<double>::quiet_NaN();
    return create_series(name, columns, chunk_rows, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &unwritten,
                         sizeof(double));
  }

  // A chunked dataset of `columns` columns (0: one-dimensional) and no rows, extendable, of
  // `file_type` in the file, whose never-written rows read as `*unwritten` (of `memory_type`).
  Handle create_series(const char* name, int columns, hsize_t chunk_rows, hid_t file_type,
                       hid_t memory_type, const void* unwritten, std::size_t value_bytes) {
    const int rank = columns == 0 ? 1 : 2;
    const std::array<hsize_t, 2> dims = {0, static_cast<hsize_t>(columns)};
    const std::array<hsize_t, 2> max_dims = {H5S_UNLIMITED, static_cast<hsize_t>(columns)};
    const std::array<hsize_t, 2> chunk = {chunk_rows, static_cast<hsize_t>(columns)};
    const Handle space = checked(H5Screate_simple(rank, dims.data(), max_dims.data()), &H5Sclose,
                                 context, "create a dataspace");
    const Handle properties =
        checked(H5Pcreate(H5P_DATASET_CREATE), &H5Pclose, context, "create properties");
    check(H5Pset_chunk(properties.get(), rank, chunk.data()), context, "set the chunk size");
    chunk_bytes += chunk_rows * value_bytes * static_cast<hsize_t>(std::max(columns, 1));
    check(H5Pset_fill_value(properties.get(), memory_type, unwritten), context,
          "set the fill value");
    return checked(H5Dcreate2(file.get(), name, file_type, space.get(), H5P_DEFAULT,
                              properties.get(), H5P_DEFAULT),
                   &H5Dclose, context, cat("create dataset ", name));
  }

  hsize_t chunk_bytes = 0;  // one chunk of every series, the most an append adds besides its data

  hsize_t chunk_rows(int columns) const {
    const std::size_t row_bytes = sizeof(double) * static_cast<std::size_t>(std::max(columns, 1));
    return std::clamp<hsize_t>(kMaxChunkBytes / row_bytes, 1, buffer_capacity);
  }

  void write_header(const RecorderHeader& header) {
    const hid_t root = file.get();
    hdf5::write_string_attribute(root, "format", kTrajectoryFormat, context);
    hdf5::write_int_attribute(root, "format_version", kTrajectoryFormatVersion, context);
    hdf5::write_string_attribute(root, "routh_version", ROUTH_VERSION, context);
    hdf5::write_string_attribute(root, "law", header.law, context);
    // replaced by set_run_status; a file that keeps it was never told how its run ended
    hdf5::write_string_attribute(root, "status", kUnfinishedRunStatus, context);
    hdf5::write_string_attribute(root, "status_detail",
                                 "the writer stopped before the run's end was recorded", context);

    hdf5::write_text_dataset(root, "scenario", header.scenario_yaml, context);
    if (!header.model_json.empty()) {
      const Handle model = hdf5::write_text_dataset(root, "model", header.model_json, context);
      hdf5::write_string_attribute(model.get(), "format", "json", context);
      hdf5::write_int_attribute(model.get(), "format_version", kModelDescriptionVersion, context);
    }

    time = create_series("time", 0, chunk_rows(1));
    hdf5::write_string_attribute(time.get(), "units", "s", context);
    q = create_series("q", coordinate_count, chunk_rows(coordinate_count));
    hdf5::write_string_array_attribute(q.get(), "names", header.coordinate_names, context);
    hdf5::write_string_array_attribute(q.get(), "units", header.coordinate_units, context);
    v = create_series("v", velocity_count, chunk_rows(velocity_count));
    hdf5::write_string_array_attribute(v.get(), "names", header.velocity_names, context);
    hdf5::write_string_array_attribute(v.get(), "units", header.velocity_units, context);
    energy = create_series("energy", 3, chunk_rows(3));
    hdf5::write_string_array_attribute(energy.get(), "names", {"kinetic", "potential", "total"},
                                       context);
    hdf5::write_string_array_attribute(energy.get(), "units", {"J", "J", "J"}, context);
    sample_kind = create_series("sample_kind", 0, chunk_rows(1), H5T_STD_U8LE, H5T_NATIVE_UINT8,
                                &kUnwrittenSampleKind, 1);
    hdf5::write_string_attribute(sample_kind.get(), "meaning",
                                 "0 output sample, 1 just before an event, 2 just after an event",
                                 context);

    create_event_table(header.contact_names);
  }

  // Creates the file at `path` (the member) holding the header, written in memory (HDF5's core
  // driver) and put on disk in one write: a kill then leaves no file, an empty one or one that
  // opens. Created on disk, the file got its superblock at once and its objects at the first flush:
  // a run killed between them left a file that HDF5 cannot open ("truncated file").
  void create_with_header(hid_t access, const RecorderHeader& header) {
    const Handle in_memory = checked(H5Pcopy(access), &H5Pclose, context, "copy properties");
    check(H5Pset_fapl_core(in_memory.get(), kHeaderImageIncrement, false), context,
          "set the memory driver");
    file = checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, in_memory.get()), &H5Fclose,
                   context, "create the file");
    write_header(header);
    check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), context, "flush the header");
    const ssize_t size = H5Fget_file_image(file.get(), nullptr, 0);
    check(size < 0 ? -1 : 0, context, "measure the header");
    std::vector<char> image(static_cast<std::size_t>(size));
    check(H5Fget_file_image(file.get(), image.data(), image.size()) < 0 ? -1 : 0, context,
          "copy the header");
    hdf5::seal_superblock(image, context);
    close_objects();
    file.reset();
    event_memory_type = hdf5::event_table_row_type(context);
    write_image(image);
    errno = 0;
    file = Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, access), &H5Fclose);
    if (!file.valid()) {
      // the file just written is gone (its folder removed meanwhile): the output's fault
      const int error = errno != 0 ? errno : ENOENT;
      throw OutputWriteError(
          cat(context, ": cannot open the file it wrote: ", std::strerror(error)), error);
    }
    for (auto [handle, name] : {std::pair{&time, "time"},
                                {&q, "q"},
                                {&v, "v"},
                                {&energy, "energy"},
                                {&sample_kind, "sample_kind"},
                                {&events, "events"}}) {
      *handle = checked(H5Dopen2(file.get(), name, H5P_DEFAULT), &H5Dclose, context,
                        cat("open dataset ", name));
    }
  }

  // Writes the header's image as the file at `path`, created or truncated.
  void write_image(const std::vector<char>& image) {
    const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (out < 0) {
      // a vanished or unwritable folder: the output's fault, like a failed write
      const int error = errno;
      throw OutputWriteError(cat(context, ": cannot create the file: ", std::strerror(error)),
                             error);
    }
    std::size_t done = 0;
    while (done < image.size()) {
      const ssize_t wrote = ::write(out, image.data() + done, image.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) {
        const int error = wrote < 0 ? errno : ENOSPC;
        ::close(out);
        fail("write the header", error);
      }
      done += static_cast<std::size_t>(wrote);
    }
    if (::close(out) != 0) fail("write the header", errno);
  }

  // Closes every object the recorder holds open in the file (not the file).
  void close_objects() {
    for (Handle* handle :
         {&time, &q, &v, &energy, &sample_kind, &ground, &events, &event_memory_type}) {
      handle->reset();
    }
  }

  void create_event_table(const std::vector<std::string>& contact_names) {
    event_memory_type = hdf5::event_table_row_type(context);
    const hid_t type = event_memory_type.get();
    const Handle file_type = checked(H5Tcopy(type), &H5Tclose, context, "copy the event type");
    check(H5Tpack(file_type.get()), context, "pack the event type");
    const hsize_t dims = 0;
    const hsize_t max_dims = H5S_UNLIMITED;
    const Handle space =
        checked(H5Screate_simple(1, &dims, &max_dims), &H5Sclose, context, "create a dataspace");
    const Handle properties =
        checked(H5Pcreate(H5P_DATASET_CREATE), &H5Pclose, context, "create properties");
    check(H5Pset_chunk(properties.get(), 1, &kEventChunkRows), context, "set the chunk size");
    // Dense attribute storage from the first attribute on when contact_names would crowd the
    // object header: it holds one 16-byte heap reference per contact, and a stack's contacts (16
    // per pair of blocks) outgrow a header's 64 KiB from 17 blocks on. Not for fewer contacts:
    // the dense storage's heap and index cost a short run a tenth of its writing.
    if (contact_names.size() > kCompactContactNames) {
      check(H5Pset_attr_phase_change(properties.get(), 0, 0), context, "set the attribute storage");
    }
    events = checked(H5Dcreate2(file.get(), "events", file_type.get(), space.get(), H5P_DEFAULT,
                                properties.get(), H5P_DEFAULT),
                     &H5Dclose, context, "create dataset events");
    hdf5::write_string_array_attribute(events.get(), "contact_names", contact_names, context);
    hdf5::write_string_array_attribute(events.get(), "fields", hdf5::member_names(type, context),
                                       context);
    std::vector<std::string> units;
    for (const EventField& field : kEventFields) units.emplace_back(field.unit);
    hdf5::write_string_array_attribute(events.get(), "units", units, context);
    hdf5::write_string_attribute(events.get(), "sequence_layout", kEventSequenceLayout, context);
  }

  // Appends rows [written, written + buffered) of a row-major buffer with `columns` columns
  // (0: one-dimensional).
  template <typename Value>
  void append(const Handle& dataset, const std::vector<Value>& buffer, int columns,
              const char* name) {
    static_assert(std::is_same_v<Value, double> || std::is_same_v<Value, std::uint8_t>);
    const hid_t memory_type = std::is_same_v<Value, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT8;
    const std::array<hsize_t, 2> size = {written + buffered, static_cast<hsize_t>(columns)};
    check(H5Dset_extent(dataset.get(), size.data()), context, cat("extend dataset ", name));
    const RowSelection rows =
        select_rows(dataset.get(), written, buffered, static_cast<hsize_t>(columns), context);
    check(H5Dwrite(dataset.get(), memory_type, rows.memory_space.get(), rows.file_space.get(),
                   H5P_DEFAULT, buffer.data()),
          context, cat("write dataset ", name));
  }

  // Bytes the buffered samples and events may add to the file, with the metadata's room.
  hsize_t pending_bytes() const {
    const auto row_bytes =
        static_cast<hsize_t>(sizeof(double) * (4 + coordinate_count + velocity_count) + 1);
    return unflushed_bytes + buffered * row_bytes + 2 * chunk_bytes +
           pending_events.size() * kRoomBytesPerEvent + kMetadataRoomBytes;
  }

  // Makes sure the disk holds everything the next write may add, before HDF5 writes it: a full
  // disk (ENOSPC) or a file-size limit (EFBIG) then fails here, with the file as the last flush
  // left it plus what HDF5 wrote into room already there, so the close still completes and the
  // file stays readable. Left to fail inside HDF5, the write of the superblock (in place, at
  // offset 0) succeeded while the data past the disk's end did not: the file was unreadable
  // ("truncated file") and closing it crashed HDF5 at exit. Taking the room always (rather than
  // only near a full disk or a size limit: file_room.hpp) made a short run pay for allocating and
  // freeing half a megabyte of blocks, as much as writing its data.
  void reserve_room() {
    if (failed) throw TrajectoryWriteError(cat(context, ": an earlier write failed"), 0);
    haddr_t allocated = 0;
    check(H5Fget_eoa(file.get(), &allocated), context, "read the file's allocated size");
    const int error =
        reserve_file_room(descriptor, static_cast<off_t>(allocated + pending_bytes()));
    if (error == 0) return;
    // The buffers will be dropped; the close still writes what is in HDF5's caches, up to what
    // HDF5 allocated (the last flush trimmed the file to what it had written) and more.
    static_cast<void>(reserve_file_room(
        descriptor,
        static_cast<off_t>(allocated + unflushed_bytes + 2 * chunk_bytes + kMetadataRoomBytes)));
    fail("write", error);
  }

  [[noreturn]] void fail(const char* what, int error_number) {
    failed = true;
    throw TrajectoryWriteError(cat(context, ": cannot ", what, ": ", std::strerror(error_number)),
                               error_number);
  }

  void write_buffers() {
    if (buffered == 0) return;
    const hdf5::QuietErrors quiet;
    reserve_room();
    append(time, time_buffer, 0, "time");
    append(q, q_buffer, coordinate_count, "q");
    append(v, v_buffer, velocity_count, "v");
    append(energy, energy_buffer, 3, "energy");
    append(sample_kind, sample_kind_buffer, 0, "sample_kind");
    if (ground.valid()) append(ground, ground_buffer, ground_components, "ground_acceleration");
    const hsize_t row_doubles = 4 + static_cast<hsize_t>(coordinate_count + velocity_count) +
                                (ground.valid() ? static_cast<hsize_t>(ground_components) : 0);
    unflushed_bytes += buffered * (static_cast<hsize_t>(sizeof(double)) * row_doubles + 1);
    written += buffered;
    buffered = 0;
  }

  // Appends the pending events to /events in one write.
  void write_events() {
    if (pending_events.empty()) return;
    const hdf5::QuietErrors quiet;
    reserve_room();
    std::vector<std::string> kinds, contacts;
    kinds.reserve(pending_events.size());
    contacts.reserve(pending_events.size());
    std::vector<hdf5::EventTableRow> rows;
    rows.reserve(pending_events.size());
    for (const EventRecord& event : pending_events) {
      kinds.emplace_back(to_string(event.kind));
      contacts.push_back(join_indices(event.contacts));
      rows.push_back({event.t, kinds.back().c_str(), contacts.back().c_str(), event.phases.c_str(),
                      sequence(event.impulse), sequence(event.u_pre), sequence(event.u_post),
                      event.delta_T, event.normal_work, event.tangential_work, event.flags.c_str(),
                      event.status.c_str()});
    }
    const hsize_t start = event_rows;
    const hsize_t count = rows.size();
    const hsize_t size = start + count;
    check(H5Dset_extent(events.get(), &size), context, "extend dataset events");
    const RowSelection selected = select_rows(events.get(), start, count, 0, context);
    const Handle transfer = hdf5::conversion_transfer(context);
    check(H5Dwrite(events.get(), event_memory_type.get(), selected.memory_space.get(),
                   selected.file_space.get(), transfer.get(), rows.data()),
          context, "write dataset events");
    event_rows = size;
    pending_events.clear();
  }

  // Writes what is buffered and flushes, then schedules the next flush.
  void flush_file() {
    write_buffers();
    write_events();
    const hdf5::QuietErrors quiet;
    reserve_room();
    check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), context, "flush the file");
    unflushed_bytes = 0;
    next_flush = Clock::now() + flush_interval;
  }

  // The wall-clock cadence: at most one flush per flush_interval, checked at every record.
  void flush_if_due() {
    if (Clock::now() >= next_flush) flush_file();
  }

  void require_open() const {
    if (!file.valid()) throw std::logic_error(cat(context, ": already closed"));
  }
};

TrajectoryRecorder::TrajectoryRecorder(const std::filesystem::path& path, RecorderHeader header,
                                       int buffer_samples, double flush_interval_s)
    : impl_(std::make_unique<Impl>()) {
  Impl& impl = *impl_;
  impl.path = path;
  impl.context = cat("trajectory file ", path.string());
  const std::size_t n = header.coordinate_names.size();
  if (n == 0) throw std::invalid_argument(cat(impl.context, ": no coordinates to record"));
  if (header.coordinate_units.size() != n) {
    throw std::invalid_argument(cat(impl.context, ": ", n, " coordinate names but ",
                                    header.coordinate_units.size(), " units"));
  }
  if (buffer_samples < 1) {
    throw std::invalid_argument(
        cat(impl.context, ": buffer_samples = ", buffer_samples, " must be at least 1"));
  }
  if (!(flush_interval_s >= 0.0) || !std::isfinite(flush_interval_s)) {
    throw std::invalid_argument(
        cat(impl.context, ": flush interval ", flush_interval_s, " s must be finite and >= 0"));
  }
  impl.flush_interval =
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(flush_interval_s));
  if (header.velocity_names.empty()) {  // v = q̇: the coordinates' names, their units per second
    header.velocity_names = header.coordinate_names;
    header.velocity_units = rate_units(header.coordinate_units);
  }
  if (header.velocity_units.size() != header.velocity_names.size()) {
    throw std::invalid_argument(cat(impl.context, ": ", header.velocity_names.size(),
                                    " velocity names but ", header.velocity_units.size(),
                                    " units"));
  }
  impl.coordinate_count = static_cast<int>(n);
  impl.velocity_count = static_cast<int>(header.velocity_names.size());
  impl.contact_count = static_cast<int>(header.contact_names.size());
  impl.buffer_capacity = static_cast<hsize_t>(buffer_samples);
  impl.time_buffer.resize(impl.buffer_capacity);
  impl.q_buffer.resize(impl.buffer_capacity * n);
  impl.v_buffer.resize(impl.buffer_capacity * header.velocity_names.size());
  impl.energy_buffer.resize(impl.buffer_capacity * 3);
  impl.sample_kind_buffer.resize(impl.buffer_capacity);

  const hdf5::QuietErrors quiet;
  const Handle access =
      checked(H5Pcreate(H5P_FILE_ACCESS), &H5Pclose, impl.context, "create properties");
  // strong: closing the file closes every object still open in it, so close() never leaves the
  // file half-open.
  check(H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG), impl.context, "set the close degree");
  // the 1.8 format, no older and no newer (see the header): its object headers keep attributes
  // in dense storage, without the 64 KiB limit of the earliest format's
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_V18), impl.context,
        "set the file format");
  hold_metadata_until_flush(access.get(), impl.context);
  check_room_for_new_file(path, static_cast<off_t>(kMetadataRoomBytes));
  impl.create_with_header(access.get(), header);
  int* descriptor = nullptr;
  check(H5Fget_vfd_handle(impl.file.get(), access.get(), reinterpret_cast<void**>(&descriptor)),
        impl.context, "get the file descriptor");
  impl.descriptor = *descriptor;
  // the room the close needs, taken at once: a writer that fails later (another file filled the
  // disk) still closes a readable file
  if (const int error = reserve_file_room(
          impl.descriptor, static_cast<off_t>(kMetadataRoomBytes + header.scenario_yaml.size() +
                                              header.model_json.size()));
      error != 0) {
    impl.fail("write", error);
  }
  impl.next_flush = Clock::now() + impl.flush_interval;
}

TrajectoryRecorder::~TrajectoryRecorder() {
  if (impl_ == nullptr || !impl_->file.valid()) return;
  try {
    close();
  } catch (const std::exception& error) {
    std::cerr << "routh: " << error.what() << '\n';
  }
}

TrajectoryRecorder::TrajectoryRecorder(TrajectoryRecorder&&) noexcept = default;

TrajectoryRecorder& TrajectoryRecorder::operator=(TrajectoryRecorder&& other) noexcept {
  if (this != &other) {
    TrajectoryRecorder closing(std::move(*this));  // closes our file, if any
    impl_ = std::move(other.impl_);
  }
  return *this;
}

void TrajectoryRecorder::record_sample(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                       const Energy& energy, SampleKind kind) {
  Impl& impl = *impl_;
  impl.require_open();
  if (q.size() != impl.coordinate_count || v.size() != impl.velocity_count) {
    throw std::invalid_argument(
        cat(impl.context, ": sample at t = ", t, " has q of size ", q.size(), " and v of size ",
            v.size(), ", expected ", impl.coordinate_count,
            impl.velocity_count == impl.coordinate_count ? std::string()
                                                         : cat(" and ", impl.velocity_count)));
  }
  const std::size_t row = impl.buffered;
  const std::size_t n = static_cast<std::size_t>(impl.coordinate_count);
  const std::size_t nv = static_cast<std::size_t>(impl.velocity_count);
  impl.time_buffer[row] = t;
  std::copy_n(q.data(), n, impl.q_buffer.data() + row * n);
  std::copy_n(v.data(), nv, impl.v_buffer.data() + row * nv);
  double* energy_row = impl.energy_buffer.data() + row * 3;
  energy_row[0] = energy.kinetic;
  energy_row[1] = energy.potential;
  energy_row[2] = energy.total();
  impl.sample_kind_buffer[row] = static_cast<std::uint8_t>(kind);
  if (impl.ground_acceleration) {
    const Eigen::Vector3d a_g = impl.ground_acceleration(t);
    const auto m = static_cast<std::size_t>(impl.ground_components);
    std::copy_n(a_g.data(), m, impl.ground_buffer.data() + row * m);
  }
  ++impl.buffered;
  if (impl.buffered == impl.buffer_capacity) impl.write_buffers();
  impl.flush_if_due();
}

void TrajectoryRecorder::record_ground_acceleration(
    std::function<Eigen::Vector3d(double)> ground_acceleration, int components) {
  Impl& impl = *impl_;
  impl.require_open();
  if (impl.written + impl.buffered > 0 || impl.ground.valid()) {
    throw std::logic_error(cat(impl.context,
                               ": the ground acceleration is recorded from the "
                               "first sample on, once"));
  }
  if (components != 2 && components != 3) {
    throw std::invalid_argument(cat(impl.context,
                                    ": the ground acceleration has 2 or 3 "
                                    "components, not ",
                                    components));
  }
  const hdf5::QuietErrors quiet;
  impl.ground = impl.create_series("ground_acceleration", components, impl.chunk_rows(components));
  const std::vector<std::string> names = {"x", "y", "z"};
  hdf5::write_string_array_attribute(
      impl.ground.get(), "names",
      std::vector<std::string>(names.begin(), names.begin() + components), impl.context);
  hdf5::write_string_array_attribute(impl.ground.get(), "units",
                                     std::vector<std::string>(components, "m/s^2"), impl.context);
  impl.ground_components = components;
  impl.ground_buffer.resize(impl.buffer_capacity * static_cast<std::size_t>(components));
  impl.ground_acceleration = std::move(ground_acceleration);
}

void TrajectoryRecorder::record_event(const EventRecord& event) {
  Impl& impl = *impl_;
  impl.require_open();
  for (int contact : event.contacts) {
    if (contact < 0 || contact >= impl.contact_count) {
      throw std::invalid_argument(cat(impl.context, ": event at t = ", event.t, " names contact ",
                                      contact, "; the header has ", impl.contact_count));
    }
  }
  impl.pending_events.push_back(event);
  if (impl.pending_events.size() == kEventBufferRows) impl.write_events();
  impl.flush_if_due();
}

void TrajectoryRecorder::flush() {
  Impl& impl = *impl_;
  impl.require_open();
  const hdf5::QuietErrors quiet;
  impl.flush_file();
}

void TrajectoryRecorder::set_run_status(RunStatus status, const std::string& detail) {
  Impl& impl = *impl_;
  impl.require_open();
  const hdf5::QuietErrors quiet;
  impl.reserve_room();
  const hid_t root = impl.file.get();
  hdf5::write_string_attribute(root, "status", std::string(to_string(status)), impl.context);
  hdf5::write_string_attribute(root, "status_detail", detail, impl.context);
}

void TrajectoryRecorder::set_summary(const SimulationOutcome& outcome) {
  Impl& impl = *impl_;
  impl.require_open();
  const hdf5::QuietErrors quiet;
  impl.reserve_room();
  const std::string& context = impl.context;
  // the attributes keep the table's order (a reader lists the bodies' figures in it)
  const Handle creation = checked(H5Pcreate(H5P_GROUP_CREATE), &H5Pclose, context,
                                  "make the summary's creation properties");
  check(H5Pset_attr_creation_order(creation.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
        context, "track the summary's attribute order");
  const Handle group =
      checked(H5Gcreate2(impl.file.get(), "summary", H5P_DEFAULT, creation.get(), H5P_DEFAULT),
              &H5Gclose, context, "create group summary");
  for (const OutcomeFigure& figure : outcome_figures(outcome)) {
    const std::string name(figure.name);
    std::visit(
        [&](const auto& value) {
          using Value = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<Value, std::int64_t>) {
            hdf5::write_int_attribute(group.get(), name.c_str(), static_cast<int>(value), context);
          } else if constexpr (std::is_same_v<Value, double>) {
            hdf5::write_double_attribute(group.get(), name.c_str(), value, context);
          } else {
            hdf5::write_string_attribute(group.get(), name.c_str(), value, context);
          }
        },
        figure.value);
  }
}

void TrajectoryRecorder::close() {
  if (impl_ == nullptr || !impl_->file.valid()) return;
  Impl& impl = *impl_;
  const hdf5::QuietErrors quiet;
  // close the file even if the last write fails, then report the failure
  // After a failed write the buffers are dropped (the failure was reported when it happened);
  // the close writes HDF5's caches into the room reserved at the failure, and the file keeps
  // that room (what the close allocates is not known before it).
  std::string failure;
  haddr_t allocated = HADDR_UNDEF;
  try {
    if (!impl.failed) {
      impl.flush_file();
      check(H5Fget_eoa(impl.file.get(), &allocated), impl.context,
            "read the file's allocated size");
    }
  } catch (const std::exception& error) {
    failure = error.what();
  }
  impl.close_objects();
  if (impl.file.reset() < 0 && failure.empty()) {
    failure = cat(impl.context, ": cannot close the file: ", hdf5::error_detail());
  }
  // room reserved and not used (HDF5 trims the file only when its own idea of the end differs)
  if (allocated != HADDR_UNDEF) release_unused_room(impl.path, allocated);
  if (!failure.empty()) {
    if (impl.failed) throw TrajectoryWriteError(failure, 0);
    throw std::runtime_error(failure);
  }
}

bool TrajectoryRecorder::is_open() const { return impl_ != nullptr && impl_->file.valid(); }

std::int64_t TrajectoryRecorder::sample_count() const {
  return impl_ == nullptr ? 0 : static_cast<std::int64_t>(impl_->written + impl_->buffered);
}

std::int64_t TrajectoryRecorder::event_count() const {
  return impl_ == nullptr
             ? 0
             : static_cast<std::int64_t>(impl_->event_rows + impl_->pending_events.size());
}

const std::filesystem::path& TrajectoryRecorder::path() const { return impl_->path; }

}  // namespace routh
