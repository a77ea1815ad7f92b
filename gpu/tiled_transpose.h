// Which gathers the tiled transpose shader (shaders/tiled_transpose.comp)
// writes: layout changes such as NHWC -> NCHW, where the output's row (stride
// 1) reads the input with a step other than 1 while another axis T reads it
// with step 1. The row shader (gather.comp) would read such a row one
// element, and one cache line, at a time; tiles of (T, row) read and write
// whole runs on both sides. Nothing is re-derived: the axes, their segments
// and strides are core's lowering (core/gather_lowering.h), only reordered.
#pragma once

#include <cstdint>
#include <optional>

#include "gpu/gather_dispatch.h"

namespace stridescope::gpu {

// T and the row must each be at least this long: a tile narrower than this
// along either side moves mostly nothing.
inline constexpr uint64_t kMinTransposeExtent = 8;

// `program` with its axes in the order the shader walks them: the outer
// axes, then T (one data segment of step 1; the longest such axis), then
// the row (one data segment, output stride 1, step other than 1); and one
// shader region covering everything. nullopt unless every axis is a single
// data segment (no padding), the transfer pass writes nothing, and T and
// the row exist and are long enough.
std::optional<GatherDispatch> tiled_transpose_order(const GatherDispatch& program);

}  // namespace stridescope::gpu
