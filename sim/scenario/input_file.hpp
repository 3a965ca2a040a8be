#pragma once
// Reading an input file with bounded work. Every file routh reads as input (scenario, sweep file,
// base scenario, ground-motion record, impact problem) is opened here, so that
//   - only a regular file is read: a FIFO would block the open or the read for ever, a device
//     such as /dev/zero never ends, a directory has no text; each is refused by its type;
//   - at most the kind's byte limit is read: a larger file is refused before it is read (by its
//     size) or, should it grow meanwhile, at the line where the limit was passed;
//   - a line-wise reader never holds more than kMaxInputLineBytes of one line;
//   - a SIGINT or SIGTERM (see stop_request.hpp) that arrives while a file longer than one chunk
//     (64 KiB) is read ends the read with InputInterrupted, which the program maps to its
//     `interrupted` exit code (a shorter file is read whole, and what comes next sees it).
// The limits are documented in docs/models.md ("The file itself") and docs/sweeps.md.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/scenario/yaml_input.hpp"

namespace routh {

/// What a file is read as, for messages, and the most routh reads of it.
struct InputKind {
  std::string_view name;  ///< "scenario", "sweep file", ...
  std::uint64_t max_bytes = 0;
};

inline constexpr std::uint64_t kMebibyte = 1024 * 1024;
inline constexpr InputKind kScenarioInput{"scenario", 16 * kMebibyte};
inline constexpr InputKind kSweepInput{"sweep file", 1 * kMebibyte};
inline constexpr InputKind kImpactProblemInput{"impact problem", 1 * kMebibyte};
/// 10⁷ samples (kMaxRecordSamples) of two columns in full precision take about 500 MB.
inline constexpr InputKind kGroundRecordInput{"ground-motion record", 1024 * kMebibyte};
/// The longest line a line-wise reader (the record files) takes.
inline constexpr std::size_t kMaxInputLineBytes = kMebibyte;

/// A SIGINT or SIGTERM arrived while an input file was read.
class InputInterrupted : public std::runtime_error {
 public:
  InputInterrupted(const std::string& path, int signal_number);
  int signal_number() const { return signal_number_; }

 private:
  int signal_number_;
};

/// An open input file, checked to be a regular file within its kind's limit, read in chunks.
class InputFile {
 public:
  /// Opens `path` (never blocking, even on a FIFO) and checks its type and size; throws an
  /// InputError at the file otherwise.
  InputFile(std::string path, const InputKind& kind);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// The next line without its '\n' (nor a '\r' before it); false at the end of the file. A line
  /// longer than kMaxInputLineBytes is an InputError at that line.
  bool next_line(std::string& line);
  /// Everything not read yet.
  std::string rest();
  /// The 1-based number of the line next_line returned last (0 before the first).
  int line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

 private:
  // Reads the next chunk into buffer_; false at the end of the file.
  bool fill();

  std::string path_;
  InputKind kind_;
  int descriptor_ = -1;
  std::string buffer_;        // read, not yet returned
  std::size_t position_ = 0;  // into buffer_
  std::uint64_t bytes_read_ = 0;
  int line_number_ = 0;
  int newlines_read_ = 0;  // in every chunk read so far, to locate the limit
};

/// The whole text of the input file `path` of kind `kind` (see InputFile).
std::string read_input_file(const std::string& path, const InputKind& kind);

}  // namespace routh
