#pragma once
// The unit g of ground motions: records in "units of g" (PEER, COSMOS), `N g` amplitudes and
// targets, and the g of the Arias intensity. It is the standard gravity, not a model's gravity
// (`model.gravity`, 9.81 m/s² by default), which sets how strongly the bodies are pulled down.

namespace routh {

/// g [m/s²], the standard gravity (CGPM 1901).
inline constexpr double kGravityUnit_m_s2 = 9.80665;

}  // namespace routh
