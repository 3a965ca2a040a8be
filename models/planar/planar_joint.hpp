#pragma once
// A joint attaching a child body to its parent (another body, or the ground) in a planar tree.
// Each joint contributes its degrees of freedom to q in order: first its translations (along axes
// fixed in the parent frame), then its rotation. Angles are counter-clockwise positive.
//
//   revolute   1 dof  θ: the child frame's origin is the joint location; its angle is the
//                        parent's angle + θ (relative) or θ itself (absolute, i.e. measured from
//                        the ground's x-axis frame whatever the parent does).
//   prismatic  1 dof  s: the child origin is location + s·axis (parent frame); angle = parent's.
//   free       3 dof  x, y, θ: child origin = location + (x, y) (parent frame); angle as revolute.
//
// A spring-damper may act on each degree of freedom, on the joint's relative displacement: for a
// rotation that is φ_child − φ_parent even when θ is an absolute angle, so the spring is a
// physical torsion spring between the two bodies.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace routh {

/// The ground: the parent of root joints.
inline constexpr int kGround = -1;

enum class JointType { revolute, prismatic, free };

/// What a joint's angle coordinate measures.
enum class AngleReference {
  relative,  ///< θ = φ_child − φ_parent (the usual joint angle)
  absolute,  ///< θ = φ_child, measured against the ground frame (Kane–Levinson's choice)
};

/// "relative" or "absolute": the reference's name in scenarios and in the trajectory's /model.
inline std::string_view to_string(AngleReference reference) {
  return reference == AngleReference::relative ? "relative" : "absolute";
}

/// The reference `text` names, or nothing when it names neither.
inline std::optional<AngleReference> angle_reference_named(std::string_view text) {
  for (AngleReference reference : {AngleReference::relative, AngleReference::absolute}) {
    if (text == to_string(reference)) return reference;
  }
  return std::nullopt;
}

/// A linear spring and damper on one degree of freedom: generalized force
/// −k (d − rest) − c ḋ on the relative displacement d, potential energy ½ k (d − rest)².
struct JointSpring {
  double stiffness = 0.0;  ///< k ≥ 0 [N/m] or [N m/rad]
  double rest = 0.0;       ///< rest displacement [m] or [rad]
  double damping = 0.0;    ///< c ≥ 0 [N s/m] or [N m s/rad]
};

struct PlanarJoint {
  JointType type = JointType::revolute;
  int parent = kGround;                                  ///< index of the parent body, or kGround
  Eigen::Vector2d location_m = Eigen::Vector2d::Zero();  ///< in the parent frame [m]
  Eigen::Vector2d axis = Eigen::Vector2d::UnitX();  ///< prismatic only: unit axis, parent frame
  AngleReference angle_reference = AngleReference::relative;
  std::vector<std::string> coordinate_names;        ///< one per dof, translations first
  std::vector<std::optional<JointSpring>> springs;  ///< empty, or one (possibly empty) per dof

  /// Number of degrees of freedom: 1, 1 or 3.
  int dof_count() const { return type == JointType::free ? 3 : 1; }
  /// Number of translational degrees of freedom (they come first).
  int translation_count() const {
    return type == JointType::free ? 2 : (type == JointType::prismatic ? 1 : 0);
  }
  bool rotates() const { return type != JointType::prismatic; }
};

/// A revolute joint at `location_m` in the parent frame, coordinate `name`.
inline PlanarJoint revolute_joint(int parent, const Eigen::Vector2d& location_m, std::string name,
                                  AngleReference reference = AngleReference::relative) {
  PlanarJoint joint;
  joint.type = JointType::revolute;
  joint.parent = parent;
  joint.location_m = location_m;
  joint.angle_reference = reference;
  joint.coordinate_names = {std::move(name)};
  return joint;
}

/// A prismatic joint sliding along the unit `axis` (parent frame) from `location_m`.
inline PlanarJoint prismatic_joint(int parent, const Eigen::Vector2d& location_m,
                                   const Eigen::Vector2d& axis, std::string name) {
  PlanarJoint joint;
  joint.type = JointType::prismatic;
  joint.parent = parent;
  joint.location_m = location_m;
  joint.axis = axis;
  joint.coordinate_names = {std::move(name)};
  return joint;
}

/// A free joint (x, y, θ); by default to the ground, so that (x, y) is where the body origin is.
inline PlanarJoint free_joint(std::string x = "x", std::string y = "y", std::string theta = "theta",
                              int parent = kGround) {
  PlanarJoint joint;
  joint.type = JointType::free;
  joint.parent = parent;
  joint.coordinate_names = {std::move(x), std::move(y), std::move(theta)};
  return joint;
}

}  // namespace routh
