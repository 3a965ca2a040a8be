#pragma once
// A scenario's excitation (docs/design.md §5): a list of signals, each along x, y or z (z only for
// spatial models); the ground acceleration is their sum, a_g(t) = Σ a_k(t) e_k, a 3-vector of
// which a planar model takes the (x, y) part. Positive a_g along x accelerates the ground
// towards +x; the bodies feel the inertial load −m a_g (planar_tree.hpp), so a block at rest tips
// onto its left corner when a_g,x reaches g tan α.
//
// Breakpoints are the instants where a_g(t) is not smooth: a harmonic's or pulse's start and end,
// a rectangular pulse's middle, and every sample of a record. The simulator ends a step at each
// (simulator.cpp), so that no step integrates across a kink or a jump.

#include <Eigen/Core>
#include <variant>
#include <vector>

#include "sim/excitation/harmonic_signal.hpp"
#include "sim/excitation/pulse_signal.hpp"
#include "sim/excitation/record_signal.hpp"

namespace routh {

/// One signal of the excitation and the unit vector it acts along.
struct GroundSignal {
  std::variant<HarmonicSignal, PulseSignal, RecordSignal> signal;
  Eigen::Vector3d direction = Eigen::Vector3d::UnitX();
};

using Excitation = std::vector<GroundSignal>;

/// a_g(t) = Σ a_k(t) e_k [m/s²].
Eigen::Vector3d ground_acceleration(const Excitation& excitation, double t_s);

/// The first breakpoint strictly after t [s]: the earliest start, end, pulse jump or record sample
/// of any signal; +∞ when none is left. O(signals × log(samples)).
double next_breakpoint(const Excitation& excitation, double t_s);

}  // namespace routh
