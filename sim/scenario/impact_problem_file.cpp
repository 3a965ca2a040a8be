#include "sim/scenario/impact_problem_file.hpp"

#include <array>
#include <span>
#include <string_view>

#include "sim/impact/law_catalogue.hpp"
#include "sim/scenario/contact_parameters_input.hpp"
#include "sim/scenario/input_file.hpp"
#include "sim/scenario/yaml_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::array<std::string_view, 11> kProblemKeys = {
    "name", "description", "law", "dimension", "D", "u", "M", "J", "v", "restitution", "friction"};
constexpr std::array<std::string_view, 2> kContactSpaceKeys = {"D", "u"};
constexpr std::array<std::string_view, 3> kGeneralizedKeys = {"M", "J", "v"};

std::optional<InputNode> first_present(const InputNode& root,
                                       std::span<const std::string_view> keys) {
  for (std::string_view key : keys) {
    if (auto node = root.find(key)) return node;
  }
  return std::nullopt;
}

bool is_generalized_form(const InputNode& root) {
  const auto contact_space = first_present(root, kContactSpaceKeys);
  const auto generalized = first_present(root, kGeneralizedKeys);
  if (contact_space && generalized) {
    throw generalized->error(
        "give the problem either in contact space (D, u) or in generalized form (M, J, v), not "
        "both");
  }
  if (!contact_space && !generalized) {
    throw root.error(
        "no problem given: add D and u (contact space) or M, J and v (generalized form)");
  }
  return generalized.has_value();
}

std::string read_law_name(const InputNode& node) {
  std::string name = read_string(node);
  if (find_law(name) == nullptr) throw InputError(node.location(), unknown_law_message(name));
  return name;
}

// The rows of D (or J) fix the number of contacts once the rows per contact are known; infer
// those when only one of 2 (planar) and 3 (spatial) divides the rows.
ContactDimension contact_dimension(const InputNode& root, const InputNode& matrix,
                                   Eigen::Index rows) {
  if (auto given = root.find("dimension")) {
    const double value = read_number(*given);
    if (value != 2.0 && value != 3.0) throw given->error("must be 2 (planar) or 3 (spatial)");
    const auto dimension = value == 2.0 ? ContactDimension::planar : ContactDimension::spatial;
    if (rows % rows_per_contact(dimension) != 0) {
      throw matrix.error(cat("has ", rows, " rows, not a multiple of ", value,
                             " (rows per contact: the normal, then the tangential directions)"));
    }
    return dimension;
  }
  const bool planar_fits = rows % 2 == 0;
  const bool spatial_fits = rows % 3 == 0;
  if (planar_fits && spatial_fits) {
    throw matrix.error(cat("has ", rows, " rows: ", rows / 2, " planar or ", rows / 3,
                           " spatial contacts; say which with 'dimension: 2' or 'dimension: 3'"));
  }
  if (!planar_fits && !spatial_fits) {
    throw matrix.error(cat("has ", rows,
                           " rows, not a multiple of 2 (planar contacts: normal, tangential) "
                           "or 3 (spatial contacts: normal, two tangential)"));
  }
  return planar_fits ? ContactDimension::planar : ContactDimension::spatial;
}

// `restitution` and `friction` hold one value for every contact or a list with one per contact.
std::vector<InputNode> per_contact(const InputNode& node, int contact_count) {
  if (!node.yaml().IsSequence()) {
    std::vector<InputNode> same_for_every_contact(contact_count, node);
    return same_for_every_contact;
  }
  std::vector<InputNode> items = node.items();
  if (static_cast<int>(items.size()) != contact_count) {
    throw node.error(cat("has ", items.size(), " entries for ", contact_count,
                         " contacts: give one value for all contacts or one per contact"));
  }
  return items;
}

ContactParameterList read_contact_parameters(const InputNode& root, int contact_count,
                                             std::vector<std::string>& warnings) {
  const std::vector<InputNode> restitutions =
      per_contact(root.required("restitution"), contact_count);
  const std::vector<InputNode> frictions = per_contact(root.required("friction"), contact_count);
  ContactParameterList contacts(static_cast<std::size_t>(contact_count));
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    contacts[k].restitution = read_restitution(restitutions[k]);
    read_friction(frictions[k], contacts[k], warnings);
  }
  return contacts;
}

// diagnose() adds what the located checks cannot see: whether D is symmetric positive definite.
// Its errors point at the matrix that D came from. Its warnings are covered elsewhere: μd > μs
// by read_friction (with a location), no approaching contact by the caller (it means no impact).
void check_diagnosis(const ImpactProblem& problem, const InputNode& matrix) {
  const ProblemDiagnosis diagnosis = diagnose(problem);
  if (!diagnosis.ok()) throw InputError(matrix.location(), diagnosis.errors.front());
}

Eigen::MatrixXd read_square_matrix(const InputNode& node) {
  Eigen::MatrixXd matrix = read_matrix(node);
  if (matrix.rows() != matrix.cols()) {
    throw node.error(cat("is ", matrix.rows(), "x", matrix.cols(), ": must be square"));
  }
  return matrix;
}

void read_contact_space_form(const InputNode& root, ImpactProblemFile& file) {
  const InputNode input_D = root.required("D");
  const InputNode input_u = root.required("u");
  const Eigen::MatrixXd D = read_square_matrix(input_D);
  ImpactProblem& problem = file.problem;
  problem.dimension = contact_dimension(root, input_D, D.rows());
  const Eigen::VectorXd u = read_vector(input_u);
  if (u.size() != D.rows()) {
    throw input_u.error(cat("has ", u.size(), " entries but D has ", D.rows(), " rows"));
  }
  problem.D = D;
  problem.u_pre = u;
  problem.contacts = read_contact_parameters(root, problem.contact_count(), file.warnings);
  check_diagnosis(problem, input_D);
}

void read_generalized_form(const InputNode& root, ImpactProblemFile& file) {
  const InputNode input_M = root.required("M");
  const InputNode input_J = root.required("J");
  const InputNode input_v = root.required("v");
  const Eigen::MatrixXd M = read_square_matrix(input_M);
  if ((M - M.transpose()).cwiseAbs().maxCoeff() > kSymmetryTolerance * M.cwiseAbs().maxCoeff()) {
    throw InputError(input_M.location(), "M must be symmetric");
  }
  const Eigen::MatrixXd J = read_matrix(input_J);
  if (J.cols() != M.rows()) {
    throw input_J.error(cat("has ", J.cols(), " columns but M is ", M.rows(), "x", M.cols(),
                            ": J needs one column per generalized velocity"));
  }
  const ContactDimension dimension = contact_dimension(root, input_J, J.rows());
  GeneralizedImpact generalized{read_vector(input_v), {}};
  if (generalized.v_pre.size() != M.rows()) {
    throw input_v.error(
        cat("has ", generalized.v_pre.size(), " entries but M is ", M.rows(), "x", M.cols()));
  }
  if (!factor_contact_space(M, J, generalized.space)) {
    throw InputError(input_M.location(), "M must be positive definite");
  }
  const int contact_count = static_cast<int>(J.rows()) / rows_per_contact(dimension);
  file.problem =
      generalized_impact_problem(generalized.space, generalized.v_pre, dimension,
                                 read_contact_parameters(root, contact_count, file.warnings));
  check_diagnosis(file.problem, input_J);
  file.generalized = std::move(generalized);
}

}  // namespace

ImpactProblemFile load_impact_problem_file(const std::string& path) {
  return read_impact_problem(load_yaml_file(path, kImpactProblemInput));
}

ImpactProblemFile read_impact_problem(const InputNode& root) {
  check_keys(root, kProblemKeys);
  ImpactProblemFile file;
  if (auto name = root.find("name")) file.name = read_string(*name);
  if (auto description = root.find("description")) file.description = read_string(*description);
  if (auto law = root.find("law")) file.law = read_law_name(*law);
  if (is_generalized_form(root)) {
    read_generalized_form(root, file);
  } else {
    read_contact_space_form(root, file);
  }
  return file;
}

}  // namespace routh
