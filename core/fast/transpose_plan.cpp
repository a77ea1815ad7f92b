#include "core/fast/transpose_plan.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/gather_lowering.h"

namespace stridescope::fast {
namespace {

// Input bytes a band reads contiguously per column, a whole number of the
// kernels' blocks (kernels_transpose.inc: 64 x 64 elements, 32 x 32 of 8
// bytes): a few cache lines per visit to an input row, and few enough rows
// that the band's output rows stay in the TLB. Bands of 64 and 1024 bytes
// measured slower on W5.
constexpr uint64_t kTransposeBandBytes = 256;
// Most channels a deinterleave handles (kernels_transpose.inc).
constexpr uint64_t kMaxChannels = 4;
// Columns per work item at least, when they are cut for threads.
constexpr uint64_t kMinPieceCols = 256;

// The outer axis whose input step is +1 or -1, nearest the columns; -1 if none.
int find_row_axis(const std::vector<GatherAxis>& axes) {
  for (std::size_t d = axes.size() - 1; d-- > 0;) {
    if (std::llabs(axes[d].segments[0].step) == 1) return static_cast<int>(d);
  }
  return -1;
}

// Tall blocks (kernels_transpose.inc: 256 rows x one 64-byte output line)
// where the input's rows are far apart and a power of two of pages apart, so
// that a square block's 64 short runs (one per input row) would share cache
// sets and DRAM pages poorly, and the output's rows are close, so that the
// block's 256 output rows still span few pages; wide blocks (one 64-byte input
// line x 256 columns) for the converse. Measured on W5: NCHW -> NHWC about 15%
// faster with tall blocks, NHWC -> NCHW about 7% with wide ones; the 4096 x
// 4096 transpose (rows 16 KiB apart on both sides) 1.5 to 2 times slower with
// either, and NHWC -> NCHW twice as slow with tall ones.
constexpr uint64_t kLongRun = 256;    // the tall blocks' rows, the wide blocks' columns
constexpr uint64_t kNearPitch = 512;  // bytes between rows, at most, on the near side
TransposeBlock choose_block(const TransposeKernel& k) {
  const uint64_t z = k.element_size;
  if ((z != 4 && z != 8) || k.channels != 0 || k.col_out_stride != 1) return TransposeBlock::Square;
  const uint64_t in_pitch = static_cast<uint64_t>(std::llabs(k.col_in_stride)) * z;
  const uint64_t out_pitch = static_cast<uint64_t>(std::llabs(k.row_out_stride)) * z;
  if (in_pitch % 4096 == 0 && out_pitch <= kNearPitch && k.rows >= kLongRun && k.cols >= 64 / z) {
    return TransposeBlock::Tall;
  }
  if (out_pitch % 4096 == 0 && in_pitch <= kNearPitch && k.cols >= kLongRun && k.rows >= 64 / z) {
    return TransposeBlock::Wide;
  }
  return TransposeBlock::Square;
}

// Bands and pieces: whole bands of rows, columns cut only when there are
// fewer items than the threads want.
void share_out(const GatherOptions& options, uint64_t planes, TransposeKernel& k) {
  const uint64_t z = k.element_size;
  if (k.channels != 0) {
    k.band_rows = k.rows;
  } else if (k.block == TransposeBlock::Tall) {
    k.band_rows = kLongRun;
  } else {
    k.band_rows = std::min(k.rows, kTransposeBandBytes / z);
  }
  k.bands = (k.rows + k.band_rows - 1) / k.band_rows;
  const uint64_t max_pieces = k.cols >= 2 * kMinPieceCols ? k.cols / kMinPieceCols : 1;
  // Whole kernel blocks, and cache lines of packed output rows.
  const uint64_t align = k.block == TransposeBlock::Wide ? kLongRun : kTransposeBandBytes / z;
  const Pieces pieces = cut_into_pieces(k.cols, planes * k.bands, options.min_items, max_pieces, align);
  k.piece_cols = pieces.length;
  k.pieces = pieces.count;
}

}  // namespace

bool make_transpose(const Operation& op, const GatherOptions& options, TransposeProgram& program) {
  GatherLowering lowering = lower_gather(op);
  GatherKernel gather;
  std::vector<GatherAxis> axes = order_gather_axes(lowering, gather);
  if (gather.all_padding || axes.size() < 2) return false;
  for (const GatherAxis& axis : axes) {
    if (!axis.affine()) return false;
  }
  const GatherAxis& cols = axes.back();
  const int64_t col_step = cols.segments[0].step;
  if (std::llabs(col_step) <= 1) return false;  // a copy, a reversal or a broadcast: the gather's runs
  const int row_axis = find_row_axis(axes);
  if (row_axis < 0) return false;

  TransposeKernel& k = program.kernel;
  k = TransposeKernel{};
  k.element_size = static_cast<uint32_t>(lowering.element_size);
  k.source_base = gather.source_base;
  k.cols = cols.size;
  k.col_in_stride = col_step;
  k.col_out_stride = static_cast<int64_t>(cols.out_stride);
  const GatherAxis& rows = axes[static_cast<std::size_t>(row_axis)];
  k.rows = rows.size;
  k.row_out_stride = static_cast<int64_t>(rows.out_stride);
  if (rows.segments[0].step < 0) {  // read the reversed rows forward, write them backward
    const int64_t last = static_cast<int64_t>(k.rows - 1);
    k.source_base -= last;
    k.target_base += last * k.row_out_stride;
    k.row_out_stride = -k.row_out_stride;
  }
  uint64_t planes = 1;
  for (std::size_t d = 0; d + 1 < axes.size(); ++d) {
    if (static_cast<int>(d) == row_axis) continue;
    OuterDim& o = k.outer[k.outer_rank++];
    o.size = axes[d].size;
    o.out_stride = static_cast<int64_t>(axes[d].out_stride);
    o.step = axes[d].segments[0].step;
    planes *= o.size;
  }
  if (k.rows <= kMaxChannels && k.col_in_stride == static_cast<int64_t>(k.rows) && k.col_out_stride == 1) {
    k.channels = static_cast<uint32_t>(k.rows);
  }
  k.block = choose_block(k);
  share_out(options, planes, k);
  if (options.stream_min_output_bytes != 0 && op.output().buffer_bytes() >= options.stream_min_output_bytes) {
    k.stream = 1;
  }
  program.items = planes * k.bands * k.pieces;
  return true;
}

}  // namespace stridescope::fast
