// One table per operator: every parameter a spec's `params` may hold, with
// its JSON name, the DirectML struct field it mirrors, its shape and type,
// its default, and the words the app shows for it. Parsing and writing spec
// files, the error paths of validation, the app's edits and the spec
// editor's rows all walk these tables, so a parameter is named in one place.
//
//   op_schema(OpKind::Slice1).params[2]  ->  inputWindowStrides,
//     InputWindowStrides, signed, one entry per dimension, required
//
// Validation proper (what values are allowed) stays in Operation::make.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "op_request.h"
#include "padding.h"
#include "scalar.h"

namespace stridescope {

enum class ParamType {
  UnsignedArray,  // DirectML UINT*: std::vector<uint64_t>, or std::optional of one when it has a default
  SignedArray,    // DirectML INT*: std::vector<int64_t>
  PaddingModeName,  // a DML_PADDING_MODE, written by its name ("REFLECTION")
  Number,           // a Scalar (DirectML's FLOAT PaddingValue, kept exact)
};

enum class ParamExtent {
  Single,               // one value
  PerDimension,         // one entry per input dimension
  PerSpatialDimension,  // one entry per dimension after {N, C}: 2 for 4-D, 3 for 5-D
};

// Where a request holds one field. Optional arrays (those with a default)
// are std::optional; the others are always present.
using ParamSlot = std::variant<std::vector<uint64_t>*, std::optional<std::vector<uint64_t>>*, std::vector<int64_t>*,
                               PaddingMode*, Scalar*>;
using ConstParamSlot = std::variant<const std::vector<uint64_t>*, const std::optional<std::vector<uint64_t>>*,
                                    const std::vector<int64_t>*, const PaddingMode*, const Scalar*>;

struct ParamField {
  std::string_view json_name;      // the spec's camelCase key: inputWindowStrides
  std::string_view directml_name;  // the struct field it mirrors: InputWindowStrides
  ParamType type;
  ParamExtent extent;
  // Whether a spec may leave the field out; it then reads as `fill` in every
  // entry (max_pooling2's strides 1, paddings 0, dilations 1; padding's value 0).
  bool optional;
  // What an entry holds when the field is left out, and the entry a
  // dimension added in front takes (a size-1 dimension that changes nothing).
  int64_t fill;
  std::string_view label;  // the form's column or row title: "Window stride"
  std::string_view help;   // one line, the form's tooltip
  ParamSlot (*slot)(ParamsRequest& params);  // the field in a request of its op

  bool is_array() const { return extent != ParamExtent::Single; }
  bool is_signed() const { return type == ParamType::SignedArray; }
};

struct OpSchema {
  OpKind kind;
  std::string_view name;             // the spec's `op`: "slice1"
  std::string_view directml_struct;  // "DML_SLICE1_OPERATOR_DESC"
  std::string_view label;            // the operator picker's entry
  std::string_view help;             // a few sentences on what the op does
  std::span<const ParamField> params;  // in spec order (resources/docs/spec-format.md)
};

// Every operator, in OpKind order.
std::span<const OpSchema> op_schemas();
const OpSchema& op_schema(OpKind kind);

// The field named `json_name` in `kind`'s table; nullptr when it has none.
const ParamField* find_param(OpKind kind, std::string_view json_name);

// A request of `kind` with every field empty (optional fields absent,
// padding's value 0): what a parser fills in.
ParamsRequest empty_params_request(OpKind kind);

// `field` in `params`, which must be a request of the field's op.
ParamSlot param_slot(ParamsRequest& params, const ParamField& field);
ConstParamSlot param_slot(const ParamsRequest& params, const ParamField& field);

// Whether the op reads `field` with these params: padding's value only
// matters in CONSTANT mode (the editor greys it out, the writer may omit it).
bool param_in_use(const ParamsRequest& params, const ParamField& field);

// How many entries an array field has for an input of `rank` dimensions.
std::size_t param_entries(ParamExtent extent, std::size_t rank);

// "params.inputWindowStrides", and with an index "params.inputWindowStrides[2]".
std::string param_path(const ParamField& field);
std::string param_path(const ParamField& field, std::size_t index);

namespace detail {
const ParamField& param_field_at(ParamsRequest& probe, const void* address);
}  // namespace detail

// The field a request member is, for code that handles one op's fields by
// name: param_field(&Slice1Request::input_window_strides).json_name is
// inputWindowStrides. Found by the member's address in a probe request.
template <class R, class T>
const ParamField& param_field(T R::*member) {
  ParamsRequest probe{R{}};  // empty: no allocation
  return detail::param_field_at(probe, &(std::get<R>(probe).*member));
}

// The DirectML struct field a request member mirrors, for the writers and
// readers of DirectML's own names: directml_name(&Slice1Request::input_window_strides)
// is InputWindowStrides.
template <class R, class T>
std::string directml_name(T R::*member) {
  return std::string(param_field(member).directml_name);
}

template <class R, class T>
std::string param_path(T R::*member) {
  return param_path(param_field(member));
}
template <class R, class T>
std::string param_path(T R::*member, std::size_t index) {
  return param_path(param_field(member), index);
}

}  // namespace stridescope
