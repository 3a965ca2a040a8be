// A trajectory file explains itself: /model describes the bodies, joints and obstacles of the
// model that ran (model_description.hpp), and /sample_kind says which samples were taken at an
// event.

#include <doctest/doctest.h>
#include <hdf5.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "models/named_models.hpp"
#include "models/planar/model_description.hpp"
#include "sim/recorder/scenario_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "support/scratch_files.hpp"
#include "support/trajectory_memory.hpp"

namespace routh {
namespace {

// The text of `key`'s value (to the end of its line) in the first object after `anchor`: the
// description puts one member per line, short arrays and shapes on one line.
std::string value_after(const std::string& json, const std::string& anchor,
                        const std::string& key) {
  const std::size_t start = json.find(anchor);
  REQUIRE_MESSAGE(start != std::string::npos, anchor);
  const std::size_t found = json.find("\"" + key + "\": ", start);
  REQUIRE_MESSAGE(found != std::string::npos, key);
  const std::size_t value = found + key.size() + 4;
  std::string text = json.substr(value, json.find('\n', value) - value);
  if (!text.empty() && text.back() == ',') text.pop_back();
  return text;
}

// Brackets and braces balance outside strings, and every string closes: the text is one JSON
// value as far as its nesting goes.
bool nesting_balances(const std::string& json) {
  std::vector<char> open;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      open.push_back(c == '{' ? '}' : ']');
    } else if (c == '}' || c == ']') {
      if (open.empty() || open.back() != c) return false;
      open.pop_back();
    }
  }
  return open.empty() && !in_string;
}

struct File {
  hid_t id;
  explicit File(const std::filesystem::path& path)
      : id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~File() { H5Fclose(id); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
};

std::string read_text(hid_t file, const char* name) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* data = nullptr;
  REQUIRE(H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &data) >= 0);
  std::string text = data;
  H5free_memory(data);
  H5Tclose(type);
  H5Dclose(dataset);
  return text;
}

template <typename Value>
std::vector<Value> read_column(hid_t file, const char* name, hid_t memory_type) {
  const hid_t dataset = H5Dopen2(file, name, H5P_DEFAULT);
  REQUIRE(dataset >= 0);
  const hid_t space = H5Dget_space(dataset);
  hsize_t rows = 0;
  H5Sget_simple_extent_dims(space, &rows, nullptr);
  std::vector<Value> values(rows);
  REQUIRE(H5Dread(dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  H5Sclose(space);
  H5Dclose(dataset);
  return values;
}

std::string read_string_attribute(hid_t file, const char* object, const char* name) {
  const hid_t attribute = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(attribute >= 0);
  const hid_t type = H5Aget_type(attribute);
  char* data = nullptr;
  REQUIRE(H5Aread(attribute, type, &data) >= 0);
  std::string text = data;
  H5free_memory(data);
  H5Tclose(type);
  H5Aclose(attribute);
  return text;
}

TEST_CASE("model description: a rocking block's corners lie at half its width and height") {
  const auto block = make_rocking_block(0.3, 1.2, 2.0);
  const std::string json = model_description_json(*block);
  CHECK(nesting_balances(json));
  CHECK(value_after(json, "\"bodies\"", "name") == "\"block\"");
  CHECK(value_after(json, "\"block\"", "mass") == "2");
  CHECK(value_after(json, "\"block\"", "inertia") == "0.255");  // 2 (0.3² + 1.2²) / 12
  CHECK(value_after(json, "\"block\"", "shape")
            .find("\"vertices\": [[-0.15, -0.6], [0.15, -0.6], [0.15, 0.6], [-0.15, 0.6]]") !=
        std::string::npos);
  CHECK(value_after(json, "\"joint\"", "type") == "\"free\"");
  CHECK(value_after(json, "\"joint\"", "parent") == "null");
  CHECK(value_after(json, "\"joint\"", "columns") == "[0, 1, 2]");
  CHECK(value_after(json, "\"joint\"", "coordinates") == "[\"x\", \"y\", \"theta\"]");
  CHECK(value_after(json, "\"format\"", "gravity") == "[0, -9.81]");
  CHECK(json.find(
            "{\"name\": \"floor\", \"kind\": \"floor\", \"point\": [0, 0], \"normal\": [0, 1]}") !=
        std::string::npos);
  CHECK(json.find("{\"name\": \"left_corner\", \"body\": \"block\", \"obstacle\": \"floor\", "
                  "\"point\": [-0.15, -0.6], \"radius\": 0}") != std::string::npos);
}

TEST_CASE("model description: a chain's links hang end to end from the pivot") {
  const auto chain = make_chain(3, 0.5, 0.3, floor_at(-2.0), AngleReference::relative);
  const std::string json = model_description_json(*chain);
  CHECK(nesting_balances(json));
  // a link's centre of mass is mid-length: its joint lies 0.25 m above it, and its child's joint
  // 0.25 m below
  CHECK(value_after(json, "\"name\": \"link1\"", "shape") == "null");
  CHECK(value_after(json, "\"name\": \"link1\"", "parent") == "null");
  CHECK(value_after(json, "\"name\": \"link1\"", "parent_point") == "[0, 0]");
  CHECK(value_after(json, "\"name\": \"link2\"", "parent") == "\"link1\"");
  CHECK(value_after(json, "\"name\": \"link2\"", "parent_point") == "[0, -0.25]");
  CHECK(value_after(json, "\"name\": \"link2\"", "child_point") == "[0, 0.25]");
  CHECK(value_after(json, "\"name\": \"link3\"", "parent") == "\"link2\"");
  CHECK(value_after(json, "\"name\": \"link3\"", "columns") == "[2]");
  CHECK(value_after(json, "\"name\": \"link3\"", "angle") == "\"relative\"");
  CHECK(json.find("{\"name\": \"tip\", \"body\": \"link3\", \"obstacle\": \"floor\", \"point\": "
                  "[0, -0.25], \"radius\": 0}") != std::string::npos);
  CHECK(json.find("\"point\": [0, -2]") != std::string::npos);
}

TEST_CASE("model description: a pendulum's wall, known only to its tip's contact, is named") {
  const auto pendulum = make_pendulum(1.0, 1.0);
  const std::string json = model_description_json(*pendulum);
  CHECK(json.find(
            "{\"name\": \"wall\", \"kind\": \"wall\", \"point\": [0, 0], \"normal\": [1, 0]}") !=
        std::string::npos);
  CHECK(json.find("\"obstacle\": \"wall\"") != std::string::npos);
}

TEST_CASE(
    "trajectory file: /model is the model that ran and /sample_kind marks the event samples") {
  const Scenario scenario = load_scenario(ROUTH_SOURCE_DIR "/scenarios/rocking_block.yaml",
                                          std::vector<std::string>{"duration=0.6"});
  const std::filesystem::path path = test::scratch() / "model_and_sample_kind.h5";
  {
    TrajectoryRecorder recorder = open_scenario_recorder(scenario, path);
    run_scenario(scenario, recorder);
    recorder.close();
  }
  test::TrajectoryMemory memory;
  run_scenario(scenario, memory);
  REQUIRE(!memory.events.empty());

  const File file(path);
  REQUIRE(file.id >= 0);
  CHECK(read_text(file.id, "model") == model_description_json(*scenario.planar));
  CHECK(read_string_attribute(file.id, "model", "format") == "json");
  CHECK(summarize_trajectory(path).model_bytes == model_description_json(*scenario.planar).size());

  const auto time = read_column<double>(file.id, "time", H5T_NATIVE_DOUBLE);
  const auto kind = read_column<std::uint8_t>(file.id, "sample_kind", H5T_NATIVE_UINT8);
  REQUIRE(kind.size() == time.size());
  REQUIRE(kind.size() == memory.samples.size());
  std::set<double> event_times;
  for (const EventRecord& event : memory.events) event_times.insert(event.t);
  std::set<double> before, after;
  for (std::size_t i = 0; i < kind.size(); ++i) {
    CHECK(kind[i] == static_cast<std::uint8_t>(memory.samples[i].kind));
    if (kind[i] == 1) {
      before.insert(time[i]);
      // the state after the event follows at once, at the same time
      REQUIRE(i + 1 < kind.size());
      CHECK(kind[i + 1] == 2);
      CHECK(time[i + 1] == time[i]);
    } else if (kind[i] == 2) {
      after.insert(time[i]);
    } else {
      CHECK(kind[i] == 0);
    }
  }
  CHECK(before == event_times);
  CHECK(after == event_times);
}

}  // namespace
}  // namespace routh
