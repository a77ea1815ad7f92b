// What the Vulkan backend runs for max_pooling2: the op's PoolingPlan
// (core/index_plan.h) laid out for the shader. Axes are always N, C, D, H, W;
// a 4-D op gets a D axis of size 1 whose one tap reads index 0 with stride 0.
// Batch and channel map to themselves (the plan's rule); spatial axes carry
// the plan's tap tables, taps[o * window + k] = input index, or
// SS_PADDING_INDEX (shaders/meta_layout.h) where the tap lies in padding.
// Flat indices use the packed row-major strides of the logical input.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/gather_lowering.h"  // ElementRange
#include "core/operation.h"

namespace stridescope::gpu {

inline constexpr std::size_t kPoolingAxes = 5;

struct PoolingProgram {
  DataType data_type = DataType::Float32;
  std::optional<DataType> index_type;  // UINT32 or UINT64 when indices are written
  std::array<uint64_t, kPoolingAxes> out_sizes{};
  std::array<uint64_t, kPoolingAxes> windows{};
  std::array<uint64_t, kPoolingAxes> out_strides{};
  std::array<uint64_t, kPoolingAxes> index_strides{};
  std::array<uint64_t, kPoolingAxes> in_strides{};
  std::array<uint64_t, kPoolingAxes> flat_strides{};  // packed strides of the logical input
  std::array<std::vector<uint32_t>, kPoolingAxes> taps;  // axes 2..4 only

  // Outputs [lo, hi) along W whose taps all lie inside the input and equal
  // base + o * step_o + k * step_k, verified entry by entry against the W
  // table; empty when the table has no such run.
  struct AffineRun {
    uint64_t lo = 0;
    uint64_t hi = 0;
    uint32_t base = 0;  // mod 2^32
    uint32_t step_o = 0;
    uint32_t step_k = 0;
    // The rule's input index for output o's tap k, mod 2^32: outside the
    // run, read as signed, below 0 where it falls in the start padding.
    uint32_t tap(uint64_t o, uint64_t k = 0) const {
      return base + static_cast<uint32_t>(o) * step_o + static_cast<uint32_t>(k) * step_k;
    }
  };
  AffineRun w_inner;
  AffineRun h_inner;  // the same along H
  AffineRun d_inner;  // and along D

  // Input elements read by outputs [lo, hi) of `axis` (taps outside padding).
  std::optional<ElementRange> input_range(std::size_t axis, uint64_t lo, uint64_t hi) const;
};

// The first run of outputs whose taps are unpadded and affine (see
// PoolingProgram::w_inner), read off `table` (window taps per output).
PoolingProgram::AffineRun affine_inner_run(const std::vector<uint32_t>& table, uint64_t window);

// The quad path's geometry (SS_PQ_*, shaders/meta_layout.h) when `program`
// allows it: 4-byte elements, W input stride 1, a W run of at least one group
// of outputs, and a group span of at most SS_PQ_MAX_SPAN words; else 0.
uint32_t quad_path(const PoolingProgram& program);

// The quad path's left edge group (SS_P_W_EDGE, shaders/meta_layout.h):
// `edge` is SS_PADDING_INDEX when there is none.
struct QuadEdge {
  uint32_t edge = 0xFFFFFFFFu;
  uint32_t pad_words = 0;
  uint32_t starts = 0;
};

// The edge group of the quad path `quads` (quad_path(program), not 0): the
// outputs just left of the W run whose taps the run's rule gives where it
// gives a column >= 0 and the table holds padding where it gives a negative
// one, each with a real tap; at most SS_PQ_GROUP of them, at most 4 padded
// span words, and the group of SS_PQ_GROUP outputs inside the run's end.
QuadEdge quad_edge(const PoolingProgram& program, uint32_t quads);

// Precondition: op is max_pooling2.
PoolingProgram make_pooling_program(const Operation& op);

}  // namespace stridescope::gpu
