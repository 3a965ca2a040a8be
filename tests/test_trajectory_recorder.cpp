// The HDF5 trajectory recorder (docs/design.md §5): what it writes, read back with the HDF5 C API
// and not through routh's own reader; bounded memory; files left by runs stopped with
// SIGINT/SIGTERM and killed with SIGKILL; the stop-request handlers; and `routh info` on a written
// file, its summary and its event log (--events, --csv).

#include <doctest/doctest.h>
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/impact/law_catalogue.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/recorder/trajectory_summary.hpp"
#include "sim/simulation/event_record.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/text.hpp"
#include "support/rod_recorder_header.hpp"
#include "support/routh_process.hpp"
#include "support/sanitizers.hpp"
#include "support/scratch_files.hpp"

namespace routh {
namespace {

using test::scratch;

// ---- reading back with the plain HDF5 C API ------------------------------------------------

// Owns an HDF5 id; closes it with `closer`.
struct Id {
  hid_t id;
  herr_t (*closer)(hid_t);
  ~Id() {
    if (id >= 0) closer(id);
  }
  Id(hid_t id_, herr_t (*closer_)(hid_t)) : id(id_), closer(closer_) {}
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
};

Id open_file(const std::filesystem::path& path) {
  return Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), &H5Fclose);
}

struct Table {
  std::vector<hsize_t> dims;
  std::vector<double> values;  // row-major
};

Table read_table(hid_t file, const char* name) {
  const Id dataset(H5Dopen2(file, name, H5P_DEFAULT), &H5Dclose);
  REQUIRE(dataset.id >= 0);
  const Id space(H5Dget_space(dataset.id), &H5Sclose);
  Table table;
  table.dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.id)));
  H5Sget_simple_extent_dims(space.id, table.dims.data(), nullptr);
  table.values.resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.id)));
  if (!table.values.empty()) {
    REQUIRE(H5Dread(dataset.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                    table.values.data()) >= 0);
  }
  return table;
}

// A string attribute (variable-length strings, as the recorder writes them), every element.
std::vector<std::string> read_strings(hid_t object, const char* name) {
  const Id attribute(H5Aopen(object, name, H5P_DEFAULT), &H5Aclose);
  REQUIRE(attribute.id >= 0);
  const Id file_type(H5Aget_type(attribute.id), &H5Tclose);
  REQUIRE(H5Tis_variable_str(file_type.id) > 0);
  CHECK(H5Tget_cset(file_type.id) == H5T_CSET_UTF8);
  const Id space(H5Aget_space(attribute.id), &H5Sclose);
  std::vector<char*> texts(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.id)));
  const Id type(H5Tcopy(H5T_C_S1), &H5Tclose);
  H5Tset_size(type.id, H5T_VARIABLE);
  H5Tset_cset(type.id, H5T_CSET_UTF8);  // HDF5 does not convert between ASCII and UTF-8
  REQUIRE(H5Aread(attribute.id, type.id, texts.data()) >= 0);
  std::vector<std::string> values(texts.begin(), texts.end());
  H5Dvlen_reclaim(type.id, space.id, H5P_DEFAULT, texts.data());
  return values;
}

std::string read_string(hid_t object, const char* name) { return read_strings(object, name)[0]; }

// A scalar text dataset (a variable-length UTF-8 string), such as /scenario.
std::string read_text_dataset(hid_t file, const char* name) {
  const Id dataset(H5Dopen2(file, name, H5P_DEFAULT), &H5Dclose);
  REQUIRE(dataset.id >= 0);
  const Id type(H5Tcopy(H5T_C_S1), &H5Tclose);
  H5Tset_size(type.id, H5T_VARIABLE);
  H5Tset_cset(type.id, H5T_CSET_UTF8);
  char* text = nullptr;
  REQUIRE(H5Dread(dataset.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text) >= 0);
  std::string value = text != nullptr ? text : "";
  H5free_memory(text);
  return value;
}

// One /events row read with the full compound type.
struct EventRowRead {
  double t;
  char* kind;
  char* contacts;
  char* phases;
  hvl_t impulse;
  hvl_t u_pre;
  hvl_t u_post;
  double delta_T;
  double normal_work;
  double tangential_work;
  char* flags;
  char* status;
};

struct EventRead {
  double t = 0.0;
  std::string kind, contacts, phases, flags, status;
  std::vector<double> impulse, u_pre, u_post;
  double delta_T = 0.0, normal_work = 0.0, tangential_work = 0.0;
};

std::vector<double> to_vector(const hvl_t& sequence) {
  const auto* data = static_cast<const double*>(sequence.p);
  return std::vector<double>(data, data + sequence.len);
}

std::vector<EventRead> read_events(hid_t file) {
  const Id dataset(H5Dopen2(file, "events", H5P_DEFAULT), &H5Dclose);
  REQUIRE(dataset.id >= 0);
  const Id text(H5Tcopy(H5T_C_S1), &H5Tclose);
  H5Tset_size(text.id, H5T_VARIABLE);
  H5Tset_cset(text.id, H5T_CSET_UTF8);
  const Id doubles(H5Tvlen_create(H5T_NATIVE_DOUBLE), &H5Tclose);
  const Id type(H5Tcreate(H5T_COMPOUND, sizeof(EventRowRead)), &H5Tclose);
  H5Tinsert(type.id, "t", offsetof(EventRowRead, t), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.id, "kind", offsetof(EventRowRead, kind), text.id);
  H5Tinsert(type.id, "contacts", offsetof(EventRowRead, contacts), text.id);
  H5Tinsert(type.id, "phases", offsetof(EventRowRead, phases), text.id);
  H5Tinsert(type.id, "impulse", offsetof(EventRowRead, impulse), doubles.id);
  H5Tinsert(type.id, "u_pre", offsetof(EventRowRead, u_pre), doubles.id);
  H5Tinsert(type.id, "u_post", offsetof(EventRowRead, u_post), doubles.id);
  H5Tinsert(type.id, "delta_T", offsetof(EventRowRead, delta_T), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.id, "normal_work", offsetof(EventRowRead, normal_work), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.id, "tangential_work", offsetof(EventRowRead, tangential_work), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.id, "flags", offsetof(EventRowRead, flags), text.id);
  H5Tinsert(type.id, "status", offsetof(EventRowRead, status), text.id);
  const Id space(H5Dget_space(dataset.id), &H5Sclose);
  std::vector<EventRowRead> rows(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.id)));
  std::vector<EventRead> events;
  if (rows.empty()) return events;
  REQUIRE(H5Dread(dataset.id, type.id, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()) >= 0);
  for (const EventRowRead& row : rows) {
    events.push_back(EventRead{row.t, row.kind, row.contacts, row.phases, row.flags, row.status,
                               to_vector(row.impulse), to_vector(row.u_pre), to_vector(row.u_post),
                               row.delta_T, row.normal_work, row.tangential_work});
  }
  H5Dvlen_reclaim(type.id, space.id, H5P_DEFAULT, rows.data());
  return events;
}

// ---- a small trajectory ---------------------------------------------------------------------

RecorderHeader rod_header() { return test::rod_recorder_header("law: poisson\nduration: 1.0\n"); }

// Sample i of a made-up trajectory that every test can recompute.
double sample_t(long i) { return 1e-3 * static_cast<double>(i); }
Eigen::VectorXd sample_q(long i) {
  const double t = sample_t(i);
  return Eigen::Vector3d(t, 2.0 - t * t, 0.5 * t);
}
Eigen::VectorXd sample_v(long i) {
  const double t = sample_t(i);
  return Eigen::Vector3d(1.0, -2.0 * t, 0.5);
}
Energy sample_energy(long i) { return Energy{1.0 + sample_t(i), 9.81 - sample_t(i)}; }

void record_samples(TrajectoryRecorder& recorder, long first, long end) {
  for (long i = first; i < end; ++i) {
    recorder.record_sample(sample_t(i), sample_q(i), sample_v(i), sample_energy(i));
  }
}

// Checks /time, /q, /v, /energy hold exactly samples 0..count-1.
void check_samples(hid_t file, long count) {
  const Table time = read_table(file, "time");
  const Table q = read_table(file, "q");
  const Table v = read_table(file, "v");
  const Table energy = read_table(file, "energy");
  REQUIRE(time.dims == std::vector<hsize_t>{static_cast<hsize_t>(count)});
  REQUIRE(q.dims == std::vector<hsize_t>{static_cast<hsize_t>(count), 3});
  REQUIRE(v.dims == std::vector<hsize_t>{static_cast<hsize_t>(count), 3});
  REQUIRE(energy.dims == std::vector<hsize_t>{static_cast<hsize_t>(count), 3});
  long mismatches = 0;  // exact: the recorder copies doubles bit for bit
  for (long i = 0; i < count; ++i) {
    const auto row = static_cast<std::size_t>(i);
    const Eigen::VectorXd q_i = sample_q(i);
    const Eigen::VectorXd v_i = sample_v(i);
    const Energy e_i = sample_energy(i);
    mismatches += time.values[row] != sample_t(i);
    for (std::size_t j = 0; j < 3; ++j) {
      mismatches += q.values[3 * row + j] != q_i[static_cast<Eigen::Index>(j)];
      mismatches += v.values[3 * row + j] != v_i[static_cast<Eigen::Index>(j)];
    }
    mismatches += energy.values[3 * row] != e_i.kinetic;
    mismatches += energy.values[3 * row + 1] != e_i.potential;
    mismatches += energy.values[3 * row + 2] != e_i.total();
  }
  CHECK(mismatches == 0);
}

// The paper 004 falling rod in contact space (the README's example), solved by `law`.
ImpactResult falling_rod(const char* law) {
  const ImpactProblem problem = planar_impact_problem(2.5, 2.5, -1.5, -1.0, 0.6, {0.82, 0.73, 0.7});
  return find_law(law)->solve(problem);
}

long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * ::sysconf(_SC_PAGESIZE);
}

// ---- child processes ------------------------------------------------------------------------

// A child reports through a pipe and leaves with _exit, so it never runs the parent's atexit
// handlers (doctest's, the scratch folder's).
struct Child {
  pid_t pid = -1;
  int from_child = -1;

  template <class Body>
  explicit Child(Body body) {
    std::array<int, 2> fds{};
    REQUIRE(::pipe(fds.data()) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::close(fds[0]);
      int code = 0;
      try {
        code = body(fds[1]);
      } catch (...) {
        code = 90;
      }
      ::_exit(code);
    }
    ::close(fds[1]);
    from_child = fds[0];
  }
  ~Child() {
    if (from_child >= 0) ::close(from_child);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  template <class T>
  bool receive(T& value) {
    return ::read(from_child, &value, sizeof value) == static_cast<ssize_t>(sizeof value);
  }
  int wait() {
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    return status;
  }
};

template <class T>
void send(int fd, const T& value) {
  if (::write(fd, &value, sizeof value) != static_cast<ssize_t>(sizeof value)) ::_exit(91);
}

// A `rest` event at t [s] on one contact.
EventRecord rest_event(double t, int contact) {
  EventRecord rest;
  rest.t = t;
  rest.kind = EventKind::rest;
  rest.contacts = {contact};
  return rest;
}

}  // namespace

TEST_CASE("recorder: samples, events and attributes read back with the HDF5 C API") {
  const std::filesystem::path path = scratch() / "small.h5";
  const ImpactResult poisson = falling_rod("poisson");
  REQUIRE(poisson.status == ImpactStatus::solved);
  ContactVector u_pre(2);
  u_pre << -1.0, 0.6;
  {
    // a buffer of 4 samples, so 10 samples take two appends and a partial buffer
    TrajectoryRecorder recorder(path, rod_header(), 4);
    record_samples(recorder, 0, 7);
    recorder.record_event(impact_event(0.0065, {1}, u_pre, poisson));
    record_samples(recorder, 7, 10);
    EventRecord liftoff;
    liftoff.t = 0.0095;
    liftoff.kind = EventKind::liftoff;
    liftoff.contacts = {0, 1};
    recorder.record_event(liftoff);
    CHECK(recorder.sample_count() == 10);
    CHECK(recorder.event_count() == 2);
    recorder.close();
    CHECK_FALSE(recorder.is_open());
    recorder.close();  // a second close does nothing
  }
  const Id file = open_file(path);
  REQUIRE(file.id >= 0);
  check_samples(file.id, 10);

  CHECK(read_string(file.id, "format") == "routh-trajectory");
  CHECK(read_string(file.id, "routh_version").find('.') != std::string::npos);
  CHECK(read_string(file.id, "law") == "poisson");
  {
    const Id attribute(H5Aopen(file.id, "format_version", H5P_DEFAULT), &H5Aclose);
    int version = 0;
    REQUIRE(H5Aread(attribute.id, H5T_NATIVE_INT, &version) >= 0);
    CHECK(version == kTrajectoryFormatVersion);
  }
  CHECK(read_text_dataset(file.id, "scenario") == rod_header().scenario_yaml);
  const auto attribute_of = [&](const char* dataset, const char* name) {
    const Id object(H5Dopen2(file.id, dataset, H5P_DEFAULT), &H5Dclose);
    return read_strings(object.id, name);
  };
  using Strings = std::vector<std::string>;
  CHECK(attribute_of("time", "units") == Strings{"s"});
  CHECK(attribute_of("q", "names") == Strings{"x", "y", "theta"});
  CHECK(attribute_of("q", "units") == Strings{"m", "m", "rad"});
  CHECK(attribute_of("v", "names") == Strings{"x", "y", "theta"});
  CHECK(attribute_of("v", "units") == Strings{"m/s", "m/s", "rad/s"});
  CHECK(attribute_of("energy", "names") == Strings{"kinetic", "potential", "total"});
  CHECK(attribute_of("energy", "units") == Strings{"J", "J", "J"});
  CHECK(attribute_of("events", "contact_names") == Strings{"left_corner", "right_corner"});
  Strings field_names, field_units;
  for (const EventField& field : kEventFields) {
    field_names.emplace_back(field.name);
    field_units.emplace_back(field.unit);
  }
  CHECK(attribute_of("events", "fields") == field_names);
  CHECK(attribute_of("events", "units") == field_units);
  CHECK(field_units[0] == "s");    // t
  CHECK(field_units[4] == "N s");  // impulse

  const std::vector<EventRead> events = read_events(file.id);
  REQUIRE(events.size() == 2);
  const EventRead& impact = events[0];
  CHECK(impact.t == 0.0065);
  CHECK(impact.kind == "impact");
  CHECK(impact.contacts == "1");
  // paper 004 §6: slip halts in compression and the rod sticks, Γ = (0.728, 0.1968)
  CHECK(impact.phases == describe_phases(poisson.phases));
  CHECK(impact.phases.rfind("slide/compression[0,", 0) == 0);
  REQUIRE(impact.impulse.size() == 2);
  CHECK(impact.impulse[0] == poisson.impulse[0]);
  CHECK(impact.impulse[1] == poisson.impulse[1]);
  CHECK(impact.impulse[0] == doctest::Approx(0.728).epsilon(1e-12));
  CHECK(impact.u_pre == std::vector<double>{-1.0, 0.6});
  CHECK(impact.u_post == std::vector<double>{poisson.u_post[0], poisson.u_post[1]});
  CHECK(impact.delta_T == poisson.delta_T);
  CHECK(impact.normal_work == poisson.normal_work);
  CHECK(impact.tangential_work == poisson.tangential_work);
  // paper 004 §6: Poisson's e = 0.82 does not dissipate what the energetic coefficient would
  CHECK(impact.flags == "nonphysical_normal_dissipation");
  CHECK(impact.status == "solved");
  const EventRead& liftoff = events[1];
  CHECK(liftoff.kind == "liftoff");
  CHECK(liftoff.contacts == "0,1");
  CHECK(liftoff.impulse.empty());
  CHECK(liftoff.phases.empty());
}

TEST_CASE("recorder: ten thousand long contact names fit in the contact_names attribute") {
  // A stack of n blocks has 16 n (n - 1) candidate contacts between them: 20 blocks, 6080. The
  // earliest file format caps an attribute at 64 KiB, about 4000 variable-length names; the
  // recorder keeps /events' attributes in dense storage, which has no such cap.
  const std::filesystem::path path = scratch() / "many_contacts.h5";
  RecorderHeader header = rod_header();
  header.contact_names.clear();
  for (int k = 0; k < 10000; ++k) {
    header.contact_names.push_back(
        cat("block", k / 100 + 1, ".bottom_left_corner-block", k % 100 + 1, ".top_edge"));
  }
  {
    TrajectoryRecorder recorder(path, header, 8);
    record_samples(recorder, 0, 3);
    recorder.record_event(rest_event(sample_t(2), 9999));
  }
  const Id file = open_file(path);
  REQUIRE(file.id >= 0);
  {
    // the 1.8 format (superblock version 2), which HDF5 1.10 reopens after a writer died
    H5F_info2_t info{};
    REQUIRE(H5Fget_info2(file.id, &info) >= 0);
    CHECK(info.super.version == 2);
    const Id events(H5Dopen2(file.id, "events", H5P_DEFAULT), &H5Dclose);
    CHECK(read_strings(events.id, "contact_names") == header.contact_names);
    CHECK(read_strings(events.id, "units").size() == 12);
  }
  check_samples(file.id, 3);
  // routh's own reader agrees
  const TrajectorySummary summary = summarize_trajectory(path);
  CHECK(summary.contact_names == header.contact_names);
  CHECK(summary.sample_count == 3);
}

TEST_CASE("recorder: a long scenario text and an event log of many writes read back whole") {
  // Writes of variable-length data convert through a 64 KiB buffer (hdf5_support.hpp): a text
  // four times that and 1000 events (four writes of the 256-row event buffer, each row with 40
  // impulse components and a 300-character phase text) must arrive unchanged.
  const std::filesystem::path path = scratch() / "long_texts.h5";
  RecorderHeader header = rod_header();
  header.scenario_yaml.clear();
  for (int line = 0; header.scenario_yaml.size() < 4 * 64 * 1024; ++line) {
    header.scenario_yaml += cat("# line ", line, " of a long scenario\n");
  }
  std::vector<EventRecord> written;
  for (int k = 0; k < 1000; ++k) {
    EventRecord event = rest_event(sample_t(k), k % 2);
    event.phases = std::string(300, static_cast<char>('a' + k % 26));
    event.impulse.resize(40);
    for (int i = 0; i < 40; ++i) event.impulse[i] = k + 1e-3 * i;
    event.u_pre = event.impulse;
    event.u_post.assign(event.impulse.rbegin(), event.impulse.rend());
    written.push_back(event);
  }
  {
    TrajectoryRecorder recorder(path, header, 16);
    record_samples(recorder, 0, 1000);
    for (const EventRecord& event : written) recorder.record_event(event);
  }
  const Id file = open_file(path);
  REQUIRE(file.id >= 0);
  CHECK(read_text_dataset(file.id, "scenario") == header.scenario_yaml);
  const std::vector<EventRead> events = read_events(file.id);
  REQUIRE(events.size() == written.size());
  for (std::size_t k = 0; k < written.size(); ++k) {
    CAPTURE(k);
    CHECK(events[k].t == written[k].t);
    CHECK(events[k].phases == written[k].phases);
    CHECK(events[k].impulse == written[k].impulse);
    CHECK(events[k].u_pre == written[k].u_pre);
    CHECK(events[k].u_post == written[k].u_post);
  }
}

TEST_CASE("recorder: event rows describe phases, flags and kinds in words") {
  const ImpactResult newton = falling_rod("newton");
  // paper 004 §6: the conventional method gains energy on the rod
  CHECK(describe_flags(newton.flags) == "energy_gain");
  ImpactFlags several;
  several.set(ImpactFlag::slip_reversal_ignored);
  several.set(ImpactFlag::energy_gain);
  CHECK(describe_flags(several) == "energy_gain,slip_reversal_ignored");
  CHECK(describe_flags(ImpactFlags{}).empty());

  PhaseTrace trace;
  trace.push_back(Phase{PhaseKind::slide, Stage::compression, 0.0, 0.25, 0});
  trace.push_back(Phase{PhaseKind::stick, Stage::restitution, 0.25, 0.5, 0});
  CHECK(describe_phases(trace) == "slide/compression[0,0.25] stick/restitution[0.25,0.5]");
  trace.push_back(Phase{PhaseKind::reverse_slide, Stage::restitution, 0.0, 0.125, 1});
  CHECK(describe_phases(trace) ==
        "c0:slide/compression[0,0.25] c0:stick/restitution[0.25,0.5] "
        "c1:reverse-slide/restitution[0,0.125]");

  for (EventKind kind : kAllEventKinds) CHECK(event_kind_from_string(to_string(kind)) == kind);
  CHECK_FALSE(event_kind_from_string("bounce").has_value());
}

TEST_CASE("recorder: bad headers, samples and paths are rejected with the file named") {
  const std::filesystem::path path = scratch() / "bad.h5";
  RecorderHeader no_coordinates = rod_header();
  no_coordinates.coordinate_names.clear();
  no_coordinates.coordinate_units.clear();
  CHECK_THROWS_AS(TrajectoryRecorder(path, no_coordinates), std::invalid_argument);
  RecorderHeader missing_unit = rod_header();
  missing_unit.coordinate_units.pop_back();
  CHECK_THROWS_WITH_AS(TrajectoryRecorder(path, missing_unit),
                       doctest::Contains("3 coordinate names but 2 units"), std::invalid_argument);
  CHECK_THROWS_AS(TrajectoryRecorder(path, rod_header(), 0), std::invalid_argument);
  CHECK_THROWS_WITH_AS(TrajectoryRecorder(scratch() / "no_such_folder" / "x.h5", rod_header()),
                       doctest::Contains("no_such_folder/x.h5: cannot create the file"),
                       std::runtime_error);

  TrajectoryRecorder recorder(path, rod_header());
  CHECK_THROWS_WITH_AS(
      recorder.record_sample(0.0, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(3), Energy{}),
      doctest::Contains("q of size 2 and v of size 3, expected 3"), std::invalid_argument);
  EventRecord stranger;
  stranger.contacts = {2};
  CHECK_THROWS_WITH_AS(recorder.record_event(stranger), doctest::Contains("names contact 2"),
                       std::invalid_argument);
  recorder.close();
  CHECK_THROWS_AS(recorder.record_sample(0.0, sample_q(0), sample_v(0), Energy{}),
                  std::logic_error);
  CHECK_THROWS_AS(recorder.flush(), std::logic_error);
}

TEST_CASE("recorder: the destructor writes the partial buffer and closes the file") {
  const std::filesystem::path path = scratch() / "raii.h5";
  {
    TrajectoryRecorder recorder(path, rod_header(), 64);
    record_samples(recorder, 0, 100);  // one append of 64, 36 left in the buffer
  }
  const Id file = open_file(path);
  REQUIRE(file.id >= 0);
  check_samples(file.id, 100);
  CHECK(read_events(file.id).empty());
}

TEST_CASE("recorder: memory stays bounded while 2e6 samples stream to the file") {
  // 2e6 samples of n = 3 are 2e6 · 10 doubles = 160 MB of data. The recorder holds one buffer
  // (4096 rows, 320 kB) and HDF5 one chunk cache per dataset (1 MiB each by default) plus
  // metadata that grows with the chunk count (~500 chunks per dataset), so the resident set
  // should grow by a few MB at most; 20 MB leaves room for the allocator's slack.
  const std::filesystem::path path = scratch() / "long.h5";
  constexpr long kSamples = 2'000'000;
  const Eigen::VectorXd q = Eigen::Vector3d(0.1, 0.2, 0.3);
  Eigen::VectorXd v = Eigen::Vector3d(1.0, 2.0, 3.0);
  const auto start = std::chrono::steady_clock::now();
  const long resident_before = resident_bytes();
  long resident_peak = resident_before;
  {
    TrajectoryRecorder recorder(path, rod_header());
    for (long i = 0; i < kSamples; ++i) {
      v[0] = static_cast<double>(i);
      recorder.record_sample(1e-4 * static_cast<double>(i), q, v, Energy{1.0, 2.0});
      if (i % 100'000 == 0) resident_peak = std::max(resident_peak, resident_bytes());
    }
    resident_peak = std::max(resident_peak, resident_bytes());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("2e6 samples written in ", seconds, " s; resident set grew by ",
          static_cast<double>(resident_peak - resident_before) / 1e6, " MB");
  // Under AddressSanitizer the resident set measures its quarantine of freed blocks (up to
  // 256 MB), not what the recorder holds: 23.7 MB there against 12.4 MB in release.
  if (!routh::test::kSanitized) CHECK(resident_peak - resident_before < 20'000'000);

  const Id file = open_file(path);
  REQUIRE(file.id >= 0);
  const Table time = read_table(file.id, "time");
  REQUIRE(time.dims == std::vector<hsize_t>{kSamples});
  CHECK(time.values.back() == 1e-4 * static_cast<double>(kSamples - 1));
  const Id dataset(H5Dopen2(file.id, "v", H5P_DEFAULT), &H5Dclose);
  const Id space(H5Dget_space(dataset.id), &H5Sclose);
  std::array<hsize_t, 2> dims{};
  H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
  CHECK(dims == std::array<hsize_t, 2>{kSamples, 3});
  // the last row's v[0] is its index: nothing was dropped or reordered at the end
  const std::array<hsize_t, 2> last = {kSamples - 1, 0};
  const std::array<hsize_t, 2> one = {1, 1};
  H5Sselect_hyperslab(space.id, H5S_SELECT_SET, last.data(), nullptr, one.data(), nullptr);
  const Id memory(H5Screate_simple(2, one.data(), nullptr), &H5Sclose);
  double v0 = 0.0;
  REQUIRE(H5Dread(dataset.id, H5T_NATIVE_DOUBLE, memory.id, space.id, H5P_DEFAULT, &v0) >= 0);
  CHECK(v0 == static_cast<double>(kSamples - 1));
}

TEST_CASE("recorder: the stop-request handlers set a flag and restore what was there") {
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);
  {
    const StopRequestHandlers handlers;
    CHECK_FALSE(stop_requested());
    std::raise(SIGTERM);  // the handler runs before raise returns (one thread)
    CHECK(stop_requested());
    CHECK(stop_signal() == SIGTERM);
    clear_stop_request();
    CHECK_FALSE(stop_requested());
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  const bool restored = after.sa_handler == before.sa_handler;
  CHECK(restored);

  // a second signal while the first is pending kills the process the default way
  Child child([](int) {
    install_stop_request_handlers();
    std::raise(SIGINT);
    if (!stop_requested()) return 1;
    std::raise(SIGINT);
    return 2;  // not reached
  });
  const int status = child.wait();
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
}

TEST_CASE("recorder: a run stopped by SIGINT or SIGTERM leaves a complete, valid file") {
  // The child streams samples until the parent's signal sets the flag, then does what the
  // simulator does: record an `interrupted` event and close normally. Every sample it recorded
  // must be in the file, in order.
  for (const int signal_number : {SIGINT, SIGTERM}) {
    CAPTURE(signal_number);
    const std::filesystem::path path = scratch() / cat("stopped_", signal_number, ".h5");
    Child child([&](int to_parent) {
      install_stop_request_handlers();
      TrajectoryRecorder recorder(path, rod_header(), 1000);
      send(to_parent, char{'r'});
      long i = 0;
      for (; !stop_requested(); ++i) {
        if (i == 50'000'000) return 4;  // the parent never signalled
        recorder.record_sample(sample_t(i), sample_q(i), sample_v(i), sample_energy(i));
      }
      EventRecord stop;
      stop.t = sample_t(i - 1);
      stop.kind = EventKind::interrupted;
      stop.status = stop_signal() == SIGINT ? "SIGINT" : "SIGTERM";
      recorder.record_event(stop);
      recorder.close();
      send(to_parent, i);
      return 0;
    });
    char ready = 0;
    REQUIRE(child.receive(ready));
    ::usleep(30'000);  // let it write a few buffers
    REQUIRE(::kill(child.pid, signal_number) == 0);
    long recorded = 0;
    REQUIRE(child.receive(recorded));
    const int status = child.wait();
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    MESSAGE("the child recorded ", recorded, " samples before the signal");
    CHECK(recorded > 0);

    const Id file = open_file(path);
    REQUIRE(file.id >= 0);
    check_samples(file.id, recorded);
    const std::vector<EventRead> events = read_events(file.id);
    REQUIRE(events.size() == 1);
    CHECK(events[0].kind == "interrupted");
    CHECK(events[0].status == (signal_number == SIGINT ? "SIGINT" : "SIGTERM"));
  }
}

TEST_CASE("recorder: a writer killed with SIGKILL after a flush leaves every flushed sample") {
  // HDF5 1.10 has no journal: what survives a SIGKILL is what the last H5Fflush wrote. The child
  // appends two full buffers (each flushed), records an event (flushed), calls flush() on a
  // partial buffer, then buffers 30 more samples that never reach the file, and waits to die.
  const std::filesystem::path path = scratch() / "killed.h5";
  Child child([&](int to_parent) -> int {
    TrajectoryRecorder recorder(path, rod_header(), 100);
    record_samples(recorder, 0, 220);
    recorder.record_event(rest_event(sample_t(219), 0));
    record_samples(recorder, 220, 250);
    recorder.flush();
    record_samples(recorder, 250, 280);  // buffered only: lost on SIGKILL
    send(to_parent, char{'f'});
    for (;;) ::pause();
  });
  char flushed = 0;
  REQUIRE(child.receive(flushed));
  REQUIRE(::kill(child.pid, SIGKILL) == 0);
  const int status = child.wait();
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);

  const Id file = open_file(path);
  REQUIRE(file.id >= 0);
  check_samples(file.id, 250);
  const std::vector<EventRead> events = read_events(file.id);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == "rest");
  CHECK(events[0].contacts == "0");
  CHECK(read_string(file.id, "format") == "routh-trajectory");
  // routh's own reader agrees
  const TrajectorySummary summary = summarize_trajectory(path);
  CHECK(summary.sample_count == 250);
  CHECK(summary.warnings.empty());
}

TEST_CASE("recorder: set_run_status records how the run ended, replacing 'unfinished'") {
  const std::filesystem::path path = scratch() / "status.h5";
  {
    TrajectoryRecorder recorder(path, rod_header(), 8);
    record_samples(recorder, 0, 3);
    recorder.set_run_status(RunStatus::time_limit, "wall-clock limit of 2 s reached");
  }
  TrajectorySummary summary = summarize_trajectory(path);
  CHECK(summary.status == "time_limit");
  CHECK(summary.status_detail == "wall-clock limit of 2 s reached");
  CHECK(summary.sample_count == 3);
  TrajectoryRecorder recorder(path, rod_header(), 8);
  recorder.set_run_status(RunStatus::event_storm, "storm");
  recorder.set_run_status(RunStatus::completed, "");  // a second call replaces the first
  recorder.close();
  summary = summarize_trajectory(path);
  CHECK(summary.status == "completed");
  CHECK(summary.status_detail.empty());
  CHECK_THROWS_AS(recorder.set_run_status(RunStatus::completed, ""), std::logic_error);
}

TEST_CASE("recorder: summarize_trajectory reports span, events, energy rise and flags") {
  const std::filesystem::path path = scratch() / "summary.h5";
  ContactVector u_pre(2);
  u_pre << -1.0, 0.6;
  {
    TrajectoryRecorder recorder(path, rod_header(), 8);
    record_samples(recorder, 0, 20);  // total energy 10.81 J throughout
    recorder.record_event(impact_event(0.02, {0}, u_pre, falling_rod("newton")));
    recorder.record_sample(0.021, sample_q(21), sample_v(21), Energy{1.5, 9.81});  // +0.5 J
    recorder.record_event(impact_event(0.022, {1}, u_pre, falling_rod("poisson")));
    EventRecord stop;
    stop.kind = EventKind::trouble;
    stop.t = 0.023;
    stop.status = "step_underflow";
    recorder.record_event(stop);
    recorder.record_sample(0.023, sample_q(23), sample_v(23), Energy{0.5, 9.81});
  }
  const TrajectorySummary summary = summarize_trajectory(path);
  CHECK(summary.format == "routh-trajectory");
  CHECK(summary.format_version == kTrajectoryFormatVersion);
  CHECK(summary.law == "poisson");
  // closed without set_run_status, as a crashed writer leaves its file
  CHECK(summary.status == kUnfinishedRunStatus);
  CHECK(summary.sample_count == 22);
  CHECK(summary.t_first == 0.0);
  CHECK(summary.t_last == 0.023);
  CHECK(summary.coordinate_names == std::vector<std::string>{"x", "y", "theta"});
  CHECK(summary.contact_names == std::vector<std::string>{"left_corner", "right_corner"});
  CHECK(summary.event_count == 3);
  using Counts = std::vector<std::pair<std::string, std::int64_t>>;
  CHECK(summary.events_by_kind == Counts{{"impact", 2}, {"trouble", 1}});
  // newton gains energy on the rod; poisson's normal dissipation is non-physical (paper 004 §6)
  CHECK(summary.flags_seen == Counts{{"energy_gain", 1}, {"nonphysical_normal_dissipation", 1}});
  CHECK(summary.unusual_statuses == Counts{{"step_underflow", 1}});
  CHECK(summary.energy_first.total() == doctest::Approx(10.81).epsilon(1e-15));
  CHECK(summary.energy_last.total() == doctest::Approx(10.31).epsilon(1e-15));
  CHECK(summary.max_energy_rise == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(summary.max_energy_rise_t == 0.021);
  CHECK(summary.scenario_bytes == rod_header().scenario_yaml.size());
  CHECK(summary.warnings.empty());

  // A writer killed inside an append can leave extended rows whose data never reached the disk.
  // Simulate it: extend every series by 3 rows without writing them. They read as NaN (the fill
  // value), and the summary leaves them out with a warning.
  {
    const Id file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), &H5Fclose);
    REQUIRE(file.id >= 0);
    for (const char* name : {"time", "q", "v", "energy"}) {
      const Id dataset(H5Dopen2(file.id, name, H5P_DEFAULT), &H5Dclose);
      const std::array<hsize_t, 2> size = {25, 3};
      REQUIRE(H5Dset_extent(dataset.id, size.data()) >= 0);
    }
  }
  {
    const Id file = open_file(path);
    const Table time = read_table(file.id, "time");
    REQUIRE(time.values.size() == 25);
    CHECK(std::isnan(time.values[24]));
    CHECK(time.values[21] == 0.023);
  }
  const TrajectorySummary torn = summarize_trajectory(path);
  CHECK(torn.sample_count == 22);
  CHECK(torn.t_last == 0.023);
  REQUIRE(torn.warnings.size() == 1);
  CHECK(torn.warnings[0].find("the last 3 rows were never written") == 0);
}

namespace {

// Runs `routh info ARGUMENTS`.
test::RouthRun run_routh_info(const std::string& arguments) {
  return test::run_routh("info " + arguments);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("recorder: routh info summarizes a trajectory and rejects what is not one") {
  const std::filesystem::path path = scratch() / "info.h5";
  ContactVector u_pre(2);
  u_pre << -1.0, 0.6;
  {
    TrajectoryRecorder recorder(path, rod_header());
    record_samples(recorder, 0, 1001);
    recorder.record_event(impact_event(0.5, {0}, u_pre, falling_rod("newton")));
    EventRecord liftoff;
    liftoff.kind = EventKind::liftoff;
    liftoff.t = 0.7;
    liftoff.contacts = {0};
    recorder.record_event(liftoff);
    recorder.set_run_status(RunStatus::completed, "");  // a run that ended: exit code 0
  }
  const test::RouthRun run = run_routh_info(cat("'", path.string(), "'"));
  INFO(run.out, run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.err.empty());
  CHECK(contains(run.out, "format       routh-trajectory version 2 (written by routh "));
  CHECK(contains(run.out, "law          poisson\n"));
  CHECK(contains(run.out, "samples      1001\n"));
  CHECK(contains(run.out, "time         0 s to 1 s (duration 1 s)\n"));
  CHECK(contains(run.out, "coordinates  3: x [m], y [m], theta [rad]\n"));
  CHECK(contains(run.out, "contacts     2: left_corner, right_corner\n"));
  CHECK(contains(run.out, "events       2: impact 1, liftoff 1\n"));
  CHECK(contains(run.out, "energy start 10.81 J (kinetic 1, potential 9.81)\n"));
  CHECK(contains(run.out, "flags        energy_gain 1\n"));

  const std::string not_hdf5 = test::write_problem("law: poisson\n", "not_hdf5.h5");
  const test::RouthRun bad = run_routh_info(cat("'", not_hdf5, "'"));
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  CHECK(bad.err == cat("routh info: ", not_hdf5, ": not an HDF5 file\n"));

  // an HDF5 file that is not a trajectory
  const std::filesystem::path other = scratch() / "other.h5";
  H5Fclose(H5Fcreate(other.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  const test::RouthRun foreign = run_routh_info(cat("'", other.string(), "'"));
  CHECK(foreign.exit_code == 1);
  CHECK(contains(foreign.err, "not a routh trajectory"));

  const test::RouthRun missing = run_routh_info("no_such_run.h5");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err == "routh info: no_such_run.h5: no such file\n");
  CHECK(run_routh_info("").exit_code == 2);
}

namespace {

// The lines of `text`, without their newlines.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// The fields of one CSV line (RFC 4180: a quoted field may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// "0.5 -0.125; 0.25 0" -> its numbers, and how many ';'-separated groups (contacts) hold them.
std::vector<double> numbers_of(const std::string& cell, std::size_t& groups) {
  std::vector<double> numbers;
  groups = cell.empty() ? 0 : 1;
  std::istringstream stream(cell);
  for (std::string word; stream >> word;) {
    if (word.back() == ';') {
      word.pop_back();
      ++groups;
    }
    numbers.push_back(std::strtod(word.c_str(), nullptr));
  }
  return numbers;
}

const std::string kEventHeader =
    "t [s],kind,contacts,phases,impulse [N s],u_pre [m/s],u_post [m/s],delta_T [J],"
    "normal_work [J],tangential_work [J],flags,status";

// A two-contact impact, contacts in reverse order, and a lift-off: every kind of cell.
std::filesystem::path two_events_file() {
  const std::filesystem::path path = scratch() / "two_events.h5";
  TrajectoryRecorder recorder(path, rod_header());
  record_samples(recorder, 0, 11);
  EventRecord impact;
  impact.t = 0.25;
  impact.kind = EventKind::impact;
  impact.contacts = {1, 0};
  impact.phases = "stick/compression[0,0.5]";
  impact.impulse = {0.5, -0.125, 0.25, 0.0};
  impact.u_pre = {-1.0, 0.5, -0.5, 0.0};
  impact.u_post = {0.0, 0.0, 0.0, 0.0};
  impact.delta_T = -0.375;
  impact.normal_work = -0.5;
  impact.tangential_work = 0.125;
  impact.flags = "energy_gain,law_fallback";
  impact.status = "solved";
  recorder.record_event(impact);
  EventRecord liftoff;
  liftoff.t = 0.3;
  liftoff.kind = EventKind::liftoff;
  liftoff.contacts = {0};
  recorder.record_event(liftoff);
  return path;
}

}  // namespace

TEST_CASE("recorder: routh info --events prints the event log aligned, and --csv as CSV") {
  const std::filesystem::path path = two_events_file();
  const test::RouthRun text = run_routh_info(cat("'", path.string(), "' --events"));
  CHECK(text.exit_code == 0);
  CHECK(text.err.empty());
  // contacts by name in the row's order, vectors grouped per contact, '-' for an empty cell
  CHECK(text.out ==
        "t [s]  kind     contacts                  phases                    impulse [N s]       "
        "u_pre [m/s]     u_post [m/s]  delta_T [J]  normal_work [J]  tangential_work [J]  "
        "flags                     status\n"
        "0.25   impact   right_corner,left_corner  stick/compression[0,0.5]  0.5 -0.125; 0.25 0  "
        "-1 0.5; -0.5 0  0 0; 0 0      -0.375       -0.5             0.125                "
        "energy_gain,law_fallback  solved\n"
        "0.3    liftoff  left_corner               -                         -                   "
        "-               -             0            0                0                    "
        "-                         -\n");

  const test::RouthRun csv = run_routh_info(cat("--events '", path.string(), "' --csv"));
  CHECK(csv.exit_code == 0);
  CHECK(csv.err.empty());
  // units from the file, numbers in their shortest exact form, fields with commas quoted, empty
  // cells empty
  CHECK(csv.out == kEventHeader +
                       "\n0.25,impact,\"right_corner,left_corner\",\"stick/compression[0,0.5]\","
                       "0.5 -0.125; 0.25 0,-1 0.5; -0.5 0,0 0; 0 0,-0.375,-0.5,0.125,"
                       "\"energy_gain,law_fallback\",solved\n"
                       "0.3,liftoff,left_corner,,,,,0,0,0,,\n");
}

TEST_CASE("recorder: routh info --events --csv gives each run's events as the file holds them") {
  // three runs: the ball's single-contact impacts, rest and Zeno limit; the rocking block's
  // impacts at either corner, never at both at once (the old pivot's u_n of round-off is no
  // approach: impact_step.hpp); the stack's impacts at several contacts at once
  for (const char* name : {"bouncing_ball", "rocking_block", "stacked_blocks"}) {
    CAPTURE(name);
    const std::filesystem::path path = scratch() / cat(name, "_events.h5");
    const test::RouthRun run = test::run_routh(cat("run '", ROUTH_SOURCE_DIR, "/scenarios/", name,
                                                   ".yaml' --force -o '", path.string(), "'"));
    REQUIRE(run.exit_code == 0);
    const Id file = open_file(path);
    const std::vector<EventRead> events = read_events(file.id);
    const Id dataset(H5Dopen2(file.id, "events", H5P_DEFAULT), &H5Dclose);
    const std::vector<std::string> names = read_strings(dataset.id, "contact_names");

    const test::RouthRun csv = run_routh_info(cat("'", path.string(), "' --events --csv"));
    CHECK(csv.exit_code == 0);
    CHECK(csv.err.empty());
    const std::vector<std::string> lines = lines_of(csv.out);
    REQUIRE(lines.size() == events.size() + 1);
    CHECK(events.size() > 10);
    CHECK(lines.front() == kEventHeader);
    bool several_contacts = false;
    for (std::size_t i = 0; i < events.size(); ++i) {
      CAPTURE(lines[i + 1]);
      const EventRead& event = events[i];
      const std::vector<std::string> cells = csv_fields(lines[i + 1]);
      REQUIRE(cells.size() == 12);
      // %.17g reads back as the same double: equal, not close
      CHECK(std::strtod(cells[0].c_str(), nullptr) == event.t);
      CHECK(cells[1] == event.kind);
      std::string contacts;
      std::size_t count = 0;
      for (std::size_t begin = 0; begin < event.contacts.size(); ++count) {
        const std::size_t end = std::min(event.contacts.find(',', begin), event.contacts.size());
        const auto index = std::stoul(event.contacts.substr(begin, end - begin));
        contacts += cat(contacts.empty() ? "" : ",", names.at(index));
        begin = end + 1;
      }
      several_contacts = several_contacts || count > 1;
      CHECK(cells[2] == contacts);
      CHECK(cells[3] == event.phases);
      for (const auto& [cell, values] :
           {std::pair{cells[4], event.impulse}, std::pair{cells[5], event.u_pre},
            std::pair{cells[6], event.u_post}}) {
        std::size_t groups = 0;
        CHECK(numbers_of(cell, groups) == values);
        CHECK(groups == (values.empty() ? 0 : count));  // one group per contact
      }
      CHECK(std::strtod(cells[7].c_str(), nullptr) == event.delta_T);
      CHECK(std::strtod(cells[8].c_str(), nullptr) == event.normal_work);
      CHECK(std::strtod(cells[9].c_str(), nullptr) == event.tangential_work);
      CHECK(cells[10] == event.flags);
      CHECK(cells[11] == event.status);
    }
    CHECK(several_contacts == (std::string(name) == "stacked_blocks"));
    if (std::string(name) == "bouncing_ball") {
      // dropped from 1 m: the first impact at √(2 h / g), the event located to 1e-12 s
      CHECK(csv_fields(lines[1])[1] == "impact");
      CHECK(std::strtod(csv_fields(lines[1])[0].c_str(), nullptr) ==
            doctest::Approx(std::sqrt(2.0 / 9.81)).epsilon(1e-10));
    }
    // the aligned table: the same rows, each kind under the header's "kind"
    const test::RouthRun table = run_routh_info(cat("'", path.string(), "' --events"));
    CHECK(table.exit_code == 0);
    const std::vector<std::string> rows = lines_of(table.out);
    REQUIRE(rows.size() == events.size() + 1);
    const std::size_t kind_column = rows.front().find("kind");
    for (std::size_t i = 0; i < events.size(); ++i) {
      CHECK(rows[i + 1].compare(kind_column, events[i].kind.size() + 1, events[i].kind + " ") == 0);
    }
  }
}

TEST_CASE("recorder: routh info --events refuses what is not a trajectory, and bad usage") {
  const test::RouthRun missing = run_routh_info("no_such_run.h5 --events");
  CHECK(missing.exit_code == 1);
  CHECK(missing.err == "routh info: no_such_run.h5: no such file\n");
  const std::string not_hdf5 = test::write_problem("law: poisson\n", "not_hdf5.h5");
  const test::RouthRun bad = run_routh_info(cat("'", not_hdf5, "' --events --csv"));
  CHECK(bad.exit_code == 1);
  CHECK(bad.out.empty());
  CHECK(bad.err == cat("routh info: ", not_hdf5, ": not an HDF5 file\n"));
  const std::string path = two_events_file().string();
  for (const std::string& arguments :
       {cat("'", path, "' --csv"), cat("'", path, "' --events other.h5"), std::string("--events"),
        cat("'", path, "' --event")}) {
    CAPTURE(arguments);
    const test::RouthRun usage = run_routh_info(arguments);
    CHECK(usage.exit_code == 2);
    CHECK(usage.out.empty());
    CHECK(usage.err.starts_with("routh info: "));
  }
}

}  // namespace routh
