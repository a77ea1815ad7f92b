#include "index_plan.h"

#include <cassert>

namespace stridescope {
namespace {

// Fills source[d] by asking `index_of(d, o)` for every output index o.
template <class IndexOf>
GatherPlan tabulate(const Operation& op, IndexOf index_of) {
  GatherPlan plan;
  plan.rank = op.output().rank();
  for (std::size_t d = 0; d < plan.rank; ++d) {
    const uint64_t size = op.output().sizes()[d];
    plan.source[d].resize(size);
    for (uint64_t o = 0; o < size; ++o) plan.source[d][o] = index_of(d, o);
  }
  return plan;
}

}  // namespace

GatherPlan make_gather_plan(const Operation& op) {
  switch (op.kind()) {
    case OpKind::Identity:
      return tabulate(op, [](std::size_t, uint64_t o) { return static_cast<int64_t>(o); });
    case OpKind::Slice: {
      const auto& p = op.params_as<SliceParams>();
      return tabulate(op, [&](std::size_t d, uint64_t o) { return slice_source_index(p, d, o); });
    }
    case OpKind::Slice1: {
      const auto& p = op.params_as<Slice1Params>();
      return tabulate(op, [&](std::size_t d, uint64_t o) { return slice1_source_index(p, d, o); });
    }
    case OpKind::Padding: {
      const auto& p = op.params_as<PaddingParams>();
      const Sizes& in = op.input().sizes();
      GatherPlan plan =
          tabulate(op, [&](std::size_t d, uint64_t o) { return padding_source_index(p, in, d, o); });
      for (std::size_t d = 0; d < plan.rank; ++d) {
        plan.unfolded[d].resize(plan.source[d].size());
        for (uint64_t o = 0; o < plan.unfolded[d].size(); ++o) {
          plan.unfolded[d][o] = unfolded_padding_index(p, d, o);
        }
      }
      return plan;
    }
    case OpKind::MaxPooling2: break;
  }
  assert(false && "make_gather_plan: max_pooling2 uses make_pooling_plan");
  return {};
}

PoolingPlan make_pooling_plan(const Operation& op) {
  assert(op.kind() == OpKind::MaxPooling2);
  const auto& p = op.params_as<MaxPooling2Params>();
  PoolingPlan plan;
  plan.spatial_rank = p.spatial_rank();
  for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
    const int64_t n = static_cast<int64_t>(op.input().sizes()[s + 2]);
    const uint64_t outputs = op.output().sizes()[s + 2];
    PoolingAxis& axis = plan.axes[s];
    axis.window = p.window_size[s];
    axis.taps.resize(outputs * axis.window);
    for (uint64_t o = 0; o < outputs; ++o) {
      for (uint64_t k = 0; k < axis.window; ++k) {
        const int64_t index = pooling_tap_index(p, s, o, k);
        axis.taps[o * axis.window + k] = (index >= 0 && index < n) ? index : kPaddingIndex;
      }
    }
  }
  return plan;
}

}  // namespace stridescope
