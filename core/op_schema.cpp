#include "op_schema.h"

#include <array>
#include <cstdlib>

namespace stridescope {
namespace {

template <class R, auto Member>
ParamSlot slot_of(ParamsRequest& params) {
  return &(std::get<R>(params).*Member);
}

using enum ParamType;
using enum ParamExtent;

// DML_SLICE_OPERATOR_DESC: Offsets, Sizes, Strides (UINT, one per dimension).
constexpr ParamField kSliceParams[] = {
    {.json_name = "offsets", .directml_name = "Offsets", .type = UnsignedArray, .extent = PerDimension,
     .optional = false, .fill = 0, .label = "Offset", .help = "First input index the slice reads",
     .slot = slot_of<SliceRequest, &SliceRequest::offsets>},
    {.json_name = "sizes", .directml_name = "Sizes", .type = UnsignedArray, .extent = PerDimension,
     .optional = false, .fill = 1, .label = "Size", .help = "Output size: how many elements the slice takes",
     .slot = slot_of<SliceRequest, &SliceRequest::sizes>},
    {.json_name = "strides", .directml_name = "Strides", .type = UnsignedArray, .extent = PerDimension,
     .optional = false, .fill = 1, .label = "Stride", .help = "Step between the input indices read (at least 1)",
     .slot = slot_of<SliceRequest, &SliceRequest::strides>},
};

// DML_SLICE1_OPERATOR_DESC: InputWindowOffsets, InputWindowSizes (UINT),
// InputWindowStrides (INT), one per dimension.
constexpr ParamField kSlice1Params[] = {
    {.json_name = "inputWindowOffsets", .directml_name = "InputWindowOffsets", .type = UnsignedArray,
     .extent = PerDimension, .optional = false, .fill = 0, .label = "Window offset",
     .help = "Where the input window starts",
     .slot = slot_of<Slice1Request, &Slice1Request::input_window_offsets>},
    {.json_name = "inputWindowSizes", .directml_name = "InputWindowSizes", .type = UnsignedArray,
     .extent = PerDimension, .optional = false, .fill = 1, .label = "Window size",
     .help = "Extent of the input window; it must lie inside the input",
     .slot = slot_of<Slice1Request, &Slice1Request::input_window_sizes>},
    {.json_name = "inputWindowStrides", .directml_name = "InputWindowStrides", .type = SignedArray,
     .extent = PerDimension, .optional = false, .fill = 1, .label = "Window stride",
     .help = "Step through the window; a negative stride starts at the window's end and walks back",
     .slot = slot_of<Slice1Request, &Slice1Request::input_window_strides>},
};

// DML_PADDING_OPERATOR_DESC: PaddingMode, PaddingValue (FLOAT), StartPadding,
// EndPadding (UINT, one per dimension).
constexpr ParamField kPaddingParams[] = {
    {.json_name = "paddingMode", .directml_name = "PaddingMode", .type = PaddingModeName, .extent = Single,
     .optional = false, .fill = 0, .label = "Mode",
     .help = "CONSTANT: the padding value. EDGE: the nearest edge element. REFLECTION: mirror without repeating "
             "the edge. SYMMETRIC: mirror repeating the edge.",
     .slot = slot_of<PaddingRequest, &PaddingRequest::padding_mode>},
    {.json_name = "paddingValue", .directml_name = "PaddingValue", .type = Number, .extent = Single,
     .optional = true, .fill = 0, .label = "Padding value",
     .help = "The CONSTANT padding value, converted to the tensor's type (integers truncate toward zero)",
     .slot = slot_of<PaddingRequest, &PaddingRequest::padding_value>},
    {.json_name = "startPadding", .directml_name = "StartPadding", .type = UnsignedArray, .extent = PerDimension,
     .optional = false, .fill = 0, .label = "Start pad", .help = "Elements added before the input",
     .slot = slot_of<PaddingRequest, &PaddingRequest::start_padding>},
    {.json_name = "endPadding", .directml_name = "EndPadding", .type = UnsignedArray, .extent = PerDimension,
     .optional = false, .fill = 0, .label = "End pad", .help = "Elements added after the input",
     .slot = slot_of<PaddingRequest, &PaddingRequest::end_padding>},
};

// DML_MAX_POOLING2_OPERATOR_DESC: WindowSize, Strides, StartPadding,
// EndPadding, Dilations (UINT, one per spatial dimension). The spec lists the
// window first; omitted strides and dilations are 1, paddings 0 (resources/docs/spec-format.md).
constexpr ParamField kMaxPooling2Params[] = {
    {.json_name = "windowSize", .directml_name = "WindowSize", .type = UnsignedArray,
     .extent = PerSpatialDimension, .optional = false, .fill = 1, .label = "Window",
     .help = "Taps per window in this spatial dimension",
     .slot = slot_of<MaxPooling2Request, &MaxPooling2Request::window_size>},
    {.json_name = "strides", .directml_name = "Strides", .type = UnsignedArray, .extent = PerSpatialDimension,
     .optional = true, .fill = 1, .label = "Stride", .help = "Step between neighbouring windows",
     .slot = slot_of<MaxPooling2Request, &MaxPooling2Request::strides>},
    {.json_name = "startPadding", .directml_name = "StartPadding", .type = UnsignedArray,
     .extent = PerSpatialDimension, .optional = true, .fill = 0, .label = "Start pad",
     .help = "Padding before the input; padded taps never win",
     .slot = slot_of<MaxPooling2Request, &MaxPooling2Request::start_padding>},
    {.json_name = "endPadding", .directml_name = "EndPadding", .type = UnsignedArray,
     .extent = PerSpatialDimension, .optional = true, .fill = 0, .label = "End pad",
     .help = "Padding after the input; padded taps never win",
     .slot = slot_of<MaxPooling2Request, &MaxPooling2Request::end_padding>},
    {.json_name = "dilations", .directml_name = "Dilations", .type = UnsignedArray, .extent = PerSpatialDimension,
     .optional = true, .fill = 1, .label = "Dilation", .help = "Distance between window taps (1: adjacent)",
     .slot = slot_of<MaxPooling2Request, &MaxPooling2Request::dilations>},
};

const std::array<OpSchema, kOpKindCount> kSchemas = {{
    {OpKind::Identity, "identity", "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC", "Layout only (no operator)",
     "A tensor and its strides, no operator: the output is the same logical tensor copied through both "
     "tensors' strides. Watch the memory strips.",
     {}},
    {OpKind::Slice, "slice", "DML_SLICE_OPERATOR_DESC", "slice",
     "DML_SLICE: Output[o] = Input[Offsets + Strides \u00d7 o]; Sizes are the output sizes.", kSliceParams},
    {OpKind::Slice1, "slice1", "DML_SLICE1_OPERATOR_DESC", "slice1",
     "DML_SLICE1: copies from an input window. A negative stride starts at the window's end "
     "(offset + size \u2212 1) and walks backwards.",
     kSlice1Params},
    {OpKind::Padding, "padding", "DML_PADDING_OPERATOR_DESC", "padding",
     "DML_PADDING: each output dimension is input + start + end; the mode fills the padding (CONSTANT value, "
     "EDGE clamp, REFLECTION, SYMMETRIC mirrors).",
     kPaddingParams},
    {OpKind::MaxPooling2, "max_pooling2", "DML_MAX_POOLING2_OPERATOR_DESC", "max_pooling2",
     "DML_MAX_POOLING2: the maximum of each window over the spatial dimensions; padded taps never win; "
     "indices give the winner's flat position in the input.",
     kMaxPooling2Params},
}};

template <std::size_t... I>
ParamsRequest empty_request(std::size_t index, std::index_sequence<I...>) {
  ParamsRequest request;
  ((index == I ? (request = std::variant_alternative_t<I, ParamsRequest>{}, 0) : 0), ...);
  return request;
}

}  // namespace

std::span<const OpSchema> op_schemas() { return kSchemas; }

const OpSchema& op_schema(OpKind kind) { return kSchemas.at(static_cast<std::size_t>(kind)); }

const ParamField* find_param(OpKind kind, std::string_view json_name) {
  for (const ParamField& field : op_schema(kind).params) {
    if (field.json_name == json_name) return &field;
  }
  return nullptr;
}

ParamsRequest empty_params_request(OpKind kind) {
  return empty_request(static_cast<std::size_t>(kind), std::make_index_sequence<std::variant_size_v<ParamsRequest>>{});
}

ParamSlot param_slot(ParamsRequest& params, const ParamField& field) { return field.slot(params); }

ConstParamSlot param_slot(const ParamsRequest& params, const ParamField& field) {
  // The slot functions take a mutable request; nothing is written through it here.
  return std::visit([](auto* member) -> ConstParamSlot { return member; },
                    field.slot(const_cast<ParamsRequest&>(params)));
}

bool param_in_use(const ParamsRequest& params, const ParamField& field) {
  const auto* padding = std::get_if<PaddingRequest>(&params);
  return !padding || field.type != ParamType::Number || padding->padding_mode == PaddingMode::Constant;
}

std::size_t param_entries(ParamExtent extent, std::size_t rank) {
  switch (extent) {
    case ParamExtent::Single: return 1;
    case ParamExtent::PerDimension: return rank;
    case ParamExtent::PerSpatialDimension: return rank > 2 ? rank - 2 : 0;
  }
  return 0;
}

std::string param_path(const ParamField& field) { return "params." + std::string(field.json_name); }

std::string param_path(const ParamField& field, std::size_t index) {
  return param_path(field) + "[" + std::to_string(index) + "]";
}

const ParamField& detail::param_field_at(ParamsRequest& probe, const void* address) {
  for (const ParamField& field : op_schema(static_cast<OpKind>(probe.index())).params) {
    const bool same = std::visit([address](auto* member) { return static_cast<const void*>(member) == address; },
                                 field.slot(probe));
    if (same) return field;
  }
  std::abort();  // a request member with no row in its op's table: the tables and op_request.h disagree
}

std::string_view to_string(OpKind kind) {
  const auto index = static_cast<std::size_t>(kind);
  return index < kSchemas.size() ? kSchemas[index].name : "?";
}

std::optional<OpKind> parse_op_kind(std::string_view name) {
  for (const OpSchema& schema : kSchemas) {
    if (schema.name == name) return schema.kind;
  }
  return std::nullopt;
}

}  // namespace stridescope
