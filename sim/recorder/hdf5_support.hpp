#pragma once
// Internal to routh_recorder: RAII handles, error translation and string attributes over the
// HDF5 C API, shared by the writer (trajectory_recorder.cpp) and the reader
// (trajectory_summary.cpp). Not part of the public interface: nothing outside sim/recorder/
// includes hdf5.h through routh.

#include <hdf5.h>

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "sim/text.hpp"

namespace routh::hdf5 {

/// An HDF5 identifier closed by the matching H5*close on destruction.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) {
    other.id_ = H5I_INVALID_HID;
  }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_, closer_ = other.closer_;
      other.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  /// Closes now; returns the closer's status (negative on failure).
  herr_t reset() {
    herr_t status = 0;
    if (id_ >= 0 && closer_ != nullptr) status = closer_(id_);
    id_ = H5I_INVALID_HID;
    return status;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

/// Silences HDF5's automatic error-stack printing for this thread while alive (routh reports
/// HDF5 errors as exceptions), restoring the previous setting afterwards.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

/// The most specific messages of the current HDF5 error stack, e.g. "unable to open file
/// (file signature not found)"; "" when the stack is empty.
std::string error_detail();

/// Throws std::runtime_error "`context`: cannot `what` (detail)" when `status` < 0.
void check(herr_t status, std::string_view context, std::string_view what);
/// Wraps `id` with its closer, throwing as check() does when it is negative.
Handle checked(hid_t id, Handle::Closer closer, std::string_view context, std::string_view what);

/// Runs `read` (reading a file known to be HDF5), rethrowing what it throws as `Damage`,
/// "`context`: damaged file: what", the file named once; a `Damage` passes as it is. A reader's
/// HDF5 errors and inconsistencies then reach the user as one kind of error (`routh info` exits
/// with 22 for it).
template <typename Damage, typename Read>
auto rethrow_as_damage(std::string_view context, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const Damage&) {
    throw;
  } catch (const std::exception& error) {
    std::string_view message = error.what();
    if (message.starts_with(context) && message.substr(context.size()).starts_with(": ")) {
      message.remove_prefix(context.size() + 2);
    }
    throw Damage(cat(context, ": damaged file: ", message));
  }
}

/// Opens the file at `path` read-only for a reader that may meet a file whose writer was killed
/// (throws as checked() does). A kill inside HDF5's flush can leave metadata written that points
/// past the end of the file the superblock declares (the superblock is written last): HDF5 then
/// refuses to read those objects ("addr overflow") although their bytes are on disk. The end
/// is raised in memory to the file's real size (H5Fincrement_filesize by 0; nothing is written),
/// so that they read as far as they were written.
Handle open_for_reading(const char* path, std::string_view context);

/// Makes the image of a file that H5Fget_file_image returned open as the file it copies, a
/// closed file: HDF5 1.10 clears the superblock's status flags in the image (the "open for
/// writing" flag) but leaves the checksum computed with them, and H5Fopen then refuses the image
/// ("incorrect metadata checksum"). Clears the flags and writes the checksum of the superblock
/// (versions 2 and 3, 8-byte addresses: the file format specification's layout, checksummed with
/// Jenkins' lookup3 as HDF5 does). Throws std::runtime_error for an image of another layout.
void seal_superblock(std::vector<char>& image, std::string_view context);

/// Rows [first, first + rows) of a dataset, every one of its `columns` (0: a one-dimensional
/// dataset): the selection in the file and the shape of the rows in memory, for H5Dread or
/// H5Dwrite. The dataset must already hold them (extend it first to append).
struct RowSelection {
  Handle file_space;
  Handle memory_space;
};
RowSelection select_rows(hid_t dataset, hsize_t first, hsize_t rows, hsize_t columns,
                         std::string_view context);

/// A dataset transfer property list for writes and reads that convert (any of variable-length
/// data) with a type-conversion buffer of 64 KiB: the event buffer's 256 rows (160 bytes each in
/// the file) in one pass, more rows in several. HDF5's default buffer is 1 MiB, allocated zeroed
/// at every such write or read: on a fresh heap, 256 page faults (about 1 ms) for a scenario's
/// few hundred bytes of text.
Handle conversion_transfer(std::string_view context);

/// Variable-length UTF-8 string type (h5py reads these as str).
Handle utf8_string_type();

/// Creates the attribute, or replaces it if `object` already has one of that name.
void write_string_attribute(hid_t object, const char* name, const std::string& value,
                            std::string_view context);
void write_string_array_attribute(hid_t object, const char* name,
                                  const std::vector<std::string>& values, std::string_view context);
void write_int_attribute(hid_t object, const char* name, int value, std::string_view context);
/// Creates the attribute, or replaces it (a count updated as a file grows).
void write_int64_attribute(hid_t object, const char* name, std::int64_t value,
                           std::string_view context);
void write_double_attribute(hid_t object, const char* name, double value, std::string_view context);
/// A scalar variable-length UTF-8 dataset holding `text` (a scenario's or a sweep file's YAML, a
/// model's JSON); returned open, for its attributes.
Handle write_text_dataset(hid_t object, const char* name, const std::string& text,
                          std::string_view context);
/// The text of the open scalar variable-length UTF-8 dataset `name` (write_text_dataset's), ""
/// if it holds none.
std::string read_text_dataset(hid_t dataset, std::string_view name, std::string_view context);
/// The field names of a compound type, in its order.
std::vector<std::string> member_names(hid_t compound, std::string_view context);

/// Reads a string attribute, fixed or variable length, scalar. Throws if it is missing.
std::string read_string_attribute(hid_t object, const char* name, std::string_view context);
/// Reads a one-dimensional string array attribute (fixed or variable length).
std::vector<std::string> read_string_array_attribute(hid_t object, const char* name,
                                                     std::string_view context);
/// Reads a floating-point attribute as double.
double read_double_attribute(hid_t object, const char* name, std::string_view context);
/// Reads an integer attribute as long long.
long long read_integer_attribute(hid_t object, const char* name, std::string_view context);

}  // namespace routh::hdf5
