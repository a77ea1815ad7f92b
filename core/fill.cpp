#include "fill.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "scalar.h"
#include "split_mix64.h"

namespace stridescope {
namespace {

uint64_t wrap_to_size(DataType type, uint64_t value) {
  const std::size_t size = element_size(type);
  return size == 8 ? value : value & ((uint64_t{1} << (size * 8)) - 1);
}

uint64_t iota_bits(DataType type, uint64_t value) {
  if (is_floating(type)) return *encode_scalar(static_cast<double>(value), type, "");
  return wrap_to_size(type, value);
}

// The integer range [lo, hi] of a random fill, clamped to the type.
struct IntRange {
  double lo;
  double hi;
};

// The integers an integer type holds, as doubles (64-bit: the largest
// doubles below 2^63 and 2^64).
IntRange type_range(DataType type) {
  double type_max = 0;
  switch (element_size(type)) {
    case 1: type_max = is_signed_integer(type) ? 127 : 255; break;
    case 2: type_max = is_signed_integer(type) ? 32767 : 65535; break;
    case 4: type_max = is_signed_integer(type) ? 2147483647.0 : 4294967295.0; break;
    default: type_max = is_signed_integer(type) ? 0x1.0p63 - 1024 : 0x1.0p64 - 2048; break;
  }
  return {is_signed_integer(type) ? -type_max - 1 : 0, type_max};
}

IntRange integer_range(DataType type, double min, double max) {
  const IntRange held = type_range(type);
  const double lo = std::clamp(std::ceil(min), held.lo, held.hi);
  const double hi = std::clamp(std::floor(max), held.lo, held.hi);
  return {lo, std::max(lo, hi)};
}

std::string number_text(double value) { return format_scalar(Scalar{value}); }

uint64_t random_bits(DataType type, const FillRandom& fill, SplitMix64& rng) {
  if (is_floating(type) && fill.integers) {
    const double lo = std::ceil(fill.min);
    const double hi = std::max(lo, std::floor(fill.max));
    const double value = std::min(std::floor(lo + rng.next_unit() * (hi - lo + 1)), hi);
    return *encode_scalar(value, type, "");
  }
  if (is_floating(type)) {
    const double u = rng.next_unit();
    const double span = fill.max - fill.min;
    // [-1e308, 1e308] spans more than a double holds: weigh the bounds instead
    // (kept for wide intervals only, so every other seed draws what it drew).
    const double value = std::isfinite(span) ? fill.min + u * span : fill.min * (1 - u) + fill.max * u;
    return *encode_scalar(value, type, "");
  }
  const IntRange range = integer_range(type, fill.min, fill.max);
  const double value = std::floor(range.lo + rng.next_unit() * (range.hi - range.lo + 1));
  const double clamped = std::min(value, range.hi);
  if (clamped < 0) return wrap_to_size(type, static_cast<uint64_t>(static_cast<int64_t>(clamped)));
  return static_cast<uint64_t>(clamped);
}

}  // namespace

Status check_fill(const Fill& fill, DataType type, const std::string& path) {
  const auto* random = std::get_if<FillRandom>(&fill);
  if (!random || (is_floating(type) && !random->integers)) return {};
  const std::string interval = "[" + number_text(random->min) + ", " + number_text(random->max) + "]";
  if (std::ceil(random->min) > std::floor(random->max)) {
    return invalid(path, interval + " holds no integer, and " +
                             (is_floating(type) ? std::string("an integers fill")
                                                : "a " + std::string(to_string(type)) + " fill") +
                             " draws integers");
  }
  if (is_floating(type)) return {};
  const IntRange held = type_range(type);
  if (std::floor(random->max) < held.lo || std::ceil(random->min) > held.hi) {
    return invalid(path, interval + " lies outside the range of " + std::string(to_string(type)) + ", [" +
                             number_text(held.lo) + ", " + number_text(held.hi) + "]");
  }
  return {};
}

void fill_buffer(const Fill& fill, DataType type, uint64_t buffer_elements, std::span<std::byte> buffer) {
  const std::size_t size = element_size(type);
  if (std::holds_alternative<FillZeros>(fill)) {
    std::fill_n(buffer.begin(), buffer_elements * size, std::byte{0});
    return;
  }
  if (const auto* random = std::get_if<FillRandom>(&fill)) {
    SplitMix64 rng(random->seed);
    for (uint64_t i = 0; i < buffer_elements; ++i) {
      write_element_bits(type, random_bits(type, *random, rng), buffer.data() + i * size);
    }
    return;
  }
  for (uint64_t i = 0; i < buffer_elements; ++i) {
    write_element_bits(type, iota_bits(type, i + 1), buffer.data() + i * size);
  }
}

Status fill_tensor_buffer(const Fill& fill, const TensorDesc& tensor, std::span<std::byte> buffer,
                          const std::string& path) {
  const DataType type = tensor.data_type();
  if (!std::holds_alternative<FillLogicalIota>(fill)) {
    fill_buffer(fill, type, tensor.buffer_elements(), buffer);
    return {};
  }
  if (tensor.element_count() > kMaxLogicalIotaElements) {
    return invalid(path, "logicalIota numbers every logical element, and this input has " +
                             std::to_string(tensor.element_count()) + " (at most " +
                             std::to_string(kMaxLogicalIotaElements) + "); \"iota\" numbers the buffer instead");
  }
  const std::size_t size = element_size(type);
  std::fill_n(buffer.begin(), tensor.buffer_bytes(), std::byte{0});
  std::vector<bool> written(tensor.buffer_elements(), false);
  Coord coord(tensor.rank(), 0);
  uint64_t number = 1;
  do {
    const uint64_t offset = tensor.offset_of(coord);
    if (!written[offset]) {
      written[offset] = true;
      write_element_bits(type, iota_bits(type, number), buffer.data() + offset * size);
    }
    ++number;
  } while (next_coord(coord, tensor.sizes()));
  return {};
}

}  // namespace stridescope
