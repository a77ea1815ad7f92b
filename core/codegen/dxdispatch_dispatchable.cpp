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
#include "core/op_schema.h"
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
    SS_ASSIGN_OR_RETURN(const std::string name, read_enum(*type, field(path, "Type"), "DML_TENSOR_TYPE_"));
    if (name != "BUFFER") return invalid(field(path, "Type"), "only BUFFER tensors are supported, not '" + name + "'");
    desc = find(t, "Desc");
    p = field(path, "Desc");
    if (!desc) return missing(p);
  }
  TensorRequest request;
  const json* data_type = find(*desc, "DataType");
  if (!data_type) return missing(field(p, "DataType"));
  SS_ASSIGN_OR_RETURN(request.data_type, read_dml_type(*data_type, field(p, "DataType")));
  const json* sizes = find(*desc, "Sizes");
  if (!sizes) return missing(field(p, "Sizes"));
  SS_ASSIGN_OR_RETURN(request.sizes, read_uint_array(*sizes, field(p, "Sizes")));
  if (const json* strides = find(*desc, "Strides"); strides && !strides->is_null()) {
    SS_ASSIGN_OR_RETURN(request.strides, read_uint_array(*strides, field(p, "Strides")));
  }
  if (const json* count = find(*desc, "DimensionCount")) {
    SS_ASSIGN_OR_RETURN(const uint64_t n, read_uint(*count, field(p, "DimensionCount")));
    if (n != request.sizes->size()) return invalid(field(p, "DimensionCount"), "must equal the number of Sizes");
  }
  if (const json* flags = find(*desc, "Flags")) {
    const std::vector<json> list = flags->is_array() ? flags->get<std::vector<json>>() : std::vector<json>{*flags};
    for (const json& flag : list) {
      SS_ASSIGN_OR_RETURN(const std::string name, read_enum(flag, field(p, "Flags"), "DML_TENSOR_FLAG_"));
      if (name != "NONE") return invalid(field(p, "Flags"), "the flag '" + name + "' is not supported");
    }
  }
  return request;
}

Expected<std::vector<uint64_t>> uints(const json& desc, const std::string& path, const std::string& key) {
  const json* value = find(desc, key);
  if (!value) return missing(field(path, key));
  return read_uint_array(*value, field(path, key));
}

Status check_dimension_count(const json& desc, const std::string& path, std::size_t expected) {
  const json* value = find(desc, "DimensionCount");
  if (!value) return missing(field(path, "DimensionCount"));
  SS_ASSIGN_OR_RETURN(const uint64_t n, read_uint(*value, field(path, "DimensionCount")));
  if (n != expected) return invalid(field(path, "DimensionCount"), "must be " + std::to_string(expected));
  return {};
}

// PADDING's PaddingValue: a FLOAT. PADDING1's: a number in PaddingValueDataType,
// or {member: value} naming the DML_SCALAR_UNION member (raw bits for FLOAT16).
Expected<Scalar> read_padding_value(const json& desc, const std::string& path, bool padding1, DataType out_type) {
  const std::string name = directml_name(&PaddingRequest::padding_value);
  const json* value = find(desc, name);
  const std::string value_path = field(path, name);
  if (!value) return missing(value_path);
  if (!padding1) {
    SS_ASSIGN_OR_RETURN(const double d, read_finite_double(*value, value_path));
    return Scalar{static_cast<double>(static_cast<float>(d))};
  }
  const json* type_value = find(desc, "PaddingValueDataType");
  if (!type_value) return missing(field(path, "PaddingValueDataType"));
  SS_ASSIGN_OR_RETURN(const DataType type, read_dml_type(*type_value, field(path, "PaddingValueDataType")));
  if (type != out_type) return invalid(field(path, "PaddingValueDataType"), "must be the output's data type");
  if (!value->is_object()) return read_scalar(*value, value_path);
  if (value->size() != 1) return invalid(value_path, "must name one DML_SCALAR_UNION member");
  static const std::map<std::string, DataType> members = {
      {"Int8", DataType::Int8},     {"UInt8", DataType::UInt8},   {"Int16", DataType::Int16},
      {"UInt16", DataType::UInt16}, {"Int32", DataType::Int32},   {"UInt32", DataType::UInt32},
      {"Int64", DataType::Int64},   {"UInt64", DataType::UInt64}, {"Float32", DataType::Float32},
      {"Float64", DataType::Float64}};
  const auto member = members.find(value->begin().key());
  if (member == members.end()) return invalid(field(value_path, value->begin().key()), "is not a DML_SCALAR_UNION member");
  SS_ASSIGN_OR_RETURN(const Scalar held, read_scalar(value->begin().value(), field(value_path, member->first)));
  SS_ASSIGN_OR_RETURN(const uint64_t bits, encode_scalar(held, member->second, field(value_path, member->first)));
  if (element_size(member->second) != element_size(type)) return held;  // a value, not bits of the type
  std::byte bytes[8] = {};
  write_element_bits(type, bits, bytes);  // the member's bits read as the value's type
  return read_element(type, bytes);
}

// The desc fields by DirectML's names, as op_schema.h holds them.
Expected<ParamsRequest> read_slice(const json& desc, const std::string& path) {
  SliceRequest r;
  for (auto member : {&SliceRequest::offsets, &SliceRequest::sizes, &SliceRequest::strides}) {
    SS_ASSIGN_OR_RETURN(r.*member, uints(desc, path, directml_name(member)));
  }
  SS_RETURN_IF_ERROR(check_dimension_count(desc, path, r.offsets.size()));
  return ParamsRequest{r};
}

Expected<ParamsRequest> read_slice1(const json& desc, const std::string& path) {
  Slice1Request r;
  for (auto member : {&Slice1Request::input_window_offsets, &Slice1Request::input_window_sizes}) {
    SS_ASSIGN_OR_RETURN(r.*member, uints(desc, path, directml_name(member)));
  }
  const std::string strides_name = directml_name(&Slice1Request::input_window_strides);
  const json* strides = find(desc, strides_name);
  if (!strides) return missing(field(path, strides_name));
  SS_ASSIGN_OR_RETURN(r.input_window_strides, read_int_array(*strides, field(path, strides_name)));
  SS_RETURN_IF_ERROR(check_dimension_count(desc, path, r.input_window_offsets.size()));
  return ParamsRequest{r};
}

Expected<ParamsRequest> read_padding(const json& desc, const std::string& path, bool padding1, DataType out_type) {
  PaddingRequest r;
  const std::string mode_name = directml_name(&PaddingRequest::padding_mode);
  const json* mode = find(desc, mode_name);
  if (!mode) return missing(field(path, mode_name));
  SS_ASSIGN_OR_RETURN(const std::string name, read_enum(*mode, field(path, mode_name), "DML_PADDING_MODE_"));
  const std::optional<PaddingMode> m = parse_padding_mode(name);
  if (!m) return invalid(field(path, mode_name), "unknown padding mode '" + name + "'");
  r.padding_mode = *m;
  SS_ASSIGN_OR_RETURN(r.padding_value, read_padding_value(desc, path, padding1, out_type));
  for (auto member : {&PaddingRequest::start_padding, &PaddingRequest::end_padding}) {
    SS_ASSIGN_OR_RETURN(r.*member, uints(desc, path, directml_name(member)));
  }
  SS_RETURN_IF_ERROR(check_dimension_count(desc, path, r.start_padding.size()));
  return ParamsRequest{r};
}

Expected<ParamsRequest> read_max_pooling2(const json& desc, const std::string& path) {
  MaxPooling2Request r;
  SS_ASSIGN_OR_RETURN(r.window_size, uints(desc, path, directml_name(&MaxPooling2Request::window_size)));
  // Optional in a spec, but every field of the DirectML desc is required.
  for (auto member : {&MaxPooling2Request::strides, &MaxPooling2Request::start_padding,
                      &MaxPooling2Request::end_padding, &MaxPooling2Request::dilations}) {
    SS_ASSIGN_OR_RETURN(r.*member, uints(desc, path, directml_name(member)));
  }
  SS_RETURN_IF_ERROR(check_dimension_count(desc, path, r.window_size.size()));
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
  SS_ASSIGN_OR_RETURN(const std::string op, read_enum(*type, field(path, "type"), "DML_OPERATOR_"));
  if (std::find(std::begin(kOperators), std::end(kOperators), op) == std::end(kOperators)) {
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
    SS_ASSIGN_OR_RETURN(*target, read_tensor(*t, field(desc_path, key)));
  }
  if (const json* t = find(*desc, "OutputIndicesTensor"); t && !t->is_null() && op == "MAX_POOLING2") {
    SS_ASSIGN_OR_RETURN(request.output_indices, read_tensor(*t, field(desc_path, "OutputIndicesTensor")));
  }
  SS_ASSIGN_OR_RETURN(request.params, read_params(op, *desc, desc_path, *request.output.data_type));
  Expected<Operation> operation = Operation::make(request, limits);
  if (!operation) return invalid(desc_path, operation.error().to_string());
  return DxDispatchable{name, "DML_OPERATOR_" + op, std::move(request), std::move(*operation)};
}

}  // namespace stridescope::dxdispatch
