#include "models/spatial/spatial_bodies.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include "models/contact_rows.hpp"
#include "models/spatial/rigid_body_kinematics.hpp"
#include "models/spatial/spatial_broad_phase.hpp"
#include "models/spatial/spatial_overlap.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr double kUnitTolerance = 1e-9;  // |normal| must be 1 to this

bool finite_positive(double x) { return x > 0.0 && std::isfinite(x); }

void check_shape(const std::string& name, const SpatialShape& shape) {
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    if (!finite_positive(sphere->radius_m))
      throw std::invalid_argument(
          cat("body ", name, ": sphere radius ", sphere->radius_m, " m must be > 0"));
    if (!sphere->centre_m.allFinite())
      throw std::invalid_argument(cat("body ", name, ": sphere centre must be finite"));
  } else if (const auto* box = std::get_if<BoxShape>(&shape)) {
    for (int i = 0; i < 3; ++i) {
      if (!finite_positive(box->size_m[i]))
        throw std::invalid_argument(
            cat("body ", name, ": box size ", box->size_m[i], " m must be > 0"));
    }
  } else {
    const auto& cylinder = std::get<CylinderShape>(shape);
    if (!finite_positive(cylinder.radius_m) || !finite_positive(cylinder.height_m))
      throw std::invalid_argument(cat("body ", name, ": cylinder radius ", cylinder.radius_m,
                                      " m and height ", cylinder.height_m, " m must be > 0"));
  }
}

void check_body(const SpatialBody& body) {
  if (!finite_positive(body.mass_kg))
    throw std::invalid_argument(
        cat("body ", body.name, ": mass ", body.mass_kg, " kg must be > 0"));
  const Eigen::Vector3d& I = body.inertia_kg_m2;
  for (int i = 0; i < 3; ++i) {
    if (!finite_positive(I[i]))
      throw std::invalid_argument(
          cat("body ", body.name, ": principal inertia ", I[i], " kg m^2 must be > 0"));
  }
  // a rigid body's principal moments obey the triangle inequality (I₁ = ∫(y² + z²) dm …)
  for (int i = 0; i < 3; ++i) {
    if (I[i] > I[(i + 1) % 3] + I[(i + 2) % 3])
      throw std::invalid_argument(cat("body ", body.name, ": principal inertia ", I[i],
                                      " kg m^2 exceeds the sum of the other two"));
  }
  check_shape(body.name, body.shape);
}

void check_plane(const SpatialPlane& plane) {
  if (!plane.point_m.allFinite())
    throw std::invalid_argument(cat("plane ", plane.name, ": point must be finite"));
  if (!(std::abs(plane.normal.norm() - 1.0) <= kUnitTolerance))
    throw std::invalid_argument(cat("plane ", plane.name, ": normal must be a unit vector"));
}

// Names are unique across bodies and planes: a contact's name, BODY/PLANE or BODY/OTHER, must
// tell which.
void check_name(const std::string& kind, const std::string& name, std::set<std::string>& names) {
  if (name.empty()) throw std::invalid_argument(kind + ": empty name");
  if (!names.insert(name).second)
    throw std::invalid_argument(cat(kind, " ", name, ": name used twice"));
}

void check(const SpatialBodiesDescription& description) {
  std::set<std::string> names;
  for (const SpatialBody& body : description.bodies) {
    check_name("body", body.name, names);
    check_body(body);
  }
  for (const SpatialPlane& plane : description.planes) {
    check_name("plane", plane.name, names);
    check_plane(plane);
  }
  if (!description.gravity_m_s2.allFinite())
    throw std::invalid_argument("spatial bodies: gravity must be finite");
}

}  // namespace

Eigen::Vector3d uniform_inertia(const SpatialShape& shape, double mass_kg) {
  if (const auto* sphere = std::get_if<SphereShape>(&shape))
    return Eigen::Vector3d::Constant(0.4 * mass_kg * sphere->radius_m * sphere->radius_m);
  if (const auto* box = std::get_if<BoxShape>(&shape)) {
    const Eigen::Vector3d s2 = box->size_m.cwiseAbs2();
    return mass_kg / 12.0 * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
  }
  const auto& cylinder = std::get<CylinderShape>(shape);
  const double r2 = cylinder.radius_m * cylinder.radius_m;
  const double across = mass_kg * (3.0 * r2 + cylinder.height_m * cylinder.height_m) / 12.0;
  return {across, across, 0.5 * mass_kg * r2};
}

namespace {

class SpatialWorkspace final : public SystemWorkspace {
 public:
  using SystemWorkspace::SystemWorkspace;
  std::vector<SpatialBodyMotion> bodies;
  SphereSweep sweep;
  /// e(ψ) per rim (SpatialContact::rim): the run's base orientations, not scratch; e_x at first.
  std::vector<Eigen::Vector2d> bases;
};

}  // namespace

struct SpatialBodies::Impl {
  SpatialBodiesDescription description;
  SpatialContactSet contacts;
  std::vector<std::string> coordinate_names, coordinate_units, velocity_names, velocity_units;
  Eigen::MatrixXd mass_matrix;
  Eigen::VectorXd at_rest;  ///< v = 0, for the queries that read poses only

  SpatialWorkspace& own(SystemWorkspace& workspace, const SpatialBodies& model) const {
    if (!workspace.belongs_to(model))
      throw std::invalid_argument("spatial bodies: the workspace belongs to another model");
    return static_cast<SpatialWorkspace&>(workspace);
  }
  void check_sizes(const Eigen::VectorXd& q, const Eigen::VectorXd* v) const {
    const auto bodies = static_cast<Eigen::Index>(description.bodies.size());
    if (q.size() != 7 * bodies || (v && v->size() != 6 * bodies))
      throw std::invalid_argument(cat("spatial bodies: q has ", q.size(), " entries and v ",
                                      v ? v->size() : 0, "; expected ", 7 * bodies, " and ",
                                      6 * bodies));
  }
  // The bodies' poses, and velocities when v is given (at rest otherwise).
  void read_motion(const Eigen::VectorXd& q, const Eigen::VectorXd* v, SpatialWorkspace& ws) const {
    ws.bodies.resize(description.bodies.size());
    for (std::size_t b = 0; b < ws.bodies.size(); ++b) {
      const int body = static_cast<int>(b);
      read_body_motion(q, v ? *v : at_rest, spatial_coordinate_start(body),
                       spatial_velocity_start(body), ws.bodies[b]);
    }
  }
  void contact_kinematics(const std::vector<int>* subset, const std::vector<bool>* held,
                          const SpatialWorkspace& ws, ContactKinematics& out) const;
};

SpatialBodies::SpatialBodies(SpatialBodiesDescription description)
    : impl_(std::make_unique<Impl>()) {
  check(description);
  Impl& impl = *impl_;
  impl.description = std::move(description);
  impl.contacts = make_spatial_contact_set(impl.description);
  const auto n = static_cast<Eigen::Index>(6 * impl.description.bodies.size());
  impl.mass_matrix = Eigen::MatrixXd::Zero(n, n);
  impl.at_rest = Eigen::VectorXd::Zero(n);
  for (std::size_t b = 0; b < impl.description.bodies.size(); ++b) {
    const SpatialBody& body = impl.description.bodies[b];
    const int start = spatial_velocity_start(static_cast<int>(b));
    impl.mass_matrix.diagonal().segment<3>(start).setConstant(body.mass_kg);
    impl.mass_matrix.diagonal().segment<3>(start + 3) = body.inertia_kg_m2;
    for (const char* coordinate : {".x", ".y", ".z", ".qw", ".qx", ".qy", ".qz"}) {
      impl.coordinate_names.push_back(body.name + coordinate);
      impl.coordinate_units.push_back(coordinate[1] == 'q' ? "1" : "m");
    }
    for (const char* velocity : {".vx", ".vy", ".vz", ".wx", ".wy", ".wz"}) {
      impl.velocity_names.push_back(body.name + velocity);
      impl.velocity_units.push_back(velocity[1] == 'w' ? "rad/s" : "m/s");
    }
  }
}

SpatialBodies::~SpatialBodies() = default;

int SpatialBodies::coordinate_count() const { return 7 * body_count(); }
int SpatialBodies::velocity_count() const { return 6 * body_count(); }
const std::vector<std::string>& SpatialBodies::coordinate_names() const {
  return impl_->coordinate_names;
}
const std::vector<std::string>& SpatialBodies::coordinate_units() const {
  return impl_->coordinate_units;
}
const std::vector<std::string>& SpatialBodies::velocity_names() const {
  return impl_->velocity_names;
}
std::vector<std::string> SpatialBodies::velocity_units() const { return impl_->velocity_units; }
const std::vector<std::string>& SpatialBodies::contact_names() const {
  return impl_->contacts.names;
}
const SpatialBodiesDescription& SpatialBodies::description() const { return impl_->description; }
int SpatialBodies::body_count() const { return static_cast<int>(impl_->description.bodies.size()); }

Eigen::Quaterniond SpatialBodies::orientation(const Eigen::VectorXd& q, int body) const {
  return stored_quaternion(q, spatial_coordinate_start(body) + 3).normalized();
}

int SpatialBodies::coordinate_index(const std::string& name) const {
  const std::vector<std::string>& names = impl_->coordinate_names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  return -1;
}

void SpatialBodies::position_rate(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                  Eigen::Ref<Eigen::VectorXd> q_dot) const {
  for (int b = 0; b < body_count(); ++b) {
    const int qs = spatial_coordinate_start(b), vs = spatial_velocity_start(b);
    q_dot.segment<3>(qs) = v.segment<3>(vs);
    q_dot.segment<4>(qs + 3) = quaternion_rate(stored_quaternion(q, qs + 3), v.segment<3>(vs + 3));
  }
}

void SpatialBodies::integrate(const Eigen::VectorXd& q, const Eigen::VectorXd& delta_v,
                              Eigen::VectorXd& q_out) const {
  if (&q_out != &q) q_out = q;
  for (int b = 0; b < body_count(); ++b) {
    const int qs = spatial_coordinate_start(b), vs = spatial_velocity_start(b);
    q_out.segment<3>(qs) += delta_v.segment<3>(vs);
    const Eigen::Quaterniond turned =
        stored_quaternion(q_out, qs + 3) * rotation_quaternion(delta_v.segment<3>(vs + 3));
    q_out.segment<4>(qs + 3) << turned.w(), turned.x(), turned.y(), turned.z();
  }
}

void SpatialBodies::normalize(Eigen::VectorXd& q) const {
  for (int b = 0; b < body_count(); ++b) {
    q.segment<4>(spatial_coordinate_start(b) + 3).normalize();
  }
}

std::unique_ptr<SystemWorkspace> SpatialBodies::make_workspace() const {
  auto workspace = std::make_unique<SpatialWorkspace>(*this);
  workspace->bodies.resize(impl_->description.bodies.size());
  workspace->bases.assign(static_cast<std::size_t>(impl_->contacts.rim_count),
                          Eigen::Vector2d::UnitX());
  return workspace;
}

void SpatialBodies::nearby_contacts(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                                    std::vector<int>& nearby) const {
  impl_->check_sizes(q, nullptr);
  SpatialWorkspace& ws = impl_->own(workspace, *this);
  impl_->read_motion(q, nullptr, ws);
  nearby_spatial_contacts(impl_->contacts, impl_->description, ws.bodies, ws.bases, ws.sweep,
                          nearby);
}

double SpatialBodies::broad_phase_step_bound_s(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                               SystemWorkspace& workspace) const {
  impl_->check_sizes(q, &v);
  SpatialWorkspace& ws = impl_->own(workspace, *this);
  impl_->read_motion(q, &v, ws);
  return spatial_broad_phase_step_bound_s(impl_->contacts, ws.bodies);
}

double SpatialBodies::deepest_overlap_m(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                                        std::string* where) const {
  impl_->check_sizes(q, nullptr);
  SpatialWorkspace& ws = impl_->own(workspace, *this);
  impl_->read_motion(q, nullptr, ws);
  return deepest_spatial_overlap_m(impl_->contacts, impl_->description, ws.bodies, ws.sweep, where);
}

void SpatialBodies::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                             const QuantityRequest& request, SystemWorkspace& workspace,
                             StateQuantities& out) const {
  const Impl& impl = *impl_;
  impl.check_sizes(q, &v);
  SpatialWorkspace& ws = impl.own(workspace, *this);
  out.inverse_mass = nullptr;
  if (request.mass_matrix) out.mass_matrix = impl.mass_matrix;
  impl.read_motion(q, &v, ws);
  const SpatialBodiesDescription& d = impl.description;
  if (request.generalized_force) {
    // gravity and the ground frame's inertial load act alike on every centre of mass
    const Eigen::Vector3d field =
        d.gravity_m_s2 -
        (d.ground_acceleration ? d.ground_acceleration(t) : Eigen::Vector3d::Zero().eval());
    out.generalized_force.resize(velocity_count());
    for (std::size_t b = 0; b < d.bodies.size(); ++b) {
      const int vs = spatial_velocity_start(static_cast<int>(b));
      const Eigen::Vector3d& omega = ws.bodies[b].angular_velocity;
      out.generalized_force.segment<3>(vs) = d.bodies[b].mass_kg * field;
      // Euler's equations in the body frame: I ω̇ = −ω × (I ω) + torques
      out.generalized_force.segment<3>(vs + 3) =
          -omega.cross(d.bodies[b].inertia_kg_m2.cwiseProduct(omega));
    }
  }
  if (request.contacts)
    impl.contact_kinematics(request.contact_subset, request.held_contacts, ws, out.contacts);
  if (request.potential_energy) {
    out.potential_energy = 0.0;
    for (std::size_t b = 0; b < d.bodies.size(); ++b)
      out.potential_energy -= d.bodies[b].mass_kg * d.gravity_m_s2.dot(ws.bodies[b].position_m);
  }
}

bool SpatialBodies::flat_base(const Eigen::VectorXd& q, int contact, SystemWorkspace& workspace,
                              ContactBase& base) const {
  const Impl& impl = *impl_;
  const std::vector<SpatialContact>& all = impl.contacts.contacts;
  if (contact < 0 || contact >= static_cast<int>(all.size()))
    throw std::invalid_argument(cat("spatial bodies: no contact ", contact));
  const SpatialContact& end = all[static_cast<std::size_t>(contact)];
  if (end.rim < 0) return false;
  impl.check_sizes(q, nullptr);
  SpatialWorkspace& ws = impl.own(workspace, *this);
  impl.read_motion(q, nullptr, ws);
  const SpatialPlane& plane = impl.description.planes[static_cast<std::size_t>(end.plane)];
  if (!rim_lies_flat(end, ws.bodies[static_cast<std::size_t>(end.body)], plane)) return false;
  // a rim's four ends are consecutive, x+ first (spatial_contacts())
  int first = contact;
  while (first > 0 && all[static_cast<std::size_t>(first - 1)].rim == end.rim) --first;
  const Eigen::Vector2d& direction = ws.bases[static_cast<std::size_t>(end.rim)];
  base.contacts.clear();
  base.points_m.clear();
  for (int k = first; k < first + 4; ++k) {
    base.contacts.push_back(k);
    base.points_m.push_back(flat_base_point(all[static_cast<std::size_t>(k)], direction));
  }
  base.radius_m = end.radius_m;
  base.direction = direction;
  return true;
}

void SpatialBodies::orient_base(int contact, const Eigen::Vector2d& direction,
                                SystemWorkspace& workspace) const {
  const std::vector<SpatialContact>& all = impl_->contacts.contacts;
  if (contact < 0 || contact >= static_cast<int>(all.size()))
    throw std::invalid_argument(cat("spatial bodies: no contact ", contact));
  const int rim = all[static_cast<std::size_t>(contact)].rim;
  if (rim < 0) return;
  impl_->own(workspace, *this).bases[static_cast<std::size_t>(rim)] = direction.normalized();
}

namespace {

void note_body_velocities(int body, std::vector<int>& touched) {
  for (int j = 0; j < 6; ++j) touched.push_back(spatial_velocity_start(body) + j);
}

}  // namespace

void SpatialBodies::Impl::contact_kinematics(const std::vector<int>* subset,
                                             const std::vector<bool>* held,
                                             const SpatialWorkspace& ws,
                                             ContactKinematics& out) const {
  const std::vector<SpatialContact>& all = contacts.contacts;
  const auto count = static_cast<Eigen::Index>(subset ? subset->size() : all.size());
  clear_contact_rows(3 * count, 6 * static_cast<Eigen::Index>(description.bodies.size()), 3, out);
  out.gap.resize(count);
  out.jacobian_dot_v.resize(3 * count);
  out.support.resize(count);
  for (Eigen::Index i = 0; i < count; ++i) {
    const int k = subset ? (*subset)[static_cast<std::size_t>(i)] : static_cast<int>(i);
    if (k < 0 || k >= static_cast<int>(all.size()))
      throw std::invalid_argument(
          cat("spatial bodies: no contact ", k, " (it has ", all.size(), ")"));
    const SpatialContact& contact = all[static_cast<std::size_t>(k)];
    const SpatialBodyMotion& body = ws.bodies[static_cast<std::size_t>(contact.body)];
    const SpatialBodyMotion* other =
        contact.other >= 0 ? &ws.bodies[static_cast<std::size_t>(contact.other)] : nullptr;
    const SpatialPlane* plane =
        contact.plane >= 0 ? &description.planes[static_cast<std::size_t>(contact.plane)] : nullptr;
    const bool is_held = held && (*held)[static_cast<std::size_t>(i)];
    const SpatialContactRows rows =
        spatial_contact_rows(contact, body, other, plane, base_of(contact, ws.bases), is_held);
    out.gap[i] = rows.gap_m;
    out.support[i] = rows.support_m;
    out.jacobian_dot_v.segment<3>(3 * i) = rows.jacobian_dot_v;
    out.jacobian.block<3, 6>(3 * i, spatial_velocity_start(contact.body)) = rows.body_rows;
    // the pair's bodies in ascending order (a < b by construction)
    note_body_velocities(contact.body, out.touched_velocities);
    if (other) {
      out.jacobian.block<3, 6>(3 * i, spatial_velocity_start(contact.other)) = rows.other_rows;
      note_body_velocities(contact.other, out.touched_velocities);
    }
    out.touched_start.push_back(static_cast<int>(out.touched_velocities.size()));
  }
}

}  // namespace routh
