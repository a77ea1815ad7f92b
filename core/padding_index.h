// The one marker for "no input element: CONSTANT padding supplies this
// output". It stands for an input index in core's index tables
// (core/index_plan.h) and for an input offset in the tables lowered from
// them (core/gather_lowering.h, the fast CPU kernels), where every real
// value is >= 0. The shaders' 32-bit tables spell it SS_PADDING_INDEX
// (gpu/shaders/meta_layout.h).
//
// A header of its own, with nothing else in it: the CPU kernel headers,
// compiled once per instruction set, may include no inline functions.
#pragma once

#include <cstdint>

namespace stridescope {

inline constexpr int64_t kPaddingIndex = -1;

}  // namespace stridescope
