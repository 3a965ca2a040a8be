#include "sim/recorder/event_table_row.hpp"

#include <cstddef>
#include <stdexcept>

#include "sim/recorder/trajectory_recorder.hpp"
#include "sim/text.hpp"

namespace routh::hdf5 {

Handle event_table_row_type(std::string_view context) {
  const Handle text = utf8_string_type();
  const Handle doubles =
      checked(H5Tvlen_create(H5T_NATIVE_DOUBLE), &H5Tclose, context, "create a vlen type");
  Handle type = checked(H5Tcreate(H5T_COMPOUND, sizeof(EventTableRow)), &H5Tclose, context,
                        "create the event type");
  // the fields in kEventFields' order, which the file's `fields` and `units` attributes and
  // `routh info --events` follow
  std::size_t next = 0;
  const auto insert = [&](const char* name, std::size_t offset, hid_t member) {
    if (next >= kEventFields.size() || kEventFields[next].name != name) {
      throw std::logic_error(cat("event field ", name, " is not kEventFields[", next, "]"));
    }
    ++next;
    check(H5Tinsert(type.get(), name, offset, member), context, cat("add event field ", name));
  };
  insert("t", offsetof(EventTableRow, t), H5T_NATIVE_DOUBLE);
  insert("kind", offsetof(EventTableRow, kind), text.get());
  insert("contacts", offsetof(EventTableRow, contacts), text.get());
  insert("phases", offsetof(EventTableRow, phases), text.get());
  insert("impulse", offsetof(EventTableRow, impulse), doubles.get());
  insert("u_pre", offsetof(EventTableRow, u_pre), doubles.get());
  insert("u_post", offsetof(EventTableRow, u_post), doubles.get());
  insert("delta_T", offsetof(EventTableRow, delta_T), H5T_NATIVE_DOUBLE);
  insert("normal_work", offsetof(EventTableRow, normal_work), H5T_NATIVE_DOUBLE);
  insert("tangential_work", offsetof(EventTableRow, tangential_work), H5T_NATIVE_DOUBLE);
  insert("flags", offsetof(EventTableRow, flags), text.get());
  insert("status", offsetof(EventTableRow, status), text.get());
  if (next != kEventFields.size()) throw std::logic_error("kEventFields has fields not in the row");
  return type;
}

}  // namespace routh::hdf5
