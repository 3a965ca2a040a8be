#pragma once
// The small pieces of a trajectory file's /model that the planar and the spatial models write
// alike (sim/json_writer.hpp): vectors of any size, lists of names, and plane obstacles.

#include <Eigen/Core>
#include <string>
#include <string_view>
#include <vector>

#include "sim/json_writer.hpp"

namespace routh {

/// A vector as a one-line array, e.g. [0, 1.5].
template <class Derived>
void write_vector(JsonWriter& json, const Eigen::MatrixBase<Derived>& vector) {
  json.begin_array(JsonLayout::one_line);
  // + 0.0 turns −0 (a negated zero offset) into 0, which a reader compares more easily
  for (Eigen::Index i = 0; i < vector.size(); ++i) json.value(vector[i] + 0.0);
  json.end_array();
}

inline void write_names(JsonWriter& json, const std::vector<std::string>& names) {
  json.begin_array(JsonLayout::one_line);
  for (const std::string& name : names) json.value(name);
  json.end_array();
}

/// An obstacle bounded by a plane (a line in 2D): the free side is normal · (x − point) ≥ 0.
template <class Vector>
void write_plane_obstacle(JsonWriter& json, std::string_view name, std::string_view kind,
                          const Vector& point, const Vector& normal) {
  json.begin_object(JsonLayout::one_line);
  json.key("name");
  json.value(name);
  json.key("kind");
  json.value(kind);
  json.key("point");
  write_vector(json, point);
  json.key("normal");
  write_vector(json, normal);
  json.end_object();
}

}  // namespace routh
