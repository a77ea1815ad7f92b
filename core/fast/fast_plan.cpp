#include "core/fast/fast_plan.h"

#include <algorithm>
#include <numeric>

#include "core/gather_lowering.h"
#include "core/index_plan.h"
#include "core/offset_runs.h"
#include "core/padding_index.h"

namespace stridescope::fast {
namespace {

// ---------------------------------------------------------------------------
// Gathers

// Runs shorter than this are cheaper as table entries than as a run.
constexpr uint64_t kMinRun = 8;
// Rows at least this long may be cut into pieces for threads.
constexpr uint64_t kMinPieceBytes = 64 * 1024;

// Segment s of `axis` as a run of its output indices.
OffsetRun run_of(const GatherAxis& axis, std::size_t s) {
  const GatherSegment& g = axis.segments[s];
  return OffsetRun{g.begin, axis.segment_end(s) - g.begin, g.pad, g.value, g.step};
}

// A short run as table entries, joined to a table run just before it.
void append_table(const OffsetRun& run, GatherRows& program) {
  RowRun* last = program.runs.empty() ? nullptr : &program.runs.back();
  if (last != nullptr && last->kind == RunKind::Table && last->begin + last->length == run.begin) {
    last->length += run.length;
  } else {
    program.runs.push_back(RowRun{RunKind::Table, run.begin, run.length, 0, 0, program.table.size()});
  }
  for (uint64_t i = 0; i < run.length; ++i) {
    program.table.push_back(run.first + static_cast<int64_t>(i) * run.step);
  }
}

// Cuts the row's segments into fills, constant-step runs and table runs.
void cut_runs(const GatherAxis& row, GatherRows& program) {
  for (std::size_t s = 0; s < row.segments.size(); ++s) {
    const OffsetRun run = run_of(row, s);
    if (run.padding) {
      program.runs.push_back(RowRun{RunKind::Fill, run.begin, run.length, 0, 0, 0});
    } else if (run.length >= kMinRun) {
      program.runs.push_back(RowRun{RunKind::Strided, run.begin, run.length, run.first, run.step, 0});
    } else {
      append_table(run, program);
    }
  }
}

// An outer axis's contribution per index: input offset or kPaddingIndex.
std::vector<int64_t> outer_table(const GatherAxis& axis) {
  std::vector<int64_t> values;
  values.reserve(axis.size);
  for (std::size_t s = 0; s < axis.segments.size(); ++s) {
    const OffsetRun run = run_of(axis, s);
    for (uint64_t i = 0; i < run.length; ++i) {
      values.push_back(run.padding ? kPaddingIndex : run.first + static_cast<int64_t>(i) * run.step);
    }
  }
  return values;
}

}  // namespace

// The lowering's axes in output order, outermost first, merged again where
// that order brings affine neighbours together. The kernel needs no size-1
// axis: one of padding makes every row padding, another is an offset.
// Affine axes move their first offset into the base.
std::vector<GatherAxis> order_gather_axes(GatherLowering& lowering, GatherKernel& k) {
  std::vector<GatherAxis> axes;
  k.source_base = lowering.input_base;
  for (GatherAxis& axis : lowering.axes) {
    if (axis.size != 1) {
      axes.push_back(std::move(axis));
    } else if (axis.affine()) {
      k.source_base += axis.segments[0].value;
    } else {
      k.all_padding = true;
    }
  }
  // Any order gives the same result; this one writes memory sequentially.
  std::stable_sort(axes.begin(), axes.end(),
                   [](const GatherAxis& a, const GatherAxis& b) { return a.out_stride > b.out_stride; });
  merge_neighbours(axes);
  for (GatherAxis& axis : axes) {
    if (!axis.affine()) continue;
    k.source_base += axis.segments[0].value;
    axis.segments[0].value = 0;
  }
  if (axes.empty()) axes.push_back(GatherAxis{1, 1, {GatherSegment{}}, {}});  // a single element
  return axes;
}

Pieces cut_into_pieces(uint64_t length, uint64_t items, uint64_t min_items, uint64_t max_pieces, uint64_t align) {
  if (items >= min_items || max_pieces < 2) return {length, 1};
  const uint64_t wanted = (min_items + items - 1) / items;
  const uint64_t pieces = std::min(wanted, max_pieces);
  uint64_t piece = (length + pieces - 1) / pieces;
  piece = (piece + align - 1) / align * align;
  return {piece, (length + piece - 1) / piece};
}

namespace {

// Few long rows: cut them so threads can share them.
void cut_rows_into_pieces(uint64_t rows, const GatherOptions& options, GatherKernel& k) {
  const uint64_t row_bytes = k.row_length * k.element_size;
  const uint64_t max_pieces = row_bytes >= 2 * kMinPieceBytes ? row_bytes / kMinPieceBytes : 1;
  // Pieces start on cache lines of a packed row.
  const Pieces pieces = cut_into_pieces(k.row_length, rows, options.min_items, max_pieces, 64 / k.element_size);
  k.piece_length = pieces.length;
  k.row_pieces = pieces.count;
}

}  // namespace

void make_gather_rows(const Operation& op, const GatherOptions& options, GatherRows& program) {
  GatherLowering lowering = lower_gather(op);
  GatherKernel& k = program.kernel;
  k = GatherKernel{};
  k.element_size = static_cast<uint32_t>(lowering.element_size);
  k.pad_bits = lowering.padding_bits;
  std::vector<GatherAxis> axes = order_gather_axes(lowering, k);

  // The innermost axis is the row; the others are outer dimensions.
  const GatherAxis& row = axes.back();
  k.row_length = row.size;
  k.row_out_stride = static_cast<int64_t>(row.out_stride);
  if (row.affine()) {
    program.runs.push_back(RowRun{RunKind::Strided, 0, row.size, 0, row.segments[0].step, 0});
  } else {
    cut_runs(row, program);
  }
  k.outer_rank = static_cast<uint32_t>(axes.size() - 1);
  uint64_t rows = 1;
  for (uint32_t d = 0; d < k.outer_rank; ++d) {
    const GatherAxis& axis = axes[d];
    OuterDim& o = k.outer[d];
    o.size = axis.size;
    o.out_stride = static_cast<int64_t>(axis.out_stride);
    if (axis.affine()) {
      o.step = axis.segments[0].step;
    } else {
      program.outer_tables[d] = outer_table(axis);
      o.table = program.outer_tables[d].data();
    }
    rows *= axis.size;
  }
  k.runs = program.runs.data();
  k.run_count = program.runs.size();
  k.table = program.table.data();

  cut_rows_into_pieces(rows, options, k);
  program.items = rows * k.row_pieces;

  if (options.stream_min_output_bytes != 0 && op.output().buffer_bytes() >= options.stream_min_output_bytes) {
    k.stream_min_bytes = 512;  // shorter rows gain nothing from streaming
  }
}

// ---------------------------------------------------------------------------
// max_pooling2

namespace {

PoolType pool_type(DataType type) {
  switch (type) {
    case DataType::Float16: return PoolType::F16;
    case DataType::Float32: return PoolType::F32;
    case DataType::Float64: return PoolType::F64;
    case DataType::Int8: return PoolType::I8;
    case DataType::Int16: return PoolType::I16;
    case DataType::Int32: return PoolType::I32;
    case DataType::Int64: return PoolType::I64;
    case DataType::UInt8: return PoolType::U8;
    case DataType::UInt16: return PoolType::U16;
    case DataType::UInt32: return PoolType::U32;
    case DataType::UInt64: return PoolType::U64;
  }
  return PoolType::F32;
}

// Split rows of one band: at most this many bytes of keys (per thread), so
// they stay in the core's cache while the band's outputs read them.
constexpr std::size_t kBandBytes = 96 * 1024;
// A single output row needing more split rows than this uses the tap-by-tap
// path instead (a huge input width).
constexpr std::size_t kMaxScratchBytes = 8u << 20;
// Output rows per band when there is no vector path.
constexpr uint64_t kScalarBandOutputs = 4096;

// Row offsets over the flattened spatial dimensions before the last one.
std::vector<int64_t> row_offsets(const TensorDesc& desc) {
  const std::size_t rank = desc.rank();
  std::vector<int64_t> offsets{0};
  for (std::size_t d = 2; d + 1 < rank; ++d) {
    std::vector<int64_t> next;
    next.reserve(offsets.size() * desc.sizes()[d]);
    for (int64_t base : offsets) {
      for (uint64_t i = 0; i < desc.sizes()[d]; ++i) {
        next.push_back(base + static_cast<int64_t>(i * desc.strides()[d]));
      }
    }
    offsets = std::move(next);
  }
  return offsets;
}

}  // namespace

namespace {

// Vertical taps per output row: the taps of every spatial dimension but the
// last, in row-major window order, padding skipped, as flattened input rows.
void list_vertical_taps(const PoolingPlan& plan, const TensorDesc& in, const TensorDesc& out,
                        uint64_t out_rows, PoolProgram& program) {
  const std::size_t spatial = plan.spatial_rank;
  program.vtap_begin.assign(1, 0);
  std::vector<uint64_t> coord(spatial - 1, 0);  // output coordinate over those dimensions
  for (uint64_t row = 0; row < out_rows; ++row) {
    std::vector<uint64_t> rows{0};  // input rows so far, flattened
    for (std::size_t s = 0; s + 1 < spatial; ++s) {
      const PoolingAxis& axis = plan.axes[s];
      const uint64_t size = in.sizes()[s + 2];
      std::vector<uint64_t> next;
      for (uint64_t r : rows) {
        for (uint64_t tap = 0; tap < axis.window; ++tap) {
          const int64_t i = axis.taps[coord[s] * axis.window + tap];
          if (i != kPaddingIndex) next.push_back(r * size + static_cast<uint64_t>(i));
        }
      }
      rows = std::move(next);
    }
    program.vtap_row.insert(program.vtap_row.end(), rows.begin(), rows.end());
    program.vtap_begin.push_back(program.vtap_row.size());
    for (std::size_t s = spatial - 1; s-- > 0;) {  // next output row
      if (++coord[s] < out.sizes()[s + 2]) break;
      coord[s] = 0;
    }
  }
}

// Outputs along the last dimension whose taps all lie inside the input, and
// the step of their columns; nullopt when they are not one interval with
// affine columns (never for the formulas of max_pooling.h, but the kernels
// rely on it, so it is checked rather than assumed).
struct Interior {
  uint64_t begin = 0, end = 0;
  int64_t step = 1;
};

std::optional<Interior> find_interior(const PoolingAxis& axis, uint64_t outputs) {
  const uint64_t window = axis.window;
  auto tap = [&](uint64_t x, uint64_t k) { return axis.taps[x * window + k]; };
  auto full = [&](uint64_t x) {
    for (uint64_t k = 0; k < window; ++k) {
      if (tap(x, k) == kPaddingIndex) return false;
    }
    return true;
  };
  Interior interior;
  while (interior.begin < outputs && !full(interior.begin)) ++interior.begin;
  interior.end = interior.begin;
  while (interior.end < outputs && full(interior.end)) ++interior.end;
  if (interior.begin == interior.end) return std::nullopt;
  for (uint64_t x = interior.end; x < outputs; ++x) {
    if (full(x)) return std::nullopt;  // not one interval
  }
  if (interior.end - interior.begin >= 2) interior.step = tap(interior.begin + 1, 0) - tap(interior.begin, 0);
  if (interior.step < 1) return std::nullopt;
  for (uint64_t x = interior.begin; x < interior.end; ++x) {
    for (uint64_t k = 0; k < window; ++k) {
      if (tap(x, k) != tap(interior.begin, k) + static_cast<int64_t>(x - interior.begin) * interior.step) {
        return std::nullopt;
      }
    }
  }
  return interior;
}

// Bands of output rows whose split input rows fit the band budget (or, with
// no vector path, fixed-size bands of rows that only share out the work).
void make_bands(uint64_t out_rows, uint64_t in_rows, uint64_t out_width, bool vector_path, std::size_t slot_bytes,
                PoolProgram& program) {
  program.vtap_slot.assign(program.vtap_row.size(), 0);
  std::vector<uint64_t> stamp(in_rows, UINT64_MAX);  // the last band that needed each input row
  std::size_t most_slots = 0;
  uint64_t row = 0;
  while (row < out_rows) {
    PoolBand band;
    band.out_row_begin = row;
    band.first_slot_row = program.slot_rows.size();
    const uint64_t band_id = program.bands.size();
    std::vector<uint64_t> needed;
    if (vector_path) {
      do {
        std::size_t added = 0;
        for (uint64_t v = program.vtap_begin[row]; v < program.vtap_begin[row + 1]; ++v) {
          if (stamp[program.vtap_row[v]] != band_id) ++added;
        }
        if (row > band.out_row_begin && (needed.size() + added) * slot_bytes > kBandBytes) break;
        for (uint64_t v = program.vtap_begin[row]; v < program.vtap_begin[row + 1]; ++v) {
          const uint64_t r = program.vtap_row[v];
          if (stamp[r] != band_id) {
            stamp[r] = band_id;
            needed.push_back(r);
          }
        }
        ++row;
      } while (row < out_rows);
      std::sort(needed.begin(), needed.end());
      for (uint64_t r = band.out_row_begin; r < row; ++r) {
        for (uint64_t v = program.vtap_begin[r]; v < program.vtap_begin[r + 1]; ++v) {
          program.vtap_slot[v] = static_cast<uint64_t>(
              std::lower_bound(needed.begin(), needed.end(), program.vtap_row[v]) - needed.begin());
        }
      }
    } else {
      row = std::min(out_rows, row + std::max<uint64_t>(1, kScalarBandOutputs / std::max<uint64_t>(1, out_width)));
    }
    band.out_row_end = row;
    band.slot_count = needed.size();
    most_slots = std::max(most_slots, needed.size());
    program.slot_rows.insert(program.slot_rows.end(), needed.begin(), needed.end());
    program.bands.push_back(band);
  }
  // Tap lists and their shape (kernels_pool_taps.inc: 32 bytes a tap), index
  // table (kernels_pool_dispatch.inc, pool_typed), then the split rows.
  const PoolKernel& k = program.kernel;
  program.scratch_bytes = (k.max_row_taps * 32 + 63) / 64 * 64 + kPoolTableBytes + most_slots * slot_bytes + 64;
}

void point_kernel_at_tables(PoolProgram& program) {
  PoolKernel& k = program.kernel;
  k.in_row_offset = program.in_row_offset.data();
  k.out_row_offset = program.out_row_offset.data();
  k.idx_row_offset = program.idx_row_offset.data();
  k.vtap_begin = program.vtap_begin.data();
  k.vtap_row = program.vtap_row.data();
  k.vtap_slot = program.vtap_slot.data();
  k.htap_begin = program.htap_begin.data();
  k.htap_col = program.htap_col.data();
  k.htap_split = program.htap_split.data();
  k.tap_split = program.tap_split.data();
  k.tap_column = program.tap_column.data();
  k.bands = program.bands.data();
  k.band_count = program.bands.size();
  k.slot_rows = program.slot_rows.data();
}

}  // namespace

bool pool_tables_bounded(const Operation& op) {
  // Input rows: the product of the spatial sizes but the last (row_offsets).
  const TensorDesc& in = op.input();
  uint64_t rows = 1;
  for (std::size_t d = 2; d + 1 < in.rank(); ++d) rows *= in.sizes()[d];  // each <= 2^32, rank <= 5: no overflow
  constexpr uint64_t kSlackRows = uint64_t{1} << 20;
  return rows <= in.buffer_elements() + kSlackRows;
}

void make_pool_program(const Operation& op, const KernelTable& kernels, PoolProgram& program) {
  const PoolingPlan plan = make_pooling_plan(op);
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();
  const std::optional<TensorDesc>& idx = op.output_indices();
  const std::size_t rank = in.rank();
  PoolKernel& k = program.kernel;
  k = PoolKernel{};
  k.type = pool_type(in.data_type());
  k.index_bytes = idx ? static_cast<uint32_t>(idx->element_size()) : 0;
  k.channels = in.sizes()[1];
  k.planes = in.sizes()[0] * in.sizes()[1];
  k.plane_elements = in.element_count() / k.planes;
  k.in_width = in.sizes()[rank - 1];
  k.out_width = out.sizes()[rank - 1];
  k.in_n = static_cast<int64_t>(in.strides()[0]);
  k.in_c = static_cast<int64_t>(in.strides()[1]);
  k.in_w = static_cast<int64_t>(in.strides()[rank - 1]);
  k.out_n = static_cast<int64_t>(out.strides()[0]);
  k.out_c = static_cast<int64_t>(out.strides()[1]);
  k.out_w = static_cast<int64_t>(out.strides()[rank - 1]);
  program.in_row_offset = row_offsets(in);
  program.out_row_offset = row_offsets(out);
  if (idx) {
    k.idx_n = static_cast<int64_t>(idx->strides()[0]);
    k.idx_c = static_cast<int64_t>(idx->strides()[1]);
    k.idx_w = static_cast<int64_t>(idx->strides()[rank - 1]);
    program.idx_row_offset = row_offsets(*idx);
  } else {
    program.idx_row_offset.assign(program.out_row_offset.size(), 0);
  }
  const uint64_t out_rows = program.out_row_offset.size();
  list_vertical_taps(plan, in, out, out_rows, program);

  // Horizontal taps per output column (for borders), and the interior.
  const PoolingAxis& last = plan.axes[plan.spatial_rank - 1];
  const uint64_t window = last.window;
  program.htap_begin.assign(1, 0);
  for (uint64_t x = 0; x < k.out_width; ++x) {
    for (uint64_t tap = 0; tap < window; ++tap) {
      const int64_t i = last.taps[x * window + tap];
      if (i != kPaddingIndex) program.htap_col.push_back(static_cast<uint64_t>(i));
    }
    program.htap_begin.push_back(program.htap_col.size());
  }
  const std::optional<Interior> interior = find_interior(last, k.out_width);

  // The kernels' vector path, if the interior is wide enough for this CPU's
  // vectors and one output row's split input rows fit the scratch limit.
  uint64_t most_rows = 0;
  for (uint64_t row = 0; row < out_rows; ++row) {
    most_rows = std::max(most_rows, program.vtap_begin[row + 1] - program.vtap_begin[row]);
  }
  const uint64_t step = interior ? static_cast<uint64_t>(interior->step) : 1;
  const uint64_t phase_length = (k.in_width + step - 1) / step;
  PoolShape shape;
  if (interior) shape = kernels.pool_shape(k.type, k.index_bytes, most_rows * window, interior->end - interior->begin);
  std::size_t slot_bytes = static_cast<std::size_t>(step * phase_length * shape.split_bytes);
  if (most_rows * slot_bytes > kMaxScratchBytes) shape = PoolShape{};
  program.shape = shape;
  const bool vector_path = shape.vectors != PoolVectors::None;
  if (vector_path) {
    k.vectors = shape.vectors;
    k.x_lo = interior->begin;
    k.x_hi = interior->end;
    k.column_step = interior->step;
    k.window_columns = window;
    k.phase_length = phase_length;
    k.max_row_taps = most_rows * window;
    // Direct loads need each row's elements side by side; steps above 2
    // would waste most of each loaded vector.
    k.direct = k.in_w == 1 && (k.column_step == 1 || k.column_step == 2);
    auto split_position = [&](uint64_t column) {  // plan time: a division per tap is fine
      return column % step * phase_length + column / step;
    };
    for (uint64_t tap = 0; tap < window; ++tap) {
      const uint64_t column = static_cast<uint64_t>(last.taps[k.x_lo * window + tap]);
      program.tap_column.push_back(column);
      program.tap_split.push_back(split_position(column));
    }
    for (uint64_t column : program.htap_col) program.htap_split.push_back(split_position(column));
  } else {
    slot_bytes = 0;
  }

  make_bands(out_rows, program.in_row_offset.size(), k.out_width, vector_path, slot_bytes, program);
  point_kernel_at_tables(program);
  program.units = k.planes * k.band_count;
}

uint64_t traffic_bytes(const Operation& op) {
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();
  uint64_t bytes = out.element_count() * out.element_size();
  uint64_t read = in.layout().distinct_offsets;
  if (op.kind() != OpKind::MaxPooling2) read = std::min(read, out.element_count());
  bytes += read * in.element_size();
  if (op.output_indices()) bytes += op.output_indices()->element_count() * op.output_indices()->element_size();
  return bytes;
}

}  // namespace stridescope::fast
