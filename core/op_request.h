// An operator invocation as typed by a person (spec file, app form) before
// validation: every field optional or unchecked. Operation::make turns it into
// a validated Operation or an Error naming the offending field by spec path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "data_type.h"
#include "padding.h"
#include "scalar.h"

namespace stridescope {

// The order is fixed: it is the order of ParamsRequest's and OpParams'
// alternatives, and of op_schemas() (static_asserts below and in operation.h).
enum class OpKind { Identity, Slice, Slice1, Padding, MaxPooling2 };

// "identity", "slice", "slice1", "padding", "max_pooling2": the spec's `op`.
std::string_view to_string(OpKind kind);
std::optional<OpKind> parse_op_kind(std::string_view name);

struct TensorRequest {
  std::optional<DataType> data_type;           // output defaults to the input's
  std::optional<std::vector<uint64_t>> sizes;  // output: inferred where the op determines them
  std::optional<std::vector<uint64_t>> strides;

  friend bool operator==(const TensorRequest&, const TensorRequest&) = default;
};

struct IdentityRequest {
  friend bool operator==(IdentityRequest, IdentityRequest) = default;
};

struct SliceRequest {
  std::vector<uint64_t> offsets, sizes, strides;
  friend bool operator==(const SliceRequest&, const SliceRequest&) = default;
};

struct Slice1Request {
  std::vector<uint64_t> input_window_offsets, input_window_sizes;
  std::vector<int64_t> input_window_strides;
  friend bool operator==(const Slice1Request&, const Slice1Request&) = default;
};

struct PaddingRequest {
  PaddingMode padding_mode = PaddingMode::Constant;
  Scalar padding_value = int64_t{0};
  std::vector<uint64_t> start_padding, end_padding;
  friend bool operator==(const PaddingRequest&, const PaddingRequest&) = default;
};

// The optional arrays read as their defaults when absent; op_schema.h holds
// them (strides 1, paddings 0, dilations 1; resources/docs/spec-format.md).
struct MaxPooling2Request {
  std::vector<uint64_t> window_size;
  std::optional<std::vector<uint64_t>> strides;
  std::optional<std::vector<uint64_t>> start_padding;
  std::optional<std::vector<uint64_t>> end_padding;
  std::optional<std::vector<uint64_t>> dilations;
  friend bool operator==(const MaxPooling2Request&, const MaxPooling2Request&) = default;
};

// The alternative's index is the OpKind: OpRequest::kind() casts one to the other.
using ParamsRequest =
    std::variant<IdentityRequest, SliceRequest, Slice1Request, PaddingRequest, MaxPooling2Request>;

inline constexpr std::size_t kOpKindCount = 5;

// The request type of `kind`.
template <OpKind kind>
using RequestOf = std::variant_alternative_t<static_cast<std::size_t>(kind), ParamsRequest>;

static_assert(std::variant_size_v<ParamsRequest> == kOpKindCount);
static_assert(static_cast<std::size_t>(OpKind::MaxPooling2) + 1 == kOpKindCount, "OpKind's last value");
static_assert(std::is_same_v<RequestOf<OpKind::Identity>, IdentityRequest>);
static_assert(std::is_same_v<RequestOf<OpKind::Slice>, SliceRequest>);
static_assert(std::is_same_v<RequestOf<OpKind::Slice1>, Slice1Request>);
static_assert(std::is_same_v<RequestOf<OpKind::Padding>, PaddingRequest>);
static_assert(std::is_same_v<RequestOf<OpKind::MaxPooling2>, MaxPooling2Request>);

struct OpRequest {
  TensorRequest input;
  TensorRequest output;
  std::optional<TensorRequest> output_indices;  // max_pooling2 only; dataType defaults to UINT32
  ParamsRequest params;  // its alternative decides the op

  OpKind kind() const { return static_cast<OpKind>(params.index()); }
  friend bool operator==(const OpRequest&, const OpRequest&) = default;
};

}  // namespace stridescope
