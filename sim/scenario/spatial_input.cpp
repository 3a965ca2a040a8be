#include "sim/scenario/spatial_input.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/scenario/model_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

constexpr std::array<std::string_view, 5> kSpatialModelKeys = {"dimension", "gravity", "bodies",
                                                               "obstacles", "collisions"};
constexpr std::array<std::string_view, 4> kBodyKeys = {"name", "mass", "shape", "inertia"};
constexpr std::array<std::string_view, 3> kShapeKinds = {"sphere", "box", "cylinder"};
constexpr std::array<std::string_view, 2> kSphereKeys = {"radius", "centre"};
constexpr std::array<std::string_view, 1> kBoxKeys = {"size"};
constexpr std::array<std::string_view, 2> kCylinderKeys = {"radius", "height"};
constexpr std::array<std::string_view, 4> kPlaneKeys = {"type", "name", "point", "normal"};
constexpr std::array<std::string_view, 1> kCollisionKeys = {"between_bodies"};
constexpr std::array<std::string_view, 1> kOrientationFormKeys = {"rpy"};

// A body's coordinates and velocities after its name, in their order in q and v
// (spatial_bodies.hpp): the position, the quaternion, and the velocities.
constexpr std::array<std::string_view, 3> kPositionSuffixes = {"x", "y", "z"};
constexpr std::array<std::string_view, 4> kQuaternionSuffixes = {"qw", "qx", "qy", "qz"};
constexpr std::array<std::string_view, 6> kVelocitySuffixes = {"vx", "vy", "vz", "wx", "wy", "wz"};
constexpr std::string_view kOrientationSuffix = "orientation";

// A vector whose length is 1 to within a few roundings is taken as unit as written: normalising it
// again would move its last bits, and the effective scenario, which writes normalised normals and
// quaternions, would not read back to the same description.
constexpr double kUnitLengthRoundOff = 4.0 * std::numeric_limits<double>::epsilon();

template <typename Vector>
Vector unit(const Vector& given) {
  return std::abs(given.norm() - 1.0) <= kUnitLengthRoundOff ? given : given.normalized();
}

// A principal moment of inertia is positive: a body with a zero one has no extent about that axis.
constexpr NumberRange kPrincipalInertiaRange{kInertiaRange.low, kInertiaRange.high,
                                             kInertiaRange.unit, true};

// [x, y, z], each in `range`.
Eigen::Vector3d read_triple(const InputNode& node, const NumberRange& range,
                            std::string_view form) {
  if (!node.yaml().IsSequence() || node.yaml().size() != 3) throw node.error(cat("must be ", form));
  const std::vector<InputNode> items = node.items();
  return {read_number_in(items[0], range), read_number_in(items[1], range),
          read_number_in(items[2], range)};
}

YAML::Node flow_list(const Eigen::VectorXd& values) {
  YAML::Node node(YAML::NodeType::Sequence);
  for (const double value : values) node.push_back(number_node(value));
  node.SetStyle(YAML::EmitterStyle::Flow);
  return node;
}

SpatialShape read_shape(const InputNode& node, YAML::Node& described) {
  check_keys(node, kShapeKinds);
  if (node.yaml().size() != 1) {
    throw node.error("must hold one shape: {sphere: ...}, {box: ...} or {cylinder: ...}");
  }
  const auto [kind, spec] = node.entries().front();
  YAML::Node fields(YAML::NodeType::Map);
  SpatialShape shape;
  if (kind == "sphere") {
    check_keys(spec, kSphereKeys);
    SphereShape sphere;
    sphere.radius_m = read_number_in(spec.required("radius"), kLengthRange);
    if (auto centre = spec.find("centre")) {
      sphere.centre_m = read_triple(*centre, kPositionRange, "[x, y, z] in the body frame [m]");
    }
    fields["radius"] = number_node(sphere.radius_m);
    fields["centre"] = flow_list(sphere.centre_m);
    shape = sphere;
  } else if (kind == "box") {
    check_keys(spec, kBoxKeys);
    BoxShape box;
    box.size_m = read_triple(spec.required("size"), kLengthRange, "[a, b, c], the edges [m]");
    fields["size"] = flow_list(box.size_m);
    shape = box;
  } else {
    check_keys(spec, kCylinderKeys);
    CylinderShape cylinder;
    cylinder.radius_m = read_number_in(spec.required("radius"), kLengthRange);
    cylinder.height_m = read_number_in(spec.required("height"), kLengthRange);
    fields["radius"] = number_node(cylinder.radius_m);
    fields["height"] = number_node(cylinder.height_m);
    shape = cylinder;
  }
  fields.SetStyle(YAML::EmitterStyle::Flow);
  described[kind] = fields;
  return shape;
}

// Principal moments (I₁, I₂, I₃) > 0, each at most the sum of the other two.
Eigen::Vector3d read_inertia(const InputNode& node) {
  const Eigen::Vector3d inertia =
      read_triple(node, kPrincipalInertiaRange, "[I1, I2, I3], principal moments [kg m^2]");
  for (int k = 0; k < 3; ++k) {
    const double others = inertia.sum() - inertia[k];
    if (inertia[k] > others) {
      throw node.error(cat("I", k + 1, " = ", inertia[k], " exceeds the sum of the other two, ",
                           others, ": no rigid body has these principal moments"));
    }
  }
  return inertia;
}

SpatialBody read_body(const InputNode& node, NamePool& names, YAML::Node& described) {
  check_keys(node, kBodyKeys);
  SpatialBody body;
  const InputNode name = node.required("name");
  body.name = read_name(name);
  names.claim(body.name, name);
  body.mass_kg = read_number_in(node.required("mass"), kMassRange);
  const InputNode shape = node.required("shape");
  YAML::Node shape_described(YAML::NodeType::Map);
  body.shape = read_shape(shape, shape_described);
  if (auto inertia = node.find("inertia")) {
    body.inertia_kg_m2 = read_inertia(*inertia);
  } else {
    const SphereShape* sphere = std::get_if<SphereShape>(&body.shape);
    if (sphere != nullptr && !sphere->centre_m.isZero(0.0)) {
      throw shape.error(
          "an eccentric sphere (centre not 0) has its mass off the sphere's centre: give the "
          "body's `inertia`");
    }
    body.inertia_kg_m2 = uniform_inertia(body.shape, body.mass_kg);
  }
  described["name"] = body.name;
  described["mass"] = number_node(body.mass_kg);
  described["shape"] = shape_described;
  described["inertia"] = flow_list(body.inertia_kg_m2);
  return body;
}

// The planes; `floor` names the first unnamed one facing +z, planeK any other unnamed one.
std::vector<SpatialPlane> read_planes(const InputNode& node, NamePool& names,
                                      YAML::Node& described) {
  std::vector<SpatialPlane> planes;
  bool floor_named = false;
  const std::vector<InputNode> items =
      read_list(node, "{type: plane, point: [0, 0, 0], normal: [0, 0, 1]}", true);
  for (std::size_t k = 0; k < items.size(); ++k) {
    const InputNode& item = items[k];
    check_keys(item, kPlaneKeys);
    const InputNode type = item.required("type");
    if (read_string(type) != "plane") {
      throw type.error("a spatial model's obstacles are planes: must be plane");
    }
    SpatialPlane plane;
    plane.point_m = read_triple(item.required("point"), kPositionRange, "[x, y, z] [m]");
    const InputNode normal = item.required("normal");
    const Eigen::Vector3d given =
        read_triple(normal, {-kPositionRange.high, kPositionRange.high, ""}, "[n_x, n_y, n_z]");
    if (given.isZero(0.0)) throw normal.error("must not be zero: it points into the free side");
    plane.normal = unit(given);
    if (auto name = item.find("name")) {
      plane.name = read_name(*name);
      names.claim(plane.name, *name);
    } else {
      const bool floor = !floor_named && plane.normal == Eigen::Vector3d::UnitZ();
      floor_named = floor_named || floor;
      plane.name = floor ? std::string("floor") : cat("plane", k + 1);
      names.claim(plane.name, item);
    }
    YAML::Node map;
    map["type"] = "plane";
    map["name"] = plane.name;
    map["point"] = flow_list(plane.point_m);
    map["normal"] = flow_list(plane.normal);
    map.SetStyle(YAML::EmitterStyle::Flow);
    described.push_back(map);
    planes.push_back(plane);
  }
  return planes;
}

// What one body's entries in `initial.q` gave.
struct OrientationGiven {
  std::optional<InputNode> orientation;        // NAME.orientation
  std::array<std::optional<InputNode>, 4> qs;  // NAME.qw … NAME.qz
};

// A body's coordinate or velocity, split from "NAME.SUFFIX": the body's index and the suffix.
struct NamedEntry {
  std::size_t body = 0;
  std::string suffix;
};

Eigen::Quaterniond read_orientation(const InputNode& node) {
  if (node.yaml().IsMap()) {
    check_keys(node, kOrientationFormKeys);
    const InputNode rpy = node.required("rpy");
    if (!rpy.yaml().IsSequence() || rpy.yaml().size() != 3) {
      throw rpy.error("must be [roll, pitch, yaw] (rad, or e.g. '30 deg')");
    }
    const std::vector<InputNode> angles = rpy.items();
    return quaternion_from_rpy(
        {read_angle(angles[0], false), read_angle(angles[1], false), read_angle(angles[2], false)});
  }
  if (!node.yaml().IsSequence() || node.yaml().size() != 4) {
    throw node.error("must be a quaternion [w, x, y, z], or {rpy: [roll, pitch, yaw]}");
  }
  const std::vector<InputNode> items = node.items();
  const Eigen::Quaterniond q(read_number(items[0]), read_number(items[1]), read_number(items[2]),
                             read_number(items[3]));
  if (q.coeffs().isZero(0.0)) throw node.error("must not be zero: it is a rotation");
  return Eigen::Quaterniond(unit(q.coeffs()));
}

// A box's roll or pitch beyond a quarter turn written as a bare number (tilt_in_degrees_warning),
// after read_rotation has read the orientation; its yaw turns it about the vertical and tips
// nothing, and a cylinder or a sphere may lie at any angle.
void warn_box_tilt(const OrientationGiven& given, const SpatialBody& body,
                   std::vector<std::string>& warnings) {
  if (!given.orientation || !given.orientation->yaml().IsMap() ||
      !std::holds_alternative<BoxShape>(body.shape)) {
    return;
  }
  const std::vector<InputNode> angles = given.orientation->required("rpy").items();
  for (std::size_t k = 0; k < 2; ++k) {
    if (auto warning =
            tilt_in_degrees_warning(angles[k], read_angle(angles[k], false), body.name)) {
      warnings.push_back(*std::move(warning));
    }
  }
}

// A body's rotation from its entries: NAME.orientation, or all four of NAME.qw … NAME.qz, or
// neither (the identity).
Eigen::Quaterniond read_rotation(const OrientationGiven& given, const std::string& name) {
  const auto first = std::find_if(given.qs.begin(), given.qs.end(),
                                  [](const std::optional<InputNode>& q) { return q.has_value(); });
  if (first == given.qs.end()) {
    return given.orientation ? read_orientation(*given.orientation)
                             : Eigen::Quaterniond::Identity();
  }
  const std::string all_four = cat(name, ".qw, ", name, ".qx, ", name, ".qy, ", name, ".qz");
  if (given.orientation) {
    throw(*first)->error(cat("give ", name, ".orientation or ", all_four, ", not both"));
  }
  Eigen::Vector4d wxyz;
  for (std::size_t k = 0; k < given.qs.size(); ++k) {
    if (!given.qs[k]) {
      throw(*first)->error(cat("give all four of ", all_four, ", or ", name, ".orientation: ", name,
                               ".", kQuaternionSuffixes[k], " is missing"));
    }
    wxyz[static_cast<Eigen::Index>(k)] = read_number(*given.qs[k]);
  }
  if (wxyz.isZero(0.0)) {
    throw(*first)->error(cat(name, "'s quaternion must not be zero: it is a rotation"));
  }
  const Eigen::Vector4d q = unit(wxyz);
  return {q[0], q[1], q[2], q[3]};
}

class InitialReader {
 public:
  explicit InitialReader(const SpatialBodiesDescription& description) : description_(description) {}

  // The entries of `q` (velocity false) or `v`: each one's body and suffix, checked.
  std::vector<std::pair<NamedEntry, InputNode>> entries(const InputNode& node,
                                                        bool velocity) const {
    std::vector<std::pair<NamedEntry, InputNode>> found;
    if (node.yaml().IsNull()) return found;
    if (!node.yaml().IsMap()) {
      throw node.error(cat("must be a map of ", velocity ? "velocity" : "coordinate",
                           " name -> value, e.g. {", description_.bodies.front().name,
                           velocity ? ".vx: 1}" : ".z: 0.1}"));
    }
    const std::vector<std::string> names = valid_names(velocity);
    for (const auto& entry : node.yaml()) {
      const std::string key = entry.first.Scalar();
      const std::optional<NamedEntry> named = split(key, velocity);
      if (!named) {
        const InputNode key_node(node.location().file, entry.first, node.path());
        throw InputError(
            key_node.location(),
            cat(node.path(), ": unknown ", velocity ? "velocity" : "coordinate", " '", key,
                "'; did you mean '", closest_name(key, names), "'? (spatial model ",
                velocity ? "velocities" : "coordinates", ": ", comma_list(names), ")"));
      }
      found.emplace_back(*named, *node.find(key));
    }
    return found;
  }

 private:
  std::optional<NamedEntry> split(const std::string& key, bool velocity) const {
    const std::size_t dot = key.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    const std::string body = key.substr(0, dot);
    NamedEntry named{0, key.substr(dot + 1)};
    while (named.body < description_.bodies.size() && description_.bodies[named.body].name != body)
      ++named.body;
    if (named.body == description_.bodies.size()) return std::nullopt;
    for (std::string_view suffix : suffixes(velocity)) {
      if (suffix == named.suffix) return named;
    }
    return std::nullopt;
  }

  static std::vector<std::string_view> suffixes(bool velocity) {
    if (velocity) return {kVelocitySuffixes.begin(), kVelocitySuffixes.end()};
    std::vector<std::string_view> all(kPositionSuffixes.begin(), kPositionSuffixes.end());
    all.push_back(kOrientationSuffix);
    all.insert(all.end(), kQuaternionSuffixes.begin(), kQuaternionSuffixes.end());
    return all;
  }

  std::vector<std::string> valid_names(bool velocity) const {
    std::vector<std::string> names;
    for (const SpatialBody& body : description_.bodies) {
      for (std::string_view suffix : suffixes(velocity))
        names.push_back(cat(body.name, ".", suffix));
    }
    return names;
  }

  const SpatialBodiesDescription& description_;
};

template <typename Range>
int index_of(const Range& range, std::string_view item) {
  int index = 0;
  for (std::string_view candidate : range) {
    if (candidate == item) return index;
    ++index;
  }
  return -1;
}

}  // namespace

int read_model_dimension(const InputNode& model) {
  const std::optional<InputNode> node = model.find("dimension");
  if (!node) return 2;
  double value = 0.0;
  if (!node->yaml().IsScalar() || !YAML::convert<double>::decode(node->yaml(), value) ||
      (value != 2.0 && value != 3.0)) {
    throw node->error("must be 2 (planar bodies) or 3 (free rigid bodies in space)");
  }
  return static_cast<int>(value);
}

SpatialModelInput read_spatial_model(const InputNode& model) {
  check_keys(model, kSpatialModelKeys);
  if (read_model_dimension(model) != 3) {
    throw model.error("a model of free bodies in space says `dimension: 3`");
  }
  SpatialModelInput input{{}, YAML::Node(YAML::NodeType::Map)};
  SpatialBodiesDescription& description = input.description;
  YAML::Node& effective = input.effective;
  effective["dimension"] = 3;
  double gravity = -description.gravity_m_s2.z();
  if (auto node = model.find("gravity")) gravity = read_number_in(*node, kGravityRange);
  description.gravity_m_s2 = {0.0, 0.0, -gravity};
  effective["gravity"] = number_node(gravity);

  NamePool names;
  YAML::Node bodies(YAML::NodeType::Sequence);
  for (const InputNode& item :
       read_list(model.required("bodies"), "{name: ball, mass: 1, shape: {sphere: {radius: 0.1}}}",
                 false)) {
    YAML::Node described(YAML::NodeType::Map);
    description.bodies.push_back(read_body(item, names, described));
    bodies.push_back(described);
  }
  effective["bodies"] = bodies;

  YAML::Node planes(YAML::NodeType::Sequence);
  if (auto obstacles = model.find("obstacles")) {
    description.planes = read_planes(*obstacles, names, planes);
  }
  effective["obstacles"] = planes;

  if (auto collisions = model.find("collisions")) {
    check_keys(*collisions, kCollisionKeys);
    if (auto between = collisions->find("between_bodies")) {
      description.collide_bodies = read_bool(*between);
    }
  }
  effective["collisions"]["between_bodies"] = description.collide_bodies;
  effective["collisions"].SetStyle(YAML::EmitterStyle::Flow);
  return input;
}

SpatialInitialInput read_spatial_initial(const InputNode& initial,
                                         const SpatialBodiesDescription& description) {
  check_keys(initial, std::array<std::string_view, 2>{"q", "v"});
  const std::size_t count = description.bodies.size();
  SpatialInitialInput input{Eigen::VectorXd::Zero(7 * static_cast<Eigen::Index>(count)),
                            Eigen::VectorXd::Zero(6 * static_cast<Eigen::Index>(count)),
                            YAML::Node(YAML::NodeType::Map),
                            {}};
  const InitialReader reader(description);

  std::vector<OrientationGiven> orientations(count);
  if (auto q = initial.find("q")) {
    for (const auto& [named, value] : reader.entries(*q, false)) {
      const int start = spatial_coordinate_start(static_cast<int>(named.body));
      if (const int k = index_of(kPositionSuffixes, named.suffix); k >= 0) {
        input.q[start + k] = read_initial_value(value, false, false);
      } else if (named.suffix == kOrientationSuffix) {
        orientations[named.body].orientation = value;
      } else {
        orientations[named.body]
            .qs[static_cast<std::size_t>(index_of(kQuaternionSuffixes, named.suffix))] = value;
      }
    }
  }
  for (std::size_t b = 0; b < count; ++b) {
    const Eigen::Quaterniond rotation = read_rotation(orientations[b], description.bodies[b].name);
    warn_box_tilt(orientations[b], description.bodies[b], input.warnings);
    const int start = spatial_coordinate_start(static_cast<int>(b)) + 3;
    input.q.segment<4>(start) << rotation.w(), rotation.x(), rotation.y(), rotation.z();
  }

  if (auto v = initial.find("v")) {
    for (const auto& [named, value] : reader.entries(*v, true)) {
      const int k = index_of(kVelocitySuffixes, named.suffix);
      input.v[spatial_velocity_start(static_cast<int>(named.body)) + k] =
          read_initial_value(value, k >= 3, true);
    }
  }

  YAML::Node q(YAML::NodeType::Map), v(YAML::NodeType::Map);
  for (std::size_t b = 0; b < count; ++b) {
    const std::string& name = description.bodies[b].name;
    const int q_start = spatial_coordinate_start(static_cast<int>(b));
    const int v_start = spatial_velocity_start(static_cast<int>(b));
    for (std::size_t k = 0; k < kPositionSuffixes.size(); ++k) {
      q.force_insert(cat(name, ".", kPositionSuffixes[k]),
                     number_node(input.q[q_start + static_cast<int>(k)]));
    }
    q.force_insert(cat(name, ".", kOrientationSuffix), flow_list(input.q.segment<4>(q_start + 3)));
    for (std::size_t k = 0; k < kVelocitySuffixes.size(); ++k) {
      v.force_insert(cat(name, ".", kVelocitySuffixes[k]),
                     number_node(input.v[v_start + static_cast<int>(k)]));
    }
  }
  input.effective["q"] = q;
  input.effective["v"] = v;
  return input;
}

Eigen::Quaterniond quaternion_from_rpy(const Eigen::Vector3d& roll_pitch_yaw_rad) {
  return Eigen::AngleAxisd(roll_pitch_yaw_rad.z(), Eigen::Vector3d::UnitZ()) *
         Eigen::AngleAxisd(roll_pitch_yaw_rad.y(), Eigen::Vector3d::UnitY()) *
         Eigen::AngleAxisd(roll_pitch_yaw_rad.x(), Eigen::Vector3d::UnitX());
}

}  // namespace routh
