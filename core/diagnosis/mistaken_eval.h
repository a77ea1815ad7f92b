// The evaluation a mistaken variant runs: core's gather and pooling rules,
// open to the small changes mistakes make (a modified index table, other
// tensor layouts, another winner rule, padding that takes part). Only the
// diagnosis uses it; the real semantics stay in cpu_backend.cpp, untouched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/index_plan.h"
#include "core/operation.h"

namespace stridescope {

// The tensors an evaluation reads and writes: an Operation's, or others of
// the same rank (packed strides, other output sizes).
struct Tensors {
  TensorDesc input;
  TensorDesc output;
  std::optional<TensorDesc> indices;
};
Tensors tensors_of(const Operation& op);

// `desc`'s sizes with packed row-major strides.
TensorDesc packed_like(const TensorDesc& desc);

// out[o] = any plan.source[d][o_d] == kPaddingIndex ? padding_bits : in[source]
// into a fresh zero-filled buffer of t.output.buffer_bytes().
std::vector<std::byte> run_gather_plan(const GatherPlan& plan, const Tensors& t, std::span<const std::byte> input,
                                       uint64_t padding_bits);

struct PoolingRule {
  bool last_wins = false;  // a tie replaces the maximum (ties keep the first in DirectML)
  bool nan_loses = false;  // a NaN never replaces a number, a number replaces a NaN
  // When set, padded taps take part with this value (bits of the input type);
  // a padded winner's index is undefined.
  std::optional<uint64_t> padding_bits;
};

struct PooledBuffers {
  std::vector<std::byte> output;
  std::vector<std::byte> indices;
  std::vector<uint64_t> undefined_indices;  // element offsets in the indices buffer
};

// max_pooling2 over `plan`'s taps by `rule`; nullopt where a window has no tap
// to take (only possible for a plan made with other output sizes).
std::optional<PooledBuffers> run_pooling_rule(const MaxPooling2Params& params, const PoolingPlan& plan,
                                              const Tensors& t, std::span<const std::byte> input,
                                              const PoolingRule& rule);

// The taps of `output_sizes` outputs along each spatial dimension, by core's
// pooling_tap_index: make_pooling_plan for output sizes the op does not have.
PoolingPlan pooling_plan_for(const MaxPooling2Params& params, const Sizes& input_sizes, const Sizes& output_sizes);

}  // namespace stridescope
