#include "core/io/random_values.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include "core/float16.h"

namespace stridescope::random {
namespace {

int64_t signed_between(SplitMix64& rng, int64_t lo, int64_t hi) {  // [lo, hi]
  return lo + static_cast<int64_t>(rng.below(static_cast<uint64_t>(hi - lo) + 1));
}

// The bit fields of one floating-point format.
struct FloatFormat {
  unsigned sign_shift;
  uint64_t infinity, quiet, max_finite, min_normal;
};
constexpr FloatFormat kHalf{15, 0x7C00, 0x0200, 0x7BFF, 0x0400};
constexpr FloatFormat kSingle{31, 0x7F800000u, 0x00400000u, 0x7F7FFFFFu, 0x00800000u};
constexpr FloatFormat kDouble{63, 0x7FF0000000000000ull, 0x0008000000000000ull, 0x7FEFFFFFFFFFFFFFull,
                              0x0010000000000000ull};

uint64_t small_integer_float(DataType type, int64_t value) {
  switch (type) {
    case DataType::Float16: return double_to_half(static_cast<double>(value));
    case DataType::Float32: return std::bit_cast<uint32_t>(static_cast<float>(value));
    default: return std::bit_cast<uint64_t>(static_cast<double>(value));
  }
}

uint64_t special_float_bits(SplitMix64& rng, DataType type, const FloatFormat& f) {
  const uint64_t r = rng.below(16);
  const uint64_t sign = (rng.chance(0.5) ? uint64_t{1} : 0) << f.sign_shift;
  const uint64_t mantissa = f.min_normal - 1;  // the mantissa's bits
  if (r < 6) return small_integer_float(type, signed_between(rng, -3, 3));        // ties
  if (r == 6) return sign;                                                        // +-0
  if (r == 7) return sign | f.infinity;                                           // +-inf
  if (r == 8) return sign | f.infinity | f.quiet | rng.below(f.quiet);            // quiet NaN
  if (r == 9) return sign | f.infinity | rng.between(1, f.quiet - 1);             // signalling NaN
  if (r == 10) return sign | rng.between(1, mantissa);                       // denormal
  if (r == 11) return sign | (rng.chance(0.5) ? f.max_finite : f.min_normal);     // max, min normal
  const uint64_t width = f.sign_shift + 1;
  return width == 64 ? rng.next() : rng.next() & ((uint64_t{1} << width) - 1);
}

// Integers, as two's complement of the type's width (truncated by the writer).
uint64_t special_integer_bits(SplitMix64& rng, DataType type) {
  const uint64_t r = rng.below(16);
  const bool is_signed = is_signed_integer(type);
  const unsigned bits = static_cast<unsigned>(element_size(type) * 8);
  if (r < 7) return static_cast<uint64_t>(is_signed ? signed_between(rng, -3, 3) : signed_between(rng, 0, 6));  // ties
  if (r == 7) return is_signed ? uint64_t{1} << (bits - 1) : 0;                   // min
  if (r == 8) return is_signed ? (uint64_t{1} << (bits - 1)) - 1 : ~uint64_t{0};  // max
  if (r == 9) return ~uint64_t{0};                                                // -1 / max
  if (bits == 64 && r < 14) {
    // Neighbours above 2^53 that a double cannot tell apart.
    const uint64_t base = rng.chance(0.5) ? uint64_t{1} << 53 : uint64_t{1} << 60;
    const uint64_t v = base + rng.below(4);
    return is_signed && rng.chance(0.3) ? 0 - v : v;
  }
  return rng.next();
}

}  // namespace

uint64_t special_bits(SplitMix64& rng, DataType type) {
  switch (type) {
    case DataType::Float16: return special_float_bits(rng, type, kHalf);
    case DataType::Float32: return special_float_bits(rng, type, kSingle);
    case DataType::Float64: return special_float_bits(rng, type, kDouble);
    default: return special_integer_bits(rng, type);
  }
}

void fill_special(SplitMix64& rng, DataType type, std::span<std::byte> buffer) {
  const std::size_t size = element_size(type);
  const std::size_t elements = buffer.size() / size;
  for (std::size_t e = 0; e < elements; ++e) {
    const uint64_t bits = special_bits(rng, type);
    for (std::size_t b = 0; b < size; ++b) buffer[e * size + b] = std::byte((bits >> (8 * b)) & 0xFF);
  }
}

Scalar random_value(SplitMix64& rng, DataType type) {
  std::array<std::byte, 8> bytes{};
  write_element_bits(type, special_bits(rng, type), bytes.data());
  const Scalar value = read_element(type, bytes.data());
  // A spec file writes every NaN as "NaN": the value it holds is the plain quiet one.
  if (is_floating(type) && std::isnan(to_double(value))) return std::numeric_limits<double>::quiet_NaN();
  return value;
}

namespace {

// Finite values stay inside the type's range: whether overflow to infinity
// is refused or rounded is not what these draws pin down.
Scalar float_padding_value(SplitMix64& rng, DataType type, uint64_t r) {
  const bool half = type == DataType::Float16;
  const double limit = half ? 60000.0 : 1e30;
  switch (r) {
    case 0: return half ? Scalar{int64_t{65504}} : Scalar{int64_t{(int64_t{1} << 53) + 1}};
    case 1: return half ? Scalar{-65504.0} : Scalar{std::numeric_limits<uint64_t>::max()};
    case 2: return -0.0;
    case 3: return rng.chance(0.5) ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    case 4: return 0.1;
    case 5: return std::ldexp(static_cast<double>(rng.between(1, 1000)), -30);  // FLOAT16 denormals
    case 6: return std::numeric_limits<double>::quiet_NaN();
    case 7: return type == DataType::Float64 ? 5e-324 : 1e-40;  // FLOAT64 / FLOAT32 denormals
    default: return (static_cast<double>(rng.next() >> 11) * 0x1p-53 * 2 - 1) * (rng.chance(0.5) ? 10.0 : limit);
  }
}

Scalar integer_padding_value(SplitMix64& rng, DataType type, uint64_t r, bool out_of_range) {
  const bool is_signed = is_signed_integer(type);
  const unsigned bits = static_cast<unsigned>(element_size(type) * 8);
  const uint64_t max = is_signed    ? (uint64_t{1} << (bits - 1)) - 1
                       : bits == 64 ? ~uint64_t{0}
                                    : (uint64_t{1} << bits) - 1;
  if (out_of_range && r == 0) {
    // One past either end of the type (exact as doubles: powers of two).
    const double high = std::ldexp(1.0, static_cast<int>(bits) - (is_signed ? 1 : 0));
    const double low = is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) * 1.5 : -1.0;
    return rng.chance(0.5) ? high : low;
  }
  switch (r) {
    case 1: return 10.6;
    case 2: return is_signed ? Scalar{-10.6} : Scalar{0.9};
    case 3: return is_signed ? Scalar{-static_cast<int64_t>(max) - 1} : Scalar{uint64_t{0}};
    case 4: return max;  // uint64_t: the type's maximum exactly
    case 5: return bits == 64 ? Scalar{int64_t{(int64_t{1} << 53) + 1}} : Scalar{int64_t{7}};
    case 6:  // truncates to max - 1; 64-bit types take it as an exact integer instead
      return bits == 64 ? Scalar{max - 1} : Scalar{static_cast<double>(max) - 0.5};
    default: return int64_t{signed_between(rng, 0, 100)};
  }
}

}  // namespace

Scalar random_padding_value(SplitMix64& rng, DataType type, bool out_of_range) {
  const uint64_t r = rng.below(10);
  return is_floating(type) ? float_padding_value(rng, type, r) : integer_padding_value(rng, type, r, out_of_range);
}

}  // namespace stridescope::random
