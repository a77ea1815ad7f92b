// Overflow-checked unsigned arithmetic for sizes, offsets and byte counts.
// Every product or sum built from user-typed numbers goes through these.
#pragma once

#include <cstdint>
#include <optional>

namespace stridescope {

constexpr std::optional<uint64_t> checked_mul(uint64_t a, uint64_t b) {
  uint64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return result;
}

// Signed, for strides that may be negative (slice1).
constexpr std::optional<int64_t> checked_mul_signed(int64_t a, int64_t b) {
  int64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return result;
}

constexpr std::optional<uint64_t> checked_add(uint64_t a, uint64_t b) {
  uint64_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) return std::nullopt;
  return result;
}

}  // namespace stridescope
