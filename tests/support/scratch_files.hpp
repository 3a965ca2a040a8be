#pragma once
// Files a test writes for the code under test to read: one scratch folder per test process,
// removed when the process ends.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/text.hpp"

namespace routh::test {

struct ScratchFolder {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / cat("routh_test_", ::getpid());
  ScratchFolder() { std::filesystem::create_directories(path); }
  ~ScratchFolder() { std::filesystem::remove_all(path); }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
};

/// This process's scratch folder.
inline const std::filesystem::path& scratch() {
  static const ScratchFolder kFolder;
  return kFolder.path;
}

/// Writes `text` to `name` in the scratch folder and returns the file's path.
inline std::string write_problem(const std::string& text,
                                 const std::string& name = "problem.yaml") {
  const std::filesystem::path path = scratch() / name;
  std::ofstream(path) << text;
  return path.string();
}

/// The temporary files of output `name` in `folder`, by file name: ".NAME.tmp-PID-N", the name
/// an output is written under before it is renamed (sim/recorder/output_placement.hpp), so what
/// a refused, failed or killed command left behind.
inline std::vector<std::string> temporary_files(const std::filesystem::path& folder,
                                                const std::string& name) {
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with(cat(".", name, ".tmp-"))) found.push_back(file);
  }
  return found;
}

}  // namespace routh::test
