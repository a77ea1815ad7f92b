#include "gpu/tiled_transpose.h"

#include <algorithm>

namespace stridescope::gpu {

namespace {

bool covers_everything(const GatherDispatch& program) {
  if (!program.copies.empty() || !program.fills.empty() || program.shader_regions.size() != 1) return false;
  const Region& region = program.shader_regions.front();
  if (region.skip) return false;
  for (std::size_t a = 0; a < program.axes.size(); ++a) {
    if (region.lo[a] != 0 || region.extent[a] != program.axes[a].size) return false;
  }
  return true;
}

}  // namespace

std::optional<GatherDispatch> tiled_transpose_order(const GatherDispatch& program) {
  const std::vector<GatherAxis>& axes = program.axes;
  if (axes.size() < 2 || !covers_everything(program)) return std::nullopt;
  for (const GatherAxis& axis : axes) {
    if (!axis.affine()) return std::nullopt;
  }
  const GatherAxis& row = axes.back();
  if (row.out_stride != 1 || row.segments[0].step == 1 || row.size < kMinTransposeExtent) return std::nullopt;
  std::optional<std::size_t> t;
  for (std::size_t a = 0; a + 1 < axes.size(); ++a) {
    if (axes[a].segments[0].step == 1 && axes[a].size >= kMinTransposeExtent && (!t || axes[a].size > axes[*t].size)) {
      t = a;
    }
  }
  if (!t) return std::nullopt;

  GatherDispatch ordered = program;
  const auto at = ordered.axes.begin() + static_cast<std::ptrdiff_t>(*t);
  std::rotate(at, at + 1, ordered.axes.end() - 1);  // T just before the row
  Region whole;
  for (const GatherAxis& axis : ordered.axes) {
    whole.lo.push_back(0);
    whole.extent.push_back(axis.size);
  }
  ordered.shader_regions = {whole};
  return ordered;
}

}  // namespace stridescope::gpu
