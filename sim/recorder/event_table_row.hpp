#pragma once
// Internal to routh_recorder: one /events row in memory, in the file's field order (the layout is
// documented in trajectory_recorder.hpp), and its HDF5 compound type, shared by the writer and
// the reader. HDF5 matches compound fields by name, so this type and the file's packed one
// convert into each other.

#include <hdf5.h>

#include <string_view>

#include "sim/recorder/hdf5_support.hpp"

namespace routh::hdf5 {

struct EventTableRow {
  double t;
  const char* kind;  // text fields: variable-length UTF-8 strings, allocated by HDF5 on reading
  const char* contacts;
  const char* phases;
  hvl_t impulse;  // variable-length float64 sequences
  hvl_t u_pre;
  hvl_t u_post;
  double delta_T;
  double normal_work;
  double tangential_work;
  const char* flags;
  const char* status;
};

/// The compound type of EventTableRow in memory.
Handle event_table_row_type(std::string_view context);

}  // namespace routh::hdf5
