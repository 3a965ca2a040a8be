#pragma once
// The explicit Runge–Kutta pair of Dormand and Prince of order 8 with its embedded estimators of
// orders 5 and 3 and its dense output of order 7 (DOP853: Hairer, Nørsett & Wanner, "Solving
// Ordinary Differential Equations I", 2nd ed., 1993, §II.5 (the method, Table 5.3 and eq. 5.33
// for the error estimate) and §II.6 (its continuous extension, three more stages); the
// coefficients are those of Hairer's DOP853 code). Twelve stages per step, the first the last of
// the step before (first same as last), and three more per accepted step for the dense output.
//
// At tight tolerances an eighth-order step is far longer than a fifth-order one: on a 20-link
// chain swinging freely for 0.34 s at 3e-11, dopri5 took 1500 steps (9241 evaluations of the
// dynamics), DOP853 about a seventh of the steps for a third of the evaluations, for a smaller
// global error (tests/test_dop853_stepper.cpp).
//
// The step-size control is DOP853's (safety 0.9, step ratio within [0.333, 6], exponent 1/8, no
// growth right after a rejection) on an error measured like Odeint's controlled dopri5 measures
// it: the largest component of the estimate against atol + rtol |x| (Hairer's code takes the
// root mean square, which lets a single component exceed its tolerance √n times). The estimate
// is Hairer's combination of the two embedded ones (eq. 5.33 there),
//     err = h E₅² / √(E₅² + 0.01 E₃²),
// with E₅ and E₃ the scaled largest components of the fifth- and third-order estimators.
//
// The interface is that of Odeint's dense-output steppers (make_dense_output) as the simulation
// uses it: initialize, do_step, calc_state on the step just taken, and the times and states at
// its ends. A step that fails 500 times in a row, or shrinks below round-off of t, throws Odeint's
// step_adjustment_error, as Odeint's steppers do.

#include <Eigen/Core>
#include <array>
#include <functional>
#include <utility>

#include <vector>

namespace routh {

class Dop853Stepper {
 public:
  using OdeState = std::vector<double>;  ///< x = (q, v), as ode_state.hpp
  /// dx/dt = f(x, t), into its second argument.
  using RightHandSide = std::function<void(const OdeState& x, OdeState& dxdt, double t)>;

  Dop853Stepper(double absolute_tolerance, double relative_tolerance, double max_step);

  /// Starts from x0 at t0; the next step tries dt0 (at most max_step).
  void initialize(const OdeState& x0, double t0, double dt0);
  /// One accepted step (rejected tries repeat it shorter); returns its (t0, t1). `rhs` must
  /// outlive the step's calc_state() calls: the dense output's stages are evaluated on the first.
  std::pair<double, double> do_step(const RightHandSide& rhs);
  /// The dense output at t within the step just taken, into x. Its three extra stages are
  /// evaluated at the first call after a step, with the step's right-hand side: a step that
  /// nobody interpolates costs 12 evaluations, and the last of them is f at the step's end,
  /// which the simulation reuses for the witnesses there (event_scan.hpp).
  void calc_state(double t, OdeState& x) const;

  const OdeState& current_state() const { return x_; }
  const OdeState& previous_state() const { return x_previous_; }
  double current_time() const { return t_; }
  double previous_time() const { return t_previous_; }
  /// The step the next do_step() tries [s].
  double current_time_step() const { return dt_; }

 private:
  static constexpr int kStages = 16;  ///< 12 of the step, its FSAL end, 3 of the dense output

  bool try_step(const RightHandSide& rhs);
  void prepare_dense_output() const;

  double absolute_tolerance_, relative_tolerance_, max_step_;
  double t_ = 0.0, t_previous_ = 0.0, dt_ = 0.0, h_taken_ = 0.0;
  bool derivative_valid_ = false;  ///< k[0] is f at (x_, t_) (or k[12], after a step)
  bool after_step_ = false;        ///< a step was taken since initialize(): k[12] is f at its end
  bool last_rejected_ = false;
  RightHandSide rhs_;  ///< the latest step's, for its dense output
  OdeState x_, x_previous_, x_new_;
  Eigen::VectorXd increment_, fifth_, third_;  ///< Σ b_i k_i and the two error estimators
  // the stages and the dense output's coefficient columns (rcont1 … rcont8), completed by the
  // first calc_state() of a step
  mutable OdeState stage_x_;
  mutable std::array<OdeState, kStages> k_;
  mutable Eigen::MatrixXd dense_;
  mutable bool dense_ready_ = false;
};

}  // namespace routh
