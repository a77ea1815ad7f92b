#include "gpu/pooling_interior.h"

#include "gpu/shaders/meta_layout.h"

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

// The input element (signed, relative to the box's input window) of the
// first span word of the group at output column `col` in the window row
// of D output `od`'s tap `kd` and H output `oh`'s tap `kh`, for N and C
// indices n, c.
int64_t span_start(const PoolingProgram& p, const WorkBox& box, uint64_t n, uint64_t c, uint64_t od, uint64_t kd,
                   uint64_t oh, uint64_t kh, uint64_t col) {
  const uint32_t id = p.taps[2][od * p.windows[2] + kd];
  const uint32_t ih = p.taps[3][oh * p.windows[3] + kh];
  const auto iw = static_cast<int32_t>(p.w_inner.base + static_cast<uint32_t>(col) * p.w_inner.step_o);
  return static_cast<int64_t>(n * p.in_strides[0] + c * p.in_strides[1] + id * p.in_strides[2] + ih * p.in_strides[3]) +
         iw - static_cast<int64_t>(box.input.base_element);
}

}  // namespace

PoolingRegions pooling_regions(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge, uint64_t chunk) {
  PoolingRegions regions;
  const PoolingProgram::AffineRun& w = program.w_inner;
  if (quads == 0 || chunk % SS_PQ_GROUP != 0) return regions;
  const uint64_t w_lo = edge.edge != SS_PADDING_INDEX ? edge.edge : w.lo;
  const uint64_t w_hi = w_lo + (w.hi - w_lo) / SS_PQ_GROUP * SS_PQ_GROUP;
  const PoolingProgram::AffineRun& d = program.d_inner;
  const PoolingProgram::AffineRun& h = program.h_inner;
  if (w_hi == w_lo || d.hi == d.lo || h.hi == h.lo) return regions;

  std::array<uint64_t, kPoolingAxes> lo{};
  std::array<uint64_t, kPoolingAxes> hi = program.out_sizes;
  add_sides(regions.rest, lo, hi, 2, d.lo, d.hi);
  lo[2] = d.lo;
  hi[2] = d.hi;
  add_sides(regions.rest, lo, hi, 3, h.lo, h.hi);
  lo[3] = h.lo;
  hi[3] = h.hi;
  add_sides(regions.rest, lo, hi, kW, w_lo, w_hi);
  lo[kW] = w_lo;
  hi[kW] = w_hi;
  regions.interior = region_of(lo, hi);
  return regions;
}

bool interior_box_ok(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge, const WorkBox& box) {
  if (box.extent[kW] % SS_PQ_GROUP != 0) return false;
  if (box.lo[kW] < program.w_inner.lo && box.lo[kW] != edge.edge) return false;
  if (!quad_aligned(program.out_strides, box, box.output.base_element, 4)) return false;
  if (program.index_type) {
    const uint64_t unit = element_size(*program.index_type) == 8 ? 2 : 4;
    if (!quad_aligned(program.index_strides, box, box.indices.base_element, unit)) return false;
  }
  std::array<uint64_t, kPoolingAxes> last{};
  for (std::size_t a = 0; a < kPoolingAxes; ++a) last[a] = box.lo[a] + box.extent[a] - 1;
  const int64_t first_word =
      span_start(program, box, box.lo[0], box.lo[1], box.lo[2], 0, box.lo[3], 0, box.lo[kW]);
  const int64_t last_used = span_start(program, box, last[0], last[1], last[2], program.windows[2] - 1, last[3],
                                       program.windows[3] - 1, last[kW] + 1 - SS_PQ_GROUP) +
                            SS_PQ_SPAN(quads) - 1;
  const auto whole_quad_words = static_cast<int64_t>(box.input.range / 16 * 4);
  return first_word >= 0 && last_used < whole_quad_words;
}

}  // namespace stridescope::gpu
