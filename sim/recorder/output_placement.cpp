#include "sim/recorder/output_placement.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

#include "sim/recorder/file_room.hpp"
#include "sim/text.hpp"

namespace routh {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse(const fs::path& target, std::string_view reason, int error_number) {
  throw OutputRefused(cat("output file ", target.string(), " ", reason), error_number);
}

[[noreturn]] void throw_rename_error(const OutputPlacement& placement, int error_number) {
  // the folder removed during the run (or the temporary file): what was written went with it
  std::error_code ignored;
  const std::string kept =
      fs::exists(placement.temporary, ignored)
          ? cat("what was written is kept in ", placement.temporary.string())
          : cat(placement.temporary.string(),
                " is gone (its folder was removed?): what was written is lost");
  throw OutputWriteError(
      cat("cannot rename ", placement.temporary.string(), " to ", placement.target.string(), ": ",
          std::strerror(error_number), "; ", kept),
      error_number);
}

// What `path` is, following symbolic links (stat) or not (lstat); nothing when it does not exist.
std::optional<struct stat> file_status(const fs::path& path, bool follow_links) {
  struct stat status {};
  const int result = follow_links ? ::stat(path.c_str(), &status) : ::lstat(path.c_str(), &status);
  if (result != 0) return std::nullopt;
  return status;
}

std::string_view kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The file `target` leads to (a link followed) is one of the inputs: same device and inode.
const ReadInput* input_named(const struct stat& target, std::span<const ReadInput> inputs) {
  for (const ReadInput& input : inputs) {
    const std::optional<struct stat> status = file_status(input.path, true);
    if (status && status->st_dev == target.st_dev && status->st_ino == target.st_ino) {
      return &input;
    }
  }
  return nullptr;
}

// rename() without replacing: RENAME_NOREPLACE where the file system has it, else a hard link
// (which fails, atomically too, on an existing name) and the removal of the temporary name.
// Returns 0 or the errno; EEXIST when the target exists.
int rename_without_replacing(const fs::path& from, const fs::path& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  return ::unlink(from.c_str()) == 0 ? 0 : errno;
}

}  // namespace

void check_output(const fs::path& target, std::span<const ReadInput> inputs, bool force) {
  const std::optional<struct stat> name = file_status(target, false);
  if (!name) return;  // a new name
  // what the name leads to: itself, or a link's target (nothing for a dangling link)
  const std::optional<struct stat> file = file_status(target, true);
  if (file) {
    if (const ReadInput* input = input_named(*file, inputs)) {
      refuse(target, cat("is ", input->role, " itself; choose another output file"), EINVAL);
    }
    if (!S_ISREG(file->st_mode)) {
      refuse(target,
             cat(S_ISLNK(name->st_mode) ? "is a link to " : "is ", kind_of(file->st_mode),
                 "; routh writes only regular files, even with --force"),
             EINVAL);
    }
  }
  if (!force) {
    refuse(target,
           cat(S_ISLNK(name->st_mode) ? "is a symbolic link" : "already exists",
               "; use --force to overwrite it"),
           EEXIST);
  }
}

void check_distinct_outputs(std::span<const fs::path> outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      std::error_code error;
      const fs::path a = fs::weakly_canonical(fs::absolute(outputs[i]), error);
      const fs::path b = fs::weakly_canonical(fs::absolute(outputs[j]), error);
      if (a == b) {
        throw OutputRefused(cat("output file ", outputs[i].string(),
                                " would be written twice by this command (two of its outputs "
                                "have that name); choose another name"),
                            EINVAL);
      }
    }
  }
}

fs::path temporary_path(const fs::path& target) {
  static std::atomic<unsigned long> calls{0};
  const fs::path name = cat(".", target.filename().string(), ".tmp-", ::getpid(), "-", calls++);
  return target.parent_path() / name;
}

OutputPlacement plan_output(const fs::path& target, std::span<const ReadInput> inputs, bool force) {
  check_output(target, inputs, force);
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code error;
  if (!fs::is_directory(folder, error)) {
    throw OutputRefused(
        cat("output file ", target.string(), ": the folder ", folder.string(), " does not exist"),
        ENOENT);
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    const int error_number = errno;
    throw OutputRefused(cat("output file ", target.string(), ": cannot write in the folder ",
                            folder.string(), ": ", std::strerror(error_number)),
                        EACCES);
  }
  return {target, temporary_path(target), force};
}

OutputLock::OutputLock(const fs::path& path)
    : descriptor_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (descriptor_ < 0) {
    const int error_number = errno;
    throw OutputRefused(cat(path.string(), ": cannot open: ", std::strerror(error_number)),
                        error_number);
  }
  if (::flock(descriptor_, LOCK_EX | LOCK_NB) != 0) {
    const int error_number = errno;
    ::close(descriptor_);
    throw OutputRefused(error_number == EWOULDBLOCK
                            ? cat(path.string(),
                                  " is being written by another routh process; "
                                  "wait for it to end or stop it")
                            : cat(path.string(), ": cannot lock: ", std::strerror(error_number)),
                        EBUSY);
  }
}

OutputLock::~OutputLock() { ::close(descriptor_); }  // releases the lock

bool place_output(const OutputPlacement& placement) {
  if (placement.force) {
    if (std::rename(placement.temporary.c_str(), placement.target.c_str()) != 0) {
      throw_rename_error(placement, errno);
    }
    return true;
  }
  const int error = rename_without_replacing(placement.temporary, placement.target);
  if (error == EEXIST) return false;
  if (error != 0) throw_rename_error(placement, error);
  return true;
}

}  // namespace routh
