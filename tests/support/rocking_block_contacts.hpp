#pragma once
// Housner's rocking block in contact space, for the multi-contact law tests (multipoint_energetic,
// lcp): both bottom corners of a block standing flat, D = J M⁻¹ Jᵀ (4 × 4, rank 3).

#include <doctest/doctest.h>

#include <Eigen/Core>

#include "sim/contact_space.hpp"
#include "sim/impact/impact_problem.hpp"

namespace routh::test {

// Housner (1963), "The behavior of inverted pendulum structures during earthquakes": a block of
// width 2b and height 2h, centre of mass at its centre, I_cm = m(b² + h²)/3, with q = (x, y, θ)
// of the centre of mass. At θ = 0 it stands flat with both bottom corners on the ground.
struct RockingBlock {
  double b, h, m = 2.0;  // [m], [m], [kg]
  Eigen::MatrixXd M{Eigen::MatrixXd::Zero(3, 3)};
  Eigen::MatrixXd J{Eigen::MatrixXd::Zero(4, 3)};
  ContactSpace space;

  RockingBlock(double half_width, double half_height) : b(half_width), h(half_height) {
    M.diagonal() << m, m, m * (b * b + h * h) / 3.0;
    // A corner at r = (r_x, r_y) from the centre of mass moves with (ẋ − θ̇ r_y, ẏ + θ̇ r_x); the
    // normal is +y, the tangent +x. Left corner r = (−b, −h), right corner r = (b, −h).
    J << 0.0, 1.0, -b,  // left, normal
        1.0, 0.0, h,    // left, tangential
        0.0, 1.0, b,    // right, normal
        1.0, 0.0, h;    // right, tangential
    REQUIRE(factor_contact_space(M, J, space));
  }

  // Rotation ω about the left corner: v_cm = ω × (r_cm − r_left) = ω × (b, h) = (−ω h, ω b).
  Eigen::VectorXd rocking_about_left_corner(double omega) const {
    Eigen::VectorXd v(3);
    v << -omega * h, omega * b, omega;
    return v;
  }

  // Both corners with the same restitution and friction.
  ImpactProblem problem(const Eigen::VectorXd& v, const ContactParameters& p) const {
    ContactParameterList contacts;
    contacts.push_back(p);
    contacts.push_back(p);
    return generalized_impact_problem(space, v, ContactDimension::planar, contacts);
  }
};

}  // namespace routh::test
