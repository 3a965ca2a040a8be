#include "sim/recorder/hdf5_support.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "sim/text.hpp"

namespace routh::hdf5 {

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }

namespace {

struct StackWalk {
  std::string outermost;
  std::string innermost;
};

extern "C" herr_t collect_error(unsigned n, const H5E_error2_t* error, void* data) {
  auto* walk = static_cast<StackWalk*>(data);
  const std::string description = error->desc != nullptr ? error->desc : "";
  if (n == 0) walk->outermost = description;
  walk->innermost = description;
  return 0;
}

}  // namespace

std::string error_detail() {
  StackWalk walk;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, &collect_error, &walk);
  if (walk.innermost.empty() || walk.innermost == walk.outermost) return walk.outermost;
  if (walk.outermost.empty()) return walk.innermost;
  return cat(walk.outermost, " (", walk.innermost, ")");
}

void check(herr_t status, std::string_view context, std::string_view what) {
  if (status >= 0) return;
  const std::string detail = error_detail();
  throw std::runtime_error(
      cat(context, ": cannot ", what, detail.empty() ? "" : cat(": ", detail)));
}

Handle checked(hid_t id, Handle::Closer closer, std::string_view context, std::string_view what) {
  check(id < 0 ? -1 : 0, context, what);
  return Handle(id, closer);
}

namespace {

std::uint32_t rotated(std::uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

// Bob Jenkins' lookup3 hash ("hashlittle", byte by byte), HDF5's metadata checksum
// (H5_checksum_lookup3 with initial value 0).
std::uint32_t lookup3(const unsigned char* key, std::size_t length) {
  std::uint32_t a = 0xdeadbeef + static_cast<std::uint32_t>(length);
  std::uint32_t b = a;
  std::uint32_t c = a;
  const auto word = [&](std::size_t at, std::size_t bytes) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < bytes && i < 4; ++i) value |= std::uint32_t{key[at + i]} << (8 * i);
    return value;
  };
  while (length > 12) {
    a += word(0, 4), b += word(4, 4), c += word(8, 4);
    a -= c, a ^= rotated(c, 4), c += b;
    b -= a, b ^= rotated(a, 6), a += c;
    c -= b, c ^= rotated(b, 8), b += a;
    a -= c, a ^= rotated(c, 16), c += b;
    b -= a, b ^= rotated(a, 19), a += c;
    c -= b, c ^= rotated(b, 4), b += a;
    length -= 12, key += 12;
  }
  if (length == 0) return c;
  a += word(0, std::min<std::size_t>(length, 4));
  if (length > 4) b += word(4, std::min<std::size_t>(length - 4, 4));
  if (length > 8) c += word(8, length - 8);
  c ^= b, c -= rotated(b, 14);
  a ^= c, a -= rotated(c, 11);
  b ^= a, b -= rotated(a, 25);
  c ^= b, c -= rotated(b, 16);
  a ^= c, a -= rotated(c, 4);
  b ^= a, b -= rotated(a, 14);
  c ^= b, c -= rotated(b, 24);
  return c;
}

}  // namespace

void seal_superblock(std::vector<char>& image, std::string_view context) {
  // signature (8 bytes), version, size of offsets, size of lengths, status flags, then four
  // 8-byte addresses; the checksum of those 44 bytes follows
  constexpr std::size_t kFlags = 11;
  constexpr std::size_t kChecksummed = 44;
  constexpr std::string_view kSignature = "\x89HDF\r\n\x1a\n";
  const bool v2_layout = image.size() >= kChecksummed + 4 &&
                         std::string_view(image.data(), 8) == kSignature &&
                         (image[8] == 2 || image[8] == 3) && image[9] == 8 && image[10] == 8;
  if (!v2_layout) {
    throw std::runtime_error(cat(context, ": the header's image has an unexpected superblock"));
  }
  image[kFlags] = 0;
  const std::uint32_t checksum =
      lookup3(reinterpret_cast<const unsigned char*>(image.data()), kChecksummed);
  for (std::size_t i = 0; i < 4; ++i) {
    image[kChecksummed + i] = static_cast<char>((checksum >> (8 * i)) & 0xffu);
  }
}

Handle open_for_reading(const char* path, std::string_view context) {
  Handle file =
      checked(H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), &H5Fclose, context, "open the file");
  // a file without the room problem is unchanged: the end stays where it is
  check(H5Fincrement_filesize(file.get(), 0), context, "read the file's size");
  return file;
}

RowSelection select_rows(hid_t dataset, hsize_t first, hsize_t rows, hsize_t columns,
                         std::string_view context) {
  const int rank = columns == 0 ? 1 : 2;
  const std::array<hsize_t, 2> start = {first, 0};
  const std::array<hsize_t, 2> count = {rows, columns};
  Handle file_space = checked(H5Dget_space(dataset), &H5Sclose, context, "get a dataspace");
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                            nullptr),
        context, "select rows");
  Handle memory_space = checked(H5Screate_simple(rank, count.data(), nullptr), &H5Sclose, context,
                                "create a dataspace");
  return {std::move(file_space), std::move(memory_space)};
}

Handle utf8_string_type() {
  Handle type(H5Tcopy(H5T_C_S1), &H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

void write_string_attribute(hid_t object, const char* name, const std::string& value,
                            std::string_view context) {
  if (H5Aexists(object, name) > 0) {
    check(H5Adelete(object, name), context, cat("replace attribute ", name));
  }
  const Handle type = utf8_string_type();
  const Handle space = checked(H5Screate(H5S_SCALAR), &H5Sclose, context, "create a dataspace");
  const Handle attribute =
      checked(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
              &H5Aclose, context, cat("create attribute ", name));
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &text), context, cat("write attribute ", name));
}

void write_string_array_attribute(hid_t object, const char* name,
                                  const std::vector<std::string>& values,
                                  std::string_view context) {
  const Handle type = utf8_string_type();
  const hsize_t size = values.size();
  const Handle space =
      checked(H5Screate_simple(1, &size, nullptr), &H5Sclose, context, "create a dataspace");
  const Handle attribute =
      checked(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
              &H5Aclose, context, cat("create attribute ", name));
  // an empty list (a model without contacts) has nothing to write, and HDF5 refuses the null
  // buffer of an empty vector
  if (values.empty()) return;
  std::vector<const char*> texts;
  texts.reserve(values.size());
  for (const std::string& value : values) texts.push_back(value.c_str());
  check(H5Awrite(attribute.get(), type.get(), texts.data()), context,
        cat("write attribute ", name));
}

namespace {

// A scalar attribute of type `file_type` in the file, written from `value` of `memory_type`.
void write_scalar_attribute(hid_t object, const char* name, hid_t file_type, hid_t memory_type,
                            const void* value, std::string_view context) {
  const Handle space = checked(H5Screate(H5S_SCALAR), &H5Sclose, context, "create a dataspace");
  const Handle attribute =
      checked(H5Acreate2(object, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT), &H5Aclose,
              context, cat("create attribute ", name));
  check(H5Awrite(attribute.get(), memory_type, value), context, cat("write attribute ", name));
}

}  // namespace

void write_int_attribute(hid_t object, const char* name, int value, std::string_view context) {
  write_scalar_attribute(object, name, H5T_STD_I32LE, H5T_NATIVE_INT, &value, context);
}

void write_int64_attribute(hid_t object, const char* name, std::int64_t value,
                           std::string_view context) {
  if (H5Aexists(object, name) > 0) {
    check(H5Adelete(object, name), context, cat("replace attribute ", name));
  }
  write_scalar_attribute(object, name, H5T_NATIVE_INT64, H5T_NATIVE_INT64, &value, context);
}

void write_double_attribute(hid_t object, const char* name, double value,
                            std::string_view context) {
  write_scalar_attribute(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, context);
}

Handle conversion_transfer(std::string_view context) {
  constexpr std::size_t kConversionBufferBytes = 64 * 1024;
  Handle transfer =
      checked(H5Pcreate(H5P_DATASET_XFER), &H5Pclose, context, "create transfer properties");
  check(H5Pset_buffer(transfer.get(), kConversionBufferBytes, nullptr, nullptr), context,
        "set the conversion buffer");
  return transfer;
}

Handle write_text_dataset(hid_t object, const char* name, const std::string& text,
                          std::string_view context) {
  const Handle type = utf8_string_type();
  const Handle space = checked(H5Screate(H5S_SCALAR), &H5Sclose, context, "create a dataspace");
  Handle dataset = checked(
      H5Dcreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      &H5Dclose, context, cat("create dataset ", name));
  const char* data = text.c_str();
  const Handle transfer = conversion_transfer(context);
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, transfer.get(), &data), context,
        cat("write dataset ", name));
  return dataset;
}

std::string read_text_dataset(hid_t dataset, std::string_view name, std::string_view context) {
  const Handle type = utf8_string_type();
  const Handle transfer = conversion_transfer(context);
  char* data = nullptr;
  check(H5Dread(dataset, type.get(), H5S_ALL, H5S_ALL, transfer.get(), &data), context,
        cat("read dataset ", name));
  std::string text = data != nullptr ? data : "";
  H5free_memory(data);
  return text;
}

std::vector<std::string> member_names(hid_t compound, std::string_view context) {
  const int count = H5Tget_nmembers(compound);
  if (count < 0) throw std::runtime_error(cat(context, ": cannot read a compound type's fields"));
  std::vector<std::string> names;
  for (int k = 0; k < count; ++k) {
    char* name = H5Tget_member_name(compound, static_cast<unsigned>(k));
    if (name == nullptr) throw std::runtime_error(cat(context, ": cannot read a field's name"));
    names.emplace_back(name);
    H5free_memory(name);
  }
  return names;
}

namespace {

Handle open_attribute(hid_t object, const char* name, std::string_view context) {
  if (H5Aexists(object, name) <= 0) {
    throw std::runtime_error(cat(context, ": attribute '", name, "' is missing"));
  }
  return checked(H5Aopen(object, name, H5P_DEFAULT), &H5Aclose, context,
                 cat("open attribute ", name));
}

// Reads `count` strings of the attribute's string type, fixed or variable length.
std::vector<std::string> read_strings(hid_t attribute, std::size_t count, const char* name,
                                      std::string_view context) {
  const Handle file_type =
      checked(H5Aget_type(attribute), &H5Tclose, context, cat("read the type of ", name));
  if (H5Tget_class(file_type.get()) != H5T_STRING) {
    throw std::runtime_error(cat(context, ": attribute '", name, "' is not text"));
  }
  std::vector<std::string> values;
  if (H5Tis_variable_str(file_type.get()) > 0) {
    const Handle type = utf8_string_type();
    std::vector<char*> texts(count, nullptr);
    check(H5Aread(attribute, type.get(), texts.data()), context, cat("read attribute ", name));
    for (char* text : texts) values.emplace_back(text != nullptr ? text : "");
    const Handle space = checked(H5Aget_space(attribute), &H5Sclose, context, "read a dataspace");
    H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, texts.data());
    return values;
  }
  const std::size_t width = H5Tget_size(file_type.get());
  const Handle type(H5Tcopy(file_type.get()), &H5Tclose);
  std::vector<char> buffer(width * count + 1, '\0');
  check(H5Aread(attribute, type.get(), buffer.data()), context, cat("read attribute ", name));
  for (std::size_t i = 0; i < count; ++i) {
    std::string value(buffer.data() + i * width, width);
    value.erase(value.find_last_not_of(std::string_view("\0 ", 2)) + 1);
    values.push_back(std::move(value));
  }
  return values;
}

}  // namespace

std::string read_string_attribute(hid_t object, const char* name, std::string_view context) {
  const Handle attribute = open_attribute(object, name, context);
  return read_strings(attribute.get(), 1, name, context).front();
}

std::vector<std::string> read_string_array_attribute(hid_t object, const char* name,
                                                     std::string_view context) {
  const Handle attribute = open_attribute(object, name, context);
  const Handle space =
      checked(H5Aget_space(attribute.get()), &H5Sclose, context, "read a dataspace");
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 0) throw std::runtime_error(cat(context, ": attribute '", name, "' has no size"));
  if (count == 0) return {};
  return read_strings(attribute.get(), static_cast<std::size_t>(count), name, context);
}

long long read_integer_attribute(hid_t object, const char* name, std::string_view context) {
  const Handle attribute = open_attribute(object, name, context);
  const Handle type =
      checked(H5Aget_type(attribute.get()), &H5Tclose, context, cat("read the type of ", name));
  if (H5Tget_class(type.get()) != H5T_INTEGER) {
    throw std::runtime_error(cat(context, ": attribute '", name, "' is not an integer"));
  }
  long long value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_LLONG, &value), context, cat("read attribute ", name));
  return value;
}

double read_double_attribute(hid_t object, const char* name, std::string_view context) {
  const Handle attribute = open_attribute(object, name, context);
  const Handle type =
      checked(H5Aget_type(attribute.get()), &H5Tclose, context, cat("read the type of ", name));
  if (H5Tget_class(type.get()) != H5T_FLOAT && H5Tget_class(type.get()) != H5T_INTEGER) {
    throw std::runtime_error(cat(context, ": attribute '", name, "' is not a number"));
  }
  double value = 0.0;
  check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &value), context, cat("read attribute ", name));
  return value;
}

}  // namespace routh::hdf5
