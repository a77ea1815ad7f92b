// Turns a validated Operation into the kernels' plans (kernel_plan.h),
// starting from core's per-dimension index tables (core/index_plan.h): the
// only place operator index arithmetic lives. Gathers start from core's
// lowering (core/gather_lowering.h: segments, folding, merging); what is
// decided here is the kernels' own: the order of the axes, which row
// segments become runs or table entries, and how rows are shared out.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/fast/kernel_plan.h"
#include "core/fast/kernels.h"
#include "core/gather_lowering.h"
#include "core/operation.h"

namespace stridescope::fast {

// A gather (identity, slice, slice1, padding) as rows of runs, from core's
// lowering (core/gather_lowering.h). The kernel's pointers point into this
// object's vectors: not copyable.
struct GatherRows {
  GatherKernel kernel;
  uint64_t items = 0;  // rows * row pieces: the units threads share
  std::vector<RowRun> runs;
  std::vector<int64_t> table;
  std::array<std::vector<int64_t>, kMaxRank> outer_tables;

  GatherRows() = default;
  GatherRows(const GatherRows&) = delete;
  GatherRows& operator=(const GatherRows&) = delete;
};

struct GatherOptions {
  uint64_t stream_min_output_bytes = 0;  // 0: no non-temporal stores
  uint64_t min_items = 1;                // cut long rows so there are at least this many items
};

void make_gather_rows(const Operation& op, const GatherOptions& options, GatherRows& program);

// How `length` elements are cut so threads can share them: when `items`
// work units are fewer than `min_items`, into up to `max_pieces` pieces of a
// multiple of `align` elements (whole cache lines or kernel blocks); else one
// piece. Used for the gather's long rows and the transpose's wide blocks.
struct Pieces {
  uint64_t length = 0;  // elements per piece (the last may be shorter)
  uint64_t count = 1;
};
Pieces cut_into_pieces(uint64_t length, uint64_t items, uint64_t min_items, uint64_t max_pieces, uint64_t align);

// The lowering's axes in the order the gather kernels walk them (output
// order, outermost first, merged again where that brings affine neighbours
// together), with size-1 axes dropped and affine axes' first offsets moved
// into k.source_base; k.all_padding is set where a dropped axis is padding.
std::vector<GatherAxis> order_gather_axes(GatherLowering& lowering, GatherKernel& k);

// max_pooling2 as work units (plane x band of output rows).
struct PoolProgram {
  PoolKernel kernel;
  PoolShape shape;
  uint64_t units = 0;
  std::size_t scratch_bytes = 0;  // per thread
  std::vector<int64_t> in_row_offset, out_row_offset, idx_row_offset;
  std::vector<uint64_t> vtap_begin, vtap_row, vtap_slot;
  std::vector<uint64_t> htap_begin, htap_col, htap_split;
  std::vector<uint64_t> tap_split, tap_column;
  std::vector<PoolBand> bands;
  std::vector<uint64_t> slot_rows;

  PoolProgram() = default;
  PoolProgram(const PoolProgram&) = delete;
  PoolProgram& operator=(const PoolProgram&) = delete;
};

// Whether make_pool_program's per-input-row tables stay in proportion to the
// input buffer. A broadcast input (stride 0) can have billions of logical
// rows over a few bytes; such an op runs on the reference backend instead.
bool pool_tables_bounded(const Operation& op);

// Precondition: pool_tables_bounded(op).
void make_pool_program(const Operation& op, const KernelTable& kernels, PoolProgram& program);

// Bytes one run reads and writes: the input elements the op reads (distinct
// buffer elements, at most) plus the output (and indices) elements written.
uint64_t traffic_bytes(const Operation& op);

}  // namespace stridescope::fast
