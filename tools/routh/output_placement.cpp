#include "tools/routh/output_placement.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "sim/recorder/file_room.hpp"
#include "sim/text.hpp"

namespace routh::cli {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void throw_rename_error(const OutputPlacement& placement, int error_number) {
  // the folder removed during the run (or the temporary file): the data went with it
  std::error_code ignored;
  const std::string kept = fs::exists(placement.temporary, ignored)
                               ? cat("the trajectory is kept in ", placement.temporary.string())
                               : cat(placement.temporary.string(),
                                     " is gone (its folder was removed?): the trajectory is lost");
  throw OutputWriteError(
      cat("cannot rename ", placement.temporary.string(), " to ", placement.target.string(), ": ",
          std::strerror(error_number), "; ", kept),
      error_number);
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

OutputPlacement plan_output(const fs::path& target, const fs::path& scenario, bool force) {
  std::error_code error;
  if (fs::equivalent(target, scenario, error)) {
    throw std::runtime_error(cat("output file ", target.string(),
                                 " is the scenario file itself; choose another output file"));
  }
  if (!force && fs::exists(fs::symlink_status(target))) {
    throw std::runtime_error(
        cat("output file ", target.string(), " already exists; use --force to overwrite it"));
  }
  // found here, before the run, not by HDF5 when it creates the temporary file
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  if (!fs::is_directory(folder, error)) {
    throw std::runtime_error(
        cat("output file ", target.string(), ": the folder ", folder.string(), " does not exist"));
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw std::runtime_error(cat("output file ", target.string(), ": cannot write in the folder ",
                                 folder.string(), ": ", std::strerror(errno)));
  }
  const fs::path name = cat(".", target.filename().string(), ".tmp-", ::getpid());
  return {target, target.parent_path() / name, force};
}

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

}  // namespace routh::cli
