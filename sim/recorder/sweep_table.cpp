#include "sim/recorder/sweep_table.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/hdf5_support.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/recorder/sweep_table_reader.hpp"
#include "sim/text.hpp"

namespace routh {

using hdf5::check;
using hdf5::checked;
using hdf5::Handle;
using hdf5::RowSelection;
using hdf5::select_rows;

namespace {

// Rows per chunk: a chunk of a float64 column is 32 KiB, small enough that a short sweep's file
// stays small and large enough that h5py reads a million rows in a few hundred chunks.
constexpr hsize_t kChunkRows = 4096;
// Bounds on what the file may grow by, reserved on disk before HDF5 writes it (file_room.hpp):
// a column's object header, attributes and chunk index; the metadata a close adds; a vlen
// string's reference in the column (its length and global heap id); the heap object's header and
// padding besides the reference; a global heap collection.
constexpr hsize_t kColumnHeaderBytes = 8 * 1024;
constexpr hsize_t kMetadataRoomBytes = 128 * 1024;
constexpr hsize_t kVlenReferenceBytes = 16;
constexpr hsize_t kStringOverheadBytes = 40;
constexpr hsize_t kHeapCollectionBytes = 4096;

// The in-file type of a column (native little-endian on every machine routh runs on).
Handle file_type(CellType type) {
  switch (type) {
    case CellType::integer: return Handle(H5Tcopy(H5T_NATIVE_INT64), &H5Tclose);
    case CellType::real: return Handle(H5Tcopy(H5T_NATIVE_DOUBLE), &H5Tclose);
    case CellType::text: return hdf5::utf8_string_type();
  }
  throw std::logic_error("unknown cell type");
}

}  // namespace

struct SweepTableWriter::Impl {
  std::filesystem::path path;
  std::filesystem::path temporary;  ///< its own name beside `path` (output_placement.hpp)
  std::string context;
  std::vector<TableColumn> columns;
  Handle file;
  int descriptor = -1;  // the file's, from HDF5's sec2 driver: to reserve room on disk
  std::vector<Handle> datasets;
  hsize_t rows = 0;
  hsize_t bounded_bytes = 0;  // an upper bound on what HDF5 was given to write so far

  // Not closed (an exception on the way, even in the constructor): the temporary file goes.
  ~Impl() {
    if (!file.valid()) return;
    datasets.clear();
    file.reset();
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
  }

  // Makes sure the disk holds `adding` bytes more than given so far, and the close's metadata,
  // before HDF5 writes them: a full disk or a size limit then fails here, and the close (in the
  // destructor) still completes within the room reserved before.
  void reserve_room(hsize_t adding) {
    haddr_t allocated = 0;
    check(H5Fget_eoa(file.get(), &allocated), context, "read the file's allocated size");
    const hsize_t wanted = std::max<hsize_t>(allocated, bounded_bytes + adding);
    const int error =
        reserve_file_room(descriptor, static_cast<off_t>(wanted + kMetadataRoomBytes));
    if (error != 0) {
      throw OutputWriteError(cat(context, ": cannot write: ", std::strerror(error)), error);
    }
    bounded_bytes += adding;
  }

  // What appending `block` may add to column c: the whole chunks its rows touch and, for text,
  // each string's heap object and a new heap collection.
  hsize_t column_bytes(std::size_t c, std::span<const TableRow> block) const {
    const bool text = columns[c].type == CellType::text;
    const hsize_t element = text ? kVlenReferenceBytes : 8;
    const hsize_t chunks = (rows % kChunkRows + block.size() + kChunkRows - 1) / kChunkRows;
    hsize_t bytes = element * kChunkRows * chunks;
    if (!text) return bytes;
    bytes += kHeapCollectionBytes;
    for (const TableRow& row : block) {
      bytes += kStringOverheadBytes + std::get<std::string>(row[c]).size();
    }
    return bytes;
  }

  void append_column(std::size_t c, std::span<const TableRow> block) {
    const hsize_t size = rows + block.size();
    const hid_t dataset = datasets[c].get();
    check(H5Dset_extent(dataset, &size), context, cat("extend column ", columns[c].name));
    const RowSelection selected = select_rows(dataset, rows, block.size(), 0, context);
    const Handle type = file_type(columns[c].type);
    const Handle transfer = hdf5::conversion_transfer(context);
    const auto write = [&](const void* data) {
      check(H5Dwrite(dataset, type.get(), selected.memory_space.get(), selected.file_space.get(),
                     transfer.get(), data),
            context, cat("write column ", columns[c].name));
    };
    switch (columns[c].type) {
      case CellType::integer: write(gather<std::int64_t>(c, block).data()); break;
      case CellType::real: write(gather<double>(c, block).data()); break;
      case CellType::text: {
        std::vector<const char*> pointers;
        pointers.reserve(block.size());
        for (const TableRow& row : block) {
          pointers.push_back(std::get<std::string>(row[c]).c_str());
        }
        write(pointers.data());
        break;
      }
    }
  }

  template <typename T>
  std::vector<T> gather(std::size_t c, std::span<const TableRow> block) const {
    std::vector<T> values;
    values.reserve(block.size());
    for (const TableRow& row : block) values.push_back(std::get<T>(row[c]));
    return values;
  }
};

SweepTableWriter::SweepTableWriter(const std::filesystem::path& path,
                                   std::vector<TableColumn> columns, const SweepTableHeader& header)
    : impl_(std::make_unique<Impl>()) {
  Impl& impl = *impl_;
  impl.path = path;
  impl.temporary = temporary_path(path);
  impl.context = path.string();
  impl.columns = std::move(columns);
  const hdf5::QuietErrors quiet;
  const std::string& context = impl.context;
  const Handle access =
      checked(H5Pcreate(H5P_FILE_ACCESS), &H5Pclose, context, "create file properties");
  // the 1.8 format, as trajectory_recorder.hpp explains
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_V18), context,
        "set the file format");
  const hsize_t header_bytes = header.sweep_text.size() + header.base_text.size() +
                               2 * kStringOverheadBytes +
                               kColumnHeaderBytes * (impl.columns.size() + 4);
  // the temporary name is this writer's own (output_placement.hpp): the file the room check
  // creates there is the one HDF5 then truncates and writes
  check_room_for_new_file(impl.temporary, static_cast<off_t>(header_bytes + kMetadataRoomBytes));
  errno = 0;
  impl.file = Handle(H5Fcreate(impl.temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                     &H5Fclose);
  if (!impl.file.valid()) {
    // an unwritable or vanished folder, or a full disk: the output's fault, like a failed write
    const int error = errno;
    throw OutputWriteError(cat(context, ": cannot create ", impl.temporary.string(),
                               error != 0 ? cat(": ", std::strerror(error)) : std::string()),
                           error);
  }
  int* descriptor = nullptr;
  check(H5Fget_vfd_handle(impl.file.get(), access.get(), reinterpret_cast<void**>(&descriptor)),
        context, "get the file descriptor");
  impl.descriptor = *descriptor;
  impl.reserve_room(header_bytes);
  const hid_t file = impl.file.get();
  hdf5::write_string_attribute(file, "format", kSweepFormat, context);
  hdf5::write_int_attribute(file, "format_version", kSweepFormatVersion, context);
  hdf5::write_string_attribute(file, "routh_version", ROUTH_VERSION, context);
  hdf5::write_int64_attribute(file, "runs", header.planned_runs, context);
  hdf5::write_int64_attribute(file, "rows", 0, context);
  hdf5::write_text_dataset(file, "sweep", header.sweep_text, context);
  hdf5::write_text_dataset(file, "base", header.base_text, context);
  const Handle group = checked(H5Gcreate2(file, "runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                               &H5Gclose, context, "create group runs");
  std::vector<std::string> names;
  for (const TableColumn& column : impl.columns) names.push_back(column.name);
  hdf5::write_string_array_attribute(group.get(), "columns", names, context);
  const hsize_t initial = 0;
  const hsize_t unlimited = H5S_UNLIMITED;
  for (const TableColumn& column : impl.columns) {
    const Handle space = checked(H5Screate_simple(1, &initial, &unlimited), &H5Sclose, context,
                                 "create a dataspace");
    const Handle properties =
        checked(H5Pcreate(H5P_DATASET_CREATE), &H5Pclose, context, "create dataset properties");
    check(H5Pset_chunk(properties.get(), 1, &kChunkRows), context, "set the chunk size");
    const Handle type = file_type(column.type);
    impl.datasets.push_back(
        checked(H5Dcreate2(group.get(), column.name.c_str(), type.get(), space.get(), H5P_DEFAULT,
                           properties.get(), H5P_DEFAULT),
                &H5Dclose, context, cat("create column ", column.name)));
    hdf5::write_string_attribute(impl.datasets.back().get(), "units", column.unit, context);
  }
}

SweepTableWriter::~SweepTableWriter() = default;

void SweepTableWriter::append(std::span<const TableRow> rows) {
  Impl& impl = *impl_;
  if (rows.empty()) return;
  const hdf5::QuietErrors quiet;
  hsize_t adding = 0;
  for (std::size_t c = 0; c < impl.columns.size(); ++c) adding += impl.column_bytes(c, rows);
  impl.reserve_room(adding);
  for (std::size_t c = 0; c < impl.columns.size(); ++c) impl.append_column(c, rows);
  impl.rows += rows.size();
}

void SweepTableWriter::close() {
  Impl& impl = *impl_;
  const hdf5::QuietErrors quiet;
  impl.reserve_room(0);
  hdf5::write_int64_attribute(impl.file.get(), "rows", static_cast<std::int64_t>(impl.rows),
                              impl.context);
  impl.datasets.clear();
  check(impl.file.reset(), impl.context, "close the file");
  std::filesystem::rename(impl.temporary, impl.path);
}

SweepTable read_sweep_table(const std::filesystem::path& path) {
  SweepColumns read = read_sweep_columns(path);
  SweepTable table;
  table.sweep_text = std::move(read.sweep_text);
  table.base_text = std::move(read.base_text);
  table.planned_runs = read.planned_runs;
  table.rows.resize(read.rows());
  for (SweepColumn& column : read.columns) {
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      switch (column.type) {
        case CellType::integer: table.rows[i].emplace_back(column.integers[i]); break;
        case CellType::real: table.rows[i].emplace_back(column.reals[i]); break;
        case CellType::text: table.rows[i].emplace_back(std::move(column.texts[i])); break;
      }
    }
    table.columns.push_back({column.name, column.type, column.unit});
  }
  return table;
}

}  // namespace routh
