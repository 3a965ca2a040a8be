#pragma once
// The smooth phase's right-hand side (docs/simulation.md, step 1): ẋ = (q̇, v̇), q̇ = N(q) v from
// the model (MechanicalSystem::position_rate) and v̇ from the forces of the closed contacts in
// their modes (contact_forces.hpp), what Odeint integrates between events.

#include <vector>

#include "sim/simulation/contact_mode.hpp"
#include "sim/simulation/ode_state.hpp"
#include "sim/simulation/run_state.hpp"

namespace routh {

/// dxdt = ẋ at (t, x) in `modes`; the state evaluated is kept in the workspace
/// (RunWorkspace::last_derivative_t and _x), its force solve in the workspace's evaluation.
void state_derivative(const OdeState& x, OdeState& dxdt, double t,
                      const std::vector<ContactMode>& modes, RunWorkspace& workspace);

}  // namespace routh
