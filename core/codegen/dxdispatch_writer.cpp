// The spec as a DxDispatch model (DirectML's command-line runner): one
// resource per tensor buffer, one DML dispatchable, a dispatch and a print
// of each result, so the same case runs on Windows against real DirectML.
// The input's values are written out exactly (a sequence only where
// DxDispatch's accumulation in the element type gives StrideScope's iota).
#include <bit>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <variant>

#include "core/codegen/python_text.h"
#include "core/codegen/writers.h"
#include "core/float16.h"
#include "core/op_schema.h"
#include "core/scalar.h"

namespace stridescope::codegen {
namespace {

template <class Range>
std::string json_array(const Range& values) {
  return bracket_list(values);
}

std::string json_double(double value) {
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  std::string text(buffer, end);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";  // "-0" must stay a negative zero
  return text;
}

// One element as DxDispatch's initialValues reads it: JSON integers for
// integer types; for floats the exact value as a double (DxDispatch reads a
// double and narrows it once), "nan", "inf", "-inf". nullopt for a NaN
// payload, which the format cannot write.
std::optional<std::string> element_json(DataType type, uint64_t bits) {
  if (!is_floating(type)) {
    std::byte bytes[8] = {};
    write_element_bits(type, bits, bytes);
    const Scalar value = read_element(type, bytes);
    if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
    if (const auto* u = std::get_if<uint64_t>(&value)) return std::to_string(*u);
    return std::to_string(bits);
  }
  const double value = type == DataType::Float16   ? half_to_double(static_cast<uint16_t>(bits))
                       : type == DataType::Float32 ? static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(bits)))
                                                   : std::bit_cast<double>(bits);
  if (std::isnan(value)) {
    const bool canonical = bits == 0x7E00 || bits == 0x7FC00000u || bits == 0x7FF8000000000000ull;
    return canonical ? std::optional<std::string>("\"nan\"") : std::nullopt;
  }
  if (std::isinf(value)) return std::string(value < 0 ? "\"-inf\"" : "\"inf\"");
  return json_double(value);
}

// DxDispatch's sequence adds valueDelta in the element type: StrideScope's
// iota (each value rounded from the exact count) only while every count is
// exact in a float type; integers wrap alike.
bool sequence_is_exact(DataType type, uint64_t count) {
  switch (type) {
    case DataType::Float16: return count <= 2048;
    case DataType::Float32: return count <= (uint64_t{1} << 24);
    case DataType::Float64: return count <= (uint64_t{1} << 53);
    default: return true;
  }
}

std::string input_values(const CodeSource& source, std::vector<std::string>& notes, bool& runnable) {
  const TensorDesc& input = source.op.input();
  const DataType type = input.data_type();
  const std::string count = std::to_string(input.buffer_elements());
  if (const auto* fill = std::get_if<Fill>(&source.spec.input_source)) {
    if (std::holds_alternative<FillZeros>(*fill)) return "{ \"valueCount\": " + count + ", \"value\": 0 }";
    if (std::holds_alternative<FillIota>(*fill) && sequence_is_exact(type, input.buffer_elements())) {
      return "{ \"valueCount\": " + count + ", \"valueStart\": 1, \"valueDelta\": 1 }";
    }
  }
  std::vector<std::string> items;
  const std::size_t size = input.element_size();
  for (uint64_t i = 0; i < input.buffer_elements(); ++i) {
    std::optional<std::string> item =
        element_json(type, read_element_bits(type, source.input_buffer.data() + i * size));
    if (!item) {
      notes.push_back("DxDispatch's initialValues cannot write a NaN payload: this input's values do not fit the format.");
      runnable = false;
      item = "\"nan\"";
    }
    items.push_back(std::move(*item));
  }
  return python_list(items, 12);  // JSON and Python lists look alike
}

std::string resource(const std::string& name, DataType type, const std::string& values) {
  return "    \"" + name + "\": {\n      \"initialValuesDataType\": \"" + std::string(to_string(type)) +
         "\",\n      \"initialValues\": " + values + "\n    }";
}

std::string zeros(const TensorDesc& desc) {
  return "{ \"valueCount\": " + std::to_string(desc.buffer_elements()) + ", \"value\": 0 }";
}

std::string tensor_json(const TensorDesc& desc) {
  return "{ \"DataType\": \"" + std::string(to_string(desc.data_type())) + "\", \"Sizes\": " +
         json_array(desc.sizes()) + ", \"Strides\": " +
         json_array(desc.strides()) + " }";
}

// The FLOAT that PADDING's PaddingValue converts to exactly `bits`, if any.
std::optional<float> float_padding(DataType type, uint64_t bits) {
  std::byte bytes[8] = {};
  write_element_bits(type, bits, bytes);
  const double d = to_double(read_element(type, bytes));
  if (std::isnan(d) || std::isinf(d)) return std::nullopt;  // a JSON number cannot say it
  const float f = static_cast<float>(d);
  const Expected<uint64_t> back = encode_scalar(static_cast<double>(f), type, "");
  if (!back || *back != bits) return std::nullopt;
  return f;
}

// PADDING1's DML_SCALAR_UNION, by member: a number read in the type, or the
// raw bits where a number cannot say the value (NaN, infinities).
std::string scalar_union(DataType type, uint64_t bits) {
  if (!is_floating(type)) return *element_json(type, bits);
  const double value = to_double([&] {
    std::byte bytes[8] = {};
    write_element_bits(type, bits, bytes);
    return read_element(type, bytes);
  }());
  if (!std::isnan(value) && !std::isinf(value) && type != DataType::Float16) return json_double(value);
  const char* member = type == DataType::Float16 ? "UInt16" : type == DataType::Float32 ? "UInt32" : "UInt64";
  return "{ \"" + std::string(member) + "\": " + std::to_string(bits) + " }";
}

std::string desc_json(const Operation& op, std::string& type_name, std::vector<std::string>& notes) {
  const std::string dims = std::to_string(op.input().rank());
  std::string text = "        \"InputTensor\": " + tensor_json(op.input()) + ",\n        \"OutputTensor\": " +
                     tensor_json(op.output());
  const auto field = [&](const std::string& name, const std::string& value) {
    text += ",\n        \"" + name + "\": " + value;
  };
  const auto uints = [](const Sizes& values) { return json_array(values); };
  switch (op.kind()) {
    case OpKind::Identity: type_name = "DML_OPERATOR_ELEMENT_WISE_IDENTITY"; break;
    case OpKind::Slice: {
      const auto& p = op.params_as<SliceParams>();
      type_name = "DML_OPERATOR_SLICE";
      field("DimensionCount", dims);
      field(directml_name(&SliceRequest::offsets), uints(p.offsets));
      field(directml_name(&SliceRequest::sizes), uints(p.sizes));
      field(directml_name(&SliceRequest::strides), uints(p.strides));
      break;
    }
    case OpKind::Slice1: {
      const auto& p = op.params_as<Slice1Params>();
      type_name = "DML_OPERATOR_SLICE1";
      field("DimensionCount", dims);
      field(directml_name(&Slice1Request::input_window_offsets), uints(p.window_offsets));
      field(directml_name(&Slice1Request::input_window_sizes), uints(p.window_sizes));
      field(directml_name(&Slice1Request::input_window_strides), json_array(p.window_strides));
      break;
    }
    case OpKind::Padding: {
      const auto& p = op.params_as<PaddingParams>();
      const DataType type = op.output().data_type();
      field(directml_name(&PaddingRequest::padding_mode), "\"" + std::string(to_string(p.mode)) + "\"");
      if (const std::optional<float> value = float_padding(type, p.value_bits)) {
        type_name = "DML_OPERATOR_PADDING";
        field(directml_name(&PaddingRequest::padding_value), json_double(static_cast<double>(*value)));
      } else {
        type_name = "DML_OPERATOR_PADDING1";
        notes.push_back("PADDING's PaddingValue is a FLOAT number, which cannot say this " +
                        std::string(to_string(type)) + " value: the model uses PADDING1.");
        field("PaddingValueDataType", "\"" + std::string(to_string(type)) + "\"");
        field(directml_name(&PaddingRequest::padding_value), scalar_union(type, p.value_bits));
      }
      field("DimensionCount", dims);
      field(directml_name(&PaddingRequest::start_padding), uints(p.start_padding));
      field(directml_name(&PaddingRequest::end_padding), uints(p.end_padding));
      break;
    }
    case OpKind::MaxPooling2: {
      const auto& p = op.params_as<MaxPooling2Params>();
      type_name = "DML_OPERATOR_MAX_POOLING2";
      if (op.output_indices()) field("OutputIndicesTensor", tensor_json(*op.output_indices()));
      field("DimensionCount", std::to_string(p.spatial_rank()));
      field(directml_name(&MaxPooling2Request::strides), uints(p.strides));
      field(directml_name(&MaxPooling2Request::window_size), uints(p.window_size));
      field(directml_name(&MaxPooling2Request::start_padding), uints(p.start_padding));
      field(directml_name(&MaxPooling2Request::end_padding), uints(p.end_padding));
      field(directml_name(&MaxPooling2Request::dilations), uints(p.dilations));
      break;
    }
  }
  return text;
}

}  // namespace

GeneratedCode write_dxdispatch(const CodeSource& source) {
  GeneratedCode code;
  const Operation& op = source.op;
  const std::string kind(to_string(op.kind()));
  std::string type_name;
  const std::string desc = desc_json(op, type_name, code.notes);
  std::string& text = code.text;
  text = "{\n  \"resources\": {\n";
  text += resource("input", op.input().data_type(), input_values(source, code.notes, code.runnable)) + ",\n";
  text += resource("output", op.output().data_type(), zeros(op.output()));
  if (op.output_indices()) {
    text += ",\n" + resource("indices", op.output_indices()->data_type(), zeros(*op.output_indices()));
  }
  text += "\n  },\n  \"dispatchables\": {\n    \"" + kind + "\": {\n      \"type\": \"" + type_name +
          "\",\n      \"desc\": {\n" + desc + "\n      }\n    }\n  },\n";
  text += "  \"commands\": [\n    {\n      \"type\": \"dispatch\",\n      \"dispatchable\": \"" + kind +
          "\",\n      \"bindings\": { \"InputTensor\": \"input\", \"OutputTensor\": \"output\"";
  if (op.output_indices()) text += ", \"OutputIndicesTensor\": \"indices\"";
  text += " }\n    },\n    { \"type\": \"print\", \"resource\": \"output\" }";
  if (op.output_indices()) text += ",\n    { \"type\": \"print\", \"resource\": \"indices\" }";
  text += "\n  ]\n}\n";
  return code;
}

}  // namespace stridescope::codegen
