// IEEE 754 binary16 <-> binary32/binary64 conversion, exact where exactness is
// possible: every half converts to float exactly (denormals, infinities and NaN
// payloads kept); float and double round to nearest, ties to even, in one step
// (double is not rounded through float first, which could round twice).
#pragma once

#include <cstdint>

namespace stridescope {

float half_to_float(uint16_t half);
double half_to_double(uint16_t half);
uint16_t float_to_half(float value);
uint16_t double_to_half(double value);

}  // namespace stridescope
