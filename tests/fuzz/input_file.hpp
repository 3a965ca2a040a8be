#pragma once
// The loader fuzzers read their input through a real file, as the program does: one scratch
// file per fuzzing process, rewritten for every input.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace routh::fuzz {

/// Writes the bytes to this process's scratch file `<stem>.<pid><extension>` and returns its
/// path (one file per stem and extension).
inline std::string write_input_file(const char* stem, const std::uint8_t* data, std::size_t size,
                                    const char* extension = ".yaml") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            (std::string(stem) + "." + std::to_string(::getpid()) + extension))
                               .string();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

}  // namespace routh::fuzz
