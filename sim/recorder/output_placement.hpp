#pragma once
// Where routh writes a file so that it never destroys what it did not create. One rule for
// `routh run`, `routh sweep` and the Python package's routh.run (docs/output.md, "What routh
// will not overwrite"):
//
// - an existing file is replaced only with force (--force, force=True);
// - never a file the same command reads (the scenario, the sweep file, its base scenario, a
//   record file), whatever its spelling or a link to it: compared by device and inode, even
//   with force;
// - never a directory, a device, a FIFO or a socket, even with force;
// - a symbolic link is never followed: it is an existing name, refused without force; with
//   force the link itself is replaced and what it points to is left as it was (a link to a
//   file that is not a regular file, or to an input, is refused like that file);
// - nothing is opened for writing under the target's name: the command writes a temporary file
//   beside the target, its own name for each file it writes and each process and call
//   (".NAME.tmp-PID-N"), and renames it onto the target at the end. An existing target is
//   therefore whole until the one rename replaces it, and two writers naming the same target
//   cannot damage each other's file: without force the rename refuses a target that appeared
//   meanwhile (place_output), and the later writer keeps its temporary file.

#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

namespace routh {

/// An output that the rule refuses. `error_number` says why, as errno would: EEXIST (the name
/// exists and may not be replaced), EINVAL (an input, or not a regular file), ENOENT (no such
/// folder), EACCES (the folder cannot be written).
class OutputRefused : public std::runtime_error {
 public:
  OutputRefused(const std::string& message, int error_number)
      : std::runtime_error(message), error_number_(error_number) {}
  int error_number() const { return error_number_; }

 private:
  int error_number_;
};

/// A file the command reads, and what it is to the user ("the scenario file", "a record file").
struct ReadInput {
  std::filesystem::path path;
  std::string role;
};

/// Checks `target` against the rule above before anything is written, and creates nothing:
/// throws OutputRefused naming the file and the reason. `inputs` are the files the command
/// reads; `force` allows replacing an existing regular file or symbolic link.
void check_output(const std::filesystem::path& target, std::span<const ReadInput> inputs,
                  bool force);

/// Throws OutputRefused when two of the `outputs` one command writes are the same name (a sweep's
/// table and its CSV, say): each would overwrite the other.
void check_distinct_outputs(std::span<const std::filesystem::path> outputs);

/// ".NAME.tmp-PID-N" beside `target`: a name of its own for every call in this process.
std::filesystem::path temporary_path(const std::filesystem::path& target);

struct OutputPlacement {
  std::filesystem::path target;     ///< the file the user asked for
  std::filesystem::path temporary;  ///< temporary_path(target): where the writer writes
  bool force = false;               ///< replace an existing target
};

/// check_output(), then the target's folder must exist and be writable (found here, before a
/// run, not when the temporary file is created); names the temporary file.
OutputPlacement plan_output(const std::filesystem::path& target, std::span<const ReadInput> inputs,
                            bool force);

/// An exclusive advisory lock (flock) on an existing file, held while the object lives: for a
/// file a command goes on writing in place (a sweep's journal), so that a second command naming
/// the same output (`--force` would remove it, `--resume` append to it) is refused instead.
class OutputLock {
 public:
  /// Throws OutputRefused (EBUSY) when another process holds the lock, naming the file.
  explicit OutputLock(const std::filesystem::path& path);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int descriptor_ = -1;
};

/// Renames the temporary file onto the target; with force it replaces an existing target. Without
/// force, a target that appeared since plan_output() is left alone and false is returned (the
/// temporary file keeps the run). Throws OutputWriteError naming both files when the rename
/// fails otherwise.
bool place_output(const OutputPlacement& placement);

}  // namespace routh
