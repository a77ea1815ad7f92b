#include "gpu/gather_program.h"

#include "core/checked_math.h"

#include <algorithm>
#include <cassert>
#include <limits>

#include "core/index_plan.h"
#include "core/offset_runs.h"

namespace stridescope::gpu {

namespace {

constexpr uint64_t kMaxAxisSize = std::numeric_limits<uint32_t>::max();  // the shader's indices are 32-bit

// source[o] * stride as affine segments (core/offset_runs.h).
std::vector<GatherSegment> encode(const std::vector<int64_t>& source, uint64_t stride) {
  std::vector<int64_t> offsets(source.size());
  for (std::size_t o = 0; o < source.size(); ++o) {
    offsets[o] = source[o] == kPaddingIndex ? kPaddingIndex : source[o] * static_cast<int64_t>(stride);
  }
  std::vector<GatherSegment> segments;
  for (const OffsetRun& run : affine_runs(offsets, kPaddingIndex)) {
    segments.push_back({run.begin, run.first, run.step, run.padding});
  }
  return segments;
}

bool is_affine(const GatherAxis& axis) { return axis.segments.size() == 1 && !axis.segments[0].pad; }

// `outer` then `inner` as one axis, when both tensors walk them as one.
bool try_merge(GatherAxis& outer, const GatherAxis& inner) {
  if (!is_affine(outer) || !is_affine(inner)) return false;
  const auto expected_step = checked_mul_signed(static_cast<int64_t>(inner.size), inner.segments[0].step);
  if (!expected_step || outer.segments[0].step != *expected_step) return false;
  const auto expected_stride = checked_mul(inner.size, inner.out_stride);
  if (!expected_stride || outer.out_stride != *expected_stride) return false;
  const auto size = checked_mul(outer.size, inner.size);
  if (!size || *size > kMaxAxisSize) return false;
  outer.size = *size;
  outer.out_stride = inner.out_stride;
  outer.segments[0].value += inner.segments[0].value;
  outer.segments[0].step = inner.segments[0].step;
  outer.dims.insert(outer.dims.end(), inner.dims.begin(), inner.dims.end());
  return true;
}

// Adds one row to the copies: it lengthens the last copy when both tensors
// continue it, or becomes the last copy's next row when it sits one pitch
// further on both sides (rows forward in memory only).
void append_row(std::vector<ByteCopy>& copies, const ByteCopy& row) {
  if (!copies.empty()) {
    ByteCopy& last = copies.back();
    if (last.rows == 1 && last.src + last.size == row.src && last.dst + last.size == row.dst) {
      last.size += row.size;
      return;
    }
    if (last.size == row.size && row.src > last.src && row.dst > last.dst) {
      if (last.rows == 1) {
        last.src_pitch = row.src - last.src;
        last.dst_pitch = row.dst - last.dst;
        last.rows = 2;
        return;
      }
      if (row.src == last.src + last.rows * last.src_pitch && row.dst == last.dst + last.rows * last.dst_pitch) {
        ++last.rows;
        return;
      }
    }
  }
  copies.push_back(row);
}

// Every row's copy of the chosen columns, merged where rows continue each
// other or follow at a constant pitch.
void plan_copies(GatherProgram& program, const GatherTuning& tuning) {
  const GatherAxis& row = program.axes.back();
  if (row.out_stride != 1) return;
  std::optional<std::size_t> best;
  for (std::size_t s = 0; s < row.segments.size(); ++s) {
    const GatherSegment& g = row.segments[s];
    if (g.pad || g.step != 1) continue;
    const uint64_t length = row.segment_end(s) - g.begin;
    if (!best || length > row.segment_end(*best) - row.segments[*best].begin) best = s;
  }
  if (!best) return;
  const GatherSegment& run = row.segments[*best];
  const uint64_t length = row.segment_end(*best) - run.begin;
  const uint64_t es = program.element_size;
  if (length * es < tuning.min_copy_bytes) return;

  const std::size_t outer = program.axes.size() - 1;
  uint64_t rows = 1;
  for (std::size_t a = 0; a < outer; ++a) rows *= program.axes[a].size;
  if (rows > tuning.max_copy_regions) return;

  std::vector<uint64_t> coord(outer, 0);
  std::vector<ByteCopy> copies;
  for (uint64_t r = 0; r < rows; ++r) {
    bool valid = true;
    int64_t src = program.input_base;
    uint64_t dst = 0;
    for (std::size_t a = 0; a < outer; ++a) {
      const GatherSegment& g = program.axes[a].segment_at(coord[a]);
      if (g.pad) valid = false;
      src += g.value + static_cast<int64_t>(coord[a] - g.begin) * g.step;
      dst += coord[a] * program.axes[a].out_stride;
    }
    if (valid) append_row(copies, {static_cast<uint64_t>(src + run.value) * es, (dst + run.begin) * es, length * es});
    for (std::size_t a = outer; a-- > 0;) {
      if (++coord[a] < program.axes[a].size) break;
      coord[a] = 0;
    }
  }
  program.copy_columns = std::pair{run.begin, run.begin + length};
  program.copies = std::move(copies);
}

// The part of axis `a` outside padding, when it is one range; nullopt when
// padding sits between data (then the copied columns are simply redone).
std::optional<std::pair<uint64_t, uint64_t>> data_range(const GatherAxis& axis) {
  std::optional<std::pair<uint64_t, uint64_t>> range;
  bool ended = false;
  for (std::size_t s = 0; s < axis.segments.size(); ++s) {
    if (axis.segments[s].pad) {
      ended = ended || range.has_value();
      continue;
    }
    if (ended) return std::nullopt;
    if (!range) range = std::pair{axis.segments[s].begin, axis.segments[s].begin};
    range->second = axis.segment_end(s);
  }
  return range ? range : std::pair<uint64_t, uint64_t>{0, 0};
}

// The padding value as a 32-bit fill pattern, when it repeats every 4 bytes.
std::optional<uint32_t> fill_pattern(const GatherProgram& program) {
  const uint64_t bits = program.padding_bits;
  switch (program.element_size) {
    case 1: return static_cast<uint32_t>(bits & 0xFF) * 0x01010101u;
    case 2: return static_cast<uint32_t>(bits & 0xFFFF) * 0x00010001u;
    case 4: return static_cast<uint32_t>(bits);
    default:
      if ((bits >> 32) == (bits & 0xFFFFFFFFu)) return static_cast<uint32_t>(bits);
      return std::nullopt;
  }
}

// Fills for every row of `box` (whole rows), merged where rows continue
// each other; false when the rows cannot be filled (alignment, count).
bool plan_fills(GatherProgram& program, const Region& box, const GatherTuning& tuning) {
  const std::size_t outer = program.axes.size() - 1;
  const GatherAxis& row = program.axes[outer];
  const uint64_t es = program.element_size;
  const auto pattern = fill_pattern(program);
  if (!tuning.fill_padding_rows || !pattern || row.out_stride != 1 || row.size * es % 4 != 0) return false;
  uint64_t rows = 1;
  for (std::size_t a = 0; a < outer; ++a) {
    if (program.axes[a].out_stride * es % 4 != 0) return false;
    rows *= box.extent[a];
  }
  if (rows + program.fills.size() > tuning.max_copy_regions) return false;
  std::vector<uint64_t> coord(box.lo.begin(), box.lo.begin() + static_cast<std::ptrdiff_t>(outer));
  for (uint64_t r = 0; r < rows; ++r) {
    uint64_t dst = 0;
    for (std::size_t a = 0; a < outer; ++a) dst += coord[a] * program.axes[a].out_stride;
    const ByteFill fill{dst * es, row.size * es, *pattern};
    if (!program.fills.empty() && program.fills.back().offset + program.fills.back().size == fill.offset) {
      program.fills.back().size += fill.size;
    } else {
      program.fills.push_back(fill);
    }
    for (std::size_t a = outer; a-- > 0;) {
      if (++coord[a] < box.lo[a] + box.extent[a]) break;
      coord[a] = box.lo[a];
    }
  }
  return true;
}

// Whether the row has columns outside `columns`, all of them CONSTANT padding.
bool only_padding_beside(const GatherAxis& row, std::pair<uint64_t, uint64_t> columns) {
  if (columns.first == 0 && columns.second == row.size) return false;
  for (std::size_t s = 0; s < row.segments.size(); ++s) {
    const bool beside = row.segments[s].begin < columns.first || row.segment_end(s) > columns.second;
    if (beside && !row.segments[s].pad) return false;
  }
  return true;
}

// Fills in memory order, neighbours joined: the boxes above come in
// separate lists, and a packed output often fills as one range.
void merge_fills(std::vector<ByteFill>& fills) {
  std::sort(fills.begin(), fills.end(), [](const ByteFill& a, const ByteFill& b) { return a.offset < b.offset; });
  std::vector<ByteFill> merged;
  for (const ByteFill& f : fills) {
    if (!merged.empty() && merged.back().offset + merged.back().size == f.offset) {
      merged.back().size += f.size;
    } else {
      merged.push_back(f);
    }
  }
  fills = std::move(merged);
}

// Boxes covering exactly the elements the transfers do not write.
void plan_regions(GatherProgram& program, const GatherTuning& tuning) {
  const std::size_t outer = program.axes.size() - 1;
  Region whole;
  for (const GatherAxis& axis : program.axes) {
    whole.lo.push_back(0);
    whole.extent.push_back(axis.size);
  }
  std::vector<std::pair<uint64_t, uint64_t>> data(outer);
  for (std::size_t a = 0; a < outer; ++a) {
    auto range = data_range(program.axes[a]);
    if (!range) {
      program.shader_regions = {whole};  // copied columns are simply written again
      return;
    }
    data[a] = *range;
  }
  auto empty = [](const Region& r) {
    for (uint64_t e : r.extent) {
      if (e == 0) return true;
    }
    return false;
  };
  auto add = [&](Region r) {
    if (!empty(r)) program.shader_regions.push_back(std::move(r));
  };
  // Rows without padding: what the copies leave out.
  Region rows = whole;
  for (std::size_t a = 0; a < outer; ++a) {
    rows.lo[a] = data[a].first;
    rows.extent[a] = data[a].second - data[a].first;
  }
  const bool short_rows = program.axes[outer].size * program.element_size <= tuning.max_filled_row_bytes;
  if (program.copy_columns && short_rows && only_padding_beside(program.axes[outer], *program.copy_columns) &&
      plan_fills(program, rows, tuning)) {
    // Filled whole, then the copies overwrite the data columns.
  } else if (program.copy_columns) {
    const auto [copy_begin, copy_end] = *program.copy_columns;
    Region left = rows;
    left.extent[outer] = copy_begin;
    Region right = rows;
    right.lo[outer] = copy_end;
    right.extent[outer] = program.axes[outer].size - copy_end;
    if (!empty(left) && !empty(right)) {
      // One box, so that each row's invocation writes both sides: half the
      // invocations, each with its row set-up done once.
      rows.skip = program.copy_columns;
      add(rows);
    } else {
      add(left);
      add(right);
    }
  } else {
    add(rows);
  }
  // Rows with padding along axis a (and none along the axes before it):
  // whole rows of the padding value.
  for (std::size_t a = 0; a < outer; ++a) {
    Region before = whole;
    Region after = whole;
    for (std::size_t b = 0; b < a; ++b) {
      before.lo[b] = after.lo[b] = data[b].first;
      before.extent[b] = after.extent[b] = data[b].second - data[b].first;
    }
    before.extent[a] = data[a].first;
    after.lo[a] = data[a].second;
    after.extent[a] = program.axes[a].size - data[a].second;
    for (const Region* r : {&before, &after}) {
      if (!empty(*r) && !plan_fills(program, *r, tuning)) add(*r);
    }
  }
  merge_fills(program.fills);
}

uint64_t largest_step(const GatherAxis& axis) {
  uint64_t step = 0;
  for (const GatherSegment& s : axis.segments) {
    step = std::max(step, static_cast<uint64_t>(s.step < 0 ? -s.step : s.step));
  }
  return step;
}

// The row: the axis with the smallest output stride; the others by input
// stride, largest first.
void order_axes(GatherProgram& program) {
  std::vector<GatherAxis>& axes = program.axes;
  std::size_t row = axes.size() - 1;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    if (axes[a].size > 1 && (axes[row].size == 1 || axes[a].out_stride < axes[row].out_stride)) row = a;
  }
  std::rotate(axes.begin() + static_cast<std::ptrdiff_t>(row), axes.begin() + static_cast<std::ptrdiff_t>(row) + 1,
              axes.end());
  std::stable_sort(axes.begin(), axes.end() - 1,
                   [](const GatherAxis& a, const GatherAxis& b) { return largest_step(a) > largest_step(b); });
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

std::optional<int64_t> GatherProgram::source_offset(std::span<const uint64_t> axis_coord) const {
  int64_t offset = input_base;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const GatherSegment& g = axes[a].segment_at(axis_coord[a]);
    if (g.pad) return std::nullopt;
    offset += g.value + static_cast<int64_t>(axis_coord[a] - g.begin) * g.step;
  }
  return offset;
}

std::vector<uint64_t> GatherProgram::axis_coord(const Coord& op_coord, const Sizes& op_sizes) const {
  std::vector<uint64_t> coord;
  for (const GatherAxis& axis : axes) {
    uint64_t index = 0;
    for (std::size_t d : axis.dims) index = index * op_sizes[d] + op_coord[d];
    coord.push_back(index);
  }
  return coord;
}

GatherProgram make_gather_program(const Operation& op, const GatherTuning& tuning) {
  assert(op.kind() != OpKind::MaxPooling2);
  const GatherPlan plan = make_gather_plan(op);
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();

  GatherProgram program;
  program.element_size = out.element_size();
  if (op.kind() == OpKind::Padding) program.padding_bits = op.params_as<PaddingParams>().value_bits;

  for (std::size_t d = 0; d < plan.rank; ++d) {
    GatherAxis axis;
    axis.size = out.sizes()[d];
    axis.out_stride = out.strides()[d];
    axis.segments = encode(plan.source[d], in.strides()[d]);
    axis.dims = {d};
    const bool last = d + 1 == plan.rank;
    if (axis.size == 1 && !axis.segments[0].pad && !(last && program.axes.empty())) {
      program.input_base += axis.segments[0].value;  // always index 0: a constant offset
      continue;
    }
    if (!program.axes.empty() && try_merge(program.axes.back(), axis)) continue;
    program.axes.push_back(std::move(axis));
  }
  order_axes(program);
  plan_copies(program, tuning);
  plan_regions(program, tuning);
  return program;
}

}  // namespace stridescope::gpu
