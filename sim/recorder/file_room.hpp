#pragma once
// Writing files so that a full disk or a file-size limit is an error with a message, never a
// signal or a file HDF5 cannot close.
//
// A write past the process's file-size limit (RLIMIT_FSIZE, `ulimit -f`) raises SIGXFSZ, whose
// default action kills the process (exit status 153) before the write can fail with EFBIG; the
// routh program and the Python module ignore it (ignore_file_size_signal), so that such a write,
// and posix_fallocate, fail with EFBIG and are reported like a full disk (ENOSPC).
//
// HDF5 1.10 cannot survive a write failing inside it: the superblock, rewritten in place, points
// past the data that did not reach the disk, the close fails, and the library crashes at exit
// (H5F__close_cb from its atexit handler). So a writer makes sure the disk holds what the next
// write may add before HDF5 writes it (reserve_file_room).

#include <sys/types.h>

#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace routh {

/// A write to an output file failed: the disk is full (ENOSPC), the file reached a size limit
/// (EFBIG) or the device failed. The message names the file.
class OutputWriteError : public std::runtime_error {
 public:
  OutputWriteError(const std::string& message, int error_number)
      : std::runtime_error(message), error_number_(error_number) {}
  /// The errno of the failed write, 0 when it is not known.
  int error_number() const { return error_number_; }

 private:
  int error_number_;
};

/// Sets SIGXFSZ to be ignored, so that a write past RLIMIT_FSIZE fails with EFBIG instead of
/// killing the process. Process-wide; idempotent.
void ignore_file_size_signal();

/// RAII for a library writing inside a host program (the Python module): ignores SIGXFSZ while
/// it lives, then restores the host's disposition. Process-wide like any signal disposition.
class FileSizeSignalIgnored {
 public:
  FileSizeSignalIgnored();
  ~FileSizeSignalIgnored();
  FileSizeSignalIgnored(const FileSizeSignalIgnored&) = delete;
  FileSizeSignalIgnored& operator=(const FileSizeSignalIgnored&) = delete;

 private:
  struct sigaction saved_ {};
};

/// Makes sure the file open as `descriptor` can grow to `wanted_bytes` without a write failing.
/// While the file system has 64 MiB free beyond it and RLIMIT_FSIZE is as far away, it only
/// looks (fstatvfs): cheap. Nearer, it takes the room (posix_fallocate), so that a write there
/// cannot fail even if another process fills the disk meanwhile; HDF5 trims a file back to what
/// it allocated at each flush and at the close. Returns 0, or the errno that refused the room
/// (ENOSPC, EFBIG, ...).
int reserve_file_room(int descriptor, off_t wanted_bytes);

/// Before HDF5 creates the file at `path` (H5Fcreate fails inside the library on a full disk,
/// and the library then cannot close at exit): creates it empty and makes sure `bytes` fit in it
/// (reserve_file_room), then empties it again. Throws OutputWriteError naming the path, the file
/// removed, when it cannot be created or the room is not there.
void check_room_for_new_file(const std::filesystem::path& path, off_t bytes);

}  // namespace routh
