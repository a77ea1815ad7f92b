// The single home of the operators' index arithmetic. Every operator here is
// separable per dimension: which input index an output element reads along
// dimension d depends only on its own index along d. So an Operation becomes
// small per-dimension tables that the CPU loop, the Vulkan shaders, `explain`
// and the app's overlays all follow, instead of each re-deriving the formulas.
//
//   GatherPlan (identity, slice, slice1, padding):
//     source[d][o] = the input index read by output index o along d, or
//                    kPaddingIndex where CONSTANT padding supplies the value.
//     unfolded[d][o] (padding only) = o - startPadding[d], the input index
//                    before folding: outside [0, inputSize) means o lies in
//                    a padding region of axis d.
//     out[o] = any source[d][o_d] == kPaddingIndex ? paddingValue
//              : in[sum_d source[d][o_d] * inStrides[d]]
//
//   PoolingPlan (max_pooling2), per spatial dimension s (tensor dimension s+2):
//     taps[s][o * window[s] + k] = input index read by window tap k of output
//                    index o, or kPaddingIndex where the tap lies in padding.
//     Batch and channel map to themselves.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "operation.h"

namespace stridescope {

struct GatherPlan {
  std::size_t rank = 0;
  std::array<std::vector<int64_t>, kMaxRank> source;  // source[d].size() == output size d
  std::array<std::vector<int64_t>, kMaxRank> unfolded;  // padding only; empty otherwise
};

struct PoolingAxis {
  uint64_t window = 0;        // taps per output index
  std::vector<int64_t> taps;  // output size * window entries
};

struct PoolingPlan {
  std::size_t spatial_rank = 0;  // 2 or 3
  std::array<PoolingAxis, 3> axes;
};

// Preconditions: gather for identity/slice/slice1/padding, pooling for max_pooling2.
GatherPlan make_gather_plan(const Operation& op);
PoolingPlan make_pooling_plan(const Operation& op);

}  // namespace stridescope
