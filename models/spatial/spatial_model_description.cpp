// spatial_model_description_json() (models/spatial/spatial_bodies.hpp): the planar description's
// manner (models/planar/model_description.hpp) for bodies in 3D. Each body is described about its
// centre of mass with its body axes, so that its pose is (x, y, z) and the unit quaternion
// (qw, qx, qy, qz) of its coordinates.

#include <sstream>
#include <variant>

#include "models/planar/model_description.hpp"
#include "models/spatial/spatial_bodies.hpp"
#include "sim/json_writer.hpp"

namespace routh {

namespace {

void write_vector(JsonWriter& json, const Eigen::Vector3d& vector) {
  json.begin_array(JsonLayout::one_line);
  // + 0.0 turns −0 into 0, which a reader compares more easily
  for (int i = 0; i < 3; ++i) json.value(vector[i] + 0.0);
  json.end_array();
}

void write_names(JsonWriter& json, const std::vector<std::string>& names) {
  json.begin_array(JsonLayout::one_line);
  for (const std::string& name : names) json.value(name);
  json.end_array();
}

void write_shape(JsonWriter& json, const SpatialShape& shape) {
  json.begin_object(JsonLayout::one_line);
  if (const auto* sphere = std::get_if<SphereShape>(&shape)) {
    json.key("sphere");
    json.begin_object();
    json.key("radius");
    json.value(sphere->radius_m);
    json.key("centre");
    write_vector(json, sphere->centre_m);
    json.end_object();
  } else if (const auto* box = std::get_if<BoxShape>(&shape)) {
    json.key("box");
    json.begin_object();
    json.key("size");
    write_vector(json, box->size_m);
    json.end_object();
  } else {
    const auto& cylinder = std::get<CylinderShape>(shape);
    json.key("cylinder");
    json.begin_object();
    json.key("radius");
    json.value(cylinder.radius_m);
    json.key("height");
    json.value(cylinder.height_m);
    json.end_object();
  }
  json.end_object();
}

void write_bodies(JsonWriter& json, const SpatialBodies& bodies) {
  json.begin_array();
  for (int b = 0; b < bodies.body_count(); ++b) {
    const SpatialBody& body = bodies.description().bodies[static_cast<std::size_t>(b)];
    json.begin_object(JsonLayout::one_line);
    json.key("name");
    json.value(body.name);
    json.key("mass");
    json.value(body.mass_kg);
    json.key("inertia");
    write_vector(json, body.inertia_kg_m2);
    json.key("shape");
    write_shape(json, body.shape);
    json.key("first_coordinate");
    json.value(spatial_coordinate_start(b));
    json.key("first_velocity");
    json.value(spatial_velocity_start(b));
    json.end_object();
  }
  json.end_array();
}

void write_planes(JsonWriter& json, const std::vector<SpatialPlane>& planes) {
  json.begin_array();
  for (const SpatialPlane& plane : planes) {
    json.begin_object(JsonLayout::one_line);
    json.key("name");
    json.value(plane.name);
    json.key("point");
    write_vector(json, plane.point_m);
    json.key("normal");
    write_vector(json, plane.normal);
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
  json.key("planes");
  write_planes(json, description.planes);
  json.key("collide_bodies");
  json.value(description.collide_bodies);
  json.key("contacts");
  write_names(json, bodies.contact_names());
  json.end_object();
  return text.str();
}

}  // namespace routh
