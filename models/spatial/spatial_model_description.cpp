// spatial_model_description_json() (models/spatial/spatial_bodies.hpp): the planar description's
// manner (models/planar/model_description.hpp) for bodies in 3D, field by field as docs/output.md
// gives it. Each body is described about its centre of mass with its body axes, so that its pose
// is (x, y, z) and the unit quaternion (qw, qx, qy, qz) of its coordinates.

#include <sstream>
#include <variant>

#include "models/planar/model_description.hpp"
#include "models/spatial/spatial_bodies.hpp"
#include "models/spatial/spatial_contact_geometry.hpp"
#include "sim/json_vectors.hpp"

namespace routh {

namespace {

void write_shape(JsonWriter& json, const SpatialShape& shape) {
  json.begin_object(JsonLayout::one_line);
  json.key("type");
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    json.value("sphere");
    json.key("radius");
    json.value(sphere->radius_m);
    json.key("centre");
    write_vector(json, sphere->centre_m);
  } else if (const auto* box = std::get_if<BoxShape>(&shape)) {
    json.value("box");
    json.key("size");
    write_vector(json, box->size_m);
  } else {
    const auto& cylinder = std::get<CylinderShape>(shape);
    json.value("cylinder");
    json.key("radius");
    json.value(cylinder.radius_m);
    json.key("height");
    json.value(cylinder.height_m);
  }
  json.end_object();
}

void write_columns(JsonWriter& json, int first, int count) {
  json.begin_array(JsonLayout::one_line);
  for (int i = first; i < first + count; ++i) json.value(i);
  json.end_array();
}

void write_bodies(JsonWriter& json, const SpatialBodies& bodies) {
  json.begin_array();
  for (int b = 0; b < bodies.body_count(); ++b) {
    const SpatialBody& body = bodies.description().bodies[static_cast<std::size_t>(b)];
    const int first = spatial_coordinate_start(b);
    json.begin_object(JsonLayout::one_line);
    json.key("name");
    json.value(body.name);
    json.key("mass");
    json.value(body.mass_kg);
    json.key("inertia");
    write_vector(json, body.inertia_kg_m2);
    json.key("shape");
    write_shape(json, body.shape);
    json.key("coordinates");
    write_names(json, {bodies.coordinate_names().begin() + first,
                       bodies.coordinate_names().begin() + first + 7});
    json.key("columns");
    write_columns(json, first, 7);
    json.key("velocity_columns");
    write_columns(json, spatial_velocity_start(b), 6);
    json.end_object();
  }
  json.end_array();
}

void write_obstacles(JsonWriter& json, const std::vector<SpatialPlane>& planes) {
  json.begin_array();
  for (const SpatialPlane& plane : planes)
    write_plane_obstacle(json, plane.name, "plane", plane.point_m, plane.normal);
  json.end_array();
}

// The contacts in the model's order (spatial_contacts() makes them the same way).
void write_contacts(JsonWriter& json, const SpatialBodiesDescription& description) {
  std::vector<std::string> names;
  const std::vector<SpatialContact> contacts = spatial_contacts(description, names);
  json.begin_array();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const SpatialContact& contact = contacts[k];
    json.begin_object(JsonLayout::one_line);
    json.key("name");
    json.value(names[k]);
    json.key("body");
    json.value(description.bodies[static_cast<std::size_t>(contact.body)].name);
    if (contact.plane >= 0) {
      json.key("obstacle");
      json.value(description.planes[static_cast<std::size_t>(contact.plane)].name);
    } else {
      json.key("other");
      json.value(description.bodies[static_cast<std::size_t>(contact.other)].name);
    }
    json.end_object();
  }
  json.end_array();
}

}  // namespace

std::string spatial_model_description_json(const SpatialBodies& bodies) {
  const SpatialBodiesDescription& description = bodies.description();
  std::ostringstream text;
  JsonWriter json(text);
  json.begin_object();
  json.key("format");
  json.value("routh-model");
  json.key("format_version");
  json.value(kModelDescriptionVersion);
  json.key("dimension");
  json.value(3);
  json.key("conventions");
  json.value(
      "SI units; world frame z up; a body's position is its centre of mass [m], its orientation "
      "the unit quaternion (qw, qx, qy, qz) that turns body-frame vectors into world-frame ones; "
      "its angular velocity is in the body frame; shapes are in the body's axes about its centre "
      "of mass; a plane's free side is where normal . (p - point) >= 0");
  json.key("gravity");
  write_vector(json, description.gravity_m_s2);
  json.key("coordinates");
  write_names(json, bodies.coordinate_names());
  json.key("coordinate_units");
  write_names(json, bodies.coordinate_units());
  json.key("velocities");
  write_names(json, bodies.velocity_names());
  json.key("velocity_units");
  write_names(json, bodies.velocity_units());
  json.key("bodies");
  write_bodies(json, bodies);
  json.key("obstacles");
  write_obstacles(json, description.planes);
  json.key("collide_bodies");
  json.value(description.collide_bodies);
  json.key("contacts");
  write_contacts(json, description);
  json.end_object();
  return text.str();
}

}  // namespace routh
