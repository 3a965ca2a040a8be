#include "sim/impact/impact_problem.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <cmath>

#include "sim/text.hpp"

namespace routh {

ImpactProblem planar_impact_problem(double a, double b, double c, double u_n, double u_t,
                                    const ContactParameters& contact) {
  ImpactProblem problem;
  problem.dimension = ContactDimension::planar;
  problem.D.resize(2, 2);
  problem.D << a, c, c, b;
  problem.u_pre.resize(2);
  problem.u_pre << u_n, u_t;
  problem.contacts.emplace_back(contact);
  return problem;
}

bool direction_must_move(const ImpactProblem& problem, int row) {
  const int rows = rows_per_contact(problem.dimension);
  const auto contact = static_cast<std::size_t>(row / rows);
  if (row % rows == 0 || contact >= problem.contacts.size()) return true;
  const ContactParameters& parameters = problem.contacts[contact];
  return parameters.static_friction != 0.0 || parameters.kinetic_friction != 0.0;
}

namespace {

void diagnose_matrix(const ImpactProblem& problem, ProblemDiagnosis& diagnosis) {
  const auto& D = problem.D;
  if (D.rows() != D.cols()) {
    diagnosis.errors.emplace_back(cat("D must be square, it is ", D.rows(), "x", D.cols()));
    return;
  }
  const int rows = rows_per_contact(problem.dimension);
  if (D.rows() == 0 || D.rows() % rows != 0) {
    diagnosis.errors.emplace_back(
        cat("D has ", D.rows(), " rows; a ",
            problem.dimension == ContactDimension::planar ? "planar" : "spatial", " problem needs ",
            rows, " rows per contact (normal first, then tangential)"));
    return;
  }
  if (problem.u_pre.size() != D.rows()) {
    diagnosis.errors.emplace_back(
        cat("u has ", problem.u_pre.size(), " entries but D has ", D.rows(), " rows"));
  }
  if (!D.allFinite() || !problem.u_pre.allFinite()) {
    diagnosis.errors.emplace_back("D and u must be finite");
    return;
  }
  const double scale = D.cwiseAbs().maxCoeff();
  if ((D - D.transpose()).cwiseAbs().maxCoeff() > kSymmetryTolerance * scale) {
    diagnosis.errors.emplace_back("D must be symmetric (D = J M⁻¹ Jᵀ)");
    return;
  }
  // D = J M⁻¹ Jᵀ is positive semidefinite, and singular when there are more contact rows than
  // degrees of freedom (a rocking block's two corners on a 3-dof body; a one-degree-of-freedom
  // pendulum's tip, whose slip is proportional to its approach). Every direction of every
  // contact must still move the bodies (direction_must_move): D's diagonal is positive there.
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> spectrum(D, Eigen::EigenvaluesOnly);
  if (spectrum.eigenvalues().minCoeff() < -kSymmetryTolerance * scale) {
    diagnosis.errors.emplace_back(
        "D must be positive semidefinite (D = J M⁻¹ Jᵀ with M positive definite)");
    return;
  }
  for (int row = 0; row < D.rows(); ++row) {
    if (direction_must_move(problem, row) && !(D(row, row) > 0.0)) {
      diagnosis.errors.push_back(cat("contact ", row / rows, ": its ",
                                     row % rows == 0 ? "normal" : "tangential",
                                     " direction does not move the bodies (a zero row of J)"));
    }
  }
}

void diagnose_contacts(const ImpactProblem& problem, ProblemDiagnosis& diagnosis) {
  if (static_cast<int>(problem.contacts.size()) != problem.contact_count()) {
    diagnosis.errors.emplace_back(cat(problem.contacts.size(), " contact parameter sets for ",
                                      problem.contact_count(), " contacts"));
    return;
  }
  const int rows = rows_per_contact(problem.dimension);
  bool any_approaching = false;
  for (int k = 0; k < problem.contact_count(); ++k) {
    const auto& contact = problem.contacts[k];
    if (!(contact.restitution >= 0.0 && contact.restitution <= 1.0)) {
      diagnosis.errors.emplace_back(
          cat("contact ", k, ": restitution = ", contact.restitution, " must be in [0, 1]"));
    }
    if (!(contact.static_friction >= 0.0) || !(contact.kinetic_friction >= 0.0)) {
      diagnosis.errors.emplace_back(cat("contact ", k, ": friction coefficients must be >= 0"));
    } else if (contact.kinetic_friction > contact.static_friction) {
      diagnosis.warnings.emplace_back(
          cat("contact ", k, ": kinetic friction ", contact.kinetic_friction,
              " exceeds static friction ", contact.static_friction,
              "; sticking then persists whenever either coefficient could hold it"));
    }
    if (problem.u_pre.size() == problem.D.rows() && problem.u_pre[k * rows] < 0.0) {
      any_approaching = true;
    }
  }
  if (!any_approaching && problem.u_pre.size() == problem.D.rows()) {
    diagnosis.warnings.emplace_back(
        "no contact approaches (every u_n >= 0): there is no impact and nothing changes");
  }
}

}  // namespace

ProblemDiagnosis diagnose(const ImpactProblem& problem) {
  ProblemDiagnosis diagnosis;
  diagnose_matrix(problem, diagnosis);
  if (diagnosis.ok()) diagnose_contacts(problem, diagnosis);
  return diagnosis;
}

}  // namespace routh
