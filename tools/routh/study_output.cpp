#include "tools/routh/study_output.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/recorder/file_room.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/text.hpp"

namespace routh::cli {

void write_study_outputs(const std::filesystem::path& table,
                         const std::vector<std::pair<std::filesystem::path, std::string>>& files,
                         bool force) {
  const std::vector<ReadInput> inputs = {{table, "the sweep table"}};
  std::vector<std::filesystem::path> names;
  std::vector<OutputPlacement> placements;
  for (const auto& file : files) {
    names.push_back(file.first);
    placements.push_back(plan_output(file.first, inputs, force));
  }
  check_distinct_outputs(names);
  for (std::size_t i = 0; i < files.size(); ++i) {
    const OutputPlacement& placement = placements[i];
    {
      std::ofstream out(placement.temporary, std::ios::binary);
      out << files[i].second;
      out.close();
      if (!out) {
        const int error = errno;
        std::filesystem::remove(placement.temporary);
        throw OutputWriteError(
            cat(placement.target.string(), ": cannot write: ", std::strerror(error)), error);
      }
    }
    if (!place_output(placement)) {
      throw OutputWriteError(cat(placement.target.string(), ": appeared meanwhile; kept ",
                                 placement.temporary.string()),
                             EEXIST);
    }
  }
}

std::string readable(double value) {
  std::ostringstream out;
  out.precision(4);
  out << value;
  return out.str();
}

std::string csv_table(const std::vector<std::string>& header,
                      const std::vector<std::vector<std::string>>& rows) {
  std::string text;
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c)
      text += cat(c > 0 ? "," : "", csv_field(cells[c]));
    text += '\n';
  };
  line(header);
  for (const auto& row : rows) line(row);
  return text;
}

std::string markdown_table(const std::vector<std::string>& header,
                           const std::vector<std::vector<std::string>>& rows) {
  std::string text;
  const auto line = [&](const std::vector<std::string>& cells) {
    text += '|';
    for (const std::string& cell : cells) text += cat(' ', cell, " |");
    text += '\n';
  };
  line(header);
  line(std::vector<std::string>(header.size(), "---"));
  for (const auto& row : rows) line(row);
  return text;
}

}  // namespace routh::cli
