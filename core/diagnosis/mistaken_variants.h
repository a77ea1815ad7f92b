// Runs a catalogued mistake (mistake_catalogue.h): the result an
// implementation that makes exactly that mistake gives for an operation.
// Each variant is a small change to core's own tables or rules:
//
//   slice1-negative-stride-from-offset  slice1 table: offset + stride * o
//   reflection-repeats-edge, symmetric-skips-edge, no-periodic-fold,
//   numpy-nonperiodic-fold              padding table: another fold of the
//                                       unfolded index
//   padding-value-*                     another conversion of paddingValue
//   int64-through-double, float64-through-float32
//                                       input values (and paddingValue)
//                                       converted before the exact op
//   input-/output-strides-ignored       the exact op over packed tensors
//   indices-*                           the exact winner, indexed otherwise
//   last-maximum-wins, nan-ignored, padding-takes-part
//                                       another pooling winner rule
//   undilated-output-size               the exact windows over the output
//                                       sizes of the undilated formula
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/diagnosis/mistake_catalogue.h"
#include "core/operation.h"

namespace stridescope {

struct VariantResult {
  TensorDesc output;                  // the op's output, unless the mistake reshapes it
  std::optional<TensorDesc> indices;  // likewise
  std::vector<std::byte> output_buffer;
  std::vector<std::byte> indices_buffer;
  // Indices elements (element offsets) the mistake leaves undefined, e.g.
  // where padding won a window: any value there is the mistake's.
  std::vector<uint64_t> undefined_indices;
};

// The results `id` gives for `op` on `input` (the op's input buffer). Empty
// where the mistake cannot be made on this op (another operator, no negative
// stride, no padding, a read the mistaken code could not make, ...). More
// than one where the mistake has readings that differ (padding-takes-part:
// padding as the lowest value, -infinity or 0; padding-value-rounded: ties
// away from zero or to even). A result may equal the exact one.
std::vector<VariantResult> run_mistaken(MistakeId id, const Operation& op, std::span<const std::byte> input);

// The output and indices tensors of mistakes whose result has other sizes
// than the op's (undilated-output-size): a result that does not fit the op
// may fit one of these.
struct Reshape {
  MistakeId id;
  TensorDesc output;
  std::optional<TensorDesc> indices;
};
std::vector<Reshape> mistaken_shapes(const Operation& op);

}  // namespace stridescope
