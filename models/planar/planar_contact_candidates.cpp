#include "models/planar/planar_contact_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

#include "models/planar/planar_tree.hpp"
#include "sim/text.hpp"

namespace routh {

namespace {

// Two points closer than this, relative to the bodies' size, are one point.
constexpr double kCoincidence = 1e-9;

// A shaped body's features in its frame: vertices with their normal cones and whether they may
// touch obstacles and other bodies, edges with their end vertices' cones, or a disk.
struct BodyFeatures {
  std::vector<Eigen::Vector2d> vertices_m;
  std::vector<std::string> vertex_names;
  std::vector<NormalCone> vertex_normals;
  std::vector<bool> touches_obstacles;
  std::vector<bool> touches_bodies;
  // per vertex: the body jointed to this one whose vertex lies there too (a chain's neighbouring
  // link, whose end meets this link's end), or −1, and that vertex's normals in its frame
  std::vector<int> joined_body;
  std::vector<NormalCone> joined_normals;
  std::vector<EdgeFeature> edges;
  std::vector<std::string> edge_names;
  std::optional<DiskShape> disk;
};

std::string feature_name(const std::vector<std::string>& names, std::size_t i, const char* prefix) {
  return names.empty() ? cat(prefix, i) : names[i];
}

// The outward normals at vertex i lie between its edges' normals: about the bisector of the
// incoming and reversed outgoing edge directions, within half the turn between them (a segment's
// end: the half-plane beyond it).
NormalCone vertex_normals(const std::vector<Eigen::Vector2d>& v, std::size_t i) {
  const std::size_t n = v.size();
  const Eigen::Vector2d in = (v[i] - v[(i + n - 1) % n]).normalized();
  const Eigen::Vector2d out = (v[(i + 1) % n] - v[i]).normalized();
  return {(in - out).normalized(), 0.5 * std::acos(std::clamp(in.dot(out), -1.0, 1.0))};
}

// Edge i from vertex i to vertex i + 1; its depth is how far the polygon reaches behind its line.
EdgeFeature polygon_edge(const std::vector<Eigen::Vector2d>& v, std::size_t i) {
  EdgeFeature edge{v[i], v[(i + 1) % v.size()], 0.0};
  const Eigen::Vector2d t = (edge.end_m - edge.start_m).normalized();
  const Eigen::Vector2d normal(t.y(), -t.x());
  for (const Eigen::Vector2d& vertex : v) {
    edge.depth_m = std::max(edge.depth_m, -normal.dot(vertex - edge.start_m));
  }
  const auto outward = [&](std::size_t from) {
    const Eigen::Vector2d run = (v[(from + 1) % v.size()] - v[from]).normalized();
    return Eigen::Vector2d(run.y(), -run.x());
  };
  edge.previous_normal = outward((i + v.size() - 1) % v.size());
  edge.next_normal = outward((i + 1) % v.size());
  return edge;
}

// Whether the vertex at `offset_m` of the body on `joint` is the joint's own point: its frame's
// origin, where a revolute joint pins it (to the ground, or to a point of the parent).
bool at_revolute_joint(const PlanarJoint& joint, const Eigen::Vector2d& offset_m, double size_m) {
  return joint.type == JointType::revolute && offset_m.norm() <= kCoincidence * size_m;
}

// The index of `body`'s vertex at `point_m`, or −1.
int vertex_at(const BodyFeatures& body, const Eigen::Vector2d& point_m, double size_m) {
  for (std::size_t i = 0; i < body.vertices_m.size(); ++i) {
    if ((body.vertices_m[i] - point_m).norm() <= kCoincidence * size_m) return static_cast<int>(i);
  }
  return -1;
}

// Bodies are visited parents first, so a child sees its parent's features.
BodyFeatures polygon_features(const PolygonShape& polygon, const PlanarJoint& joint,
                              const std::optional<BodyFeatures>& parent, double size_m) {
  const std::vector<Eigen::Vector2d>& v = polygon.vertices_m;
  BodyFeatures features;
  features.vertices_m = v;
  for (std::size_t i = 0; i < v.size(); ++i) {
    features.vertex_names.push_back(feature_name(polygon.vertex_names, i, "v"));
    features.vertex_normals.push_back(vertex_normals(v, i));
    features.edges.push_back(polygon_edge(v, i));
    features.edge_names.push_back(feature_name(polygon.edge_names, i, "e"));
    const bool at_joint = at_revolute_joint(joint, v[i], size_m);
    const bool fixed = at_joint && joint.parent == kGround;
    const bool shared = at_joint && parent && vertex_at(*parent, joint.location_m, size_m) >= 0;
    features.touches_obstacles.push_back(!fixed && !shared);
    features.touches_bodies.push_back(!shared);
    features.joined_body.push_back(-1);
    features.joined_normals.emplace_back();
  }
  return features;
}

// Joins the vertices of a child and its parent that meet at their revolute joint, if both have
// one there: each records the other (a parent with several children there keeps the first).
void join_vertices(int parent_index, const PlanarJoint& joint, int child_index, BodyFeatures& child,
                   BodyFeatures& parent, double size_m) {
  if (joint.type != JointType::revolute) return;
  const int c = vertex_at(child, Eigen::Vector2d::Zero(), size_m);
  const int p = vertex_at(parent, joint.location_m, size_m);
  if (c < 0 || p < 0) return;
  const auto ci = static_cast<std::size_t>(c), pi = static_cast<std::size_t>(p);
  child.joined_body[ci] = parent_index;
  child.joined_normals[ci] = parent.vertex_normals[pi];
  if (parent.joined_body[pi] >= 0) return;
  parent.joined_body[pi] = child_index;
  parent.joined_normals[pi] = child.vertex_normals[ci];
}

std::vector<std::optional<BodyFeatures>> body_features(const PlanarTreeDescription& d,
                                                       const std::vector<double>& radii_m) {
  std::vector<std::optional<BodyFeatures>> features(d.bodies.size());
  for (std::size_t b = 0; b < d.shapes.size(); ++b) {
    if (!d.shapes[b]) continue;
    if (const auto* disk = std::get_if<DiskShape>(&*d.shapes[b])) {
      features[b] = BodyFeatures{};
      features[b]->disk = *disk;
      continue;
    }
    const PlanarJoint& joint = d.joints[b];
    const std::optional<BodyFeatures> none;
    const std::optional<BodyFeatures>& parent =
        joint.parent == kGround ? none : features[static_cast<std::size_t>(joint.parent)];
    const double size_m =
        std::max(radii_m[b],
                 joint.parent == kGround ? 0.0 : radii_m[static_cast<std::size_t>(joint.parent)]);
    features[b] = polygon_features(std::get<PolygonShape>(*d.shapes[b]), joint, parent, size_m);
    if (joint.parent != kGround && features[static_cast<std::size_t>(joint.parent)]) {
      join_vertices(joint.parent, joint, static_cast<int>(b), *features[b],
                    *features[static_cast<std::size_t>(joint.parent)], size_m);
    }
  }
  return features;
}

// Appends contacts with their names to a set.
class ContactList {
 public:
  explicit ContactList(PlanarContactSet& set) : set_(set) {}
  int size() const { return static_cast<int>(set_.contacts.size()); }
  // Built in place as its own kind: converting a kind to a TreeContact temporary first makes GCC
  // 12 (at -O2, with sanitizers) warn that the variant's other kinds' members are uninitialized.
  template <class Contact>
  void add(Contact contact, std::string name) {
    set_.contacts.emplace_back(std::in_place_type<Contact>, std::move(contact));
    set_.names.push_back(std::move(name));
    set_.opposite_faces.push_back(-1);
  }
  // The last two contacts added are one vertex against a segment's two faces.
  void pair_last_two() {
    const int last = size() - 1;
    set_.opposite_faces[static_cast<std::size_t>(last)] = last - 1;
    set_.opposite_faces[static_cast<std::size_t>(last - 1)] = last;
  }

 private:
  PlanarContactSet& set_;
};

void add_obstacle_contacts(const std::vector<std::string>& body_names, int b,
                           const BodyFeatures& body, const Obstacle& obstacle, ContactList& list) {
  const std::string& name = body_names[static_cast<std::size_t>(b)];
  if (body.disk) {
    list.add(ContactGeometry{b, body.disk->centre_m, body.disk->radius_m, obstacle.surface},
             cat(name, "/", obstacle.name));
    return;
  }
  for (std::size_t i = 0; i < body.vertices_m.size(); ++i) {
    if (!body.touches_obstacles[i]) continue;
    list.add(ContactGeometry{b, body.vertices_m[i], 0.0, obstacle.surface},
             cat(name, ".", body.vertex_names[i], "/", obstacle.name));
  }
}

// Whether bodies a and b are joined to each other (they never touch).
bool joined(const PlanarTreeDescription& d, int a, int b) {
  return d.joints[static_cast<std::size_t>(a)].parent == b ||
         d.joints[static_cast<std::size_t>(b)].parent == a;
}

// Whether body a's vertex at its revolute joint, which its parent has a vertex at too, is left
// out against body b: only when that parent vertex touches b instead. Against a body joined to
// the parent (a chain link two up), the child's vertex is the point's only stand-in: dropped
// there too, a chain's third link passed through its first at their shared end.
bool shared_vertex_covered(const PlanarTreeDescription& d, int a, int b) {
  const int parent = d.joints[static_cast<std::size_t>(a)].parent;
  return parent != kGround && !joined(d, parent, b);
}

// Body a's vertices and disk against body b's edges.
void add_feature_edge_contacts(const PlanarTreeDescription& d, int a, const BodyFeatures& body,
                               int b, const BodyFeatures& other, ContactList& list) {
  const std::string& name = d.body_names[static_cast<std::size_t>(a)];
  const std::string& other_name = d.body_names[static_cast<std::size_t>(b)];
  const bool covered = shared_vertex_covered(d, a, b);
  const bool segment = other.edges.size() == 2;  // its two edges are the faces of one line
  for (std::size_t i = 0; i < body.vertices_m.size(); ++i) {
    if (!body.touches_bodies[i] && covered) continue;
    for (std::size_t e = 0; e < other.edges.size(); ++e) {
      const EdgeFeature& edge = other.edges[e];
      const double length_m = (edge.end_m - edge.start_m).norm();
      const double hair_m = (a > b ? -kExtentHair : kExtentHair) * length_m;
      // at a joint's end against a free corner, the free corner owns the meeting
      const bool joint_vertex = body.joined_body[i] >= 0;
      const auto end_hair_m = [&](std::size_t end) {
        const bool joint_end = other.joined_body[end] >= 0;
        if (joint_end == joint_vertex) return hair_m;
        return (joint_end ? -kExtentHair : kExtentHair) * length_m;
      };
      list.add(VertexEdgeContact{a, b, body.vertices_m[i], body.vertex_normals[i], edge,
                                 end_hair_m(e), length_m - end_hair_m((e + 1) % other.edges.size()),
                                 body.joined_body[i], body.joined_normals[i]},
               cat(name, ".", body.vertex_names[i], "/", other_name, ".", other.edge_names[e]));
    }
    if (segment) list.pair_last_two();
  }
  if (!body.disk) return;
  for (std::size_t e = 0; e < other.edges.size(); ++e) {
    list.add(DiskEdgeContact{a, b, *body.disk, other.edges[e],
                             other.vertex_normals[(e + 1) % other.edges.size()]},
             cat(name, "/", other_name, ".", other.edge_names[e]));
  }
}

void apply_aliases(const std::vector<std::pair<std::string, std::string>>& aliases,
                   std::vector<std::string>& names) {
  for (const auto& [generated, alias] : aliases) {
    const auto found = std::find(names.begin(), names.end(), generated);
    if (found == names.end()) {
      throw std::invalid_argument(
          cat("contact alias '", alias, "': no contact is named '", generated, "'"));
    }
    *found = alias;
  }
}

}  // namespace

PlanarContactSet planar_contact_set(const PlanarTreeDescription& d) {
  PlanarContactSet set;
  ContactList list(set);
  for (std::size_t k = 0; k < d.contacts.size(); ++k) list.add(d.contacts[k], d.contact_names[k]);
  set.listed_count = list.size();
  set.bounding_radii_m.assign(d.bodies.size(), 0.0);
  set.round_about_origin.assign(d.bodies.size(), false);
  for (std::size_t b = 0; b < d.shapes.size(); ++b) {
    if (!d.shapes[b]) continue;
    set.bounding_radii_m[b] = bounding_radius(*d.shapes[b]);
    const auto* disk = std::get_if<DiskShape>(&*d.shapes[b]);
    set.round_about_origin[b] = disk != nullptr && disk->centre_m.isZero(0.0);
  }
  const std::vector<std::optional<BodyFeatures>> features = body_features(d, set.bounding_radii_m);
  const int bodies = static_cast<int>(d.bodies.size());
  for (int b = 0; b < bodies; ++b) {
    const std::optional<BodyFeatures>& body = features[static_cast<std::size_t>(b)];
    if (!body) continue;
    for (const Obstacle& obstacle : d.obstacles) {
      const int first = list.size();
      add_obstacle_contacts(d.body_names, b, *body, obstacle, list);
      if (list.size() > first)
        set.obstacle_groups.push_back({b, obstacle.surface, first, list.size()});
    }
  }
  for (int a = 0; a < bodies && d.collide_bodies; ++a) {
    const std::optional<BodyFeatures>& body = features[static_cast<std::size_t>(a)];
    for (int b = a + 1; b < bodies && body; ++b) {
      const std::optional<BodyFeatures>& other = features[static_cast<std::size_t>(b)];
      if (!other || d.joints[static_cast<std::size_t>(b)].parent == a) continue;
      const int first = list.size();
      add_feature_edge_contacts(d, a, *body, b, *other, list);
      add_feature_edge_contacts(d, b, *other, a, *body, list);
      if (body->disk && other->disk) {
        list.add(DiskDiskContact{a, b, *body->disk, *other->disk},
                 cat(d.body_names[static_cast<std::size_t>(a)], "/",
                     d.body_names[static_cast<std::size_t>(b)]));
      }
      if (list.size() > first) set.pair_groups.push_back({a, b, first, list.size()});
    }
  }
  apply_aliases(d.contact_aliases, set.names);
  set.collides_with_bodies.assign(d.bodies.size(), false);
  for (const BodyPairContacts& pair : set.pair_groups) {
    set.collides_with_bodies[static_cast<std::size_t>(pair.body)] = true;
    set.collides_with_bodies[static_cast<std::size_t>(pair.other)] = true;
  }
  return set;
}

}  // namespace routh
