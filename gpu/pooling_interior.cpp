#include "gpu/pooling_interior.h"

#include "gpu/shaders/meta_layout.h"

#include <utility>

namespace stridescope::gpu {

namespace {

constexpr std::size_t kW = 4;  // the row axis

Region region_of(const std::array<uint64_t, kPoolingAxes>& lo, const std::array<uint64_t, kPoolingAxes>& hi) {
  Region region;
  for (std::size_t a = 0; a < kPoolingAxes; ++a) {
    region.lo.push_back(lo[a]);
    region.extent.push_back(hi[a] - lo[a]);
  }
  return region;
}

// Appends [lo, hi) with axis `axis` replaced by each of [0, a) and [b, size).
void add_sides(std::vector<Region>& out, std::array<uint64_t, kPoolingAxes> lo, std::array<uint64_t, kPoolingAxes> hi,
               std::size_t axis, uint64_t a, uint64_t b) {
  const uint64_t size = hi[axis];
  if (a > 0) {
    hi[axis] = a;
    out.push_back(region_of(lo, hi));
  }
  if (b < size) {
    lo[axis] = b;
    hi[axis] = size;
    out.push_back(region_of(lo, hi));
  }
}

// Whether elements lo + e * stride, over the box's rows, start quads of
// `unit` elements at every group: packed along W, outer strides in whole
// units (or a single index), the box's first element on a unit boundary
// of the window.
bool quad_aligned(const std::array<uint64_t, kPoolingAxes>& strides, const WorkBox& box, uint64_t base_element,
                  uint64_t unit) {
  if (strides[kW] != 1) return false;
  uint64_t first = 0 - base_element;
  for (std::size_t a = 0; a < kPoolingAxes; ++a) {
    if (a != kW && box.extent[a] > 1 && strides[a] % unit != 0) return false;
    first += box.lo[a] * strides[a];
  }
  return first % unit == 0;
}

// Output o's real taps along an axis (`table`, `window` taps an output)
// when they are consecutive in window order and step by step_k: the first
// and how many.
struct RealTaps {
  uint32_t first = 0;
  uint32_t count = 0;
};
std::optional<RealTaps> real_taps(const std::vector<uint32_t>& table, uint64_t window, uint32_t step_k, uint64_t o) {
  const uint32_t* taps = table.data() + o * window;
  uint64_t k = 0;
  while (k < window && taps[k] == SS_PADDING_INDEX) ++k;
  if (k == window) return std::nullopt;
  RealTaps real{taps[k], 0};
  for (; k < window && taps[k] != SS_PADDING_INDEX; ++k, ++real.count) {
    if (taps[k] != real.first + real.count * step_k) return std::nullopt;
  }
  for (; k < window; ++k) {
    if (taps[k] != SS_PADDING_INDEX) return std::nullopt;
  }
  return real;
}

// The outputs around `run` whose real taps real_taps finds, and the axis's
// pairs (SS_P_D_REAL); nullopt without a run.
std::optional<std::pair<uint64_t, uint64_t>> real_range(const PoolingProgram& p, std::size_t axis,
                                                       const PoolingProgram::AffineRun& run,
                                                       std::vector<uint32_t>& pairs) {
  if (run.hi == run.lo) return std::nullopt;
  const auto real = [&](uint64_t o) { return real_taps(p.taps[axis], p.windows[axis], run.step_k, o); };
  uint64_t lo = run.lo;
  while (lo > 0 && real(lo - 1)) --lo;
  uint64_t hi = run.hi;
  while (hi < p.out_sizes[axis] && real(hi)) ++hi;
  pairs.assign(2 * p.out_sizes[axis], 0);
  for (uint64_t o = lo; o < hi; ++o) {
    const RealTaps taps = *real(o);
    pairs[2 * o] = taps.first;
    pairs[2 * o + 1] = taps.count - 1;
  }
  return std::pair{lo, hi};
}

// The input element (signed, relative to the box's input window) of the
// group at output column `col` in the window row of input indices id, ih,
// for N and C indices n, c.
int64_t span_start(const PoolingProgram& p, const WorkBox& box, uint64_t n, uint64_t c, uint64_t id, uint64_t ih,
                   uint64_t col) {
  const auto iw = static_cast<int32_t>(p.w_inner.tap(col));
  return static_cast<int64_t>(n * p.in_strides[0] + c * p.in_strides[1] + id * p.in_strides[2] + ih * p.in_strides[3]) +
         iw - static_cast<int64_t>(box.input.base_element);
}

// The first (last: the last real tap) input index of output o's real taps.
uint64_t first_real(const std::vector<uint32_t>& pairs, uint64_t o) { return pairs[2 * o]; }
uint64_t last_real(const std::vector<uint32_t>& pairs, uint64_t o, uint32_t step_k) {
  return pairs[2 * o] + uint64_t{pairs[2 * o + 1]} * step_k;
}

}  // namespace

PoolingRegions pooling_regions(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge, uint64_t chunk) {
  PoolingRegions regions;
  const PoolingProgram::AffineRun& w = program.w_inner;
  if (quads == 0 || chunk % SS_PQ_GROUP != 0) return regions;
  const uint64_t w_lo = edge.edge != SS_PADDING_INDEX ? edge.edge : w.lo;
  const uint64_t w_hi = w_lo + (w.hi - w_lo) / SS_PQ_GROUP * SS_PQ_GROUP;
  const auto d = real_range(program, 2, program.d_inner, regions.d_real);
  const auto h = real_range(program, 3, program.h_inner, regions.h_real);
  if (w_hi == w_lo || !d || !h) return {};

  std::array<uint64_t, kPoolingAxes> lo{};
  std::array<uint64_t, kPoolingAxes> hi = program.out_sizes;
  add_sides(regions.rest, lo, hi, 2, d->first, d->second);
  lo[2] = d->first;
  hi[2] = d->second;
  add_sides(regions.rest, lo, hi, 3, h->first, h->second);
  lo[3] = h->first;
  hi[3] = h->second;
  add_sides(regions.rest, lo, hi, kW, w_lo, w_hi);
  lo[kW] = w_lo;
  hi[kW] = w_hi;
  regions.interior = region_of(lo, hi);
  return regions;
}

uint32_t interior_variant(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge,
                          const PoolingRegions& regions, const WorkBox& box) {
  if (box.extent[kW] % SS_PQ_GROUP != 0) return SS_GENERAL;
  if (box.lo[kW] < program.w_inner.lo && box.lo[kW] != edge.edge) return SS_GENERAL;
  if (!quad_aligned(program.out_strides, box, box.output.base_element, 4)) return SS_GENERAL;
  if (program.index_type) {
    const uint64_t unit = element_size(*program.index_type) == 8 ? 2 : 4;
    if (!quad_aligned(program.index_strides, box, box.indices.base_element, unit)) return SS_GENERAL;
  }
  std::array<uint64_t, kPoolingAxes> last{};
  for (std::size_t a = 0; a < kPoolingAxes; ++a) last[a] = box.lo[a] + box.extent[a] - 1;
  const int64_t first_word = span_start(program, box, box.lo[0], box.lo[1], first_real(regions.d_real, box.lo[2]),
                                        first_real(regions.h_real, box.lo[3]), box.lo[kW]);
  const int64_t last_used =
      span_start(program, box, last[0], last[1], last_real(regions.d_real, last[2], program.d_inner.step_k),
                 last_real(regions.h_real, last[3], program.h_inner.step_k), last[kW] + 1 - SS_PQ_GROUP) +
      SS_PQ_SPAN(quads) - 1;
  const auto whole_quad_words = static_cast<int64_t>(box.input.range / 16 * 4);
  // The left edge group's padded words may lie before the window (the shader
  // reads the window's first quad in their place), its real words not.
  const int64_t first_real_word = first_word + (box.lo[kW] == edge.edge ? edge.pad_words : 0);
  if (first_real_word < 0 || last_used >= whole_quad_words) return SS_GENERAL;
  // A group's span starts 4 * step_o words after the previous one's.
  for (std::size_t a = 0; a < kW; ++a) {
    if (program.in_strides[a] % 4 != 0) return SS_INTERIOR;
  }
  return SS_INTERIOR_AT + static_cast<uint32_t>(first_word & 3);
}

}  // namespace stridescope::gpu
