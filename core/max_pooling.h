// DML_MAX_POOLING2_OPERATOR_DESC over a 4-D {N,C,H,W} or 5-D {N,C,D,H,W} input.
//
// For spatial dimension i (2 for 4-D, 3 for 5-D):
//   OutputSizes[i+2] = (In + Start + End - ((Window - 1) * Dilation + 1)) / Stride + 1
// Output o, window tap k reads input index  o * Stride - Start + k * Dilation;
// taps outside [0, In) are padding and never win.
//
// Rules StrideScope decides where the DirectML page is silent (every backend
// follows them):
//   - Ties: the first maximum in row-major window order wins.
//   - NaN: a NaN wins over every number; the first NaN met wins (its index).
//   - A window lying wholly in padding is refused when the op is validated.
// Indices (UINT32 or UINT64) are the flat row-major position of the winner in
// the whole logical input, batch and channel included, whatever the strides.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "data_type.h"
#include "dim_vector.h"

namespace stridescope {

struct MaxPooling2Params {
  Sizes window_size;  // one entry per spatial dimension
  Sizes strides;
  Sizes start_padding;
  Sizes end_padding;
  Sizes dilations;
  std::optional<DataType> indices_type;  // UINT32 or UINT64 when indices are asked for

  std::size_t spatial_rank() const { return window_size.size(); }
  friend bool operator==(const MaxPooling2Params&, const MaxPooling2Params&) = default;
};

// True when `candidate` replaces the running maximum `best` (the tap met
// earlier). Numbers compare by value, so ties (and -0 against +0) keep the
// first; a NaN beats every number and the first NaN stays.
template <class T>
constexpr bool pooling_prefers(T candidate, T best) {
  if constexpr (std::is_floating_point_v<T>) {
    if (best != best) return false;           // best is NaN
    if (candidate != candidate) return true;  // candidate is NaN
  }
  return candidate > best;
}

// The input index that window tap `tap` of output index `out` reads along
// spatial dimension `dim`; may be < 0 or >= the input size (padding).
inline int64_t pooling_tap_index(const MaxPooling2Params& p, std::size_t dim, uint64_t out,
                                 uint64_t tap) {
  return static_cast<int64_t>(out * p.strides[dim] + tap * p.dilations[dim]) -
         static_cast<int64_t>(p.start_padding[dim]);
}

}  // namespace stridescope
