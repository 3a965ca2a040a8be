#pragma once
// The input of every impact law: the contact-space inverse inertia D, the contact
// velocities just before the impact u⁻ and the per-contact restitution and friction.

#include <boost/container/small_vector.hpp>
#include <string>
#include <vector>

#include "sim/impact/contact_vector.hpp"

namespace routh {

/// Whether each contact has one tangential direction (planar) or two (spatial).
enum class ContactDimension { planar = 2, spatial = 3 };

/// Rows per contact in contact space: the normal, then the tangential directions.
constexpr int rows_per_contact(ContactDimension dimension) { return static_cast<int>(dimension); }

/// Restitution and Coulomb friction of one contact.
struct ContactParameters {
  double restitution = 0.0;  ///< e ∈ [0, 1]; its meaning is the law's (Newton, Poisson, energetic)
  double static_friction = 0.0;   ///< μs ≥ 0: decides whether sticking, once reached, persists
  double kinetic_friction = 0.0;  ///< μd ≥ 0: ratio of tangential to normal impulse while sliding
};

/// The parameters of an impact's contacts, any number of them, held in place for up to
/// kInlineContacts (contact_vector.hpp).
using ContactParameterList = boost::container::small_vector<ContactParameters, kInlineContacts>;
/// The parameters of every contact of a model (the simulation's table; an impact takes a
/// ContactParameterList of those it involves).
using ContactParameterTable = std::vector<ContactParameters>;

/// One impact in contact space: u⁺ = u⁻ + D Γ with D = J M⁻¹ Jᵀ (docs/laws.md).
struct ImpactProblem {
  ContactDimension dimension = ContactDimension::planar;
  ContactMatrix D;                ///< J M⁻¹ Jᵀ [1/kg], symmetric positive definite
  ContactVector u_pre;            ///< u⁻ [m/s]; u_n < 0 approaches
  ContactParameterList contacts;  ///< one entry per contact

  int contact_count() const { return static_cast<int>(D.rows()) / rows_per_contact(dimension); }
};

/// A single planar contact: D = [[a, c], [c, b]], u⁻ = (u_n, u_t).
ImpactProblem planar_impact_problem(double a, double b, double c, double u_n, double u_t,
                                    const ContactParameters& contact);

/// What is wrong with a problem, in words; `errors` empty means every law may be called on it.
struct ProblemDiagnosis {
  std::vector<std::string> errors;    ///< the problem cannot be solved as given
  std::vector<std::string> warnings;  ///< solvable, but probably not what the user meant
  bool ok() const { return errors.empty(); }
};

/// Relative tolerance on the symmetry and on the negative eigenvalues of D (and of a mass matrix
/// given with an impact), relative to its largest entry: D built as J M⁻¹ Jᵀ in floating point, or
/// written to 16 significant digits, is symmetric and positive semidefinite to round-off.
inline constexpr double kSymmetryTolerance = 1e-9;

/// Whether D's diagonal entry `row` must be positive (the direction must move the bodies): every
/// contact's normal, and the tangential directions of a contact with friction. A frictionless
/// contact's tangential rows carry no impulse and may move nothing: a link folded back onto the
/// next one touches it with their common joint, which can only move along the normal.
bool direction_must_move(const ImpactProblem& problem, int row);

/// Checks shapes, symmetry and positive definiteness of D (to kSymmetryTolerance), e ∈ [0, 1], μ ≥
/// 0, and warns when μd > μs (sliding friction above static friction is unusual) or when a contact
/// does not approach.
ProblemDiagnosis diagnose(const ImpactProblem& problem);

}  // namespace routh
