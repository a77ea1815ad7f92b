// The spec as DirectML C++: a DML_BUFFER_TENSOR_DESC per tensor (sizes,
// strides, TotalTensorSizeInBytes as DMLCalcBufferTensorSize gives it), the
// DML_*_OPERATOR_DESC with the spec's parameters, the DML_OPERATOR_DESC, and
// the IDMLDevice::CreateOperator call.
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/codegen/python_text.h"
#include "core/codegen/writers.h"
#include "core/op_schema.h"
#include "core/scalar.h"

namespace stridescope::codegen {
namespace {

std::string dml_type(DataType type) { return "DML_TENSOR_DATA_TYPE_" + std::string(to_string(type)); }

template <class Range>
std::string braces(const Range& values) {
  std::string text = "{";
  std::size_t n = 0;
  for (const auto value : values) text += (n++ > 0 ? ", " : "") + std::to_string(value);
  return text + "}";
}

std::string uint_array(const std::string& name, const Sizes& values) {
  return "  const UINT " + name + "[] = " + braces(values) + ";\n";
}

bool fits_uint(const Sizes& values) {
  for (const uint64_t v : values) {
    if (v > std::numeric_limits<uint32_t>::max()) return false;
  }
  return true;
}

std::string tensor_code(const std::string& name, const TensorDesc& desc) {
  std::string text = "  // " + name + ": " + std::string(to_string(desc.data_type())) + ", sizes " +
                     bracket_list(desc.sizes()) + ", strides " + bracket_list(desc.strides()) + " (elements)\n";
  text += uint_array(name + "Sizes", desc.sizes()) + uint_array(name + "Strides", desc.strides());
  const std::string b = name + "Buffer";
  text += "  DML_BUFFER_TENSOR_DESC " + b + " = {};\n";
  text += "  " + b + ".DataType = " + dml_type(desc.data_type()) + ";\n";
  text += "  " + b + ".Flags = DML_TENSOR_FLAG_NONE;\n";
  text += "  " + b + ".DimensionCount = " + std::to_string(desc.rank()) + ";\n";
  text += "  " + b + ".Sizes = " + name + "Sizes;\n";
  text += "  " + b + ".Strides = " + name + "Strides;\n";
  text += "  // DMLCalcBufferTensorSize: (offset of the last element + 1) * " + std::to_string(desc.element_size()) +
          " bytes, rounded up to a multiple of 4\n";
  text += "  " + b + ".TotalTensorSizeInBytes = " + std::to_string(desc.buffer_bytes()) + ";\n";
  text += "  " + b + ".GuaranteedBaseOffsetAlignment = 0;\n";
  text += "  const DML_TENSOR_DESC " + name + "Tensor = {DML_TENSOR_TYPE_BUFFER, &" + b + "};\n\n";
  return text;
}

// C++ literals that compile to exactly these values.
std::string float_literal(float value) {
  if (std::isnan(value)) return "std::numeric_limits<float>::quiet_NaN()";
  if (std::isinf(value)) return value < 0 ? "-std::numeric_limits<float>::infinity()" : "std::numeric_limits<float>::infinity()";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  std::string text(buffer, end);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text + "f";
}

std::string double_literal(double value) {
  if (std::isnan(value)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(value)) return value < 0 ? "-std::numeric_limits<double>::infinity()" : "std::numeric_limits<double>::infinity()";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  std::string text(buffer, end);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// The FLOAT that DML_PADDING_OPERATOR_DESC's PaddingValue converts to exactly
// `bits` of `type`, if there is one.
std::optional<float> float_padding_value(DataType type, uint64_t bits) {
  const Scalar value = [&]() -> Scalar {
    std::byte bytes[8] = {};
    write_element_bits(type, bits, bytes);
    return read_element(type, bytes);
  }();
  const double d = to_double(value);
  const float f = static_cast<float>(d);
  if (std::isnan(d)) return is_floating(type) ? std::optional<float>(f) : std::nullopt;
  const Expected<uint64_t> back = encode_scalar(static_cast<double>(f), type, "");
  if (!back || *back != bits) return std::nullopt;
  return f;
}

std::string scalar_union_member(DataType type, uint64_t bits) {
  const int64_t s = static_cast<int64_t>(bits);
  switch (type) {
    case DataType::Float64: return "Float64 = " + double_literal(std::bit_cast<double>(bits));
    case DataType::Float32: return "Float32 = " + float_literal(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    case DataType::Int32: return "Int32 = " + std::to_string(static_cast<int32_t>(bits));
    case DataType::UInt32: return "UInt32 = " + std::to_string(bits);
    case DataType::Int64:
      // INT64_MIN has no literal of its own.
      return s == std::numeric_limits<int64_t>::min() ? "Int64 = std::numeric_limits<INT64>::min()"
                                                      : "Int64 = " + std::to_string(s) + "LL";
    case DataType::UInt64: return "UInt64 = " + std::to_string(bits) + "ULL";
    default: return "UInt64 = " + std::to_string(bits) + "ULL";
  }
}

// "  var.Field = value;" with the field by DirectML's name, as op_schema.h holds it.
template <class R, class T>
std::string field_line(const std::string& var, T R::*member, const std::string& value) {
  return "  " + var + "." + directml_name(member) + " = " + value + ";\n";
}

std::string op_code(const Operation& op, std::vector<std::string>& notes) {
  const Sizes& rank_sizes = op.input().sizes();
  const std::string dims = std::to_string(rank_sizes.size());
  std::string text;
  switch (op.kind()) {
    case OpKind::Identity:
      return "  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {};\n"
             "  identity.InputTensor = &inputTensor;\n  identity.OutputTensor = &outputTensor;\n"
             "  identity.ScaleBias = nullptr;\n"
             "  const DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};\n";
    case OpKind::Slice: {
      const auto& p = op.params_as<SliceParams>();
      return uint_array("offsets", p.offsets) + uint_array("sizes", p.sizes) + uint_array("strides", p.strides) +
             "  DML_SLICE_OPERATOR_DESC slice = {};\n"
             "  slice.InputTensor = &inputTensor;\n  slice.OutputTensor = &outputTensor;\n"
             "  slice.DimensionCount = " + dims + ";\n" + field_line("slice", &SliceRequest::offsets, "offsets") +
             field_line("slice", &SliceRequest::sizes, "sizes") + field_line("slice", &SliceRequest::strides, "strides") +
             "  const DML_OPERATOR_DESC desc = {DML_OPERATOR_SLICE, &slice};\n";
    }
    case OpKind::Slice1: {
      const auto& p = op.params_as<Slice1Params>();
      return uint_array("windowOffsets", p.window_offsets) + uint_array("windowSizes", p.window_sizes) +
             "  const INT windowStrides[] = " + braces(p.window_strides) + ";\n" +
             "  DML_SLICE1_OPERATOR_DESC slice1 = {};\n"
             "  slice1.InputTensor = &inputTensor;\n  slice1.OutputTensor = &outputTensor;\n"
             "  slice1.DimensionCount = " + dims + ";\n" +
             field_line("slice1", &Slice1Request::input_window_offsets, "windowOffsets") +
             field_line("slice1", &Slice1Request::input_window_sizes, "windowSizes") +
             field_line("slice1", &Slice1Request::input_window_strides, "windowStrides") +
             "  const DML_OPERATOR_DESC desc = {DML_OPERATOR_SLICE1, &slice1};\n";
    }
    case OpKind::Padding: {
      const auto& p = op.params_as<PaddingParams>();
      const DataType type = op.output().data_type();
      text = uint_array("startPadding", p.start_padding) + uint_array("endPadding", p.end_padding);
      const std::string mode =
          field_line("padding", &PaddingRequest::padding_mode, "DML_PADDING_MODE_" + std::string(to_string(p.mode)));
      const std::string paddings = "  padding.DimensionCount = " + dims + ";\n" +
                                   field_line("padding", &PaddingRequest::start_padding, "startPadding") +
                                   field_line("padding", &PaddingRequest::end_padding, "endPadding");
      const std::string value_field = "  padding." + directml_name(&PaddingRequest::padding_value);
      if (const std::optional<float> value = float_padding_value(type, p.value_bits)) {
        return text + "  DML_PADDING_OPERATOR_DESC padding = {};\n"
                      "  padding.InputTensor = &inputTensor;\n  padding.OutputTensor = &outputTensor;\n" + mode +
               value_field + " = " + float_literal(*value) + ";  // a FLOAT, converted to the output type\n" + paddings +
               "  const DML_OPERATOR_DESC desc = {DML_OPERATOR_PADDING, &padding};\n";
      }
      notes.push_back("DML_PADDING_OPERATOR_DESC's PaddingValue is a FLOAT, which cannot hold this " +
                      std::string(to_string(type)) + " value: DML_PADDING1_OPERATOR_DESC carries it exactly.");
      return text + "  // DML_PADDING_OPERATOR_DESC's PaddingValue is a FLOAT, which cannot hold this " +
             std::string(to_string(type)) + "\n  // value exactly; DML_PADDING1 carries it in the output's type.\n"
             "  DML_PADDING1_OPERATOR_DESC padding = {};\n"
             "  padding.InputTensor = &inputTensor;\n  padding.OutputTensor = &outputTensor;\n" + mode +
             "  padding.PaddingValueDataType = " + dml_type(type) + ";\n" +
             value_field + "." + scalar_union_member(type, p.value_bits) + ";\n" + paddings +
             "  const DML_OPERATOR_DESC desc = {DML_OPERATOR_PADDING1, &padding};\n";
    }
    case OpKind::MaxPooling2: {
      const auto& p = op.params_as<MaxPooling2Params>();
      return uint_array("strides", p.strides) + uint_array("windowSize", p.window_size) +
             uint_array("startPadding", p.start_padding) + uint_array("endPadding", p.end_padding) +
             uint_array("dilations", p.dilations) +
             "  DML_MAX_POOLING2_OPERATOR_DESC pooling = {};\n"
             "  pooling.InputTensor = &inputTensor;\n  pooling.OutputTensor = &outputTensor;\n"
             "  pooling.OutputIndicesTensor = " + std::string(op.output_indices() ? "&indicesTensor" : "nullptr") +
             ";\n  pooling.DimensionCount = " + std::to_string(p.spatial_rank()) + ";  // spatial dimensions\n" +
             field_line("pooling", &MaxPooling2Request::strides, "strides") +
             field_line("pooling", &MaxPooling2Request::window_size, "windowSize") +
             field_line("pooling", &MaxPooling2Request::start_padding, "startPadding") +
             field_line("pooling", &MaxPooling2Request::end_padding, "endPadding") +
             field_line("pooling", &MaxPooling2Request::dilations, "dilations") +
             "  const DML_OPERATOR_DESC desc = {DML_OPERATOR_MAX_POOLING2, &pooling};\n";
    }
  }
  return text;
}

}  // namespace

GeneratedCode write_dml(const CodeSource& source) {
  GeneratedCode code;
  const Operation& op = source.op;
  std::string& text = code.text;
  text = "// A StrideScope spec (" + std::string(to_string(op.kind())) +
         ") as DirectML C++: the buffer tensor descriptions, the operator\n"
         "// description, and the call that creates the operator. DirectML.h comes with the\n"
         "// Windows SDK or the DirectML redistributable.\n#include <DirectML.h>\n\n#include <limits>\n\n";
  for (const TensorDesc* desc : {&op.input(), &op.output()}) {
    if (!fits_uint(desc->sizes()) || !fits_uint(desc->strides())) {
      code.notes.push_back("DirectML's sizes and strides are UINT (32 bits): this spec's do not all fit.");
      code.runnable = false;
    }
  }
  text += "HRESULT CreateStrideScopeOperator(IDMLDevice* device, IDMLOperator** op) {\n";
  text += tensor_code("input", op.input()) + tensor_code("output", op.output());
  if (op.output_indices()) text += tensor_code("indices", *op.output_indices());
  text += op_code(op, code.notes);
  text += "  return device->CreateOperator(&desc, IID_PPV_ARGS(op));\n}\n";
  return code;
}

}  // namespace stridescope::codegen
