#pragma once
// Files a test writes for the code under test to read: one scratch folder per test process,
// removed when the process ends.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

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

}  // namespace routh::test
