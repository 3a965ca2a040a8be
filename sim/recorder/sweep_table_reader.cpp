#include "sim/recorder/sweep_table_reader.hpp"

#include <hdf5.h>

#include <system_error>
#include <utility>

#include "sim/recorder/hdf5_support.hpp"
#include "sim/text.hpp"

namespace routh {

using hdf5::check;
using hdf5::checked;
using hdf5::Handle;

namespace {

[[noreturn]] void fail(std::string_view context, std::string_view message) {
  throw std::runtime_error(cat(context, ": ", message));
}

// Reads `name`'s values into `column`, by the dataset's stored type.
void read_column(hid_t group, SweepColumn& column, const std::string& context) {
  if (H5Lexists(group, column.name.c_str(), H5P_DEFAULT) <= 0) {
    fail(context, cat("column '", column.name, "' is listed in /runs but missing"));
  }
  const Handle dataset = checked(H5Dopen2(group, column.name.c_str(), H5P_DEFAULT), &H5Dclose,
                                 context, cat("open column ", column.name));
  if (H5Aexists(dataset.get(), "units") > 0) {
    column.unit = hdf5::read_string_attribute(dataset.get(), "units", context);
  }
  const Handle space = checked(H5Dget_space(dataset.get()), &H5Sclose, context, "get a space");
  if (H5Sget_simple_extent_ndims(space.get()) != 1) {
    fail(context, cat("column '", column.name, "' is not one-dimensional"));
  }
  hsize_t size = 0;
  H5Sget_simple_extent_dims(space.get(), &size, nullptr);
  const Handle stored = checked(H5Dget_type(dataset.get()), &H5Tclose, context, "get a type");
  const Handle transfer = hdf5::conversion_transfer(context);
  const auto read = [&](hid_t memory_type, void* data) {
    if (size == 0) return;  // HDF5 refuses the null buffer of an empty vector
    check(H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, transfer.get(), data), context,
          cat("read column ", column.name));
  };
  switch (H5Tget_class(stored.get())) {
    case H5T_INTEGER:
      column.type = CellType::integer;
      column.integers.resize(size);
      read(H5T_NATIVE_INT64, column.integers.data());
      break;
    case H5T_FLOAT:
      column.type = CellType::real;
      column.reals.resize(size);
      read(H5T_NATIVE_DOUBLE, column.reals.data());
      break;
    case H5T_STRING: {
      column.type = CellType::text;
      const Handle type = hdf5::utf8_string_type();
      std::vector<char*> values(size, nullptr);
      read(type.get(), values.data());
      column.texts.reserve(size);
      for (char* value : values) column.texts.emplace_back(value != nullptr ? value : "");
      if (size > 0) H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, values.data());
      break;
    }
    default: fail(context, cat("column '", column.name, "' is not int64, float64 or text"));
  }
}

void read_contents(hid_t file, const std::string& context, SweepColumns& table) {
  table.routh_version = hdf5::read_string_attribute(file, "routh_version", context);
  table.planned_runs =
      static_cast<std::int64_t>(hdf5::read_integer_attribute(file, "runs", context));
  table.rows_written =
      static_cast<std::int64_t>(hdf5::read_integer_attribute(file, "rows", context));
  for (const char* name : {"sweep", "base"}) {
    const Handle text =
        checked(H5Dopen2(file, name, H5P_DEFAULT), &H5Dclose, context, cat("open dataset /", name));
    (name == std::string_view("sweep") ? table.sweep_text : table.base_text) =
        hdf5::read_text_dataset(text.get(), name, context);
  }
  if (H5Lexists(file, "runs", H5P_DEFAULT) <= 0) fail(context, "group /runs is missing");
  const Handle group =
      checked(H5Gopen2(file, "runs", H5P_DEFAULT), &H5Gclose, context, "open /runs");
  for (const std::string& name :
       hdf5::read_string_array_attribute(group.get(), "columns", context)) {
    table.columns.emplace_back().name = name;
    read_column(group.get(), table.columns.back(), context);
    if (table.columns.back().size() != table.rows()) {
      fail(context, cat("column '", name, "' has ", table.columns.back().size(), " rows, '",
                        table.columns.front().name, "' ", table.rows()));
    }
  }
}

}  // namespace

std::size_t SweepColumn::size() const {
  switch (type) {
    case CellType::integer: return integers.size();
    case CellType::real: return reals.size();
    case CellType::text: return texts.size();
  }
  return 0;
}

double SweepColumn::number(std::size_t i) const {
  return type == CellType::integer ? static_cast<double>(integers[i]) : reals[i];
}

std::string SweepColumn::text(std::size_t i) const {
  switch (type) {
    case CellType::integer: return cat(integers[i]);
    case CellType::real: return cat(reals[i]);
    case CellType::text: return texts[i];
  }
  return "";
}

const SweepColumn* SweepColumns::find(std::string_view name) const {
  for (const SweepColumn& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

bool is_sweep_table(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  const hdf5::QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) return false;
  try {
    const Handle file = hdf5::open_for_reading(path.c_str(), path.string());
    return H5Aexists(file.get(), "format") > 0 &&
           hdf5::read_string_attribute(file.get(), "format", path.string()) == kSweepFormat;
  } catch (const std::exception&) {
    return false;
  }
}

SweepColumns read_sweep_columns(const std::filesystem::path& path) {
  const std::string context = path.string();
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail(context, "is a directory, not a file");
  if (!std::filesystem::is_regular_file(path, error)) fail(context, "no such file");
  const hdf5::QuietErrors quiet;
  if (H5Fis_hdf5(path.c_str()) <= 0) fail(context, "not an HDF5 file");
  const auto as_damage = [&](auto&& read) {
    return hdf5::rethrow_as_damage<DamagedSweepTableError>(context, read);
  };
  const Handle file = as_damage([&] { return hdf5::open_for_reading(path.c_str(), context); });
  if (H5Aexists(file.get(), "format") <= 0) {
    fail(context, "not a routh sweep table (no 'format' attribute on /)");
  }
  const std::string format =
      as_damage([&] { return hdf5::read_string_attribute(file.get(), "format", context); });
  if (format != kSweepFormat) {
    fail(context, cat("format is '", format, "', not '", kSweepFormat, "'"));
  }
  SweepColumns table;
  const long long version = as_damage(
      [&] { return hdf5::read_integer_attribute(file.get(), "format_version", context); });
  if (version < 1 || version > kSweepFormatVersion) {
    fail(context, cat("format_version ", version, " is not supported (this routh reads up to ",
                      kSweepFormatVersion, ")"));
  }
  table.format_version = static_cast<int>(version);
  as_damage([&] { read_contents(file.get(), context, table); });
  return table;
}

}  // namespace routh
