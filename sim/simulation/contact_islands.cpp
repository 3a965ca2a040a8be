#include "sim/simulation/contact_islands.hpp"

#include <algorithm>

namespace routh {

namespace {

// Union–find with path halving over `parent` (each entry its own root at the start).
int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    int& up = parent[static_cast<std::size_t>(i)];
    up = parent[static_cast<std::size_t>(up)];
    i = up;
  }
  return i;
}

void join(std::vector<int>& parent, int a, int b) {
  a = find_root(parent, a);
  b = find_root(parent, b);
  if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
}

void reset_roots(std::vector<int>& parent, int count) {
  parent.resize(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) parent[static_cast<std::size_t>(i)] = i;
}

// Numbers the roots of `parent` 0, 1, … in order of their first member, into `label`.
int label_components(std::vector<int>& parent, std::vector<int>& label) {
  const int count = static_cast<int>(parent.size());
  label.assign(parent.size(), -1);
  int labels = 0;
  for (int i = 0; i < count; ++i) {
    int& root_label = label[static_cast<std::size_t>(find_root(parent, i))];
    if (root_label < 0) root_label = labels++;
    label[static_cast<std::size_t>(i)] = root_label;
  }
  return labels;
}

// The mechanisms of the velocities contact k touches, joined in `parent`; one of them, or −1
// for a contact that touches none.
int join_touched_mechanisms(const ContactKinematics& kinematics, int k,
                            const std::vector<int>& mechanism_of_velocity,
                            std::vector<int>& parent) {
  int touched = -1;
  for (int e = kinematics.touched_start[static_cast<std::size_t>(k)];
       e < kinematics.touched_start[static_cast<std::size_t>(k) + 1]; ++e) {
    const int j = kinematics.touched_velocities[static_cast<std::size_t>(e)];
    const int mechanism = mechanism_of_velocity[static_cast<std::size_t>(j)];
    if (touched < 0) {
      touched = mechanism;
    } else {
      join(parent, touched, mechanism);
    }
  }
  return touched;
}

}  // namespace

void find_mechanisms(const Eigen::MatrixXd& mass_matrix, std::vector<int>& mechanism_of_velocity) {
  std::vector<int> parent;
  const auto n = static_cast<int>(mass_matrix.rows());
  reset_roots(parent, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < j; ++i) {
      if (mass_matrix(i, j) != 0.0) join(parent, i, j);
    }
  }
  label_components(parent, mechanism_of_velocity);
}

void find_mechanisms(const Eigen::MatrixXd& mass_matrix, Mechanisms& mechanisms) {
  find_mechanisms(mass_matrix, mechanisms.of_velocity);
  const std::vector<int>& mechanism = mechanisms.of_velocity;
  const int count =
      mechanism.empty() ? 0 : 1 + *std::max_element(mechanism.begin(), mechanism.end());
  std::vector<int> next;
  group_by_label(
      static_cast<int>(mechanism.size()), count,
      [&](int j) { return mechanism[static_cast<std::size_t>(j)]; }, mechanisms.velocities,
      mechanisms.start, next);
}

double mass_product(const Mechanisms& mechanisms, const Eigen::MatrixXd& mass_matrix,
                    const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  double product = 0.0;
  for (int m = 0; m < mechanisms.count(); ++m) {
    const int first = mechanisms.start[static_cast<std::size_t>(m)];
    const int end = mechanisms.start[static_cast<std::size_t>(m) + 1];
    for (int r = first; r < end; ++r) {
      const int i = mechanisms.velocities[static_cast<std::size_t>(r)];
      double row = 0.0;
      for (int c = first; c < end; ++c) {
        const int j = mechanisms.velocities[static_cast<std::size_t>(c)];
        row += mass_matrix(i, j) * b[j];
      }
      product += a[i] * row;
    }
  }
  return product;
}

void find_contact_islands(const ContactKinematics& kinematics, const std::vector<bool>& in_set,
                          const std::vector<int>& mechanism_of_velocity, ContactIslands& islands) {
  const int mechanisms =
      mechanism_of_velocity.empty()
          ? 0
          : 1 + *std::max_element(mechanism_of_velocity.begin(), mechanism_of_velocity.end());
  const auto contacts = static_cast<int>(in_set.size());
  std::vector<int>& parent = islands.root_of_mechanism;
  reset_roots(parent, mechanisms);
  islands.mechanisms_of_contact.assign(in_set.size(), -1);
  for (int k = 0; k < contacts; ++k) {
    if (!in_set[static_cast<std::size_t>(k)]) continue;
    islands.mechanisms_of_contact[static_cast<std::size_t>(k)] =
        join_touched_mechanisms(kinematics, k, mechanism_of_velocity, parent);
  }
  // island numbers in order of first contact; −1 for mechanisms no contact touches
  std::vector<int>& island_of = islands.island_of_mechanism;
  island_of.assign(static_cast<std::size_t>(mechanisms), -1);
  islands.count = 0;
  for (int k = 0; k < contacts; ++k) {
    const int touched = islands.mechanisms_of_contact[static_cast<std::size_t>(k)];
    if (touched < 0) continue;
    int& island = island_of[static_cast<std::size_t>(find_root(parent, touched))];
    if (island < 0) island = islands.count++;
  }
  for (int m = 0; m < mechanisms; ++m) {
    island_of[static_cast<std::size_t>(m)] =
        island_of[static_cast<std::size_t>(find_root(parent, m))];
  }
  // contacts and velocities by island, each ascending within its island; the union–find's
  // scratch is done with, and serves as the sort's
  group_by_label(
      contacts, islands.count,
      [&](int k) {
        const int touched = islands.mechanisms_of_contact[static_cast<std::size_t>(k)];
        return touched < 0 ? -1 : island_of[static_cast<std::size_t>(touched)];
      },
      islands.contacts, islands.contact_start, islands.root_of_mechanism);
  group_by_label(
      static_cast<int>(mechanism_of_velocity.size()), islands.count,
      [&](int j) {
        return island_of[static_cast<std::size_t>(
            mechanism_of_velocity[static_cast<std::size_t>(j)])];
      },
      islands.velocities, islands.velocity_start, islands.root_of_mechanism);
}

}  // namespace routh
