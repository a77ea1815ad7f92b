#include "core/gather_lowering.h"

#include <algorithm>
#include <cassert>

#include "core/checked_math.h"
#include "core/index_plan.h"
#include "core/offset_runs.h"
#include "core/padding_index.h"

namespace stridescope {

namespace {

// source[o] * stride as affine segments (core/offset_runs.h).
std::vector<GatherSegment> encode(const std::vector<int64_t>& source, uint64_t stride) {
  std::vector<int64_t> offsets(source.size());
  for (std::size_t o = 0; o < source.size(); ++o) {
    if (source[o] == kPaddingIndex) {
      offsets[o] = kPaddingIndex;
      continue;
    }
    // A validated input's offsets lie inside its buffer, so this never
    // fails; value() stops loudly rather than read a wrapped offset.
    offsets[o] = checked_mul_signed(source[o], static_cast<int64_t>(stride)).value();
  }
  std::vector<GatherSegment> segments;
  for (const OffsetRun& run : affine_runs(offsets, kPaddingIndex)) {
    segments.push_back({run.begin, run.first, run.step, run.padding});
  }
  return segments;
}

}  // namespace

const GatherSegment& GatherAxis::segment_at(uint64_t o) const {
  auto after = std::upper_bound(segments.begin(), segments.end(), o,
                                [](uint64_t value, const GatherSegment& s) { return value < s.begin; });
  return *(after - 1);
}

uint64_t GatherAxis::segment_end(std::size_t segment) const {
  return segment + 1 < segments.size() ? segments[segment + 1].begin : size;
}

std::optional<ElementRange> GatherAxis::input_range(uint64_t lo, uint64_t hi) const {
  std::optional<ElementRange> range;
  auto first = std::upper_bound(segments.begin(), segments.end(), lo,
                                [](uint64_t value, const GatherSegment& s) { return value < s.begin; }) - 1;
  for (auto it = first; it != segments.end() && it->begin < hi; ++it) {
    if (it->pad) continue;
    const std::size_t index = static_cast<std::size_t>(it - segments.begin());
    const uint64_t from = std::max(lo, it->begin);
    const uint64_t to = std::min(hi, segment_end(index)) - 1;
    const int64_t a = it->value + static_cast<int64_t>(from - it->begin) * it->step;
    const int64_t b = it->value + static_cast<int64_t>(to - it->begin) * it->step;
    const int64_t low = std::min(a, b);
    const int64_t high = std::max(a, b);
    range = range ? ElementRange{std::min(range->first, low), std::max(range->second, high)} : ElementRange{low, high};
  }
  return range;
}

std::optional<int64_t> GatherLowering::source_offset(std::span<const uint64_t> axis_coord) const {
  int64_t offset = input_base;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const GatherSegment& g = axes[a].segment_at(axis_coord[a]);
    if (g.pad) return std::nullopt;
    offset += g.value + static_cast<int64_t>(axis_coord[a] - g.begin) * g.step;
  }
  return offset;
}

std::vector<uint64_t> GatherLowering::axis_coord(const Coord& op_coord, const Sizes& op_sizes) const {
  std::vector<uint64_t> coord;
  for (const GatherAxis& axis : axes) {
    uint64_t index = 0;
    for (std::size_t d : axis.dims) index = index * op_sizes[d] + op_coord[d];
    coord.push_back(index);
  }
  return coord;
}

bool try_merge_axes(GatherAxis& outer, const GatherAxis& inner, uint64_t max_axis_size) {
  if (!outer.affine() || !inner.affine()) return false;
  const auto expected_step = checked_mul_signed(static_cast<int64_t>(inner.size), inner.segments[0].step);
  if (!expected_step || outer.segments[0].step != *expected_step) return false;
  const auto expected_stride = checked_mul(inner.size, inner.out_stride);
  if (!expected_stride || outer.out_stride != *expected_stride) return false;
  const auto size = checked_mul(outer.size, inner.size);
  if (!size || *size > max_axis_size) return false;
  outer.size = *size;
  outer.out_stride = inner.out_stride;
  outer.segments[0].value += inner.segments[0].value;
  outer.segments[0].step = inner.segments[0].step;
  outer.dims.insert(outer.dims.end(), inner.dims.begin(), inner.dims.end());
  return true;
}

void merge_neighbours(std::vector<GatherAxis>& axes, uint64_t max_axis_size) {
  std::vector<GatherAxis> merged;
  for (GatherAxis& axis : axes) {
    if (!merged.empty() && try_merge_axes(merged.back(), axis, max_axis_size)) continue;
    merged.push_back(std::move(axis));
  }
  axes = std::move(merged);
}

GatherLowering lower_gather(const Operation& op, uint64_t max_axis_size) {
  assert(op.kind() != OpKind::MaxPooling2);
  const GatherPlan plan = make_gather_plan(op);
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();

  GatherLowering lowering;
  lowering.element_size = out.element_size();
  if (op.kind() == OpKind::Padding) lowering.padding_bits = op.params_as<PaddingParams>().value_bits;

  for (std::size_t d = 0; d < plan.rank; ++d) {
    GatherAxis axis;
    axis.size = out.sizes()[d];
    axis.out_stride = out.strides()[d];
    axis.segments = encode(plan.source[d], in.strides()[d]);
    axis.dims = {d};
    const bool last = d + 1 == plan.rank;
    if (axis.size == 1 && !axis.segments[0].pad && !(last && lowering.axes.empty())) {
      // Index 0 only: a constant offset. Every value is a real offset, so
      // the sum stays inside the input buffer.
      lowering.input_base += axis.segments[0].value;
      continue;
    }
    if (!lowering.axes.empty() && try_merge_axes(lowering.axes.back(), axis, max_axis_size)) continue;
    lowering.axes.push_back(std::move(axis));
  }
  return lowering;
}

}  // namespace stridescope
