#include "sim/simulation/outcome_tracking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>
#include <string>

#include "sim/simulation/witness_function.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// A watched body's point at `local_m` in its frame, in world axes at q [m].
Eigen::Vector2d world_point(const OverturnWatch& watch, const Eigen::VectorXd& q,
                            const Eigen::Vector2d& local_m) {
  const int angle = watch.upright.coordinate;
  const double x = q[angle - 2], y = q[angle - 1], theta = q[angle];
  const double c = std::cos(theta), s = std::sin(theta);
  return {x + c * local_m.x() - s * local_m.y(), y + s * local_m.x() + c * local_m.y()};
}

// Its base's slide at q: of the moves of its base points from their start (base_start_x_m from
// `point` on), the one of least size, signed along x [m]; `point` moves past them.
double slide_of(const OverturnWatch& watch, const Eigen::VectorXd& q,
                const std::vector<double>& base_start_x_m, std::size_t& point) {
  double slide_m = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector2d& local : watch.base_points_m) {
    const double moved_m = world_point(watch, q, local).x() - base_start_x_m[point++];
    if (std::abs(moved_m) < std::abs(slide_m)) slide_m = moved_m;
  }
  return slide_m;
}

}  // namespace

bool stops_on(const SimulationSettings& settings, EventKind kind) {
  return std::find(settings.stop_on.begin(), settings.stop_on.end(), kind) !=
         settings.stop_on.end();
}

// Upright on the lowest of them, where it is (a block released tilted rocks on that corner, and
// lands its other corner where it would stand upright; from the start's tilted place, rocking
// alone would read as a slide of w (1 − cos θ₀)).
void base_points_start_x(const std::vector<OverturnWatch>& watched, const Eigen::VectorXd& q,
                         std::vector<double>& x_m) {
  x_m.clear();
  for (const OverturnWatch& watch : watched) {
    if (watch.base_points_m.empty()) continue;
    const auto lowest =
        std::min_element(watch.base_points_m.begin(), watch.base_points_m.end(),
                         [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
                           return world_point(watch, q, a).y() < world_point(watch, q, b).y();
                         });
    const double lowest_x = world_point(watch, q, *lowest).x();
    for (const Eigen::Vector2d& point : watch.base_points_m) {
      x_m.push_back(lowest_x + point.x() - lowest->x());
    }
  }
}

void start_body_outcomes(const std::vector<OverturnWatch>& watched, RunSummary& summary) {
  summary.bodies.clear();
  for (const OverturnWatch& watch : watched) {
    BodyOutcome body;
    body.body = watch.body;
    if (watch.base.corners_m.empty()) body.max_theta_over_alpha = BodyOutcome::kNaN;
    if (watch.base_points_m.empty()) body.max_slide = BodyOutcome::kNaN;
    summary.bodies.push_back(std::move(body));
  }
}

void note_excursions(double t, const Eigen::VectorXd& q, const std::vector<OverturnWatch>& watched,
                     const std::vector<double>& base_start_x_m, RunSummary& summary) {
  std::size_t point = 0;  // in base_start_x_m
  for (std::size_t b = 0; b < watched.size(); ++b) {
    const OverturnWatch& watch = watched[b];
    BodyOutcome& body = summary.bodies[b];
    const double turned = tilt_from_upright(watch.upright, q);
    if (turned > summary.max_abs_theta) {
      summary.max_abs_theta = turned;
      summary.max_abs_theta_time = t;
    }
    body.max_abs_theta = std::max(body.max_abs_theta, turned);
    // NaN (no standing base) stays NaN: a comparison with it is false
    const double over_alpha = tilt_over_slenderness(watch.upright, watch.base, q);
    if (over_alpha > body.max_theta_over_alpha) body.max_theta_over_alpha = over_alpha;
    if (watch.base_points_m.empty()) continue;
    const double slide_m = std::abs(slide_of(watch, q, base_start_x_m, point));
    summary.max_slide = std::max(summary.max_slide, slide_m);
    body.max_slide = std::max(body.max_slide, slide_m);
  }
}

void note_residuals(const Eigen::VectorXd& q, const std::vector<OverturnWatch>& watched,
                    const std::vector<double>& base_start_x_m, RunSummary& summary) {
  if (!q.allFinite() || summary.bodies.size() != watched.size()) return;
  std::size_t point = 0;  // in base_start_x_m
  for (std::size_t b = 0; b < watched.size(); ++b) {
    const OverturnWatch& watch = watched[b];
    BodyOutcome& body = summary.bodies[b];
    const UprightFrame& upright = watch.upright;
    body.residual_rotation = upright.spatial() ? tilt_from_upright(upright, q)
                                               : q[upright.coordinate] - upright.reference_rad;
    if (!watch.base_points_m.empty() && point < base_start_x_m.size()) {
      body.residual_slide = slide_of(watch, q, base_start_x_m, point);
    }
  }
}

void note_impacts(const StageReport& report, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                  const std::vector<OverturnWatch>& watched, SystemEvaluation& evaluation,
                  RunSummary& summary) {
  if (report.impacts == 0 || watched.empty()) return;
  const ContactKinematics& contacts = contacts_at(evaluation, q, v);
  // contact k takes part in body b's motion if its rows touch b's rotation rate
  const auto touches = [&](int k, int rate) {
    const auto first = contacts.touched_velocities.begin();
    return std::find(first + contacts.touched_start[static_cast<std::size_t>(k)],
                     first + contacts.touched_start[static_cast<std::size_t>(k) + 1],
                     rate) != first + contacts.touched_start[static_cast<std::size_t>(k) + 1];
  };
  for (const EventRecord& event : report.events) {
    if (event.kind != EventKind::impact) continue;
    for (std::size_t b = 0; b < watched.size(); ++b) {
      BodyOutcome& body = summary.bodies[b];
      const int rate = watched[b].upright.rate;
      if (!body.overturned && std::any_of(event.contacts.begin(), event.contacts.end(),
                                          [&](int k) { return touches(k, rate); })) {
        ++body.impacts;
      }
    }
  }
}

// The largest rotation of a step lies at its end or where a watched tilt's turning rate changes
// sign within it (upright_tilt.hpp).
void track_rotation(const DenseStepper& stepper, const SimulationSettings& settings,
                    const std::vector<double>& base_start_x_m, RunWorkspace& workspace,
                    RunSummary& summary) {
  const double t0 = stepper.previous_time(), t1 = stepper.current_time();
  // the last step may end past the run's duration: what happens there is not the run's
  const double t_end = std::min(t1, settings.duration);
  const std::vector<OverturnWatch>& watched = settings.overturn_watch;
  for (const OverturnWatch& watch : watched) {
    const auto rate_at_state = [&](const OdeState& x) {
      unpack(x, workspace);
      return tilt_turning_rate(watch.upright, workspace.q, workspace.v);
    };
    const double w0 = rate_at_state(stepper.previous_state());
    const double w1 = rate_at_state(stepper.current_state());
    if (!(w0 * w1 < 0.0)) continue;
    const double sign = w0 > 0.0 ? 1.0 : -1.0;
    const auto rate_at = [&](double t) {
      stepper.calc_state(t, workspace.x);
      return sign * rate_at_state(workspace.x);
    };
    const std::optional<WitnessCrossing> turn =
        locate_witness_crossing(rate_at, t0, sign * w0, t1, sign * w1, settings.time_tolerance);
    if (!turn || turn->before > t_end) continue;
    dense_state_at(stepper, turn->before, workspace);
    note_excursions(turn->before, workspace.q, watched, base_start_x_m, summary);
  }
  if (t_end < t1) {
    dense_state_at(stepper, t_end, workspace);
  } else {
    unpack(stepper.current_state(), workspace);
  }
  note_excursions(t_end, workspace.q, watched, base_start_x_m, summary);
}

StageReport overturn(double t, const Witness& witness, const Eigen::VectorXd& q,
                     const SimulationSettings& settings, RunState& state) {
  StageReport report;
  const auto watch = std::find_if(
      settings.overturn_watch.begin(), settings.overturn_watch.end(),
      [&](const OverturnWatch& w) { return w.upright.coordinate == witness.upright.coordinate; });
  const std::string body = watch != settings.overturn_watch.end() ? watch->body : "a body";
  EventRecord event;
  event.t = t;
  event.kind = EventKind::overturn;
  const double limit_rad = witness.upright.overturn_rad;
  event.status = limit_rad == 0.5 * std::numbers::pi ? cat(body, " turned pi/2 from upright")
                                                     : cat(body, " tilted ", limit_rad,
                                                           " rad from upright: its centre of mass "
                                                           "passed over the point it rocks on");
  report.events.push_back(event);
  RunSummary& summary = state.outcome.summary;
  note_excursions(t, q, settings.overturn_watch, state.base_start_x_m, summary);
  if (!summary.overturned) {
    summary.overturned = true;
    summary.overturn_time = t;
    summary.overturned_body = body;
  }
  if (watch != settings.overturn_watch.end()) {
    BodyOutcome& outcome =
        summary.bodies[static_cast<std::size_t>(watch - settings.overturn_watch.begin())];
    outcome.overturned = true;
    outcome.overturn_time = t;
  }
  state.rotations.erase(state.rotations.begin() + witness.contact);
  if (stops_on(settings, EventKind::overturn)) {
    end_run(report, RunStatus::stopped_on_event, cat("overturn of ", body));
  }
  return report;
}

bool note_uplift(double t, const std::vector<ContactMode>& before,
                 const std::vector<ContactMode>& modes, const SimulationSettings& settings,
                 RunSummary& summary, StageReport& report) {
  if (!std::isnan(summary.uplift_time)) return true;
  const auto closed_before = std::count_if(before.begin(), before.end(), is_closed);
  if (closed_before < 2) return true;
  EventRecord event;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    if (is_closed(before[k]) && !is_closed(modes[k])) event.contacts.push_back(static_cast<int>(k));
  }
  if (event.contacts.empty()) return true;
  event.t = t;
  event.kind = EventKind::uplift;
  event.status = "first lift-off from a resting contact set";
  report.events.push_back(event);
  summary.uplift_time = t;
  if (stops_on(settings, EventKind::uplift)) {
    return end_run(report, RunStatus::stopped_on_event, "uplift");
  }
  return true;
}

}  // namespace routh
