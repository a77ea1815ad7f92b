// A naive, independent reference implementation of StrideScope's operators,
// for tests only. Every formula is re-derived from the DirectML pages and
// resources/docs/operators.md, one output coordinate at a time; nothing is shared with
// core's operator logic (no index plans, no *_source_index helpers, no
// fold_padded_index). Slow and obvious on purpose: other backends (core's
// CPU backend, the fast CPU backend, the Vulkan backend) are checked
// against it bit for bit.
//
//   offset(coord)  = sum(coord[i] * strides[i])        (sizes-and-strides page)
//   identity:  Output[o] = Input[o]
//   slice:     Output[o] = Input[Offsets + Strides * o]
//   slice1:    CopyStart = InputWindowOffsets (+ InputWindowSizes - 1 where the
//              stride is negative); Output[o] = Input[CopyStart + InputWindowStrides * o]
//   padding:   Output[o] reads input index o - StartPadding, which is walked
//              back into [0, n) by bouncing off the edges (REFLECTION: the edge
//              is not repeated; SYMMETRIC: it is; EDGE: clamps; CONSTANT: the
//              padding value)
//   max_pooling2: the maximum over the window taps o * Stride - Start + k * Dilation
//              lying inside the input, taps in row-major window order; the
//              first maximum wins ties; a NaN beats every number and the first
//              NaN met wins; indices are the winner's row-major position in
//              the whole logical input.
//
// Uses only core's plain data types (DataType, float16 conversion, Scalar,
// Operation as a holder of validated params and tensor descriptions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/error.h"
#include "core/operation.h"

namespace stridescope::reference {

// Runs `op`, writing every element the output (and indices) tensors address
// and no other byte. Buffers must hold at least the tensors' buffer sizes.
// Errors (never expected for a validated op) report a read outside the input
// buffer, a window without any tap in the input, or an index too large for
// UINT32, instead of reading out of bounds.
Status run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
           std::span<std::byte> indices);

struct Buffers {
  std::vector<std::byte> output;   // op.output().buffer_bytes(), zero-filled before the run
  std::vector<std::byte> indices;  // empty when the op has no indices tensor
};

Expected<Buffers> run_to_new_buffers(const Operation& op, std::span<const std::byte> input);

// --- Building blocks, public so tests can check them against the pages. ---

// The input index that padded index `i` (< 0 before the start, >= n past the
// end) of a dimension of size `n` reads, found by literally walking: an index
// that leaves [0, n) is mirrored back at the edge it crossed, again and again
// until it lands inside. nullopt where CONSTANT padding supplies the value.
std::optional<uint64_t> fold_by_walking(PaddingMode mode, int64_t i, uint64_t n);

// paddingValue as the bit pattern of `type` (zero-extended): floating types
// round to nearest (IEEE overflow gives infinity), integer types truncate
// toward zero and take 64-bit integers exactly. nullopt where the value does
// not fit an integer type (or is NaN or infinite for one).
std::optional<uint64_t> padding_value_bits(const Scalar& value, DataType type);

// identity, slice, slice1, padding: the input index that output index `out`
// reads along dimension `dim`, straight from the formulas (signed, not
// bounds-checked); nullopt where CONSTANT padding supplies the value.
std::optional<int64_t> source_index(const Operation& op, std::size_t dim, uint64_t out);

// max_pooling2: the window taps of output coordinate `out` in row-major
// window order; batch and channel map to themselves, spatial entries may lie
// in padding (padded = true: never read, never wins).
struct WindowTap {
  std::vector<int64_t> coord;
  bool padded = false;
};
std::vector<WindowTap> pooling_window(const Operation& op, std::span<const uint64_t> out);

// max_pooling2: the row-major position, in the whole logical input, of the
// element that wins the window of output coordinate `out`.
Expected<uint64_t> pooling_winner(const Operation& op, std::span<const std::byte> input,
                                  std::span<const uint64_t> out);

// Offset in elements of `coord` through `strides` (the dot product).
uint64_t element_offset(std::span<const uint64_t> coord, std::span<const uint64_t> strides);

// Row-major position of `coord` among all logical elements of `sizes`.
uint64_t row_major_position(std::span<const uint64_t> coord, std::span<const uint64_t> sizes);

}  // namespace stridescope::reference
