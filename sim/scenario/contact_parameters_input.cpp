#include "sim/scenario/contact_parameters_input.hpp"

#include <array>
#include <string_view>

#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::array<std::string_view, 2> kFrictionKeys = {"static", "kinetic"};

}  // namespace

double read_restitution(const InputNode& node) {
  const double restitution = read_number(node);
  if (restitution < 0.0 || restitution > 1.0) throw node.error("must be in [0, 1]");
  return restitution;
}

double read_friction_coefficient(const InputNode& node) {
  const double coefficient = read_number(node);
  if (coefficient < 0.0) throw node.error("must be >= 0");
  return coefficient;
}

// {static: μs, kinetic: μd}, or one number for both.
void read_friction(const InputNode& node, ContactParameters& contact,
                   std::vector<std::string>& warnings) {
  if (node.yaml().IsScalar()) {
    contact.static_friction = contact.kinetic_friction = read_friction_coefficient(node);
    return;
  }
  check_keys(node, kFrictionKeys);
  const InputNode kinetic = node.required("kinetic");
  contact.static_friction = read_friction_coefficient(node.required("static"));
  contact.kinetic_friction = read_friction_coefficient(kinetic);
  if (contact.kinetic_friction > contact.static_friction) {
    warnings.push_back(
        kinetic.warning(cat("exceeds static friction ", contact.static_friction,
                            "; sticking then persists whenever either coefficient could hold it")));
  }
}

}  // namespace routh
