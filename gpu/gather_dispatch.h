// What the Vulkan backend runs for identity, slice, slice1 and padding: the
// op's GatherPlan (core/index_plan.h), made compact for the device.
//
// Each output dimension's table source[d][o] is multiplied by the input
// stride and run-length encoded as segments {begin, value, step}: for o in
// [begin, next begin), source[d][o] * inStride[d] = value + (o - begin) * step,
// or the segment is padding (source == kPaddingIndex). A slice is one segment
// per dimension, CONSTANT padding three, EDGE/REFLECTION/SYMMETRIC a few, so
// the tables stay tiny whatever the tensor size. The encoding is exact, and the
// shader evaluates nothing else: the operator formulas stay in core/.
//
// Then, losslessly:
//   - size-1 dimensions are folded into a constant input offset;
//   - neighbouring dimensions that are affine in both tensors merge into one
//     (a packed identity becomes a single row);
//   - the row (the last axis, walked inside one invocation) is the axis with
//     the smallest output stride, and the other axes are ordered by input
//     stride, so that neighbouring invocations read neighbouring input;
//   - contiguous runs of the row (256 bytes or more) become byte copies that
//     the transfer pass performs, rows at a constant pitch as one pitched
//     copy (gpu/transfer_lowering.h turns those into few commands), and
//     rows of CONSTANT padding become
//     vkCmdFillBuffer ranges where the value repeats every 4 bytes (rows
//     with padded sides too, under their copies); on lavapipe a transfer
//     moves data several times faster than a shader;
//   - the shader gets the boxes of everything else; where the copies leave
//     columns on both sides of the row (padding), one box spans the row and
//     skips the copied columns, so one invocation writes both sides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/operation.h"

namespace stridescope::gpu {

struct GatherSegment {
  uint64_t begin = 0;  // first output index of the segment
  int64_t value = 0;   // source * inStride at `begin`, in input elements
  int64_t step = 0;    // change per output index
  bool pad = false;    // CONSTANT padding supplies these outputs
};

using ElementRange = std::pair<int64_t, int64_t>;  // [min, max], in elements

struct GatherAxis {
  uint64_t size = 0;
  uint64_t out_stride = 0;             // output elements per index
  std::vector<GatherSegment> segments;  // by begin; the first begins at 0
  std::vector<std::size_t> dims;        // the op's output dimensions merged here, outer first

  const GatherSegment& segment_at(uint64_t o) const;
  uint64_t segment_end(std::size_t segment) const;  // next begin, or size
  // Input elements read by outputs [lo, hi) outside padding; nullopt if none.
  std::optional<ElementRange> input_range(uint64_t lo, uint64_t hi) const;
};

// Byte ranges the transfer pass copies from input to output: `rows` rows of
// `size` bytes, row r from src + r * src_pitch to dst + r * dst_pitch (the
// pitches mean nothing when rows == 1).
struct ByteCopy {
  uint64_t src = 0;
  uint64_t dst = 0;
  uint64_t size = 0;
  uint64_t rows = 1;
  uint64_t src_pitch = 0;
  uint64_t dst_pitch = 0;

  // Row r as a copy of its own.
  ByteCopy row(uint64_t r) const { return {src + r * src_pitch, dst + r * dst_pitch, size}; }
  friend bool operator==(const ByteCopy&, const ByteCopy&) = default;
};

// A box of axis coordinates: [lo[a], lo[a] + extent[a]) along each axis,
// less the row columns in `skip` (written by the transfers): one invocation
// then writes both sides of a copied run, e.g. a row's left and right padding.
struct Region {
  std::vector<uint64_t> lo;
  std::vector<uint64_t> extent;
  std::optional<std::pair<uint64_t, uint64_t>> skip;  // [begin, end) along the row
};

// A byte range the transfer pass fills with a 32-bit pattern (vkCmdFillBuffer:
// offset and size are multiples of 4). Fills run before the copies, which
// may overwrite them: a CONSTANT-padded row is filled whole, then its data
// copied in, so that no shader has to write its narrow padded sides.
struct ByteFill {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t pattern = 0;
};

struct GatherTuning {
  uint64_t min_copy_bytes = 256;          // shorter runs are left to the shader
  uint64_t max_copy_regions = 1u << 20;  // more rows than this: no transfer pass
  bool fill_padding_rows = true;
  // CONSTANT-padded rows up to this long are filled whole under their copies
  // rather than have a shader write their sides. On lavapipe a shader row
  // costs about 110 ns and filling costs about 110 ns per KiB (measured
  // with bench/ VK_padding_*: u8 rows of 512 bytes 2.5x faster filled, f32
  // rows of 2 KiB 1.3x faster by shader).
  uint64_t max_filled_row_bytes = 1024;
};

struct GatherProgram {
  std::size_t element_size = 0;
  uint64_t padding_bits = 0;
  int64_t input_base = 0;        // input elements of folded dimensions
  std::vector<GatherAxis> axes;  // at least one; the last is the row
  // Columns of the row that `copies` wrote, in every row without padding.
  std::optional<std::pair<uint64_t, uint64_t>> copy_columns;
  std::vector<ByteCopy> copies;
  std::vector<ByteFill> fills;
  // What the shader writes: every element the copies leave out (empty when
  // the copies write everything).
  std::vector<Region> shader_regions;

  // For tests: the input element that output `coord` (one index per axis)
  // reads, nullopt where padding supplies it.
  std::optional<int64_t> source_offset(std::span<const uint64_t> axis_coord) const;
  // For tests: the axis coordinates of an output coordinate of the op.
  std::vector<uint64_t> axis_coord(const Coord& op_coord, const Sizes& op_sizes) const;
};

// Precondition: op is identity, slice, slice1 or padding.
GatherProgram make_gather_program(const Operation& op, const GatherTuning& tuning = {});

}  // namespace stridescope::gpu
