#include "models/planar/planar_tree.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "models/contact_rows.hpp"
#include "models/planar/body_overlap.hpp"
#include "models/planar/planar_broad_phase.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr double kUnitTolerance = 1e-9;  // |axis|, |normal| must be 1 to this

bool is_unit(const Eigen::Vector2d& direction) {
  return std::abs(direction.norm() - 1.0) <= kUnitTolerance;
}

void check_body(const std::string& name, const PlanarBody& body) {
  if (!(body.mass_kg > 0.0) || !std::isfinite(body.mass_kg)) {
    throw std::invalid_argument(cat("body ", name, ": mass ", body.mass_kg, " kg must be > 0"));
  }
  if (!(body.inertia_kg_m2 >= 0.0) || !std::isfinite(body.inertia_kg_m2)) {
    throw std::invalid_argument(
        cat("body ", name, ": inertia ", body.inertia_kg_m2, " kg m^2 must be >= 0"));
  }
}

void check_joint(const std::string& name, int index, const PlanarJoint& joint) {
  if (joint.parent < kGround || joint.parent >= index) {
    throw std::invalid_argument(cat("body ", name, ": parent ", joint.parent,
                                    " must be the ground (-1) or a body added before it"));
  }
  if (static_cast<int>(joint.coordinate_names.size()) != joint.dof_count()) {
    throw std::invalid_argument(cat("body ", name, ": joint has ", joint.dof_count(),
                                    " degrees of freedom but ", joint.coordinate_names.size(),
                                    " coordinate names"));
  }
  if (!joint.springs.empty() && static_cast<int>(joint.springs.size()) != joint.dof_count()) {
    throw std::invalid_argument(
        cat("body ", name, ": joint needs no springs or one per dof, not ", joint.springs.size()));
  }
  if (joint.type == JointType::prismatic && !is_unit(joint.axis)) {
    throw std::invalid_argument(cat("body ", name, ": prismatic axis must be a unit vector"));
  }
}

void check_contact(const std::string& name, const ContactGeometry& contact, int body_count) {
  if (contact.body < 0 || contact.body >= body_count) {
    throw std::invalid_argument(cat("contact ", name, ": body ", contact.body, " does not exist"));
  }
  if (!(contact.radius_m >= 0.0)) {
    throw std::invalid_argument(
        cat("contact ", name, ": radius ", contact.radius_m, " m must be >= 0"));
  }
  if (!is_unit(contact.obstacle.normal)) {
    throw std::invalid_argument(cat("contact ", name, ": obstacle normal must be a unit vector"));
  }
}

void check_shapes(const PlanarTreeDescription& d) {
  if (!d.shapes.empty() && d.shapes.size() != d.bodies.size()) {
    throw std::invalid_argument(cat("planar tree: ", d.shapes.size(), " shapes for ",
                                    d.bodies.size(), " bodies (none, or one per body)"));
  }
  for (std::size_t b = 0; b < d.shapes.size(); ++b) {
    if (d.shapes[b]) check_shape(*d.shapes[b], d.body_names[b]);
  }
}

void check_obstacle(const Obstacle& obstacle) {
  if (obstacle.name.empty()) throw std::invalid_argument("obstacle: empty name");
  if (!obstacle.surface.point_m.allFinite() || !is_unit(obstacle.surface.normal)) {
    throw std::invalid_argument(
        cat("obstacle ", obstacle.name, ": needs a finite point and a unit normal"));
  }
}

// Hashed, not compared pairwise: a stack's contact names grow with the square of its blocks.
void check_unique(const std::vector<std::string>& names, const char* what) {
  std::unordered_set<std::string_view> seen;
  seen.reserve(names.size());
  for (const std::string& name : names) {
    if (!seen.insert(name).second) {
      throw std::invalid_argument(cat(what, " name '", name, "' is used twice"));
    }
  }
}

}  // namespace

PlanarTree::PlanarTree(PlanarTreeDescription description) : description_(std::move(description)) {
  const PlanarTreeDescription& d = description_;
  if (d.bodies.size() != d.joints.size() || d.bodies.size() != d.body_names.size() ||
      d.contacts.size() != d.contact_names.size()) {
    throw std::invalid_argument("planar tree: one joint and one name per body and per contact");
  }
  for (std::size_t i = 0; i < d.bodies.size(); ++i) {
    check_body(d.body_names[i], d.bodies[i]);
    check_joint(d.body_names[i], static_cast<int>(i), d.joints[i]);
    columns_.first_coordinate.push_back(coordinate_count_);
    const PlanarJoint& joint = d.joints[i];
    for (int k = 0; k < joint.dof_count(); ++k) {
      coordinate_names_.push_back(joint.coordinate_names[static_cast<std::size_t>(k)]);
      coordinate_units_.emplace_back(k < joint.translation_count() ? "m" : "rad");
    }
    std::vector<int> moving =
        joint.parent == kGround ? std::vector<int>{}
                                : columns_.body_velocities[static_cast<std::size_t>(joint.parent)];
    for (int k = 0; k < joint.dof_count(); ++k) moving.push_back(coordinate_count_ + k);
    columns_.body_velocities.push_back(std::move(moving));
    coordinate_count_ += joint.dof_count();
  }
  for (std::size_t k = 0; k < d.contacts.size(); ++k) {
    check_contact(d.contact_names[k], d.contacts[k], body_count());
  }
  check_shapes(d);
  std::vector<std::string> obstacle_names;
  for (const Obstacle& obstacle : d.obstacles) {
    check_obstacle(obstacle);
    obstacle_names.push_back(obstacle.name);
  }
  check_unique(coordinate_names_, "coordinate");
  check_unique(d.body_names, "body");
  check_unique(obstacle_names, "obstacle");
  contacts_ = planar_contact_set(d);
  check_unique(contacts_.names, "contact");
  check_mass_matrix();
  if (mass_matrix_is_constant()) {
    Eigen::MatrixXd M;
    mass_matrix(Eigen::VectorXd::Zero(coordinate_count_), M);
    constant_mass_matrix_ = std::move(M);
  }
  applies_inverse_mass_ = !constant_mass_matrix_ &&
                          std::count_if(d.joints.begin(), d.joints.end(), [](const PlanarJoint& j) {
                            return j.parent == kGround;
                          }) == 1;
}

// Bodies hanging from the ground with their centres of mass at their frames' origins have
// constant centre and angle Jacobians (unit columns), hence a constant M: a ball, a rod, a block.
bool PlanarTree::mass_matrix_is_constant() const {
  for (std::size_t b = 0; b < description_.bodies.size(); ++b) {
    if (description_.joints[b].parent != kGround) return false;
    if (!description_.bodies[b].centre_of_mass_m.isZero()) return false;
  }
  return true;
}

// M(q) is only checked at two configurations: q = 0 and an arbitrary generic one, since a
// valid tree may be singular at special poses (a point mass at the pivot of a polar arm at q = 0).
// Singular at both, some coordinate almost surely moves no mass or inertia at all.
void PlanarTree::check_mass_matrix() const {
  if (coordinate_count_ == 0) throw std::invalid_argument("planar tree: no coordinates");
  for (const double pose : {0.0, 0.37}) {
    Eigen::MatrixXd M;
    mass_matrix(Eigen::VectorXd::Constant(coordinate_count_, pose), M);
    if (Eigen::LLT<Eigen::MatrixXd>(M).info() == Eigen::Success) return;
  }
  throw std::invalid_argument(
      "planar tree: M(q) is not positive definite (a coordinate moves no mass or inertia)");
}

// Positions only: the bodies placed at q, at rest.
const TreeMotion& PlanarTree::placed_at(const Eigen::VectorXd& q,
                                        SystemWorkspace& workspace) const {
  PlanarTreeWorkspace& ws = own(workspace);
  if (ws.no_velocity.size() != coordinate_count_) ws.no_velocity.setZero(coordinate_count_);
  check_sizes(q, ws.no_velocity);
  forward_kinematics(description_.joints, columns_, q, ws.no_velocity, ws.motion);
  return ws.motion;
}

void PlanarTree::nearby_contacts(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                                 std::vector<int>& nearby) const {
  nearby_planar_contacts(contacts_, placed_at(q, workspace), nearby);
}

double PlanarTree::broad_phase_step_bound_s(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                            SystemWorkspace& workspace) const {
  if (contacts_.pair_groups.empty()) return std::numeric_limits<double>::infinity();
  PlanarTreeWorkspace& ws = own(workspace);
  check_sizes(q, v);
  forward_kinematics(description_.joints, columns_, q, v, ws.motion);
  return routh::broad_phase_step_bound_s(contacts_, ws.motion);
}

double PlanarTree::deepest_overlap_m(const Eigen::VectorXd& q, SystemWorkspace& workspace,
                                     std::string* where) const {
  const BodyOverlap overlap = deepest_body_overlap(q, workspace);
  if (where != nullptr && overlap.body >= 0) *where = describe(overlap, description_);
  return overlap.depth_m;
}

BodyOverlap PlanarTree::deepest_body_overlap(const Eigen::VectorXd& q,
                                             SystemWorkspace& workspace) const {
  return routh::deepest_body_overlap(description_, contacts_, placed_at(q, workspace));
}

std::pair<int, int> PlanarTree::contact_bodies(int contact) const {
  const TreeContact& planar = contacts_.contacts.at(static_cast<std::size_t>(contact));
  return {contact_body(planar), contact_other_body(planar)};
}

int PlanarTree::coordinate_index(const std::string& name) const {
  const auto found = std::find(coordinate_names_.begin(), coordinate_names_.end(), name);
  return found == coordinate_names_.end() ? -1
                                          : static_cast<int>(found - coordinate_names_.begin());
}

Eigen::Vector2d PlanarTree::ground_acceleration(double t_s) const {
  return description_.ground_acceleration ? description_.ground_acceleration(t_s)
                                          : Eigen::Vector2d::Zero();
}

void PlanarTree::check_sizes(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
  if (q.size() != coordinate_count_ || v.size() != coordinate_count_) {
    throw std::invalid_argument(cat("planar tree: q and v must have ", coordinate_count_,
                                    " entries, not ", q.size(), " and ", v.size()));
  }
}

std::unique_ptr<SystemWorkspace> PlanarTree::make_workspace() const {
  return std::make_unique<PlanarTreeWorkspace>(*this);
}

PlanarTreeWorkspace& PlanarTree::own(SystemWorkspace& workspace) const {
  if (!workspace.belongs_to(*this)) {
    throw std::invalid_argument("planar tree: the workspace was made by another model");
  }
  return static_cast<PlanarTreeWorkspace&>(workspace);
}

void PlanarTree::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                          const QuantityRequest& request, SystemWorkspace& workspace,
                          StateQuantities& out) const {
  check_sizes(q, v);
  PlanarTreeWorkspace& ws = own(workspace);
  out.inverse_mass = nullptr;
  if (request.mass_matrix && constant_mass_matrix_) out.mass_matrix = *constant_mass_matrix_;
  const bool sum_mass_matrix = request.mass_matrix && !constant_mass_matrix_;
  const bool factor_mass = request.inverse_mass && applies_inverse_mass_;
  if (!sum_mass_matrix && !factor_mass && !request.generalized_force && !request.contacts &&
      !request.potential_energy) {
    return;  // a constant M is all that was asked: no kinematics needed
  }
  // the contacts of a subset alone (event location follows one) need only their bodies' motion
  const bool contacts_only = !sum_mass_matrix && !factor_mass && !request.generalized_force &&
                             !request.potential_energy && request.contact_subset;
  forward_kinematics(description_.joints, columns_, q, v, ws.motion,
                     contacts_only ? bodies_of(*request.contact_subset, ws) : nullptr);
  if (sum_mass_matrix || request.generalized_force) {
    inertial_terms(t, sum_mass_matrix, request.generalized_force, ws, out);
  }
  if (factor_mass) {
    ws.inverse_mass.factor(description_.joints, description_.bodies, columns_.first_coordinate,
                           ws.motion);
    out.inverse_mass = &ws.inverse_mass;
  }
  if (request.generalized_force) add_spring_forces(ws.motion, q, v, out.generalized_force);
  if (request.contacts)
    contact_kinematics_at(request.contact_subset, request.held_contacts, ws.motion, out.contacts);
  if (request.potential_energy) out.potential_energy = potential_energy_at(ws.motion, q, v);
}

// The bodies that `subset`'s contacts act between, and their ancestors, whose motion theirs
// is computed from.
const std::vector<bool>* PlanarTree::bodies_of(const std::vector<int>& subset,
                                               PlanarTreeWorkspace& ws) const {
  std::vector<bool>& wanted = ws.contact_bodies;
  wanted.assign(static_cast<std::size_t>(body_count()), false);
  for (const int k : subset) {
    if (k < 0 || k >= contact_count()) continue;  // contact_kinematics_at() says so
    const TreeContact& contact = contacts_.contacts[static_cast<std::size_t>(k)];
    for (const int body : {contact_body(contact), contact_other_body(contact)}) {
      if (body != kGround) wanted[static_cast<std::size_t>(body)] = true;
    }
  }
  for (int i = body_count() - 1; i >= 0; --i) {  // parents come first
    const int parent = description_.joints[static_cast<std::size_t>(i)].parent;
    if (wanted[static_cast<std::size_t>(i)] && parent != kGround)
      wanted[static_cast<std::size_t>(parent)] = true;
  }
  return &wanted;
}

// M and the body part of f share each body's centre-of-mass motion.
void PlanarTree::inertial_terms(double t, bool sum_mass_matrix, bool generalized_force,
                                PlanarTreeWorkspace& ws, StateQuantities& out) const {
  Eigen::MatrixXd& M = out.mass_matrix;
  Eigen::VectorXd& f = out.generalized_force;
  // gravity and the ground frame's inertial load act alike on every centre of mass
  const Eigen::Vector2d field = description_.gravity_m_s2 - ground_acceleration(t);
  if (sum_mass_matrix) M.setZero(coordinate_count_, coordinate_count_);
  if (generalized_force) f.setZero(coordinate_count_);
  for (std::size_t b = 0; b < ws.motion.bodies.size(); ++b) {
    const PlanarBody& body = description_.bodies[b];
    const BodyMotion& motion = ws.motion.bodies[b];
    const std::vector<int>& moving = columns_.body_velocities[b];  // J_c and J_φ are zero elsewhere
    // the centre's Jacobian in those columns only (the others keep another body's, unread)
    const Eigen::Vector2d r = motion.rotation * body.centre_of_mass_m;  // [m]
    Eigen::Matrix<double, 2, Eigen::Dynamic>& J_c = ws.point.jacobian;
    if (J_c.cols() != coordinate_count_) J_c.setZero(2, coordinate_count_);
    point_jacobian(motion, r, moving, J_c);
    // plain loops: at a few coordinates Eigen's product kernels cost more than the arithmetic
    const Eigen::RowVectorXd& J_phi = motion.angle_jacobian;
    if (sum_mass_matrix) {
      for (const int j : moving) {
        for (const int i : moving) {
          M(i, j) +=
              body.mass_kg * J_c.col(i).dot(J_c.col(j)) + body.inertia_kg_m2 * J_phi[i] * J_phi[j];
        }
      }
    }
    if (generalized_force) {
      const Eigen::Vector2d load =
          body.mass_kg * (field - material_bias_acceleration(motion, r));            // [N]
      const double torque = -body.inertia_kg_m2 * motion.angular_bias_acceleration;  // [N m]
      for (const int j : moving) f[j] += J_c.col(j).dot(load) + J_phi[j] * torque;
    }
  }
}

// A spring-damper acts on its joint's relative displacement d: q_k for a translation,
// φ_child − φ_parent for a rotation (θ itself for a relative angle), with gradient ∂d/∂q = e_k or
// (J_φ,child − J_φ,parent)ᵀ and rate ḋ = ∂d/∂q v.
JointDisplacement PlanarTree::joint_displacement(const TreeMotion& motion, const Eigen::VectorXd& q,
                                                 const Eigen::VectorXd& v, int joint,
                                                 int dof) const {
  const auto i = static_cast<std::size_t>(joint);
  const PlanarJoint& description = description_.joints[i];
  const int index = columns_.first_coordinate[i] + dof;
  if (dof < description.translation_count()) return {q[index], v[index]};
  const BodyMotion& child = motion.bodies[i];
  if (description.parent == kGround) return {child.angle_rad, child.angular_velocity};
  const BodyMotion& parent = motion.bodies[static_cast<std::size_t>(description.parent)];
  return {child.angle_rad - parent.angle_rad, child.angular_velocity - parent.angular_velocity};
}

void PlanarTree::add_spring_forces(const TreeMotion& motion, const Eigen::VectorXd& q,
                                   const Eigen::VectorXd& v, Eigen::VectorXd& f) const {
  for (int i = 0; i < body_count(); ++i) {
    const auto b = static_cast<std::size_t>(i);
    const PlanarJoint& joint = description_.joints[b];
    for (int k = 0; k < static_cast<int>(joint.springs.size()); ++k) {
      const std::optional<JointSpring>& spring = joint.springs[static_cast<std::size_t>(k)];
      if (!spring) continue;
      const JointDisplacement d = joint_displacement(motion, q, v, i, k);
      const double load =  // [N] or [N m]
          -spring->stiffness * (d.value - spring->rest) - spring->damping * d.rate;
      if (k < joint.translation_count()) {
        f[columns_.first_coordinate[b] + k] += load;
        continue;
      }
      f += load * motion.bodies[b].angle_jacobian.transpose();
      if (joint.parent != kGround) {
        f -=
            load * motion.bodies[static_cast<std::size_t>(joint.parent)].angle_jacobian.transpose();
      }
    }
  }
}

double PlanarTree::potential_energy_at(const TreeMotion& motion, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& v) const {
  double energy = 0.0;  // [J]
  for (int i = 0; i < body_count(); ++i) {
    const auto b = static_cast<std::size_t>(i);
    const PlanarBody& body = description_.bodies[b];
    const Eigen::Vector2d centre =
        motion.bodies[b].origin_m + motion.bodies[b].rotation * body.centre_of_mass_m;
    energy -= body.mass_kg * description_.gravity_m_s2.dot(centre);
    const PlanarJoint& joint = description_.joints[b];
    for (int k = 0; k < static_cast<int>(joint.springs.size()); ++k) {
      const std::optional<JointSpring>& spring = joint.springs[static_cast<std::size_t>(k)];
      if (!spring) continue;
      const double stretch = joint_displacement(motion, q, v, i, k).value - spring->rest;
      energy += 0.5 * spring->stiffness * stretch * stretch;
    }
  }
  return energy;
}

namespace {

// A body's motion with the velocities that move it (its Jacobians are zero in the others).
struct MovingBody {
  const BodyMotion* motion;
  const std::vector<int>* velocities;
};

// Row `row` of J, zero on entry, from a row's terms in the two bodies' velocities (the ground's
// are zero): J_row = linear·J_o + angular·J_φ for each body, written in the velocities that move
// it only, so that a row costs its two bodies' velocities, not the model's.
void write_row(const ContactRow& terms, const MovingBody& body, const MovingBody* other,
               Eigen::Index row, Eigen::MatrixXd& jacobian) {
  const auto add = [&](const VelocityTerms& part, const MovingBody& moving) {
    for (const int j : *moving.velocities) {
      jacobian(row, j) += part.linear.dot(moving.motion->origin_jacobian.col(j)) +
                          part.angular_m * moving.motion->angle_jacobian[j];
    }
  };
  add(terms.body, body);
  if (other) add(terms.other, *other);
}

// The next contact's touched velocities: its body's and the other body's, merged in order.
void note_touched_velocities(const MovingBody& body, const MovingBody* other,
                             ContactKinematics& contacts) {
  std::vector<int>& touched = contacts.touched_velocities;
  if (other) {
    std::set_union(body.velocities->begin(), body.velocities->end(), other->velocities->begin(),
                   other->velocities->end(), std::back_inserter(touched));
  } else {
    touched.insert(touched.end(), body.velocities->begin(), body.velocities->end());
  }
  contacts.touched_start.push_back(static_cast<int>(touched.size()));
}

}  // namespace

void PlanarTree::contact_kinematics_at(const std::vector<int>* subset,
                                       const std::vector<bool>* held, const TreeMotion& motion,
                                       ContactKinematics& contacts) const {
  const std::vector<TreeContact>& all = contacts_.contacts;
  const auto count = static_cast<Eigen::Index>(subset ? subset->size() : all.size());
  clear_contact_rows(2 * count, coordinate_count_, 2, contacts);
  contacts.gap.resize(count);
  contacts.jacobian_dot_v.resize(2 * count);
  contacts.support.resize(count);
  const auto moving_body = [&](const TreeMotion& tree, int b) {
    return MovingBody{&body_motion(tree, b),
                      &columns_.body_velocities[static_cast<std::size_t>(b)]};
  };
  for (Eigen::Index i = 0; i < count; ++i) {
    const int k = subset ? (*subset)[static_cast<std::size_t>(i)] : static_cast<int>(i);
    if (k < 0 || k >= contact_count()) {
      throw std::invalid_argument(
          cat("planar tree: no contact ", k, " (it has ", contact_count(), ")"));
    }
    const TreeContact& contact = all[static_cast<std::size_t>(k)];
    const PairKinematics pair =
        pair_kinematics(contact, motion, held && (*held)[static_cast<std::size_t>(i)]);
    const MovingBody body = moving_body(motion, contact_body(contact));
    const int other = contact_other_body(contact);
    const MovingBody other_body = other == kGround ? body : moving_body(motion, other);
    const MovingBody* other_moving = other == kGround ? nullptr : &other_body;
    contacts.gap[i] = pair.gap_m;
    contacts.support[i] = pair.support_m;
    note_touched_velocities(body, other_moving, contacts);
    write_row(pair.normal, body, other_moving, 2 * i, contacts.jacobian);
    write_row(pair.tangential, body, other_moving, 2 * i + 1, contacts.jacobian);
    contacts.jacobian_dot_v[2 * i] = pair.normal.velocity_product;
    contacts.jacobian_dot_v[2 * i + 1] = pair.tangential.velocity_product;
  }
}

// One-off geometry for checks and tests: positions only, so v = 0.
const TreeMotion& PlanarTree::motion_at(const Eigen::VectorXd& q, TreeMotion& motion) const {
  const Eigen::VectorXd v = Eigen::VectorXd::Zero(coordinate_count_);
  check_sizes(q, v);
  forward_kinematics(description_.joints, columns_, q, v, motion);
  return motion;
}

Eigen::Vector2d PlanarTree::point_position(const Eigen::VectorXd& q, int body,
                                           const Eigen::Vector2d& offset_m) const {
  TreeMotion motion;
  const BodyMotion& moving = motion_at(q, motion).bodies.at(static_cast<std::size_t>(body));
  return moving.origin_m + moving.rotation * offset_m;
}

Eigen::VectorXd PlanarTree::contact_tangential_positions(const Eigen::VectorXd& q) const {
  TreeMotion motion;
  motion_at(q, motion);
  Eigen::VectorXd positions(contact_count());
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const auto* obstacle = std::get_if<ContactGeometry>(&contacts_.contacts[k]);
    if (!obstacle) {
      throw std::logic_error(cat("contact ", contacts_.names[k],
                                 " is between two bodies: tangential positions exist for obstacle "
                                 "contacts only"));
    }
    const ContactGeometry& contact = *obstacle;
    const BodyMotion& body = motion.bodies[static_cast<std::size_t>(contact.body)];
    const Eigen::Vector2d p = body.origin_m + body.rotation * contact.centre_m;
    positions[static_cast<Eigen::Index>(k)] =
        contact.obstacle.tangent().dot(p - contact.obstacle.point_m) +
        contact.radius_m * body.angle_rad;
  }
  return positions;
}

int PlanarTreeBuilder::add_body(std::string name, const PlanarBody& body, PlanarJoint joint) {
  description_.body_names.push_back(std::move(name));
  description_.bodies.push_back(body);
  description_.joints.push_back(std::move(joint));
  if (!description_.shapes.empty()) description_.shapes.emplace_back();
  return static_cast<int>(description_.bodies.size()) - 1;
}

void PlanarTreeBuilder::add_contact(std::string name, const ContactGeometry& contact) {
  description_.contact_names.push_back(std::move(name));
  description_.contacts.push_back(contact);
}

void PlanarTreeBuilder::set_shape(int body, Shape shape) {
  if (body < 0 || body >= static_cast<int>(description_.bodies.size())) {
    throw std::invalid_argument(cat("set_shape: no body ", body));
  }
  description_.shapes.resize(description_.bodies.size());
  description_.shapes[static_cast<std::size_t>(body)] = std::move(shape);
}

void PlanarTreeBuilder::add_obstacle(std::string name, const HalfPlane& surface) {
  description_.obstacles.push_back({std::move(name), surface});
}

void PlanarTreeBuilder::set_body_collisions(bool collide) { description_.collide_bodies = collide; }

void PlanarTreeBuilder::rename_contact(std::string generated, std::string name) {
  description_.contact_aliases.emplace_back(std::move(generated), std::move(name));
}

void PlanarTreeBuilder::set_gravity(const Eigen::Vector2d& gravity_m_s2) {
  description_.gravity_m_s2 = gravity_m_s2;
}

void PlanarTreeBuilder::set_ground_acceleration(GroundAcceleration ground_acceleration) {
  description_.ground_acceleration = std::move(ground_acceleration);
}

std::unique_ptr<PlanarTree> PlanarTreeBuilder::build() const {
  return std::make_unique<PlanarTree>(description_);
}

}  // namespace routh
