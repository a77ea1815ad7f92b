// dispatchables.NAME of a DxDispatch model: a DML operator desc read into an
// OpRequest and validated as an Operation.
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
namespace {

using namespace json_reading;

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

Expected<ParamsRequest> read_slice(const json& desc, const std::string& path) {
  SliceRequest r;
  for (auto [key, target] : {std::pair{"Offsets", &r.offsets}, {"Sizes", &r.sizes}, {"Strides", &r.strides}}) {
    Expected<std::vector<uint64_t>> values = uints(desc, path, key);
    if (!values) return values.error();
    *target = *values;
  }
  if (Status s = check_dimension_count(desc, path, r.offsets.size()); !s.ok()) return s.error();
  return ParamsRequest{r};
}

Expected<ParamsRequest> read_slice1(const json& desc, const std::string& path) {
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

Expected<ParamsRequest> read_padding(const json& desc, const std::string& path, bool padding1, DataType out_type) {
  PaddingRequest r;
  const json* mode = find(desc, "PaddingMode");
  if (!mode) return missing(field(path, "PaddingMode"));
  Expected<std::string> name = read_enum(*mode, field(path, "PaddingMode"), "DML_PADDING_MODE_");
  if (!name) return name.error();
  const std::optional<PaddingMode> m = parse_padding_mode(*name);
  if (!m) return invalid(field(path, "PaddingMode"), "unknown padding mode '" + *name + "'");
  r.padding_mode = *m;
  Expected<Scalar> value = read_padding_value(desc, path, padding1, out_type);
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

Expected<ParamsRequest> read_max_pooling2(const json& desc, const std::string& path) {
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

Expected<ParamsRequest> read_params(const std::string& op, const json& desc, const std::string& path,
                                    DataType out_type) {
  if (op == "ELEMENT_WISE_IDENTITY") {
    if (const json* scale_bias = find(desc, "ScaleBias"); scale_bias && !scale_bias->is_null()) {
      return invalid(field(path, "ScaleBias"), "is not supported: StrideScope's identity has no ScaleBias");
    }
    return ParamsRequest{IdentityRequest{}};
  }
  if (op == "SLICE") return read_slice(desc, path);
  if (op == "SLICE1") return read_slice1(desc, path);
  if (op == "PADDING" || op == "PADDING1") return read_padding(desc, path, op == "PADDING1", out_type);
  return read_max_pooling2(desc, path);
}

constexpr const char* kOperators[] = {"ELEMENT_WISE_IDENTITY", "SLICE", "SLICE1", "PADDING", "PADDING1", "MAX_POOLING2"};

}  // namespace

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

}  // namespace stridescope::dxdispatch
