#include "float16.h"

#include <bit>
#include <cstring>

namespace stridescope {
namespace {

// Rounds an IEEE value given as sign, unbiased exponent and a mantissa with its
// implicit bit at position `mantissa_bits` to binary16, ties to even.
uint16_t round_to_half(uint64_t sign, int exponent, uint64_t mantissa, int mantissa_bits) {
  // mantissa holds 1.xxx with the leading 1 at bit mantissa_bits.
  const uint16_t sign_bit = static_cast<uint16_t>(sign << 15);
  if (exponent > 15) return sign_bit | 0x7C00;  // overflow to infinity
  // Number of low mantissa bits to drop to reach 10 fraction bits (normal) or
  // fewer (subnormal: exponent below -14 shifts further).
  int shift = mantissa_bits - 10;
  int half_exponent = exponent + 15;
  if (half_exponent <= 0) {
    shift += 1 - half_exponent;
    half_exponent = 0;
  }
  if (shift > 63) return sign_bit;  // far below the smallest subnormal: rounds to zero
  uint64_t kept = mantissa >> shift;
  const uint64_t rest = mantissa & ((uint64_t{1} << shift) - 1);
  const uint64_t halfway = uint64_t{1} << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1))) ++kept;
  // `kept` includes the implicit bit for normals; carries propagate into the
  // exponent naturally when the fields are added.
  uint64_t bits;
  if (half_exponent == 0) {
    bits = kept;  // subnormal (a carry into bit 10 makes it the smallest normal)
  } else {
    bits = (static_cast<uint64_t>(half_exponent - 1) << 10) + kept;
  }
  if (bits >= 0x7C00) return sign_bit | 0x7C00;
  return static_cast<uint16_t>(sign_bit | bits);
}

}  // namespace

float half_to_float(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  const uint32_t exponent = (half >> 10) & 0x1F;
  uint32_t mantissa = half & 0x3FF;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000 | (mantissa << 13);  // inf or NaN, payload kept
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal half: normalise into a float.
    int e = -1;
    do {
      mantissa <<= 1;
      ++e;
    } while ((mantissa & 0x400) == 0);
    bits = sign | static_cast<uint32_t>(112 - e) << 23 | ((mantissa & 0x3FF) << 13);
  }
  return std::bit_cast<float>(bits);
}

double half_to_double(uint16_t half) { return static_cast<double>(half_to_float(half)); }

uint16_t float_to_half(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint64_t sign = bits >> 31;
  const uint32_t exponent = (bits >> 23) & 0xFF;
  const uint32_t mantissa = bits & 0x7FFFFF;
  if (exponent == 0xFF) {
    if (mantissa == 0) return static_cast<uint16_t>(sign << 15 | 0x7C00);
    // NaN: keep the top payload bits, force quiet so it stays a NaN.
    return static_cast<uint16_t>(sign << 15 | 0x7E00 | (mantissa >> 13));
  }
  if (exponent == 0) {
    // float subnormals are far below half's range; only the sign survives.
    return static_cast<uint16_t>(sign << 15);
  }
  return round_to_half(sign, static_cast<int>(exponent) - 127, mantissa | 0x800000, 23);
}

uint16_t double_to_half(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint64_t sign = bits >> 63;
  const uint64_t exponent = (bits >> 52) & 0x7FF;
  const uint64_t mantissa = bits & 0xFFFFFFFFFFFFFull;
  if (exponent == 0x7FF) {
    if (mantissa == 0) return static_cast<uint16_t>(sign << 15 | 0x7C00);
    return static_cast<uint16_t>(sign << 15 | 0x7E00 | ((mantissa >> 42) & 0x3FF));
  }
  if (exponent == 0) return static_cast<uint16_t>(sign << 15);
  return round_to_half(sign, static_cast<int>(exponent) - 1023, mantissa | (uint64_t{1} << 52), 52);
}

}  // namespace stridescope
