// Recognises gathers that are batches of 2-D transposes (layout changes such
// as NHWC <-> NCHW, interleaved RGB -> planar, a matrix transpose) and plans
// them as tiles for the transpose kernels (kernel_plan.h, TransposeKernel).
// The axes come from the gather's own ordering (fast_plan.h,
// order_gather_axes), so the index arithmetic is core's lowering's.
#pragma once

#include <cstdint>

#include "core/fast/fast_plan.h"
#include "core/fast/kernel_plan.h"
#include "core/operation.h"

namespace stridescope::fast {

struct TransposeProgram {
  TransposeKernel kernel;
  uint64_t items = 0;  // planes * bands * pieces: the units threads share
};

// True, with `program` filled, when every axis of the gather is affine, the
// output's innermost axis is strided in the input and another axis reads the
// input with unit step; false (and `program` unspecified) otherwise.
// options.min_items as for gathers; streaming does not apply.
bool make_transpose(const Operation& op, const GatherOptions& options, TransposeProgram& program);

}  // namespace stridescope::fast
