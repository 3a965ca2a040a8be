#include "sim/simulation/witnesses.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "sim/simulation/slip_reference.hpp"

namespace routh {

double static_friction_margin(const ContactParameters& contact, const ContactForce& force) {
  if (force.in_indeterminate_set && std::isfinite(force.stick_reserve)) return force.stick_reserve;
  // the quadratic cone: ‖λ_t‖ of both tangential rows (the second is 0 for a planar contact)
  return contact.static_friction * force.normal - std::hypot(force.tangential, force.tangential_2);
}

namespace {

// A frictionless contact's tangential force is zero whichever way it slips, or if it sticks:
// its slip reaching zero changes nothing, and its witness never fires. Watched, a frictionless
// stack at rest, its slips round-off of zero (1e-45 m/s), changed their sign with the
// integration's noise, each change an event that settled the same modes again, at one instant
// (an event storm).
bool slides_without_friction(const ContactParameters& contact) {
  return contact.static_friction == 0.0 && contact.kinetic_friction == 0.0;
}

}  // namespace

double rotation_margin(const Witness& witness, const Eigen::VectorXd& q) {
  // A block that tips onto its side lands there at exactly π/2, with its landing impact: reached
  // to within kOverturnTolerance, the overturn comes first (an impact is located a time
  // tolerance before its crossing, far less than 1e-9 rad at any rate of turn a run can have).
  return witness.upright.overturn_rad - kOverturnTolerance - tilt_from_upright(witness.upright, q);
}

std::string_view Witness::description() const {
  switch (kind) {
    case WitnessKind::gap: return "the gap closes (impact)";
    case WitnessKind::normal_force: return "the normal force reaches zero (lift-off)";
    case WitnessKind::static_friction_margin:
      return "the friction force reaches the static cone (slip)";
    case WitnessKind::slip: return "the slip reaches zero (stick or reversal)";
    case WitnessKind::support: return "the contact reaches the end of its edge";
    case WitnessKind::rotation: return "the body turns a right angle (overturn)";
  }
  return "?";
}

std::vector<Witness> witnesses_of(const std::vector<ContactMode>& modes,
                                  const std::vector<UprightFrame>& rotations) {
  std::vector<Witness> witnesses;
  for (int k = 0; k < static_cast<int>(modes.size()); ++k) {
    const ContactMode mode = modes[k];
    if (mode == ContactMode::open) {
      witnesses.push_back({WitnessKind::gap, k});
      continue;
    }
    witnesses.push_back({WitnessKind::normal_force, k});
    witnesses.push_back(
        {mode == ContactMode::stick ? WitnessKind::static_friction_margin : WitnessKind::slip, k});
    witnesses.push_back({WitnessKind::support, k});
  }
  for (std::size_t i = 0; i < rotations.size(); ++i) {
    witnesses.push_back({WitnessKind::rotation, static_cast<int>(i), rotations[i]});
  }
  return witnesses;
}

double witness_value(const Witness& witness, ContactMode mode, const ContactParameters& parameters,
                     const ContactKinematics& kinematics, int row, const ContactForce& force,
                     int rows_per_contact, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  switch (witness.kind) {
    case WitnessKind::gap: return kinematics.gap[row];
    case WitnessKind::normal_force: return force.normal;
    case WitnessKind::static_friction_margin: return static_friction_margin(parameters, force);
    case WitnessKind::slip:
      if (slides_without_friction(parameters)) return std::numeric_limits<double>::infinity();
      // spatial: u_t·û, |u_t| while the contact slips on, u_t·û₀ once its slip has halted
      if (mode == ContactMode::slide) return spatial_slip(kinematics, row, v).dot(force.slip);
      return slip_direction(mode) * tangential_velocity(kinematics, rows_per_contact, row, v);
    case WitnessKind::support: return support_at(kinematics.support, row);
    case WitnessKind::rotation: return rotation_margin(witness, q);
  }
  return 0.0;
}

void sample_witnesses(const std::vector<Witness>& witnesses, const std::vector<ContactMode>& modes,
                      const ContactParameterTable& parameters, const ContactKinematics& kinematics,
                      const ConstrainedAcceleration& dynamics, int rows_per_contact,
                      const Eigen::VectorXd& q, const Eigen::VectorXd& v, WitnessSample& sample) {
  const auto contacts = kinematics.gap.size();
  sample.gap = kinematics.gap;
  sample.support = kinematics.support;
  sample.separation_speed.resize(contacts);
  for (Eigen::Index k = 0; k < contacts; ++k) {
    sample.separation_speed[k] =
        normal_velocity(kinematics, rows_per_contact, static_cast<int>(k), v);
  }
  sample.value.resize(static_cast<Eigen::Index>(witnesses.size()));
  // the forces are solved only when some contact is closed, and only closed contacts' are read
  const ContactForce no_force;
  for (std::size_t i = 0; i < witnesses.size(); ++i) {
    const Witness& witness = witnesses[i];
    const auto k = static_cast<std::size_t>(witness.contact);
    const bool of_contact = witness.kind != WitnessKind::rotation;
    sample.value[static_cast<Eigen::Index>(i)] =
        witness_value(witness, of_contact ? modes[k] : ContactMode::open,
                      of_contact ? parameters[k] : ContactParameters{}, kinematics, witness.contact,
                      of_contact && k < dynamics.forces.size() ? dynamics.forces[k] : no_force,
                      rows_per_contact, q, v);
  }
}

}  // namespace routh
