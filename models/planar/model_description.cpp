#include "models/planar/model_description.hpp"

#include <cmath>
#include <sstream>
#include <type_traits>
#include <variant>
#include <vector>

#include "sim/json_vectors.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// A ground-fixed half-plane the description names: the tree's obstacles, then the half-planes of
// listed contacts that are none of them (a pendulum's wall lives in its tip's contact only).
struct NamedSurface {
  std::string name;
  HalfPlane surface;
};

bool same_surface(const HalfPlane& a, const HalfPlane& b) {
  return a.normal == b.normal && std::abs(a.distance(b.point_m)) == 0.0;
}

// What a reader calls the surface, from where its free side faces.
std::string surface_kind(const HalfPlane& surface) {
  const Eigen::Vector2d& n = surface.normal;
  if (n.x() == 0.0) return n.y() > 0.0 ? "floor" : "ceiling";
  if (n.y() == 0.0) return "wall";
  return "slope";
}

std::vector<NamedSurface> named_surfaces(const PlanarTree& tree) {
  std::vector<NamedSurface> surfaces;
  for (const Obstacle& obstacle : tree.description().obstacles) {
    surfaces.push_back({obstacle.name, obstacle.surface});
  }
  for (const ContactGeometry& contact : tree.description().contacts) {
    bool known = false;
    for (const NamedSurface& named : surfaces)
      known = known || same_surface(named.surface, contact.obstacle);
    if (known) continue;
    std::string name = surface_kind(contact.obstacle);
    int same_kind = 0;
    for (const NamedSurface& named : surfaces) same_kind += named.name.rfind(name, 0) == 0 ? 1 : 0;
    if (same_kind > 0) name = cat(name, same_kind + 1);
    surfaces.push_back({name, contact.obstacle});
  }
  return surfaces;
}

const std::string& surface_name(const std::vector<NamedSurface>& surfaces,
                                const HalfPlane& surface) {
  for (const NamedSurface& named : surfaces) {
    if (same_surface(named.surface, surface)) return named.name;
  }
  static const std::string unknown = "?";  // every contact's surface is named above
  return unknown;
}

// The shape relative to the centre of mass `com` (body frame axes).
void write_shape(JsonWriter& json, const std::optional<Shape>& shape, const Eigen::Vector2d& com) {
  if (!shape) {
    json.null();
    return;
  }
  json.begin_object(JsonLayout::one_line);
  if (const auto* disk = std::get_if<DiskShape>(&*shape)) {
    json.key("type");
    json.value("disk");
    json.key("radius");
    json.value(disk->radius_m);
    json.key("centre");
    write_vector(json, disk->centre_m - com);
  } else {
    const auto& polygon = std::get<PolygonShape>(*shape);
    json.key("type");
    json.value(polygon.vertices_m.size() == 2 ? "segment" : "polygon");
    json.key("vertices");
    json.begin_array(JsonLayout::one_line);
    for (const Eigen::Vector2d& vertex : polygon.vertices_m) write_vector(json, vertex - com);
    json.end_array();
    json.key("vertex_names");
    write_names(json, polygon.vertex_names);
    json.key("edge_names");
    write_names(json, polygon.edge_names);
  }
  json.end_object();
}

const char* joint_type_name(JointType type) {
  switch (type) {
    case JointType::revolute: return "revolute";
    case JointType::prismatic: return "prismatic";
    case JointType::free: return "free";
  }
  return "?";
}

void write_joint(JsonWriter& json, const PlanarTree& tree, int body) {
  const PlanarTreeDescription& description = tree.description();
  const PlanarJoint& joint = description.joints[static_cast<std::size_t>(body)];
  const Eigen::Vector2d com = description.bodies[static_cast<std::size_t>(body)].centre_of_mass_m;
  json.begin_object();
  json.key("type");
  json.value(joint_type_name(joint.type));
  json.key("parent");
  Eigen::Vector2d parent_com = Eigen::Vector2d::Zero();
  if (joint.parent == kGround) {
    json.null();
  } else {
    const auto parent = static_cast<std::size_t>(joint.parent);
    json.value(description.body_names[parent]);
    parent_com = description.bodies[parent].centre_of_mass_m;
  }
  json.key("parent_point");
  write_vector(json, joint.location_m - parent_com);
  json.key("child_point");
  write_vector(json, -com);
  json.key("coordinates");
  write_names(json, joint.coordinate_names);
  json.key("columns");
  json.begin_array(JsonLayout::one_line);
  for (int k = 0; k < joint.dof_count(); ++k) json.value(tree.first_coordinate(body) + k);
  json.end_array();
  if (joint.rotates()) {
    json.key("angle");
    json.value(to_string(joint.angle_reference));
  }
  if (joint.type == JointType::prismatic) {
    json.key("axis");
    write_vector(json, joint.axis);
  }
  json.end_object();
}

void write_bodies(JsonWriter& json, const PlanarTree& tree) {
  const PlanarTreeDescription& description = tree.description();
  json.begin_array();
  for (int b = 0; b < tree.body_count(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const PlanarBody& body = description.bodies[i];
    json.begin_object();
    json.key("name");
    json.value(description.body_names[i]);
    json.key("mass");
    json.value(body.mass_kg);
    json.key("inertia");
    json.value(body.inertia_kg_m2);
    json.key("shape");
    write_shape(json, description.shapes.empty() ? std::nullopt : description.shapes[i],
                body.centre_of_mass_m);
    json.key("joint");
    write_joint(json, tree, b);
    json.end_object();
  }
  json.end_array();
}

void write_obstacles(JsonWriter& json, const std::vector<NamedSurface>& surfaces) {
  json.begin_array();
  for (const NamedSurface& named : surfaces)
    write_plane_obstacle(json, named.name, surface_kind(named.surface), named.surface.point_m,
                         named.surface.normal);
  json.end_array();
}

void write_contacts(JsonWriter& json, const PlanarTree& tree,
                    const std::vector<NamedSurface>& surfaces) {
  const PlanarTreeDescription& description = tree.description();
  const auto body_name = [&](int body) -> const std::string& {
    return description.body_names[static_cast<std::size_t>(body)];
  };
  const auto com = [&](int body) -> const Eigen::Vector2d& {
    return description.bodies[static_cast<std::size_t>(body)].centre_of_mass_m;
  };
  json.begin_array();
  const std::vector<TreeContact>& contacts = tree.contacts();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    json.begin_object(JsonLayout::one_line);
    json.key("name");
    json.value(tree.contact_names()[k]);
    std::visit(
        [&](const auto& contact) {
          using Contact = std::decay_t<decltype(contact)>;
          json.key("body");
          json.value(body_name(contact.body));
          if constexpr (std::is_same_v<Contact, ContactGeometry>) {
            json.key("obstacle");
            json.value(surface_name(surfaces, contact.obstacle));
            json.key("point");
            write_vector(json, contact.centre_m - com(contact.body));
            json.key("radius");
            json.value(contact.radius_m);
          } else {
            json.key("other");
            json.value(body_name(contact.other));
          }
        },
        contacts[k]);
    json.end_object();
  }
  json.end_array();
}

}  // namespace

std::string model_description_json(const PlanarTree& tree) {
  std::ostringstream text;
  JsonWriter json(text);
  json.begin_object();
  json.key("format");
  json.value("routh-model");
  json.key("format_version");
  json.value(kModelDescriptionVersion);
  json.key("conventions");
  json.value(
      "SI units; world frame x right, y up; a body's position is its centre of mass [m], its "
      "angle counter-clockwise [rad]; shapes, joint points and contact points are in the body's "
      "axes relative to its centre of mass; p_com = p_parent + R(phi_parent) (parent_point + d) - "
      "R(phi) child_point");
  json.key("gravity");
  write_vector(json, tree.description().gravity_m_s2);
  json.key("coordinates");
  write_names(json, tree.coordinate_names());
  json.key("coordinate_units");
  write_names(json, tree.coordinate_units());
  json.key("bodies");
  write_bodies(json, tree);
  const std::vector<NamedSurface> surfaces = named_surfaces(tree);
  json.key("obstacles");
  write_obstacles(json, surfaces);
  json.key("collide_bodies");
  json.value(tree.description().collide_bodies);
  json.key("contacts");
  write_contacts(json, tree, surfaces);
  json.end_object();
  return text.str();
}

}  // namespace routh
