#include "sim/recorder/file_room.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <system_error>

#include "sim/text.hpp"

namespace routh {

namespace {

// Free room on the file system, and below a file-size limit, beyond which reserve_file_room()
// looks instead of reserving: a margin no other process fills within one write in practice.
constexpr off_t kAmpleRoomBytes = 64 * 1024 * 1024;

// True when a file of `wanted` bytes stays kAmpleRoomBytes below the process's file-size limit
// and the file system has kAmpleRoomBytes free besides.
bool room_is_ample(int descriptor, off_t wanted) {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      static_cast<rlim_t>(wanted + kAmpleRoomBytes) > limit.rlim_cur) {
    return false;
  }
  struct statvfs disk {};
  if (::fstatvfs(descriptor, &disk) != 0) return false;
  return static_cast<off_t>(disk.f_bavail * disk.f_frsize) >= wanted + kAmpleRoomBytes;
}

}  // namespace

void ignore_file_size_signal() { std::signal(SIGXFSZ, SIG_IGN); }

FileSizeSignalIgnored::FileSizeSignalIgnored() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGXFSZ, &ignore, &saved_);
}

FileSizeSignalIgnored::~FileSizeSignalIgnored() { ::sigaction(SIGXFSZ, &saved_, nullptr); }

int reserve_file_room(int descriptor, off_t wanted_bytes) {
  if (room_is_ample(descriptor, wanted_bytes)) return 0;
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) return errno;
  if (status.st_size >= wanted_bytes) return 0;
  return ::posix_fallocate(descriptor, status.st_size, wanted_bytes - status.st_size);
}

void check_room_for_new_file(const std::filesystem::path& path, off_t bytes) {
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (descriptor < 0) {
    const int error = errno;
    throw OutputWriteError(cat(path.string(), ": cannot create the file: ", std::strerror(error)),
                           error);
  }
  const int error = reserve_file_room(descriptor, bytes);
  const bool emptied = ::ftruncate(descriptor, 0) == 0;
  ::close(descriptor);
  if (error == 0 && emptied) return;
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  throw OutputWriteError(
      cat(path.string(), ": cannot write: ", std::strerror(error != 0 ? error : EIO)), error);
}

}  // namespace routh
