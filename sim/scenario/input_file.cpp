#include "sim/scenario/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Large enough that a file of the largest kind is read in a few thousand system calls, small
// enough that a stop request is seen within a millisecond of reading.
constexpr std::size_t kChunkBytes = 64 * 1024;

std::string_view type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

// "16 MiB", "1.5 KiB", "200 B": a limit as a message shows it.
std::string describe_size(std::uint64_t bytes) {
  if (bytes < 1024) return cat(bytes, " B");
  const double kib = static_cast<double>(bytes) / 1024.0;
  std::array<char, 32> text{};
  if (kib < 1024.0) {
    std::snprintf(text.data(), text.size(), "%.4g KiB", kib);
  } else {
    std::snprintf(text.data(), text.size(), "%.4g MiB", kib / 1024.0);
  }
  return text.data();
}

std::string limit_message(const InputKind& kind) {
  return cat("routh reads at most ", describe_size(kind.max_bytes), " of a ", kind.name);
}

}  // namespace

InputInterrupted::InputInterrupted(const std::string& path, int signal_number)
    : std::runtime_error(cat(path, ": interrupted by ",
                             signal_number == SIGTERM ? "SIGTERM" : "SIGINT", " while reading it")),
      signal_number_(signal_number) {}

InputFile::InputFile(std::string path, const InputKind& kind)
    : path_(std::move(path)), kind_(kind) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever
  descriptor_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (descriptor_ < 0) {
    throw InputError({path_, 0, 0}, cat("cannot open the file: ", std::strerror(errno)));
  }
  struct stat status {};
  if (::fstat(descriptor_, &status) != 0) {
    const int error = errno;
    ::close(descriptor_);
    throw InputError({path_, 0, 0}, cat("cannot read the file: ", std::strerror(error)));
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(descriptor_);
    throw InputError({path_, 0, 0},
                     cat("is ", type_name(status.st_mode), ", not a regular file: routh reads a ",
                         kind_.name, " only from a regular file"));
  }
  if (static_cast<std::uint64_t>(status.st_size) > kind_.max_bytes) {
    ::close(descriptor_);
    throw InputError({path_, 0, 0}, cat("is ", status.st_size, " bytes: ", limit_message(kind_)));
  }
}

InputFile::~InputFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

// A stop request is honoured between the chunks of a long read: a file of one chunk is read
// whole (in microseconds) and whatever comes next sees the request, as a sweep's table writer or
// a run's loop does.
bool InputFile::fill() {
  const bool long_read = bytes_read_ >= kChunkBytes;
  if (long_read && stop_requested()) throw InputInterrupted(path_, stop_signal());
  std::array<char, kChunkBytes> chunk{};
  ssize_t count = 0;
  do {
    count = ::read(descriptor_, chunk.data(), chunk.size());
  } while (count < 0 && errno == EINTR && !(long_read && stop_requested()));
  if (long_read && stop_requested()) throw InputInterrupted(path_, stop_signal());
  if (count < 0) {
    throw InputError({path_, 0, 0}, cat("cannot read the file: ", std::strerror(errno)));
  }
  if (count == 0) return false;
  const std::string_view text(chunk.data(), static_cast<std::size_t>(count));
  // a file that grew past its size when opened (or reports none, as /proc's do)
  const std::uint64_t room = kind_.max_bytes - bytes_read_;
  if (text.size() > room) {
    const auto newlines =
        std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(room), '\n');
    throw InputError({path_, newlines_read_ + static_cast<int>(newlines) + 1, 0},
                     cat("the file goes on past this line: ", limit_message(kind_)));
  }
  bytes_read_ += text.size();
  newlines_read_ += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  buffer_.erase(0, position_);
  position_ = 0;
  buffer_ += text;
  return true;
}

bool InputFile::next_line(std::string& line) {
  std::size_t searched = position_;
  std::size_t end = buffer_.find('\n', searched);
  while (end == std::string::npos) {
    const std::size_t unread = buffer_.size() - position_;
    if (unread > kMaxInputLineBytes) break;  // refused below, without reading further
    if (!fill()) {
      if (unread == 0) return false;
      end = buffer_.size();  // a last line without '\n'
      break;
    }
    searched = unread;  // fill() moved the unread bytes to the front: search only the new ones
    end = buffer_.find('\n', searched);
  }
  ++line_number_;
  const std::size_t length = (end == std::string::npos ? buffer_.size() : end) - position_;
  if (length > kMaxInputLineBytes) {
    throw InputError({path_, line_number_, 0},
                     cat("a line longer than ", describe_size(kMaxInputLineBytes),
                         ": routh reads lines of at most that"));
  }
  line.assign(buffer_, position_, length);
  position_ = std::min(end + 1, buffer_.size());
  if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files
  return true;
}

std::string InputFile::rest() {
  while (fill()) {
  }
  std::string text = buffer_.substr(position_);
  buffer_.clear();
  position_ = 0;
  return text;
}

std::string read_input_file(const std::string& path, const InputKind& kind) {
  return InputFile(path, kind).rest();
}

}  // namespace routh
