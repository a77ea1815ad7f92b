// resources.NAME of a DxDispatch model: the buffer and its initial values.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

#include "core/codegen/dxdispatch_reading.h"
#include "core/float16.h"
#include "core/io/json_reading.h"
#include "core/io/npy.h"
#include "core/io/spec_file.h"
#include "core/scalar.h"

namespace stridescope::dxdispatch {

using namespace json_reading;

Expected<std::string> read_enum(const json& value, const std::string& path, std::string_view prefix) {
  SS_ASSIGN_OR_RETURN(std::string text, read_string(value, path));
  if (text.rfind(prefix, 0) == 0) return text.substr(prefix.size());
  return text;
}

Expected<DataType> read_dml_type(const json& value, const std::string& path) {
  SS_ASSIGN_OR_RETURN(const std::string name, read_enum(value, path, "DML_TENSOR_DATA_TYPE_"));
  const std::optional<DataType> type = parse_data_type(name);
  if (!type) return invalid(path, "unknown data type '" + name + "'");
  return *type;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

namespace {

// One initialValues entry: JSON integers for integer types; numbers and
// "nan"/"inf"/"-inf" (any case) for floats, FLOAT16 through float32.
Expected<uint64_t> read_initial_value(const json& value, DataType type, const std::string& path) {
  if (value.is_string() && is_floating(type)) {
    const std::string name = lower(value.get<std::string>());
    const double special = name == "nan" ? std::nan("") : name == "inf" ? INFINITY : name == "-inf" ? -INFINITY : 0;
    if (special == 0) return invalid(path, "expected a number, \"nan\", \"inf\" or \"-inf\"");
    return encode_scalar(special, type, path);
  }
  if (!is_floating(type) && !value.is_number_integer()) return wrong_type(path, "an integer", value);
  SS_ASSIGN_OR_RETURN(const Scalar scalar, read_scalar(value, path));
  if (type == DataType::Float16) return uint64_t{float_to_half(static_cast<float>(to_double(scalar)))};
  return encode_scalar(scalar, type, path);
}

void put(std::vector<std::byte>& bytes, DataType type, uint64_t i, uint64_t bits) {
  write_element_bits(type, bits, bytes.data() + i * element_size(type));
}

// object[key], which must be there: a const json's operator[] on a missing
// key is undefined behaviour (an assertion), never an error message.
Expected<const json*> member(const json& object, const char* key, const std::string& path) {
  const json* value = find(object, key);
  if (!value) return missing(field(path, key));
  return value;
}

// {valueCount, valueStart, valueDelta}: value += delta in the element type.
Expected<std::vector<std::byte>> sequence(const json& init, DataType type, uint64_t count, const std::string& path) {
  std::vector<std::byte> bytes(count * element_size(type));
  SS_ASSIGN_OR_RETURN(const json* start_value, member(init, "valueStart", path));
  SS_ASSIGN_OR_RETURN(const uint64_t start, read_initial_value(*start_value, type, field(path, "valueStart")));
  SS_ASSIGN_OR_RETURN(const json* delta_value, member(init, "valueDelta", path));
  SS_ASSIGN_OR_RETURN(const uint64_t delta, read_initial_value(*delta_value, type, field(path, "valueDelta")));
  uint64_t bits = start;
  for (uint64_t i = 0; i < count; ++i) {
    put(bytes, type, i, bits);
    std::byte a[8] = {}, d[8] = {};
    write_element_bits(type, bits, a);
    write_element_bits(type, delta, d);
    if (is_floating(type)) {
      const double sum = to_double(read_element(type, a)) + to_double(read_element(type, d));
      bits = type == DataType::Float16 ? uint64_t{float_to_half(static_cast<float>(sum))} : *encode_scalar(sum, type, "");
    } else {
      bits += delta;  // wraps modulo 2^bits once narrowed by put
    }
  }
  return bytes;
}

}  // namespace

Expected<DxResource> read_resource(const std::string& name, const json& r, const std::filesystem::path& base_dir,
                                   const Limits& limits) {
  const std::string path = field("resources", name);
  if (!r.is_object()) return wrong_type(path, "an object", r);
  DxResource resource;
  resource.name = name;
  const json* type_value = find(r, "initialValuesDataType");
  const json* init = find(r, "initialValues");
  if (!init) return missing(field(path, "initialValues"));
  const std::string init_path = field(path, "initialValues");
  std::optional<DataType> type;
  if (type_value) {
    SS_ASSIGN_OR_RETURN(type, read_dml_type(*type_value, field(path, "initialValuesDataType")));
  }
  if (init->is_object() && find(*init, "sourcePath")) {
    SS_ASSIGN_OR_RETURN(const std::string source, read_string(*find(*init, "sourcePath"), field(init_path, "sourcePath")));
    Expected<NpyArray> array = read_npy(base_dir / source, limits.max_bytes);
    if (!array) return Error{array.error().code, field(init_path, "sourcePath"), array.error().to_string()};
    if (type && *type != array->type) return invalid(field(path, "initialValuesDataType"), "differs from the .npy file's type");
    resource.type = array->type;
    resource.count = array->data.size() / element_size(array->type);
    resource.bytes = std::move(array->data);
  } else {
    if (!type) return missing(field(path, "initialValuesDataType"));
    resource.type = *type;
    if (init->is_array()) {
      resource.count = init->size();
      resource.bytes.resize(resource.count * element_size(*type));
      for (std::size_t i = 0; i < init->size(); ++i) {
        SS_ASSIGN_OR_RETURN(const uint64_t bits, read_initial_value((*init)[i], *type, indexed(init_path, i)));
        put(resource.bytes, *type, i, bits);
      }
    } else if (init->is_object()) {
      SS_ASSIGN_OR_RETURN(const json* count_value, member(*init, "valueCount", init_path));
      SS_ASSIGN_OR_RETURN(const uint64_t count, read_uint(*count_value, field(init_path, "valueCount")));
      if (count > limits.max_bytes / element_size(*type)) return invalid(field(init_path, "valueCount"), "is too large");
      resource.count = count;
      if (find(*init, "valueStart")) {
        SS_ASSIGN_OR_RETURN(resource.bytes, sequence(*init, *type, count, init_path));
      } else {
        SS_ASSIGN_OR_RETURN(const json* value_json, member(*init, "value", init_path));
        SS_ASSIGN_OR_RETURN(const uint64_t value, read_initial_value(*value_json, *type, field(init_path, "value")));
        resource.bytes.resize(count * element_size(*type));
        for (uint64_t i = 0; i < count; ++i) put(resource.bytes, *type, i, value);
      }
    } else {
      return wrong_type(init_path, "an array or an object", *init);
    }
  }
  uint64_t size = (resource.bytes.size() + 3) / 4 * 4;
  if (const json* bytes = find(r, "sizeInBytes")) {
    SS_ASSIGN_OR_RETURN(const uint64_t given, read_uint(*bytes, field(path, "sizeInBytes")));
    if (given < resource.bytes.size()) return invalid(field(path, "sizeInBytes"), "is smaller than the initial values");
    if (given > limits.max_bytes) return invalid(field(path, "sizeInBytes"), "is larger than --max-bytes");
    size = given;
  }
  resource.bytes.resize(size);
  return resource;
}


}  // namespace stridescope::dxdispatch
