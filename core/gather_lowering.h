// A gather (identity, slice, slice1, padding) lowered for a backend: the
// op's GatherPlan (core/index_plan.h) made compact and exact, with every
// product checked for overflow. Both backends start here and keep only what
// is theirs: the order in which they walk the axes and how they write them
// (the fast CPU kernels' rows of runs in core/fast/fast_plan.h, the Vulkan
// backend's copies, fills and shader boxes in gpu/gather_dispatch.h).
//
// Each output dimension's table source[d][o] is multiplied by the input
// stride and run-length encoded as segments {begin, value, step}: for o in
// [begin, next begin), source[d][o] * inStride[d] = value + (o - begin) * step,
// or the segment is padding (source == kPaddingIndex). A slice is one segment
// per dimension, CONSTANT padding three, EDGE/REFLECTION/SYMMETRIC a few, so
// the tables stay tiny whatever the tensor size. The encoding is exact: no
// backend evaluates an operator formula.
//
// Then, losslessly:
//   - size-1 dimensions outside padding fold into a constant input offset
//     (input_base); a size-1 dimension of padding stays an axis (its one
//     output reads nothing), and when every dimension folds the last stays,
//     so that there is always a row;
//   - neighbouring dimensions that are affine in both tensors merge into one
//     (a packed identity becomes a single axis). Merging only needs the two
//     axes next to each other, so a backend that reorders the axes may merge
//     again with merge_neighbours.
//
//   out[sum_a coord[a] * axes[a].out_stride]
//     = any axis's segment at coord[a] is padding ? padding value
//       : in[input_base + sum_a (value + (coord[a] - begin) * step)]
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/operation.h"

namespace stridescope {

struct GatherSegment {
  uint64_t begin = 0;  // first output index of the segment
  int64_t value = 0;   // source * inStride at `begin`, in input elements
  int64_t step = 0;    // change per output index
  bool pad = false;    // CONSTANT padding supplies these outputs
};

using ElementRange = std::pair<int64_t, int64_t>;  // [min, max], in elements

struct GatherAxis {
  uint64_t size = 0;
  uint64_t out_stride = 0;              // output elements per index
  std::vector<GatherSegment> segments;  // by begin; the first begins at 0
  std::vector<std::size_t> dims;        // the op's output dimensions merged here, outer first

  // One data segment: the input offset is value + o * step for every o.
  bool affine() const { return segments.size() == 1 && !segments[0].pad; }
  const GatherSegment& segment_at(uint64_t o) const;
  uint64_t segment_end(std::size_t segment) const;  // next begin, or size
  // Input elements read by outputs [lo, hi) outside padding; nullopt if none.
  std::optional<ElementRange> input_range(uint64_t lo, uint64_t hi) const;
};

struct GatherLowering {
  std::size_t element_size = 0;
  uint64_t padding_bits = 0;     // the padding value converted to the output type
  int64_t input_base = 0;        // input elements of folded dimensions
  std::vector<GatherAxis> axes;  // at least one; in the op's order as lowered

  // The input element that output `axis_coord` (one index per axis) reads,
  // nullopt where padding supplies it.
  std::optional<int64_t> source_offset(std::span<const uint64_t> axis_coord) const;
  // The axis coordinates of an output coordinate of the op.
  std::vector<uint64_t> axis_coord(const Coord& op_coord, const Sizes& op_sizes) const;
};

inline constexpr uint64_t kUnlimitedAxisSize = std::numeric_limits<uint64_t>::max();

// Precondition: op is identity, slice, slice1 or padding. No merged axis
// grows beyond max_axis_size elements (a backend's index width).
GatherLowering lower_gather(const Operation& op, uint64_t max_axis_size = kUnlimitedAxisSize);

// `outer` then `inner` as one axis into `outer`, when both tensors walk
// them as one: both affine, outer's steps inner.size times inner's, and the
// product of the sizes at most max_axis_size. False, and nothing changed,
// otherwise (an overflowing product never merges).
bool try_merge_axes(GatherAxis& outer, const GatherAxis& inner, uint64_t max_axis_size = kUnlimitedAxisSize);

// try_merge_axes over every pair of neighbours, outermost first.
void merge_neighbours(std::vector<GatherAxis>& axes, uint64_t max_axis_size = kUnlimitedAxisSize);

}  // namespace stridescope
