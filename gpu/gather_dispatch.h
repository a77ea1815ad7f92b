// How the Vulkan backend writes identity, slice, slice1 and padding: the
// op's gather lowered by core (core/gather_lowering.h: segments, size-1
// dimensions folded, affine neighbours merged, every axis at most 2^32 - 1
// long because the shader's indices are 32-bit), then, losslessly:
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
#include <utility>
#include <vector>

#include "core/gather_lowering.h"
#include "core/operation.h"

namespace stridescope::gpu {

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
  friend bool operator==(const GatherTuning&, const GatherTuning&) = default;
};

// The defaults above suit CPU devices (lavapipe), where a transfer is a
// memcpy. On a GPU the shaders move rows coalesced at memory speed, while
// each copied row is a transfer region of its own and each filled row a
// vkCmdFillBuffer: on an NVIDIA H200 (VK_ bench), slices of 1,920-byte rows
// through row copies took 5.5x a vkCmdCopyBuffer of the output, EDGE and
// REFLECTION padding 22-25x. There only runs of 1 MiB or more are copied, and
// padded rows are left to the shader.
inline constexpr GatherTuning kGpuGatherTuning{.min_copy_bytes = uint64_t{1} << 20, .fill_padding_rows = false};

// The lowering with its axes in the device's order (the last is the row),
// and what writes each output element.
struct GatherDispatch : GatherLowering {
  // Columns of the row that `copies` wrote, in every row without padding.
  std::optional<std::pair<uint64_t, uint64_t>> copy_columns;
  std::vector<ByteCopy> copies;
  std::vector<ByteFill> fills;
  // What the shader writes: every element the copies leave out (empty when
  // the copies write everything).
  std::vector<Region> shader_regions;
};

// Precondition: op is identity, slice, slice1 or padding.
GatherDispatch make_gather_dispatch(const Operation& op, const GatherTuning& tuning = {});

}  // namespace stridescope::gpu
