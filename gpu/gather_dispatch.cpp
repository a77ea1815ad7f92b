#include "gpu/gather_dispatch.h"

#include <algorithm>
#include <limits>


namespace stridescope::gpu {

namespace {

constexpr uint64_t kMaxAxisSize = std::numeric_limits<uint32_t>::max();  // the shader's indices are 32-bit

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
void plan_copies(GatherDispatch& program, const GatherTuning& tuning) {
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
std::optional<uint32_t> fill_pattern(const GatherDispatch& program) {
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
bool plan_fills(GatherDispatch& program, const Region& box, const GatherTuning& tuning) {
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
void plan_regions(GatherDispatch& program, const GatherTuning& tuning) {
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
void order_axes(GatherDispatch& program) {
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

GatherDispatch make_gather_dispatch(const Operation& op, const GatherTuning& tuning) {
  GatherDispatch program;
  static_cast<GatherLowering&>(program) = lower_gather(op, kMaxAxisSize);
  order_axes(program);
  plan_copies(program, tuning);
  plan_regions(program, tuning);
  return program;
}

}  // namespace stridescope::gpu
