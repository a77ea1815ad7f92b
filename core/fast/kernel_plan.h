// The plans the fast CPU kernels execute: plain structs of numbers and
// pointers into tables the CpuFastPlan owns, derived from core's index plans
// (core/index_plan.h) by fast_plan.cpp. No operator arithmetic is decided
// here; the kernels only add up table entries.
//
// This header is included by the per-instruction-set kernel files, which are
// compiled with different -m flags. It must stay free of inline functions and
// of anything that instantiates templates, so that no function compiled for
// AVX-512 can be picked by the linker for a caller on an older CPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/padding_index.h"

namespace stridescope::fast {


// --- identity, slice, slice1, padding ---------------------------------------
//
// The output is walked as rows: the innermost (output-contiguous) merged
// dimension is the row, the other merged dimensions are outer dimensions.
//   source of element i of a row = row source + run.source + (i - run.begin) * run.step
// where row source = source_base + sum over outer dims of their contribution.

enum class RunKind : uint8_t {
  Strided,  // input offsets source, source + step, ... (step 1: a plain copy)
  Fill,     // the padding value
  Table,    // input offsets listed in GatherKernel::table
};

struct RowRun {
  RunKind kind = RunKind::Strided;
  uint64_t begin = 0;   // first index along the row
  uint64_t length = 0;
  int64_t source = 0;   // Strided: input offset of the first element, relative to the row source
  int64_t step = 0;     // Strided: input elements between consecutive reads
  uint64_t table = 0;   // Table: index of the first entry in GatherKernel::table
};

struct OuterDim {
  uint64_t size = 1;
  int64_t out_stride = 0;          // output elements
  int64_t step = 0;                // affine: contribution = index * step
  const int64_t* table = nullptr;  // else contribution = table[index] (kPaddingIndex: padding)
};

struct GatherKernel {
  uint32_t element_size = 0;        // 1, 2, 4 or 8
  uint64_t pad_bits = 0;            // the padding value's bits (low element_size bytes)
  int64_t source_base = 0;          // input offset added to every read
  bool all_padding = false;         // a dropped size-1 dimension reads padding
  uint32_t outer_rank = 0;
  OuterDim outer[8];                // outermost first
  uint64_t row_length = 0;
  int64_t row_out_stride = 1;
  uint64_t row_pieces = 1;          // long rows are cut into pieces for threads
  uint64_t piece_length = 0;        // elements per piece (the last may be shorter)
  const RowRun* runs = nullptr;
  uint64_t run_count = 0;
  const int64_t* table = nullptr;   // Table runs' input offsets, relative to the row source
  uint64_t stream_min_bytes = 0;    // contiguous rows this long are written with non-temporal stores; 0: never
};

// --- layout changes: a gather that is a batch of 2-D transposes -------------
//
// Every axis is affine, the output's innermost axis (the columns) is strided
// in the input and another axis (the rows) reads the input forward with unit
// step. Each index of the remaining (outer) axes is a rows x cols plane:
//   out[target + r * row_out_stride + c * col_out_stride] = in[source + r + c * col_in_stride]
// with source = source_base + sum over outer dims of index * step and
// target = target_base + sum of index * out_stride. Reading along the rows
// and writing along the columns, a tile at a time, touches every cache line
// of both tensors once.
//
// Work item i is piece i % pieces of the columns, of band (i / pieces) % bands
// of the rows, of plane i / (pieces * bands).

// The transpose kernels' block shapes (kernels_transpose.inc): square, or for
// 4- and 8-byte elements tall (256 rows x one 64-byte output line of columns)
// or wide (one 64-byte input line of rows x 256 columns).
enum class TransposeBlock : uint8_t { Square, Tall, Wide };

struct TransposeKernel {
  uint32_t element_size = 0;  // 1, 2, 4 or 8
  int64_t source_base = 0;
  int64_t target_base = 0;
  uint32_t outer_rank = 0;
  OuterDim outer[8];          // outermost first; affine (table == nullptr)
  uint64_t rows = 0;
  int64_t row_out_stride = 0;  // negative where a reversed row axis is read forward
  uint64_t cols = 0;
  int64_t col_in_stride = 0;
  int64_t col_out_stride = 1;
  uint64_t band_rows = 0;      // rows per work item (the last band may be shorter)
  uint64_t bands = 1;
  uint64_t piece_cols = 0;     // columns per work item (the last piece may be shorter)
  uint64_t pieces = 1;
  // Nonzero: a deinterleave of this many channels (2 to 4): rows == channels,
  // col_in_stride == channels and col_out_stride == 1, one band.
  uint32_t channels = 0;
  uint32_t stream = 0;  // nonzero: whole output lines are written with non-temporal stores
  TransposeBlock block = TransposeBlock::Square;
};

// --- max_pooling2 -----------------------------------------------------------
//
// The spatial dimensions before the last (H, or D and H) are flattened into
// "rows": input row r = d * H + h, output row likewise. Along the last
// dimension (W) the outputs whose window lies wholly inside the input form the
// interior [x_lo, x_hi), where every tap column is affine in x with step
// column_step; it is computed with vectors over x. Other outputs are borders,
// computed one by one from the tap lists.
//
// For the vector path the input rows a band of output rows needs are first
// converted to comparison keys and split by column phase (column % column_step)
// into a per-thread scratch area of `slot` rows, so every tap of a vector of
// outputs is one contiguous load.

enum class PoolType : uint8_t { F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };

enum class PoolVectors : uint8_t {
  None,    // every output tap by tap
  Wide,    // keys as wide as the wider of element and index; indices tracked in lanes
  Narrow,  // 8/16-bit keys; tap numbers tracked in lanes, turned into indices by a table
};

// What a kernel copy can do for a pooling shape (KernelTable::pool_shape).
struct PoolShape {
  PoolVectors vectors = PoolVectors::None;
  std::size_t lanes = 0;        // outputs per vector
  std::size_t split_bytes = 0;  // scratch bytes per split input element
};

// Scratch bytes a pooling kernel keeps for a row's table of tap indices.
inline constexpr std::size_t kPoolTableBytes = 128;

struct PoolBand {
  uint64_t out_row_begin = 0;
  uint64_t out_row_end = 0;
  uint64_t first_slot_row = 0;  // index into PoolKernel::slot_rows
  uint64_t slot_count = 0;      // input rows split for this band (ascending)
};

struct PoolKernel {
  PoolType type = PoolType::F32;
  uint32_t index_bytes = 0;  // 0 (no indices), 4 (UINT32) or 8 (UINT64)
  PoolVectors vectors = PoolVectors::None;

  uint64_t channels = 1;     // C: plane p is batch p / C, channel p % C
  uint64_t planes = 1;       // N * C
  uint64_t plane_elements = 0;  // logical input elements per plane (flat index step)
  uint64_t in_width = 0;     // W of the input
  int64_t in_n = 0, in_c = 0, in_w = 0;      // input strides (elements)
  int64_t out_n = 0, out_c = 0, out_w = 0;   // output strides
  int64_t idx_n = 0, idx_c = 0, idx_w = 0;   // indices strides
  const int64_t* in_row_offset = nullptr;    // per input row: d*strideD + h*strideH
  const int64_t* out_row_offset = nullptr;   // per output row
  const int64_t* idx_row_offset = nullptr;   // per output row

  uint64_t out_width = 0;                    // W of the output
  // Vertical taps (row-major window order, padding skipped) of output row o:
  // entries [vtap_begin[o], vtap_begin[o + 1]) of vtap_row (input row) and
  // vtap_slot (its slot within o's band).
  const uint64_t* vtap_begin = nullptr;
  const uint64_t* vtap_row = nullptr;
  const uint64_t* vtap_slot = nullptr;
  // Horizontal taps of output column x: [htap_begin[x], htap_begin[x + 1]) of
  // htap_col (input column) and htap_split (where that column's key lies in a
  // split row: phase * phase_length + column / column_step).
  const uint64_t* htap_begin = nullptr;
  const uint64_t* htap_col = nullptr;
  const uint64_t* htap_split = nullptr;

  // Vector path (vectors != None).
  uint64_t x_lo = 0, x_hi = 0;
  int64_t column_step = 1;
  uint64_t window_columns = 0;           // horizontal taps of an interior output
  const uint64_t* tap_split = nullptr;   // per tap: where column at x_lo lies in a split row
  const uint64_t* tap_column = nullptr;  // per tap: input column read at x_lo
  uint64_t phase_length = 0;             // keys per phase row (ceil(W / column_step))
  uint64_t max_row_taps = 0;             // most taps of one interior output
  // Interior taps load their keys straight from the input (contiguous rows,
  // column_step 1 or 2, rows at least two vectors of elements wide) instead
  // of from split rows: no split pass, no scratch traffic. Borders then go
  // tap by tap.
  bool direct = false;

  const PoolBand* bands = nullptr;
  uint64_t band_count = 0;
  const uint64_t* slot_rows = nullptr;
};

}  // namespace stridescope::fast
