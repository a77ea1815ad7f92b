// DML_SLICE_OPERATOR_DESC and DML_SLICE1_OPERATOR_DESC.
//
// slice:   Output[o] = Input[Offsets + Strides * o]; Sizes must equal the
//          output sizes; every element read lies inside the input.
// slice1:  CopyStart = InputWindowOffsets, plus InputWindowSizes - 1 in every
//          dimension whose stride is negative (it starts at the window end);
//          Output[o] = Input[CopyStart + InputWindowStrides * o].
//          The window lies inside the input, no stride is 0, and
//          1 <= OutputSizes[i] <= 1 + (InputWindowSizes[i] - 1) / |stride[i]|.
#pragma once

#include <cstdint>

#include "dim_vector.h"

namespace stridescope {

using WindowStrides = DimVector<int64_t>;  // signed, in elements of the logical input

struct SliceParams {
  Sizes offsets;
  Sizes sizes;
  Sizes strides;  // >= 1

  friend bool operator==(const SliceParams&, const SliceParams&) = default;
};

struct Slice1Params {
  Sizes window_offsets;
  Sizes window_sizes;
  WindowStrides window_strides;  // != 0

  friend bool operator==(const Slice1Params&, const Slice1Params&) = default;

  // The input index that output index 0 reads in dimension `dim`.
  int64_t copy_start(std::size_t dim) const {
    const int64_t offset = static_cast<int64_t>(window_offsets[dim]);
    return window_strides[dim] < 0 ? offset + static_cast<int64_t>(window_sizes[dim]) - 1 : offset;
  }
};

// The input index that output index `out` reads along dimension `dim`.
constexpr int64_t slice_source_index(const SliceParams& p, std::size_t dim, uint64_t out) {
  return static_cast<int64_t>(p.offsets[dim] + p.strides[dim] * out);
}
inline int64_t slice1_source_index(const Slice1Params& p, std::size_t dim, uint64_t out) {
  return p.copy_start(dim) + p.window_strides[dim] * static_cast<int64_t>(out);
}

// MaxCopiedElements[i] = 1 + (InputWindowSizes[i] - 1) / |InputWindowStrides[i]|
constexpr uint64_t slice1_max_copied(uint64_t window_size, int64_t stride) {
  const uint64_t magnitude = stride < 0 ? static_cast<uint64_t>(-stride) : static_cast<uint64_t>(stride);
  return 1 + (window_size - 1) / magnitude;
}

}  // namespace stridescope
