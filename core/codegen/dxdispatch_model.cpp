#include "core/codegen/dxdispatch_model.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <map>
#include <tuple>

#include "core/float16.h"
#include "core/io/json_reading.h"
#include "core/io/npy.h"
#include "core/io/spec_file.h"
#include "core/scalar.h"

namespace stridescope {
namespace {

using json = nlohmann::json;
using namespace json_reading;

// DxDispatch's JSON (rapidjson) allows comments and trailing commas; the
// strict parser does not, so both are blanked out first (strings kept).
std::string strip_comments_and_trailing_commas(std::string_view text) {
  std::string out(text);
  bool in_string = false;
  std::size_t pending_comma = std::string::npos;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '/' && i + 1 < out.size() && (out[i + 1] == '/' || out[i + 1] == '*')) {
      const bool line = out[i + 1] == '/';
      std::size_t end = line ? out.find('\n', i) : out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : (line ? end : end + 2);
      for (std::size_t k = i; k < end; ++k) if (out[k] != '\n') out[k] = ' ';
      i = end - 1;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ',') {
      pending_comma = i;
      continue;
    }
    if ((c == '}' || c == ']') && pending_comma != std::string::npos) out[pending_comma] = ' ';
    if (!std::isspace(static_cast<unsigned char>(c))) pending_comma = std::string::npos;
  }
  return out;
}

// A DirectML enum by its full name or its suffix after `prefix`.
Expected<std::string> read_enum(const json& value, const std::string& path, std::string_view prefix) {
  Expected<std::string> text = read_string(value, path);
  if (!text) return text.error();
  if (text->rfind(prefix, 0) == 0) return text->substr(prefix.size());
  return *text;
}

Expected<DataType> read_dml_type(const json& value, const std::string& path) {
  Expected<std::string> name = read_enum(value, path, "DML_TENSOR_DATA_TYPE_");
  if (!name) return name.error();
  const std::optional<DataType> type = parse_data_type(*name);
  if (!type) return invalid(path, "unknown data type '" + *name + "'");
  return *type;
}

bool is_npy_path(const std::string& file) {
  return file.size() >= 4 && (file.substr(file.size() - 4) == ".npy" || file.substr(file.size() - 4) == ".NPY");
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

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
  Expected<Scalar> scalar = read_scalar(value, path);
  if (!scalar) return scalar.error();
  if (type == DataType::Float16) return uint64_t{float_to_half(static_cast<float>(to_double(*scalar)))};
  return encode_scalar(*scalar, type, path);
}

void put(std::vector<std::byte>& bytes, DataType type, uint64_t i, uint64_t bits) {
  write_element_bits(type, bits, bytes.data() + i * element_size(type));
}

// {valueCount, valueStart, valueDelta}: value += delta in the element type.
Expected<std::vector<std::byte>> sequence(const json& init, DataType type, uint64_t count, const std::string& path) {
  std::vector<std::byte> bytes(count * element_size(type));
  Expected<uint64_t> start = read_initial_value(init["valueStart"], type, field(path, "valueStart"));
  if (!start) return start.error();
  Expected<uint64_t> delta = read_initial_value(init["valueDelta"], type, field(path, "valueDelta"));
  if (!delta) return delta.error();
  uint64_t bits = *start;
  for (uint64_t i = 0; i < count; ++i) {
    put(bytes, type, i, bits);
    std::byte a[8] = {}, d[8] = {};
    write_element_bits(type, bits, a);
    write_element_bits(type, *delta, d);
    if (is_floating(type)) {
      const double sum = to_double(read_element(type, a)) + to_double(read_element(type, d));
      bits = type == DataType::Float16 ? uint64_t{float_to_half(static_cast<float>(sum))} : *encode_scalar(sum, type, "");
    } else {
      bits += *delta;  // wraps modulo 2^bits once narrowed by put
    }
  }
  return bytes;
}

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
    Expected<DataType> t = read_dml_type(*type_value, field(path, "initialValuesDataType"));
    if (!t) return t.error();
    type = *t;
  }
  if (init->is_object() && find(*init, "sourcePath")) {
    Expected<std::string> source = read_string((*init)["sourcePath"], field(init_path, "sourcePath"));
    if (!source) return source.error();
    Expected<NpyArray> array = read_npy(base_dir / *source, limits.max_bytes);
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
        Expected<uint64_t> bits = read_initial_value((*init)[i], *type, indexed(init_path, i));
        if (!bits) return bits.error();
        put(resource.bytes, *type, i, *bits);
      }
    } else if (init->is_object()) {
      Expected<uint64_t> count = read_uint((*init)["valueCount"], field(init_path, "valueCount"));
      if (!count) return count.error();
      if (*count > limits.max_bytes / element_size(*type)) return invalid(field(init_path, "valueCount"), "is too large");
      resource.count = *count;
      if (find(*init, "valueStart")) {
        Expected<std::vector<std::byte>> bytes = sequence(*init, *type, *count, init_path);
        if (!bytes) return bytes.error();
        resource.bytes = std::move(*bytes);
      } else {
        Expected<uint64_t> value = read_initial_value((*init)["value"], *type, field(init_path, "value"));
        if (!value) return value.error();
        resource.bytes.resize(*count * element_size(*type));
        for (uint64_t i = 0; i < *count; ++i) put(resource.bytes, *type, i, *value);
      }
    } else {
      return wrong_type(init_path, "an array or an object", *init);
    }
  }
  uint64_t size = (resource.bytes.size() + 3) / 4 * 4;
  if (const json* bytes = find(r, "sizeInBytes")) {
    Expected<uint64_t> given = read_uint(*bytes, field(path, "sizeInBytes"));
    if (!given) return given.error();
    if (*given < resource.bytes.size()) return invalid(field(path, "sizeInBytes"), "is smaller than the initial values");
    if (*given > limits.max_bytes) return invalid(field(path, "sizeInBytes"), "is larger than --max-bytes");
    size = *given;
  }
  resource.bytes.resize(size);
  return resource;
}


// A DML_TENSOR_DESC, short ({DataType, Sizes, ...}) or long ({Type, Desc}).
Expected<TensorRequest> read_tensor(const json& t, const std::string& path) {
  if (!t.is_object()) return wrong_type(path, "an object", t);
  const json* desc = &t;
  std::string p = path;
  if (const json* type = find(t, "Type")) {
    Expected<std::string> name = read_enum(*type, field(path, "Type"), "DML_TENSOR_TYPE_");
    if (!name) return name.error();
    if (*name != "BUFFER") return invalid(field(path, "Type"), "only BUFFER tensors are supported, not '" + *name + "'");
    desc = find(t, "Desc");
    p = field(path, "Desc");
    if (!desc) return missing(p);
  }
  TensorRequest request;
  const json* data_type = find(*desc, "DataType");
  if (!data_type) return missing(field(p, "DataType"));
  Expected<DataType> type = read_dml_type(*data_type, field(p, "DataType"));
  if (!type) return type.error();
  request.data_type = *type;
  const json* sizes = find(*desc, "Sizes");
  if (!sizes) return missing(field(p, "Sizes"));
  Expected<std::vector<uint64_t>> s = read_uint_array(*sizes, field(p, "Sizes"));
  if (!s) return s.error();
  request.sizes = *s;
  if (const json* strides = find(*desc, "Strides"); strides && !strides->is_null()) {
    Expected<std::vector<uint64_t>> st = read_uint_array(*strides, field(p, "Strides"));
    if (!st) return st.error();
    request.strides = *st;
  }
  if (const json* count = find(*desc, "DimensionCount")) {
    Expected<uint64_t> n = read_uint(*count, field(p, "DimensionCount"));
    if (!n) return n.error();
    if (*n != s->size()) return invalid(field(p, "DimensionCount"), "must equal the number of Sizes");
  }
  if (const json* flags = find(*desc, "Flags")) {
    const std::vector<json> list = flags->is_array() ? flags->get<std::vector<json>>() : std::vector<json>{*flags};
    for (const json& flag : list) {
      Expected<std::string> name = read_enum(flag, field(p, "Flags"), "DML_TENSOR_FLAG_");
      if (!name) return name.error();
      if (*name != "NONE") return invalid(field(p, "Flags"), "the flag '" + *name + "' is not supported");
    }
  }
  return request;
}

Expected<std::vector<uint64_t>> uints(const json& desc, const std::string& path, const char* key) {
  const json* value = find(desc, key);
  if (!value) return missing(field(path, key));
  return read_uint_array(*value, field(path, key));
}

Status check_dimension_count(const json& desc, const std::string& path, std::size_t expected) {
  const json* value = find(desc, "DimensionCount");
  if (!value) return missing(field(path, "DimensionCount"));
  Expected<uint64_t> n = read_uint(*value, field(path, "DimensionCount"));
  if (!n) return n.error();
  if (*n != expected) return invalid(field(path, "DimensionCount"), "must be " + std::to_string(expected));
  return {};
}

// PADDING's PaddingValue: a FLOAT. PADDING1's: a number in PaddingValueDataType,
// or {member: value} naming the DML_SCALAR_UNION member (raw bits for FLOAT16).
Expected<Scalar> read_padding_value(const json& desc, const std::string& path, bool padding1, DataType out_type) {
  const json* value = find(desc, "PaddingValue");
  const std::string value_path = field(path, "PaddingValue");
  if (!value) return missing(value_path);
  if (!padding1) {
    Expected<double> d = read_finite_double(*value, value_path);
    if (!d) return d.error();
    return Scalar{static_cast<double>(static_cast<float>(*d))};
  }
  const json* type_value = find(desc, "PaddingValueDataType");
  if (!type_value) return missing(field(path, "PaddingValueDataType"));
  Expected<DataType> type = read_dml_type(*type_value, field(path, "PaddingValueDataType"));
  if (!type) return type.error();
  if (*type != out_type) return invalid(field(path, "PaddingValueDataType"), "must be the output's data type");
  if (!value->is_object()) return read_scalar(*value, value_path);
  if (value->size() != 1) return invalid(value_path, "must name one DML_SCALAR_UNION member");
  static const std::map<std::string, DataType> members = {
      {"Int8", DataType::Int8},     {"UInt8", DataType::UInt8},   {"Int16", DataType::Int16},
      {"UInt16", DataType::UInt16}, {"Int32", DataType::Int32},   {"UInt32", DataType::UInt32},
      {"Int64", DataType::Int64},   {"UInt64", DataType::UInt64}, {"Float32", DataType::Float32},
      {"Float64", DataType::Float64}};
  const auto member = members.find(value->begin().key());
  if (member == members.end()) return invalid(field(value_path, value->begin().key()), "is not a DML_SCALAR_UNION member");
  Expected<Scalar> held = read_scalar(value->begin().value(), field(value_path, member->first));
  if (!held) return held.error();
  Expected<uint64_t> bits = encode_scalar(*held, member->second, field(value_path, member->first));
  if (!bits) return bits.error();
  if (element_size(member->second) != element_size(*type)) return *held;  // a value, not bits of the type
  std::byte bytes[8] = {};
  write_element_bits(*type, *bits, bytes);  // the member's bits read as the value's type
  return read_element(*type, bytes);
}

Expected<ParamsRequest> read_params(const std::string& op, const json& desc, const std::string& path,
                                    DataType out_type) {
  if (op == "ELEMENT_WISE_IDENTITY") {
    if (const json* scale_bias = find(desc, "ScaleBias"); scale_bias && !scale_bias->is_null()) {
      return invalid(field(path, "ScaleBias"), "is not supported: StrideScope's identity has no ScaleBias");
    }
    return ParamsRequest{IdentityRequest{}};
  }
  if (op == "SLICE") {
    SliceRequest r;
    for (auto [key, target] : {std::pair{"Offsets", &r.offsets}, {"Sizes", &r.sizes}, {"Strides", &r.strides}}) {
      Expected<std::vector<uint64_t>> values = uints(desc, path, key);
      if (!values) return values.error();
      *target = *values;
    }
    if (Status s = check_dimension_count(desc, path, r.offsets.size()); !s.ok()) return s.error();
    return ParamsRequest{r};
  }
  if (op == "SLICE1") {
    Slice1Request r;
    Expected<std::vector<uint64_t>> offsets = uints(desc, path, "InputWindowOffsets");
    if (!offsets) return offsets.error();
    Expected<std::vector<uint64_t>> sizes = uints(desc, path, "InputWindowSizes");
    if (!sizes) return sizes.error();
    const json* strides = find(desc, "InputWindowStrides");
    if (!strides) return missing(field(path, "InputWindowStrides"));
    Expected<std::vector<int64_t>> s = read_int_array(*strides, field(path, "InputWindowStrides"));
    if (!s) return s.error();
    r.input_window_offsets = *offsets;
    r.input_window_sizes = *sizes;
    r.input_window_strides = *s;
    if (Status st = check_dimension_count(desc, path, offsets->size()); !st.ok()) return st.error();
    return ParamsRequest{r};
  }
  if (op == "PADDING" || op == "PADDING1") {
    PaddingRequest r;
    const json* mode = find(desc, "PaddingMode");
    if (!mode) return missing(field(path, "PaddingMode"));
    Expected<std::string> name = read_enum(*mode, field(path, "PaddingMode"), "DML_PADDING_MODE_");
    if (!name) return name.error();
    const std::optional<PaddingMode> m = parse_padding_mode(*name);
    if (!m) return invalid(field(path, "PaddingMode"), "unknown padding mode '" + *name + "'");
    r.padding_mode = *m;
    Expected<Scalar> value = read_padding_value(desc, path, op == "PADDING1", out_type);
    if (!value) return value.error();
    r.padding_value = *value;
    Expected<std::vector<uint64_t>> start = uints(desc, path, "StartPadding");
    if (!start) return start.error();
    Expected<std::vector<uint64_t>> end = uints(desc, path, "EndPadding");
    if (!end) return end.error();
    r.start_padding = *start;
    r.end_padding = *end;
    if (Status s = check_dimension_count(desc, path, start->size()); !s.ok()) return s.error();
    return ParamsRequest{r};
  }
  MaxPooling2Request r;
  Expected<std::vector<uint64_t>> window = uints(desc, path, "WindowSize");
  if (!window) return window.error();
  r.window_size = *window;
  for (auto [key, target] : {std::pair{"Strides", &r.strides}, {"StartPadding", &r.start_padding},
                             {"EndPadding", &r.end_padding}, {"Dilations", &r.dilations}}) {
    Expected<std::vector<uint64_t>> values = uints(desc, path, key);
    if (!values) return values.error();
    *target = *values;
  }
  if (Status s = check_dimension_count(desc, path, window->size()); !s.ok()) return s.error();
  return ParamsRequest{r};
}

constexpr const char* kOperators[] = {"ELEMENT_WISE_IDENTITY", "SLICE", "SLICE1", "PADDING", "PADDING1", "MAX_POOLING2"};

Expected<DxDispatchable> read_dispatchable(const std::string& name, const json& d, const Limits& limits) {
  const std::string path = field("dispatchables", name);
  if (!d.is_object()) return wrong_type(path, "an object", d);
  const json* type = find(d, "type");
  if (!type) return missing(field(path, "type"));
  Expected<std::string> op = read_enum(*type, field(path, "type"), "DML_OPERATOR_");
  if (!op) return op.error();
  if (std::find(std::begin(kOperators), std::end(kOperators), *op) == std::end(kOperators)) {
    return invalid(field(path, "type"), "StrideScope runs DML_OPERATOR_SLICE, SLICE1, PADDING, PADDING1, "
                                        "MAX_POOLING2 and ELEMENT_WISE_IDENTITY, not '" + type->dump() + "'");
  }
  const json* desc = find(d, "desc");
  std::string desc_path = field(path, "desc");
  if (!desc) {
    desc = find(d, "Desc");
    desc_path = field(path, "Desc");
  }
  if (!desc) {
    desc = &d;
    desc_path = path;
  }
  OpRequest request;
  for (auto [key, target] : {std::pair{"InputTensor", &request.input}, {"OutputTensor", &request.output}}) {
    const json* t = find(*desc, key);
    if (!t) return missing(field(desc_path, key));
    Expected<TensorRequest> tensor = read_tensor(*t, field(desc_path, key));
    if (!tensor) return tensor.error();
    *target = *tensor;
  }
  if (const json* t = find(*desc, "OutputIndicesTensor"); t && !t->is_null() && *op == "MAX_POOLING2") {
    Expected<TensorRequest> tensor = read_tensor(*t, field(desc_path, "OutputIndicesTensor"));
    if (!tensor) return tensor.error();
    request.output_indices = *tensor;
  }
  Expected<ParamsRequest> params = read_params(*op, *desc, desc_path, *request.output.data_type);
  if (!params) return params.error();
  request.params = *params;
  Expected<Operation> operation = Operation::make(request, limits);
  if (!operation) return invalid(desc_path, operation.error().to_string());
  return DxDispatchable{name, std::move(*operation)};
}

Expected<std::size_t> resource_index(const DxModel& model, const std::string& name, const std::string& path) {
  for (std::size_t i = 0; i < model.resources.size(); ++i) {
    if (model.resources[i].name == name) return i;
  }
  return invalid(path, "names no resource ('" + name + "')");
}

Expected<DxBinding> read_binding(const DxModel& model, const json& b, const std::string& path, const TensorDesc& desc) {
  DxBinding binding;
  std::string name;
  if (b.is_string()) {
    name = b.get<std::string>();
  } else if (b.is_object()) {
    const json* n = find(b, "name");
    if (!n) return missing(field(path, "name"));
    Expected<std::string> text = read_string(*n, field(path, "name"));
    if (!text) return text.error();
    name = *text;
  } else {
    return wrong_type(path, "a resource name or {name, elementOffset}", b);
  }
  Expected<std::size_t> index = resource_index(model, name, path);
  if (!index) return index.error();
  binding.resource = *index;
  const DxResource& resource = model.resources[*index];
  if (b.is_object()) {
    if (const json* offset = find(b, "elementOffset")) {
      Expected<uint64_t> elements = read_uint(*offset, field(path, "elementOffset"));
      if (!elements) return elements.error();
      if (*elements > resource.bytes.size()) return invalid(field(path, "elementOffset"), "lies past the buffer");
      binding.byte_offset = *elements * element_size(resource.type);
    }
  }
  const uint64_t room = binding.byte_offset > resource.bytes.size() ? 0 : resource.bytes.size() - binding.byte_offset;
  if (room < desc.buffer_bytes()) {
    return invalid(path, "resource '" + name + "' has " + std::to_string(room) + " bytes from its offset; the tensor needs " +
                             std::to_string(desc.buffer_bytes()) + " (TotalTensorSizeInBytes)");
  }
  return binding;
}

Expected<DxCommand> read_command(const DxModel& model, const json& c, const std::string& path) {
  if (!c.is_object()) return wrong_type(path, "an object", c);
  const json* type = find(c, "type");
  if (!type) return missing(field(path, "type"));
  Expected<std::string> kind = read_string(*type, field(path, "type"));
  if (!kind) return kind.error();
  DxCommand command;
  const std::string k = lower(*kind);
  if (k == "print" || k == "writefile") {
    command.kind = k == "print" ? DxCommand::Kind::Print : DxCommand::Kind::WriteFile;
    const json* r = find(c, "resource");
    if (!r) return missing(field(path, "resource"));
    Expected<std::string> name = read_string(*r, field(path, "resource"));
    if (!name) return name.error();
    Expected<std::size_t> index = resource_index(model, *name, field(path, "resource"));
    if (!index) return index.error();
    command.resource = *index;
    if (command.kind == DxCommand::Kind::WriteFile) {
      const json* target = find(c, "targetPath");
      if (!target) return missing(field(path, "targetPath"));
      Expected<std::string> file = read_string(*target, field(path, "targetPath"));
      if (!file) return file.error();
      if (!is_npy_path(*file)) return invalid(field(path, "targetPath"), "StrideScope writes .npy files only");
      command.target = *file;
    }
    return command;
  }
  if (k != "dispatch") return invalid(field(path, "type"), "unknown command '" + *kind + "' (dispatch, print, writeFile)");
  command.kind = DxCommand::Kind::Dispatch;
  const json* name = find(c, "dispatchable");
  if (!name) return missing(field(path, "dispatchable"));
  Expected<std::string> d = read_string(*name, field(path, "dispatchable"));
  if (!d) return d.error();
  std::size_t index = model.dispatchables.size();
  for (std::size_t i = 0; i < model.dispatchables.size(); ++i) {
    if (model.dispatchables[i].name == *d) index = i;
  }
  if (index == model.dispatchables.size()) return invalid(field(path, "dispatchable"), "names no dispatchable ('" + *d + "')");
  command.dispatchable = index;
  const Operation& op = model.dispatchables[index].op;
  const json* bindings = find(c, "bindings");
  if (!bindings || !bindings->is_object()) return missing(field(path, "bindings"));
  const std::string bpath = field(path, "bindings");
  for (const auto& [point, value] : bindings->items()) {
    if (point != "InputTensor" && point != "OutputTensor" && !(point == "OutputIndicesTensor" && op.output_indices())) {
      return invalid(field(bpath, point), "is not a bind point of this dispatchable");
    }
  }
  for (auto [point, target, desc] : {std::tuple{"InputTensor", &command.input, &op.input()},
                                     {"OutputTensor", &command.output, &op.output()}}) {
    const json* b = find(*bindings, point);
    if (!b) return missing(field(bpath, point));
    Expected<DxBinding> binding = read_binding(model, *b, field(bpath, point), *desc);
    if (!binding) return binding.error();
    *target = *binding;
  }
  if (op.output_indices()) {
    const json* b = find(*bindings, "OutputIndicesTensor");
    if (!b) return missing(field(bpath, "OutputIndicesTensor"));
    Expected<DxBinding> binding = read_binding(model, *b, field(bpath, "OutputIndicesTensor"), *op.output_indices());
    if (!binding) return binding.error();
    command.indices = *binding;
  }
  return command;
}

}  // namespace

bool looks_like_dxdispatch_model(std::string_view text) { return text.find("\"dispatchables\"") != std::string_view::npos; }

Expected<DxModel> parse_dxdispatch_model(std::string_view text, const std::filesystem::path& base_dir,
                                         const Limits& limits) {
  Expected<json> root = parse_json(strip_comments_and_trailing_commas(text));
  if (!root) return root.error();
  if (!root->is_object()) return wrong_type("", "an object", *root);
  for (const char* key : {"resources", "dispatchables", "commands"}) {
    if (!find(*root, key)) return missing(key);
  }
  DxModel model;
  const json& resources = (*root)["resources"];
  if (!resources.is_object()) return wrong_type("resources", "an object", resources);
  for (const auto& [name, value] : resources.items()) {
    Expected<DxResource> resource = read_resource(name, value, base_dir, limits);
    if (!resource) return resource.error();
    model.resources.push_back(std::move(*resource));
  }
  const json& dispatchables = (*root)["dispatchables"];
  if (!dispatchables.is_object()) return wrong_type("dispatchables", "an object", dispatchables);
  for (const auto& [name, value] : dispatchables.items()) {
    Expected<DxDispatchable> d = read_dispatchable(name, value, limits);
    if (!d) return d.error();
    model.dispatchables.push_back(std::move(*d));
  }
  const json& commands = (*root)["commands"];
  if (!commands.is_array()) return wrong_type("commands", "an array", commands);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    Expected<DxCommand> command = read_command(model, commands[i], indexed("commands", i));
    if (!command) return command.error();
    model.commands.push_back(std::move(*command));
  }
  return model;
}

namespace {

// The tensor's buffer from a binding, TotalTensorSizeInBytes long.
std::vector<std::byte> bound_bytes(const DxModel& model, const DxBinding& b, const TensorDesc& desc) {
  const std::vector<std::byte>& bytes = model.resources[b.resource].bytes;
  return {bytes.begin() + static_cast<std::ptrdiff_t>(b.byte_offset),
          bytes.begin() + static_cast<std::ptrdiff_t>(b.byte_offset + desc.buffer_bytes())};
}

void store(DxModel& model, const DxBinding& b, const std::vector<std::byte>& data, const TensorDesc& desc) {
  std::vector<std::byte>& bytes = model.resources[b.resource].bytes;
  std::memcpy(bytes.data() + b.byte_offset, data.data(), desc.buffer_elements() * desc.element_size());
}

}  // namespace

Status run_dxdispatch_model(DxModel& model, Backend& backend, std::ostream& out) {
  for (const DxCommand& command : model.commands) {
    if (command.kind == DxCommand::Kind::Dispatch) {
      const Operation& op = model.dispatchables[command.dispatchable].op;
      const std::vector<std::byte> input = bound_bytes(model, command.input, op.input());
      std::vector<std::byte> output = bound_bytes(model, command.output, op.output());
      std::vector<std::byte> indices;
      if (command.indices) indices = bound_bytes(model, *command.indices, *op.output_indices());
      Expected<RunStats> ran = backend.run(op, input, output, indices);
      if (!ran) return ran.error();
      store(model, command.output, output, op.output());
      if (command.indices) store(model, *command.indices, indices, *op.output_indices());
      continue;
    }
    const DxResource& resource = model.resources[command.resource];
    if (command.kind == DxCommand::Kind::WriteFile) {
      const uint64_t shape[] = {resource.count};
      if (Status s = write_npy(command.target, resource.type, shape,
                               std::span(resource.bytes).first(resource.count * element_size(resource.type)));
          !s.ok()) {
        return s;
      }
      continue;
    }
    out << resource.name << ":";
    for (uint64_t i = 0; i < resource.count; ++i) {
      out << (i ? ", " : " ") << format_scalar(read_element(resource.type, resource.bytes.data() + i * element_size(resource.type)));
    }
    out << '\n';
  }
  return {};
}

}  // namespace stridescope
