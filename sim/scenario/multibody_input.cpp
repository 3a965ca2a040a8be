#include "sim/scenario/multibody_input.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "models/planar/shape.hpp"
#include "sim/scenario/model_input.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// `dimension` (2 here) is read by the scenario, which chose this reader by it
constexpr std::array<std::string_view, 6> kMultibodyKeys = {"dimension", "gravity",   "bodies",
                                                            "joints",    "obstacles", "collisions"};
constexpr std::array<std::string_view, 4> kBodyKeys = {"name", "mass", "shape", "inertia"};
constexpr std::array<std::string_view, 4> kShapeKinds = {"rectangle", "disk", "segment", "polygon"};
constexpr std::array<std::string_view, 2> kRectangleKeys = {"width", "height"};
constexpr std::array<std::string_view, 1> kDiskKeys = {"radius"};
constexpr std::array<std::string_view, 1> kSegmentKeys = {"length"};
constexpr std::array<std::string_view, 1> kPolygonKeys = {"vertices"};
constexpr std::array<std::string_view, 2> kJointTypes = {"revolute", "prismatic"};
constexpr std::array<std::string_view, 6> kRevoluteKeys = {"type",         "parent",      "child",
                                                           "parent_point", "child_point", "angle"};
constexpr std::array<std::string_view, 6> kPrismaticKeys = {"type",         "parent",      "child",
                                                            "parent_point", "child_point", "axis"};
constexpr std::array<std::string_view, 1> kObstacleNameKey = {"name"};
constexpr std::array<std::string_view, 1> kCollisionKeys = {"between_bodies"};
constexpr std::string_view kGround = "ground";
// A joint point farther than this fraction of its body's size (shape_size) from the body's shape
// is reported: a pin 1% of a link's length past its end is a rounding, 20% is a point in a frame
// the author did not mean (a segment drawn along y where segments lie along x).
constexpr double kJointOffShapeFraction = 0.01;

// A body as drawn, in its own frame.
struct DrawnBody {
  std::string name;
  PlanarBody body;  ///< centre of mass in the drawing frame
  std::optional<Shape> shape;
  std::string shape_kind;  ///< rectangle, disk, segment or polygon; empty without a shape
};

// A joint as given: its parent by index in `bodies` (or kGround), its points in the drawing
// frames.
struct DrawnJoint {
  InputNode node;
  InputNode child_node;
  std::size_t child = 0;
  int parent = routh::kGround;
  JointType type = JointType::revolute;
  Eigen::Vector2d parent_point = Eigen::Vector2d::Zero();
  Eigen::Vector2d child_point = Eigen::Vector2d::Zero();
  AngleReference angle = AngleReference::relative;
  Eigen::Vector2d axis = Eigen::Vector2d::UnitX();  ///< unit
};

// A direction: any vector but zero.
Eigen::Vector2d read_direction(const InputNode& node) {
  const Eigen::Vector2d given = read_point(node);
  if (given.isZero(0.0)) throw node.error("must not be zero: it is a direction");
  return given;
}

Shape read_polygon(const InputNode& node, YAML::Node& described) {
  check_keys(node, kPolygonKeys);
  PolygonShape polygon;
  YAML::Node vertices(YAML::NodeType::Sequence);
  for (const InputNode& vertex :
       read_list(node.required("vertices"), "[0, 0], [1, 0], [0, 1]", false)) {
    polygon.vertices_m.push_back(read_point(vertex));
    vertices.push_back(point_node(polygon.vertices_m.back()));
  }
  described["vertices"] = vertices;
  return polygon;
}

// The shape `kind` (rectangle, disk, segment, polygon) from its map `spec`.
Shape read_shape_of_kind(const std::string& kind, const InputNode& spec, YAML::Node& out) {
  const auto length = [&](std::string_view key) {
    const double value = read_number_in(spec.required(key), kLengthRange);
    out[std::string(key)] = number_node(value);
    return value;
  };
  if (kind == "rectangle") {
    check_keys(spec, kRectangleKeys);
    const double width = length("width");
    return rectangle_shape(width, length("height"));
  }
  if (kind == "disk") {
    check_keys(spec, kDiskKeys);
    return DiskShape{length("radius")};
  }
  if (kind == "segment") {
    check_keys(spec, kSegmentKeys);
    return segment_shape(length("length"));
  }
  return read_polygon(spec, out);
}

// {KIND: {...}}: exactly one kind of shape.
Shape read_shape(const InputNode& node, YAML::Node& described) {
  check_keys(node, kShapeKinds);
  if (node.yaml().size() != 1) {
    throw node.error(
        "must be one of rectangle, disk, segment or polygon, e.g. {disk: {radius: 1}}");
  }
  const std::string kind = node.yaml().begin()->first.Scalar();
  YAML::Node spec(YAML::NodeType::Map);
  const Shape shape = read_shape_of_kind(kind, node.required(kind), spec);
  described[kind] = spec;
  return shape;
}

DrawnBody read_body(const InputNode& node, NamePool& names, YAML::Node& described) {
  check_keys(node, kBodyKeys);
  const InputNode name_node = node.required("name");
  DrawnBody drawn{read_name(name_node), {}, std::nullopt, {}};
  if (drawn.name == kGround) throw name_node.error("names the world, the parent of root joints");
  names.claim(drawn.name, name_node);
  described["name"] = drawn.name;
  const double mass = read_number_in(node.required("mass"), kMassRange);
  described["mass"] = number_node(mass);
  drawn.body = {mass, Eigen::Vector2d::Zero(), 0.0};
  if (auto shape_node = node.find("shape")) {
    YAML::Node shape_described;
    drawn.shape = read_shape(*shape_node, shape_described);
    drawn.shape_kind = shape_described.begin()->first.Scalar();
    described["shape"] = shape_described;
    try {
      check_shape(*drawn.shape, cat("body ", drawn.name));
    } catch (const std::invalid_argument& rejected) {
      throw shape_node->error(rejected.what());
    }
    drawn.body = uniform_body(*drawn.shape, mass);
  }
  const std::optional<InputNode> inertia = node.find("inertia");
  if (inertia) {
    drawn.body.inertia_kg_m2 = read_number_in(*inertia, kInertiaRange);
  } else if (!drawn.shape) {
    throw node.error("a body without a shape needs `inertia` [kg m^2]");
  }
  described["inertia"] = number_node(drawn.body.inertia_kg_m2);
  return drawn;
}

// The index in `bodies` of the body `node` names; `ground` allowed when `may_be_ground`.
int body_index(const InputNode& node, const std::vector<DrawnBody>& bodies, bool may_be_ground) {
  const std::string name = read_string(node);
  if (name == kGround) {
    if (may_be_ground) return routh::kGround;
    throw node.error("the ground hangs from nothing: a joint's child is a body");
  }
  std::vector<std::string_view> known;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].name == name) return static_cast<int>(i);
    known.push_back(bodies[i].name);
  }
  if (may_be_ground) known.push_back(kGround);
  throw node.error(cat("unknown body; did you mean '", closest_name(name, known), "'?"));
}

DrawnJoint read_joint(const InputNode& node, const std::vector<DrawnBody>& bodies,
                      YAML::Node& described) {
  if (!node.yaml().IsMap()) throw node.error("must be a map with a `type`: revolute or prismatic");
  const InputNode type_node = node.required("type");
  const std::string type = read_string(type_node);
  if (type != "revolute" && type != "prismatic") {
    throw type_node.error(cat("unknown joint type; did you mean '", closest_name(type, kJointTypes),
                              "'? (revolute or prismatic)"));
  }
  const bool revolute = type == "revolute";
  check_keys(node, revolute ? std::span<const std::string_view>(kRevoluteKeys)
                            : std::span<const std::string_view>(kPrismaticKeys));
  const InputNode parent_node = node.required("parent");
  const InputNode child_node = node.required("child");
  DrawnJoint joint{node, child_node};
  joint.type = revolute ? JointType::revolute : JointType::prismatic;
  joint.parent = body_index(parent_node, bodies, true);
  joint.child = static_cast<std::size_t>(body_index(child_node, bodies, false));
  if (auto point = node.find("parent_point")) joint.parent_point = read_point(*point);
  if (auto point = node.find("child_point")) joint.child_point = read_point(*point);
  described["type"] = type;
  described["parent"] = read_string(parent_node);
  described["child"] = read_string(child_node);
  described["parent_point"] = point_node(joint.parent_point);
  described["child_point"] = point_node(joint.child_point);
  if (revolute) {
    if (auto angle = node.find("angle")) {
      const std::optional<AngleReference> reference = angle_reference_named(read_string(*angle));
      if (!reference) {
        throw angle->error("must be relative (to the parent) or absolute (to the world)");
      }
      joint.angle = *reference;
    }
    described["angle"] = std::string(to_string(joint.angle));
  } else {
    const std::optional<InputNode> axis = node.find("axis");
    const Eigen::Vector2d given = axis ? read_direction(*axis) : Eigen::Vector2d::UnitX();
    joint.axis = given.stableNormalized();
    described["axis"] = point_node(given);  // as given
  }
  return joint;
}

// "(-0.5, 0)"
std::string point_text(const Eigen::Vector2d& point) {
  return cat("(", point.x(), ", ", point.y(), ")");
}

// A body's shape and where it lies in the body's frame, in words for a message.
std::string shape_place(const DrawnBody& body) {
  const Shape& shape = *body.shape;
  const std::string whose = cat("the ", body.shape_kind, " of body '", body.name, "'");
  if (const auto* disk = std::get_if<DiskShape>(&shape)) {
    return cat(whose, ", of radius ", disk->radius_m, " m about ", point_text(disk->centre_m));
  }
  const std::vector<Eigen::Vector2d>& vertices = std::get<PolygonShape>(shape).vertices_m;
  if (body.shape_kind == "segment") {
    return cat(whose, ", which lies along the body's x axis from ", point_text(vertices[0]), " to ",
               point_text(vertices[1]));
  }
  if (body.shape_kind == "rectangle") {
    return cat(whose, ", which spans ", point_text(vertices[0]), " to ", point_text(vertices[2]));
  }
  return whose;
}

// A joint point off its body's shape, beyond kJointOffShapeFraction of the shape's size: a
// warning at the point (at the joint when the point is the default [0, 0]).
void check_joint_point(const DrawnJoint& joint, const DrawnBody& body, std::string_view key,
                       const Eigen::Vector2d& point, std::vector<std::string>& warnings) {
  if (!body.shape) return;
  const double off_m = distance_outside(*body.shape, point);
  if (!(off_m > kJointOffShapeFraction * shape_size(*body.shape))) return;
  const std::optional<InputNode> given = joint.node.find(key);
  const std::string what = given ? std::string() : cat(key, " (default ", point_text(point), ") ");
  warnings.push_back((given ? *given : joint.node)
                         .warning(cat(what, "is ", off_m, " m off ", shape_place(body),
                                      " (shapes and joint points are in the body's frame: "
                                      "docs/models.md)")));
}

// The bodies in the order listed, except that a child listed before its parent comes right
// after it; `parent_of[i]` is body i's parent index, or kGround. A body whose parents never reach
// the ground or a free body is in a cycle: an error at the child of one of its joints.
std::vector<std::size_t> tree_order(const std::vector<DrawnBody>& bodies,
                                    const std::vector<int>& parent_of,
                                    const std::vector<std::optional<DrawnJoint>>& joint_of) {
  std::vector<bool> placed(bodies.size(), false);
  std::vector<std::size_t> order;
  const auto ready = [&](std::size_t i) {
    const int parent = parent_of[i];
    return !placed[i] && (parent == routh::kGround || placed[static_cast<std::size_t>(parent)]);
  };
  for (std::size_t i = 0; i < bodies.size();) {
    if (!ready(i)) {
      ++i;
      continue;
    }
    placed[i] = true;
    order.push_back(i);
    i = 0;  // a child listed earlier may be ready now
  }
  if (order.size() == bodies.size()) return order;
  // every unplaced body hangs, through its parents, from a cycle: walk up to it
  std::size_t body =
      static_cast<std::size_t>(std::find(placed.begin(), placed.end(), false) - placed.begin());
  std::vector<bool> seen(bodies.size(), false);
  while (!seen[body]) seen[body] = true, body = static_cast<std::size_t>(parent_of[body]);
  std::string cycle = bodies[body].name;
  for (std::size_t b = static_cast<std::size_t>(parent_of[body]);;
       b = static_cast<std::size_t>(parent_of[b])) {
    cycle += cat(" -> ", bodies[b].name);
    if (b == body) break;
  }
  throw joint_of[body]->child_node.error(
      cat("the joints form a cycle, ", cycle,
          " (each hangs from the next): a body must hang, through its parents, from the ground or "
          "a free body"));
}

Shape shifted(Shape shape, const Eigen::Vector2d& offset) {
  if (auto* disk = std::get_if<DiskShape>(&shape)) {
    disk->centre_m += offset;
  } else {
    for (Eigen::Vector2d& vertex : std::get<PolygonShape>(shape).vertices_m) vertex += offset;
  }
  return shape;
}

// Adds the bodies to `builder` in tree order, each frame moved to its tree origin: the centre of
// mass of a free body, the child point of a jointed one.
void add_bodies(const std::vector<DrawnBody>& bodies,
                const std::vector<std::optional<DrawnJoint>>& joint_of,
                const std::vector<std::size_t>& order, PlanarTreeBuilder& builder) {
  std::vector<int> tree_index(bodies.size(), routh::kGround);
  std::vector<Eigen::Vector2d> origin(bodies.size(), Eigen::Vector2d::Zero());  // drawing frame
  for (std::size_t i : order) {
    const DrawnBody& drawn = bodies[i];
    const std::optional<DrawnJoint>& given = joint_of[i];
    origin[i] = given ? given->child_point : drawn.body.centre_of_mass_m;
    PlanarBody body = drawn.body;
    body.centre_of_mass_m -= origin[i];
    PlanarJoint joint =
        free_joint(cat(drawn.name, ".x"), cat(drawn.name, ".y"), cat(drawn.name, ".theta"));
    if (given) {
      const bool on_ground = given->parent == routh::kGround;
      const auto parent = static_cast<std::size_t>(given->parent);
      const int parent_index = on_ground ? routh::kGround : tree_index[parent];
      const Eigen::Vector2d location =
          given->parent_point - (on_ground ? Eigen::Vector2d::Zero() : origin[parent]);
      joint = given->type == JointType::revolute
                  ? revolute_joint(parent_index, location, cat(drawn.name, ".theta"), given->angle)
                  : prismatic_joint(parent_index, location, given->axis, cat(drawn.name, ".s"));
    }
    tree_index[i] = builder.add_body(drawn.name, body, joint);
    if (drawn.shape) builder.set_shape(tree_index[i], shifted(*drawn.shape, -origin[i]));
  }
}

void read_obstacles(const InputNode& node, NamePool& names, PlanarTreeBuilder& builder,
                    YAML::Node& described) {
  std::vector<std::string> types_so_far;
  for (const InputNode& item : read_list(node, "{type: floor, position: 0}", true)) {
    ObstacleInput obstacle = read_obstacle(item, kObstacleNameKey);
    types_so_far.push_back(obstacle.type);
    const auto same_type = std::count(types_so_far.begin(), types_so_far.end(), obstacle.type);
    std::string name = same_type == 1 ? obstacle.type : cat(obstacle.type, same_type);
    const std::optional<InputNode> name_node = item.find("name");
    if (name_node) name = read_name(*name_node);
    names.claim(name, name_node ? *name_node : item);
    builder.add_obstacle(name, obstacle.surface);
    YAML::Node entry;
    entry["name"] = name;
    for (const auto& field : obstacle.described) entry[field.first] = field.second;
    described.push_back(entry);
  }
}

}  // namespace

std::span<const std::string_view> multibody_model_keys() { return kMultibodyKeys; }

std::unique_ptr<PlanarTree> build_multibody(const InputNode& model,
                                            GroundAcceleration ground_acceleration,
                                            YAML::Node& effective,
                                            std::vector<std::string>& warnings,
                                            std::span<const std::string> elsewhere) {
  check_keys(model, kMultibodyKeys, elsewhere);
  PlanarTreeBuilder builder;
  double gravity = kDefaultGravity;
  if (auto node = model.find("gravity")) gravity = read_number_in(*node, kGravityRange);
  effective["gravity"] = number_node(gravity);
  builder.set_gravity({0.0, -gravity});
  builder.set_ground_acceleration(std::move(ground_acceleration));

  NamePool names;
  std::vector<DrawnBody> bodies;
  YAML::Node bodies_described(YAML::NodeType::Sequence);
  for (const InputNode& item :
       read_list(model.required("bodies"), "{name: ball, mass: 1, shape: {disk: {radius: 0.1}}}",
                 false)) {
    YAML::Node described;
    bodies.push_back(read_body(item, names, described));
    bodies_described.push_back(described);
  }
  effective["bodies"] = bodies_described;

  std::vector<std::optional<DrawnJoint>> joint_of(bodies.size());
  std::vector<int> parent_of(bodies.size(), routh::kGround);
  YAML::Node joints_described(YAML::NodeType::Sequence);
  if (auto joints = model.find("joints")) {
    for (const InputNode& item :
         read_list(*joints, "{type: revolute, parent: ground, child: arm}", true)) {
      YAML::Node described;
      DrawnJoint joint = read_joint(item, bodies, described);
      if (joint.parent != routh::kGround) {
        check_joint_point(joint, bodies[static_cast<std::size_t>(joint.parent)], "parent_point",
                          joint.parent_point, warnings);
      }
      check_joint_point(joint, bodies[joint.child], "child_point", joint.child_point, warnings);
      if (joint_of[joint.child]) {
        throw joint.child_node.error(cat("already hangs from a joint (at ",
                                         to_string(joint_of[joint.child]->child_node.location()),
                                         "): a body has one parent"));
      }
      parent_of[joint.child] = joint.parent;
      joint_of[joint.child] = std::move(joint);
      joints_described.push_back(described);
    }
  }
  effective["joints"] = joints_described;
  add_bodies(bodies, joint_of, tree_order(bodies, parent_of, joint_of), builder);

  YAML::Node obstacles_described(YAML::NodeType::Sequence);
  if (auto obstacles = model.find("obstacles")) {
    read_obstacles(*obstacles, names, builder, obstacles_described);
  }
  effective["obstacles"] = obstacles_described;

  bool between_bodies = true;
  if (auto collisions = model.find("collisions")) {
    check_keys(*collisions, kCollisionKeys);
    if (auto node = collisions->find("between_bodies")) between_bodies = read_bool(*node);
  }
  builder.set_body_collisions(between_bodies);
  effective["collisions"]["between_bodies"] = between_bodies;
  return builder.build();
}

}  // namespace routh
