// routh._core: the compiled half of the Python package. Thin on purpose: every function calls the
// code the routh program runs (tools/routh's routh_cli library) and hands back what the program
// would print or write, which python/routh/api.py turns into Python values. So the package and
// the program cannot drift apart.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/excitation/intensity_measures.hpp"
#include "sim/excitation/oscillator_response.hpp"
#include "sim/impact/law_catalogue.hpp"
#include "sim/recorder/file_room.hpp"
#include "sim/recorder/output_placement.hpp"
#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/scenario/ground_record_file.hpp"
#include "sim/scenario/impact_problem_file.hpp"
#include "sim/scenario/scenario_file.hpp"
#include "sim/scenario/scenario_run.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/simulation/impact_step.hpp"
#include "sim/simulation/run_status.hpp"
#include "sim/simulation/stop_request.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/text.hpp"
#include "tools/routh/fragility_report.hpp"
#include "tools/routh/impact_report.hpp"
#include "tools/routh/recorded_run.hpp"

namespace py = pybind11;

namespace routh::python {

namespace {

// The problem `source` names: the file at that path or, when `text` is given, that YAML text, its
// errors located in `source`.
ImpactProblemFile load_problem(const std::string& source, const std::optional<std::string>& text) {
  if (text) return read_impact_problem(parse_yaml_text(*text, source));
  return load_impact_problem_file(source);
}

// `routh impact SOURCE [--law LAW]`'s standard output.
std::string impact_json(const std::string& source, const std::optional<std::string>& text,
                        const std::optional<std::string>& law) {
  const ImpactProblemFile file = load_problem(source, text);
  const LawEntry& entry = cli::chosen_law(law, file, source);
  std::ostringstream out;
  cli::write_impact_report(out, entry.name, file, cli::solve_impact(entry, file.problem));
  return out.str();
}

// `routh compare SOURCE --json [--laws A,B]`'s standard output; no laws: all that apply.
std::string compare_json(const std::string& source, const std::optional<std::string>& text,
                         const std::vector<std::string>& laws) {
  const ImpactProblemFile file = load_problem(source, text);
  std::vector<const LawEntry*> entries;
  for (const std::string& name : laws) {
    const LawEntry* entry = find_law(name);
    if (entry == nullptr) throw InputError({source, 0, 0}, unknown_law_message(name));
    entries.push_back(entry);
  }
  const std::vector<cli::LawAnswer> answers = cli::solve_laws(entries, file.problem);
  if (answers.empty()) {
    throw std::invalid_argument(
        source + ": no law in the catalogue handles this problem (see routh.laws())");
  }
  std::ostringstream out;
  cli::write_comparison(out, cli::problem_title(file, source), file, answers);
  return out.str();
}

// `routh run SCENARIO --set ... -o OUTPUT [--force]`'s file or, given `text`, that of
// `routh run - ...` with that text on standard input (the scenario's YAML, its errors located in
// `scenario`, its record files relative to the current directory). Written by the same recorder
// and placed by the same rule (sim/recorder/output_placement.hpp): into a temporary file beside
// `output`, renamed onto it at the end; returns the scenario's warnings and how the run ended.
// Called from the main thread, the run holds routh's own SIGINT/SIGTERM handlers, as the program
// does: Python's handler only runs between bytecodes, which a run inside C++ never reaches, so
// Ctrl-C would not stop it. A stopped run ends with an `interrupted` event in a complete file;
// then SIGINT is raised as KeyboardInterrupt, and SIGTERM or SIGUSR1 is raised again for the
// handler Python had. SIGXFSZ is ignored during the run (CPython ignores it at start-up, a
// program embedding Python may not), so that a file-size limit fails the write with EFBIG,
// reported like a full disk, instead of killing the interpreter.
py::dict run_to_file(const std::string& scenario_path, const std::vector<std::string>& overrides,
                     const std::string& output, double time_limit_s, bool main_thread, bool force,
                     const std::optional<std::string>& text) {
  const Scenario scenario = text ? load_scenario_text(*text, scenario_path, overrides)
                                 : load_scenario(scenario_path, overrides);
  const std::optional<std::filesystem::path> file =
      text ? std::nullopt : std::optional<std::filesystem::path>(scenario_path);
  const OutputPlacement placement = plan_output(output, cli::run_inputs(file, scenario), force);
  SimulationOutcome outcome;
  int stop = 0;
  {
    // a long run leaves other Python threads running
    const py::gil_scoped_release release;
    std::optional<StopRequestHandlers> stop_on_signal;
    if (main_thread) stop_on_signal.emplace();
    const FileSizeSignalIgnored file_size_limit_fails_writes;
    try {
      outcome = cli::record_scenario_run(scenario, placement.temporary,
                                         [&](TrajectoryObserver& recorder) {
                                           return run_scenario(scenario, recorder, time_limit_s);
                                         });
    } catch (const TrajectoryWriteError& error) {
      throw TrajectoryWriteError(cat(error.what(), "; the trajectory up to there is kept in ",
                                     placement.temporary.string()),
                                 error.error_number());
    }
    if (main_thread) {
      stop = stop_signal();
      clear_stop_request();  // or the next call's reading would take it for a new request
    }
  }
  if (!place_output(placement)) {
    throw OutputRefused(cat("output file ", output,
                            " appeared while the run was writing and was left alone; the "
                            "trajectory is kept in ",
                            placement.temporary.string(), " (use force=True to replace)"),
                        EEXIST);
  }
  if (stop == SIGINT) {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw py::error_already_set();
  }
  // the file is closed: SIGTERM (or SIGUSR1) now does what the process had it do before the run
  if (stop == SIGTERM || stop == SIGUSR1) std::raise(stop);
  py::dict result;
  result["warnings"] = scenario.warnings;
  result["status"] = std::string(to_string(outcome.status));
  result["status_detail"] = outcome.detail;
  return result;
}

// An output the rule refuses, as the OSError Python has for it (FileExistsError, ...), its
// message saying force=True where the program says --force.
void set_output_refused(const OutputRefused& error) {
  std::string message = error.what();
  if (const std::size_t at = message.find("--force"); at != std::string::npos) {
    message.replace(at, 7, "force=True");
  }
  PyObject* type = error.error_number() == EEXIST   ? PyExc_FileExistsError
                   : error.error_number() == ENOENT ? PyExc_FileNotFoundError
                   : error.error_number() == EACCES ? PyExc_PermissionError
                                                    : PyExc_ValueError;
  PyErr_SetString(type, message.c_str());
}

// The impact problem a run's law was given for an impact of the model's contacts `contacts`
// (ascending) at (t, q, v⁻): the model and contact parameters are those of `scenario_text`, a
// trajectory's /scenario (its excitation, which moves neither M nor J, left out so that its record
// files need not be where they were). Restitution is 0 when the approach is below the rest speed,
// as the simulator closes such a contact. Returns D, u (J v⁻), restitution, friction (static,
// kinetic), dimension and the law that answers that many contacts.
py::dict impact_problem(const std::string& scenario_text, double t, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& v, const std::vector<int>& contacts) {
  const std::vector<std::string> without_excitation{"excitation=none"};
  const Scenario scenario =
      load_scenario_text(scenario_text, "<trajectory scenario>", without_excitation);
  const MechanicalSystem& model = *scenario.model;
  if (q.size() != model.coordinate_count() || v.size() != model.velocity_count()) {
    throw std::invalid_argument("q and v do not fit the trajectory's model");
  }
  const int contact_count = static_cast<int>(model.contact_names().size());
  if (contacts.empty() || !std::ranges::is_sorted(contacts) ||
      std::ranges::adjacent_find(contacts) != contacts.end() || contacts.front() < 0 ||
      contacts.back() >= contact_count) {
    throw std::invalid_argument("the contacts must be distinct model contact indices, ascending");
  }
  SystemEvaluation evaluation(model, scenario.settings.contacts);
  ImpactProblem problem =
      impact_problem_at(evaluation, t, q, v, contacts, false, ImpactStart::collision);
  const int rows = rows_per_contact(problem.dimension);
  // the impact's approach speed: contacts that joined it in a later round were not approaching
  double approach = 0.0;
  for (int k = 0; k < problem.contact_count(); ++k) {
    approach = std::max(approach, -problem.u_pre[rows * k]);
  }
  if (too_slow_to_bounce(approach, scenario.settings)) {
    problem = impact_problem_at(evaluation, t, q, v, contacts, true, ImpactStart::collision);
  }
  py::list D;
  for (Eigen::Index i = 0; i < problem.D.rows(); ++i) {
    py::list row;
    for (Eigen::Index j = 0; j < problem.D.cols(); ++j) row.append(problem.D(i, j));
    D.append(row);
  }
  py::list u, restitution, friction;
  for (Eigen::Index i = 0; i < problem.u_pre.size(); ++i) u.append(problem.u_pre[i]);
  for (const ContactParameters& contact : problem.contacts) {
    restitution.append(contact.restitution);
    py::dict coefficients;
    coefficients["static"] = contact.static_friction;
    coefficients["kinetic"] = contact.kinetic_friction;
    friction.append(coefficients);
  }
  py::dict result;
  result["D"] = D;
  result["u"] = u;
  result["restitution"] = restitution;
  result["friction"] = friction;
  result["dimension"] = rows;
  result["law"] = contacts.size() == 1 ? scenario.law : scenario.multi_contact_law;
  return result;
}

py::list laws() {
  py::list entries;
  for (const LawEntry& law : impact_laws()) {
    py::dict entry;
    entry["name"] = std::string(law.name);
    entry["scope"] = to_string(law.scope);
    entry["summary"] = std::string(law.summary);
    entries.append(entry);
  }
  return entries;
}

// `routh fragility PATH --json ...`'s standard output.
std::string fragility_json(const std::string& path, const std::string& outcome,
                           const std::optional<std::string>& im, double confidence,
                           std::int64_t bootstrap, std::uint64_t seed) {
  cli::FragilityRequest request;
  request.outcome = outcome;
  request.im = im;
  request.bootstrap = {confidence, bootstrap, seed};
  return cli::fragility_json(path, request);
}

// The record file at `path` as `routh record` reads it: times [s] and accelerations [m/s²];
// `units` (g, m/s2, cm/s2, gal) for a two-column file, None: m/s² or the unit its header states.
std::pair<std::vector<double>, std::vector<double>> read_record(
    const std::string& path, const std::optional<std::string>& units) {
  RecordReading reading;
  if (units) {
    reading.units = units_named(*units);
    if (!reading.units) {
      throw InputError({path, 0, 0}, cat("units = ", *units, ": must be g, m/s2, cm/s2 or gal"));
    }
  }
  GroundRecord record = read_ground_record(path, reading);
  return {std::move(record.time_s), std::move(record.acceleration_m_s2)};
}

// Samples (t_i, a_i) come as two lists of one length, the times non-decreasing (ValueError
// otherwise).
void check_samples(const std::vector<double>& time_s, const std::vector<double>& acceleration) {
  if (time_s.size() != acceleration.size()) {
    throw std::invalid_argument("times and accelerations differ in length");
  }
  if (!std::is_sorted(time_s.begin(), time_s.end())) {
    throw std::invalid_argument("the times must not decrease");
  }
}

// The intensity measures of samples (t_i, a_i), by name as `routh record --json` gives them.
py::dict measures(const std::vector<double>& time_s, const std::vector<double>& acceleration) {
  check_samples(time_s, acceleration);
  const IntensityMeasures m = intensity_measures(time_s, acceleration);
  py::dict result;
  for (const MeasureField& field : kMeasureFields) result[py::str(field.name)] = m.*field.value;
  return result;
}

// v_i [m/s] and d_i [m] of the samples, from rest.
std::pair<std::vector<double>, std::vector<double>> velocity_displacement(
    const std::vector<double>& time_s, const std::vector<double>& acceleration) {
  check_samples(time_s, acceleration);
  GroundVelocityDisplacement motion = integrate_ground_motion(time_s, acceleration);
  return {std::move(motion.velocity_m_s), std::move(motion.displacement_m)};
}

// Sa [m/s²] at each period [s].
std::vector<double> spectrum(const std::vector<double>& time_s,
                             const std::vector<double>& acceleration,
                             const std::vector<double>& periods_s, double damping) {
  check_samples(time_s, acceleration);
  std::vector<double> values;
  for (double period : periods_s) {
    values.push_back(pseudo_spectral_acceleration(time_s, acceleration, period, damping));
  }
  return values;
}

}  // namespace

}  // namespace routh::python

PYBIND11_MODULE(_core, module) {
  using namespace routh::python;
  module.doc() = "routh's compiled core; use the functions of the routh package instead";
  module.attr("__version__") = ROUTH_VERSION;

  // InputError(ValueError): "file:line:column: message", with the location as attributes. A
  // borrowed handle: the module holds the type, and a static py::object would be released after
  // the interpreter is gone.
  static const py::handle input_error =
      py::exception<routh::InputError>(module, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const routh::InputError& error) {
      py::object instance = input_error(error.what());
      instance.attr("file") = error.location().file;
      instance.attr("line") = error.location().line;
      instance.attr("column") = error.location().column;
      instance.attr("message") = error.message();
      PyErr_SetObject(input_error.ptr(), instance.ptr());
    } catch (const routh::OutputRefused& error) {
      set_output_refused(error);
    }
  });

  module.def("impact_json", &impact_json, py::arg("source"), py::arg("text"), py::arg("law"));
  module.def("compare_json", &compare_json, py::arg("source"), py::arg("text"), py::arg("laws"));
  module.def("run_to_file", &run_to_file, py::arg("scenario"), py::arg("overrides"),
             py::arg("output"), py::arg("time_limit"), py::arg("main_thread"), py::arg("force"),
             py::arg("text") = py::none());
  module.def("impact_problem", &impact_problem, py::arg("scenario_text"), py::arg("t"),
             py::arg("q"), py::arg("v"), py::arg("contacts"));
  module.def("laws", &laws);
  module.def("fragility_json", &fragility_json, py::arg("path"), py::arg("outcome"), py::arg("im"),
             py::arg("confidence"), py::arg("bootstrap"), py::arg("seed"));
  module.def("read_record", &read_record, py::arg("path"), py::arg("units"));
  module.def("intensity_measures", &measures, py::arg("time"), py::arg("acceleration"));
  module.def("ground_velocity_displacement", &velocity_displacement, py::arg("time"),
             py::arg("acceleration"));
  module.def("response_spectrum", &spectrum, py::arg("time"), py::arg("acceleration"),
             py::arg("periods"), py::arg("damping"));
}
