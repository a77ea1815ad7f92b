#include "gpu/pooling_program.h"

#include <algorithm>
#include <cassert>

#include "core/index_plan.h"
#include "gpu/shaders/meta_layout.h"

namespace stridescope::gpu {

std::optional<ElementRange> PoolingProgram::input_range(std::size_t axis, uint64_t lo, uint64_t hi) const {
  const auto stride = static_cast<int64_t>(in_strides[axis]);
  if (axis < 2) return ElementRange{static_cast<int64_t>(lo) * stride, static_cast<int64_t>(hi - 1) * stride};
  std::optional<uint32_t> low;
  std::optional<uint32_t> high;
  const std::vector<uint32_t>& table = taps[axis];
  for (uint64_t i = lo * windows[axis]; i < hi * windows[axis]; ++i) {
    if (table[i] == SS_PADDING_INDEX) continue;
    low = low ? std::min(*low, table[i]) : table[i];
    high = high ? std::max(*high, table[i]) : table[i];
  }
  if (!low) return std::nullopt;
  return ElementRange{static_cast<int64_t>(*low) * stride, static_cast<int64_t>(*high) * stride};
}

namespace {

bool unpadded(const std::vector<uint32_t>& table, uint64_t window, uint64_t o) {
  for (uint64_t k = 0; k < window; ++k) {
    if (table[o * window + k] == SS_PADDING_INDEX) return false;
  }
  return true;
}

}  // namespace

PoolingProgram::AffineRun affine_inner_run(const std::vector<uint32_t>& table, uint64_t window) {
  const uint64_t outputs = window == 0 ? 0 : table.size() / window;
  uint64_t lo = 0;
  while (lo < outputs && !unpadded(table, window, lo)) ++lo;
  uint64_t hi = lo;
  while (hi < outputs && unpadded(table, window, hi)) ++hi;
  if (hi == lo) return {};
  PoolingProgram::AffineRun run;
  run.step_o = hi - lo > 1 ? table[(lo + 1) * window] - table[lo * window] : 0;
  run.step_k = window > 1 ? table[lo * window + 1] - table[lo * window] : 0;
  run.base = table[lo * window] - static_cast<uint32_t>(lo) * run.step_o;
  for (uint64_t o = lo; o < hi; ++o) {
    for (uint64_t k = 0; k < window; ++k) {
      if (table[o * window + k] != run.tap(o, k)) return {};
    }
  }
  run.lo = lo;
  run.hi = hi;
  return run;
}

uint32_t quad_path(const PoolingProgram& program) {
  const PoolingProgram::AffineRun& run = program.w_inner;
  const uint64_t window = program.windows[4];
  if (element_size(program.data_type) != 4 || program.in_strides[4] != 1) return 0;
  // Packed taps hold kd and kh in 12 bits each (pooling_quads.glsl).
  if (program.windows[2] >= 4096 || program.windows[3] >= 4096) return 0;
  if (run.hi - run.lo < SS_PQ_GROUP || window > 0xFF || run.step_o > 0xFF || run.step_k > 0xFF) return 0;
  const auto constant_count = [](uint64_t size) { return size <= SS_PQ_MAX_ROWS ? static_cast<uint32_t>(size) : 0u; };
  const uint32_t packed = static_cast<uint32_t>(window) | run.step_o << 8 | run.step_k << 16 |
                          constant_count(program.windows[3]) << 24 | constant_count(program.windows[2]) << 28;
  return SS_PQ_SPAN(packed) <= SS_PQ_MAX_SPAN ? packed : 0;
}

namespace {

// The span word (from the edge group's first input column `group_iw`) of
// output o's first real tap, when o is an edge output: its taps follow the
// W run's rule where that gives a column >= 0, padding where negative.
std::optional<uint32_t> edge_start(const PoolingProgram& program, uint64_t o, int32_t group_iw) {
  const PoolingProgram::AffineRun& run = program.w_inner;
  const uint64_t window = program.windows[4];
  std::optional<uint32_t> start;
  for (uint64_t k = 0; k < window; ++k) {
    const auto iw = static_cast<int32_t>(run.tap(o, k));
    const uint32_t tap = program.taps[4][o * window + k];
    if (iw < 0 ? tap != SS_PADDING_INDEX : tap != static_cast<uint32_t>(iw)) return std::nullopt;
    if (iw >= 0 && !start) start = static_cast<uint32_t>(iw - group_iw);
  }
  return start;
}

}  // namespace

QuadEdge quad_edge(const PoolingProgram& program, uint32_t quads) {
  const PoolingProgram::AffineRun& run = program.w_inner;
  if (quads == 0 || run.lo == 0) return {};
  // The first output of the longest qualifying stretch ending at the run.
  uint64_t edge = run.lo;
  const uint64_t lowest = run.lo > SS_PQ_GROUP ? run.lo - SS_PQ_GROUP : 0;
  auto group_iw = [&](uint64_t first) { return static_cast<int32_t>(run.tap(first)); };
  while (edge > lowest && group_iw(edge - 1) < 0 && edge_start(program, edge - 1, group_iw(edge - 1))) --edge;
  if (edge == run.lo || edge + SS_PQ_GROUP > run.hi || group_iw(edge) < -4) return {};
  QuadEdge result;
  result.edge = static_cast<uint32_t>(edge);
  result.pad_words = static_cast<uint32_t>(-group_iw(edge));
  for (uint32_t g = 0; g < SS_PQ_GROUP; ++g) {
    const std::optional<uint32_t> start = edge_start(program, edge + g, group_iw(edge));
    if (!start) return {};
    result.starts |= *start << (8 * g);
  }
  return result;
}

PoolingProgram make_pooling_program(const Operation& op) {
  assert(op.kind() == OpKind::MaxPooling2);
  const PoolingPlan plan = make_pooling_plan(op);
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();
  const Strides packed = TensorDesc::packed_strides(in.sizes());

  PoolingProgram program;
  program.data_type = in.data_type();
  if (op.output_indices()) program.index_type = op.output_indices()->data_type();

  // Tensor dimension of each of the five axes; -1 for the D axis a 4-D op lacks.
  const bool three_d = in.rank() == 5;
  const std::array<int, kPoolingAxes> dim_of = three_d ? std::array<int, 5>{0, 1, 2, 3, 4}
                                                       : std::array<int, 5>{0, 1, -1, 2, 3};
  for (std::size_t a = 0; a < kPoolingAxes; ++a) {
    const int d = dim_of[a];
    if (d < 0) {
      program.out_sizes[a] = 1;
      program.windows[a] = 1;
      program.taps[a] = {0};
      continue;  // strides stay 0: the one tap reads index 0
    }
    const auto dim = static_cast<std::size_t>(d);
    program.out_sizes[a] = out.sizes()[dim];
    program.out_strides[a] = out.strides()[dim];
    if (op.output_indices()) program.index_strides[a] = op.output_indices()->strides()[dim];
    program.in_strides[a] = in.strides()[dim];
    program.flat_strides[a] = packed[dim];
    if (dim < 2) {
      program.windows[a] = 1;
      continue;
    }
    const PoolingAxis& axis = plan.axes[dim - 2];
    program.windows[a] = axis.window;
    program.taps[a].reserve(axis.taps.size());
    for (int64_t tap : axis.taps) {
      program.taps[a].push_back(tap == kPaddingIndex ? SS_PADDING_INDEX : static_cast<uint32_t>(tap));
    }
  }
  program.d_inner = affine_inner_run(program.taps[2], program.windows[2]);
  program.h_inner = affine_inner_run(program.taps[3], program.windows[3]);
  program.w_inner = affine_inner_run(program.taps[4], program.windows[4]);
  return program;
}

}  // namespace stridescope::gpu
