#pragma once
// The witnesses of the current contact modes (the event stage of a step; Drake's WitnessFunction):
// each is an object with a description, a direction and a value along the trajectory, and its sign
// change marks the event it names. Per contact and mode:
//
//   mode      witness                 value                 direction                    event
//   open      gap                     g                     positive_then_non_positive   impact
//   closed    normal force            λ_n                   positive_then_non_positive   lift-off
//   stick     static friction margin  μs λ_n − ‖λ_t‖, or    positive_then_non_positive   slip
//                                     the set's reserve R
//   slide     slip                    σ u_t (planar), u_t·û  positive_then_non_positive   stick or
//                                     (spatial), +∞ without friction                   reversal
//   closed    support                 distance to the end   positive_then_non_positive   edge end
//                                     of the touched edge
//
// and, per free body watched for overturning (SimulationSettings::overturn_watch), its rotation
// margin π/2 − |θ − θ₀| from its upright angle θ₀: the body lies on its side when it reaches 0.
//
// A spatial contact's cone is the quadratic one, ‖λ_t‖ = (λ_t1² + λ_t2²)^½. Its slip witness is
// u_t·û with û the direction its friction opposes (slip_reference.hpp): |u_t| > 0 while it slips
// on, however the direction turns (|u_t| alone only touches zero and cannot be located), and
// u_t·û₀ once the slip has halted, which changes sign there.
//
// A contact that sticks in a statically indeterminate set (a block flat on two corners) is watched
// through the set's stick reserve R (static_friction.hpp): the set slips when no distribution of
// its forces lies inside every cone, not when the minimum-norm share of one corner leaves its own.
// The gap is located by its own locator (event_location.hpp), the others by TOMS 748 on the
// step's dense output. What a triggered witness starts is decided by the event stage: a slip or
// lift-off event settles every closed contact again (contact_modes.hpp).

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "sim/impact/impact_problem.hpp"
#include "sim/simulation/contact_forces.hpp"
#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/system_evaluation.hpp"
#include "sim/simulation/upright_tilt.hpp"
#include "sim/simulation/witness_function.hpp"

namespace routh {

enum class WitnessKind {
  gap,                     ///< an open contact's gap: an impact when it closes
  normal_force,            ///< a closed contact's normal force: lift-off when it reaches 0
  static_friction_margin,  ///< a sticking contact's μs λ_n − |λ_t|: slip when it reaches 0
  slip,      ///< a sliding contact's σ u_t (spatial: u_t·û): the slip halts when it reaches 0
  support,   ///< a closed contact's distance to the end of its edge: it slides off at 0
  rotation,  ///< a free body's π/2 − |θ − θ₀|: it has overturned at 0
};

struct Witness {
  WitnessKind kind = WitnessKind::gap;
  int contact = 0;         ///< the (active) contact watched; for a rotation, the watch's index
  UprightFrame upright{};  ///< rotation: the watched body's (upright_tilt.hpp)
  /// "gap of contact k closes (impact)" and the like, for messages and logs.
  std::string_view description() const;
  /// Every witness here triggers when it falls from positive to zero or below.
  static constexpr WitnessDirection direction = WitnessDirection::positive_then_non_positive;
};

/// A sticking contact's static friction margin [N], the value of its slip witness: in a
/// statically indeterminate set the set's stick reserve R (static_friction.hpp eq. (2)), at a
/// corner's lift-off still positive while its own cone shrinks to a point; where the set has no
/// verdict (R = +∞, a normal force of the set is not positive) or the contact is alone, its own
/// μs λ_n − |λ_t|. Sticking holds while it is positive.
double static_friction_margin(const ContactParameters& contact, const ContactForce& force);

/// The witnesses that watch `modes`: per contact, its normal one, then its tangential one and its
/// support (for a closed contact); then one per rotation watch. Allocates; called when the modes
/// change, not in the integration loop.
std::vector<Witness> witnesses_of(const std::vector<ContactMode>& modes,
                                  const std::vector<UprightFrame>& rotations = {});

/// The witnesses' values at one state, with every contact's gap and normal velocity there: the
/// gap locator reads them at a step's ends, the drift check reads the closed gaps.
struct WitnessSample {
  Eigen::VectorXd value;             ///< per witness
  Eigen::VectorXd gap;               ///< per contact [m]
  Eigen::VectorXd separation_speed;  ///< per contact, u_n [m/s]
  Eigen::VectorXd support;  ///< per contact [m], ContactKinematics::support (empty: no ends)
};

/// One witness's value at one state: `kinematics` holds the witness's contact as its contact
/// `row` (k among every active contact's, or 0 for the contact evaluated alone), `mode` and
/// `parameters` are the contact's, and `force` its force (read by the normal-force and
/// friction witnesses of a closed contact only).
double witness_value(const Witness& witness, ContactMode mode, const ContactParameters& parameters,
                     const ContactKinematics& kinematics, int row, const ContactForce& force,
                     int rows_per_contact, const Eigen::VectorXd& q, const Eigen::VectorXd& v);

/// Fills `sample` from one evaluation at (q, v): the contact kinematics and, when a contact is
/// closed, the forces solved there in `modes`.
void sample_witnesses(const std::vector<Witness>& witnesses, const std::vector<ContactMode>& modes,
                      const ContactParameterTable& parameters, const ContactKinematics& kinematics,
                      const ConstrainedAcceleration& dynamics, int rows_per_contact,
                      const Eigen::VectorXd& q, const Eigen::VectorXd& v, WitnessSample& sample);

/// How close to its overturn tilt a rotation counts as an overturn [rad].
inline constexpr double kOverturnTolerance = 1e-9;

/// A rotation witness's value [rad] at q: its body's overturn tilt − kOverturnTolerance − its
/// tilt from upright (upright_tilt.hpp).
double rotation_margin(const Witness& witness, const Eigen::VectorXd& q);

}  // namespace routh
