// A validated operator invocation: the op's parameters with its input, output
// and (max_pooling2) indices tensors, all checked against DirectML's rules.
// Everything downstream (backends, provenance, views) takes an Operation and
// may rely on it without checking again.
#pragma once

#include <cstddef>
#include <optional>
#include <type_traits>
#include <variant>

#include "error.h"
#include "max_pooling.h"
#include "op_request.h"
#include "padding.h"
#include "slice.h"
#include "tensor_desc.h"

namespace stridescope {

struct IdentityParams {
  friend bool operator==(IdentityParams, IdentityParams) = default;
};

// Same alternative order as ParamsRequest and OpKind.
using OpParams =
    std::variant<IdentityParams, SliceParams, Slice1Params, PaddingParams, MaxPooling2Params>;

// The validated parameters of `kind`.
template <OpKind kind>
using ParamsOf = std::variant_alternative_t<static_cast<std::size_t>(kind), OpParams>;

static_assert(std::variant_size_v<OpParams> == kOpKindCount);
static_assert(std::is_same_v<ParamsOf<OpKind::Identity>, IdentityParams>);
static_assert(std::is_same_v<ParamsOf<OpKind::Slice>, SliceParams>);
static_assert(std::is_same_v<ParamsOf<OpKind::Slice1>, Slice1Params>);
static_assert(std::is_same_v<ParamsOf<OpKind::Padding>, PaddingParams>);
static_assert(std::is_same_v<ParamsOf<OpKind::MaxPooling2>, MaxPooling2Params>);

class Operation {
 public:
  // Validates `request`. Errors name the field by its spec path, e.g.
  // "params.inputWindowStrides[2]: stride must not be 0".
  static Expected<Operation> make(const OpRequest& request, const Limits& limits = {});

  OpKind kind() const { return static_cast<OpKind>(params_.index()); }
  const TensorDesc& input() const { return input_; }
  const TensorDesc& output() const { return output_; }
  const std::optional<TensorDesc>& output_indices() const { return output_indices_; }
  const OpParams& params() const { return params_; }

  template <class P>
  const P& params_as() const { return std::get<P>(params_); }

  // Same tensors and parameters (a cached plan for one serves the other).
  friend bool operator==(const Operation&, const Operation&) = default;

 private:
  Operation(TensorDesc input, TensorDesc output, std::optional<TensorDesc> indices, OpParams params)
      : input_(std::move(input)), output_(std::move(output)),
        output_indices_(std::move(indices)), params_(std::move(params)) {}

  TensorDesc input_;
  TensorDesc output_;
  std::optional<TensorDesc> output_indices_;
  OpParams params_;
};

// The output sizes that follow from the input and params (identity: the
// input's; slice: its sizes; padding: input + start + end; max_pooling2: the
// pooling formula; slice1: MaxCopiedElements, the most the window supplies,
// which is also the default when a spec gives no output sizes). Used by the
// app to show sizes as parameters are typed. Errors as Operation::make.
Expected<std::optional<Sizes>> infer_output_sizes(const OpRequest& request);

// The input tensor alone, validated as Operation::make validates it: the app
// summarises the input while some other field is still invalid.
Expected<TensorDesc> validate_input(const OpRequest& request, const Limits& limits = {});

}  // namespace stridescope
