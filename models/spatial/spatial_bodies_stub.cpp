// Temporary: stands in for the spatial model's implementation until it lands, so that its
// loading links and its input can be tested as data. Building a SpatialBodies is refused.
// sim/scenario/CMakeLists.txt compiles this file only while models/spatial/spatial_bodies.cpp
// does not exist; delete it then.

#include <stdexcept>

#include "models/spatial/spatial_bodies.hpp"

namespace routh {

namespace {

[[noreturn]] void not_built() {
  throw std::invalid_argument("free rigid bodies in 3D are not built into this version yet");
}

}  // namespace

Eigen::Vector3d uniform_inertia(const SpatialShape& shape, double mass_kg) {
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    return Eigen::Vector3d::Constant(0.4 * mass_kg * sphere->radius_m * sphere->radius_m);
  }
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    const Eigen::Vector3d s2 = box->size_m.cwiseAbs2();
    return mass_kg / 12.0 * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
  }
  const auto& cylinder = std::get<CylinderShape>(shape);
  const double r2 = cylinder.radius_m * cylinder.radius_m;
  const double across = mass_kg * (3.0 * r2 + cylinder.height_m * cylinder.height_m) / 12.0;
  return {across, across, 0.5 * mass_kg * r2};
}

struct SpatialBodies::Impl {};

SpatialBodies::SpatialBodies(SpatialBodiesDescription description) {
  (void)description;
  not_built();
}
SpatialBodies::~SpatialBodies() = default;

int SpatialBodies::coordinate_count() const { not_built(); }
int SpatialBodies::velocity_count() const { not_built(); }
const std::vector<std::string>& SpatialBodies::coordinate_names() const { not_built(); }
const std::vector<std::string>& SpatialBodies::coordinate_units() const { not_built(); }
const std::vector<std::string>& SpatialBodies::velocity_names() const { not_built(); }
std::vector<std::string> SpatialBodies::velocity_units() const { not_built(); }
const std::vector<std::string>& SpatialBodies::contact_names() const { not_built(); }
void SpatialBodies::position_rate(const Eigen::VectorXd&, const Eigen::VectorXd&,
                                  Eigen::Ref<Eigen::VectorXd>) const {
  not_built();
}
void SpatialBodies::integrate(const Eigen::VectorXd&, const Eigen::VectorXd&,
                              Eigen::VectorXd&) const {
  not_built();
}
void SpatialBodies::normalize(Eigen::VectorXd&) const { not_built(); }
std::unique_ptr<SystemWorkspace> SpatialBodies::make_workspace() const { not_built(); }
void SpatialBodies::nearby_contacts(const Eigen::VectorXd&, SystemWorkspace&,
                                    std::vector<int>&) const {
  not_built();
}
double SpatialBodies::broad_phase_step_bound_s(const Eigen::VectorXd&, const Eigen::VectorXd&,
                                               SystemWorkspace&) const {
  not_built();
}
double SpatialBodies::deepest_overlap_m(const Eigen::VectorXd&, SystemWorkspace&,
                                        std::string*) const {
  not_built();
}
void SpatialBodies::evaluate(double, const Eigen::VectorXd&, const Eigen::VectorXd&,
                             const QuantityRequest&, SystemWorkspace&, StateQuantities&) const {
  not_built();
}
const SpatialBodiesDescription& SpatialBodies::description() const { not_built(); }
int SpatialBodies::body_count() const { not_built(); }
Eigen::Quaterniond SpatialBodies::orientation(const Eigen::VectorXd&, int) const { not_built(); }
int SpatialBodies::coordinate_index(const std::string&) const { not_built(); }

std::string spatial_model_description_json(const SpatialBodies&) { not_built(); }

}  // namespace routh
