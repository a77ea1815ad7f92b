#include "scalar.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "float16.h"

namespace stridescope {
namespace {

template <class T>
T load(const std::byte* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

struct IntegerRange {
  int64_t min;
  uint64_t max;
};

IntegerRange range_of(DataType type) {
  switch (type) {
    case DataType::Int8: return {INT8_MIN, INT8_MAX};
    case DataType::Int16: return {INT16_MIN, INT16_MAX};
    case DataType::Int32: return {INT32_MIN, INT32_MAX};
    case DataType::Int64: return {INT64_MIN, INT64_MAX};
    case DataType::UInt8: return {0, UINT8_MAX};
    case DataType::UInt16: return {0, UINT16_MAX};
    case DataType::UInt32: return {0, UINT32_MAX};
    default: return {0, UINT64_MAX};
  }
}

uint64_t mask_to_size(DataType type, uint64_t bits) {
  const std::size_t size = element_size(type);
  return size == 8 ? bits : bits & ((uint64_t{1} << (size * 8)) - 1);
}

Expected<uint64_t> encode_integer(const Scalar& value, DataType type, const std::string& path) {
  const IntegerRange range = range_of(type);
  const std::string out_of_range = "value " + format_scalar(value) + " does not fit in " +
                                   std::string(to_string(type));
  if (const auto* d = std::get_if<double>(&value)) {
    if (!std::isfinite(*d)) return invalid(path, "value " + format_scalar(value) + " is not a number an integer type can hold");
    const double truncated = std::trunc(*d);  // DirectML: 10.6 becomes 10, -10.6 becomes -10
    // Exact comparisons: both bounds are powers of two or representable near them.
    if (truncated < static_cast<double>(range.min) || truncated >= 18446744073709551616.0 ||
        (truncated >= 0 && static_cast<uint64_t>(truncated) > range.max)) {
      return invalid(path, out_of_range);
    }
    if (truncated < 0) return mask_to_size(type, static_cast<uint64_t>(static_cast<int64_t>(truncated)));
    return static_cast<uint64_t>(truncated);
  }
  if (const auto* i = std::get_if<int64_t>(&value)) {
    if (*i < range.min || (*i >= 0 && static_cast<uint64_t>(*i) > range.max)) return invalid(path, out_of_range);
    return mask_to_size(type, static_cast<uint64_t>(*i));
  }
  if (const auto* decimal = std::get_if<Decimal>(&value)) {
    const std::optional<WideInt> truncated = decimal_truncated(*decimal);
    if (!truncated || *truncated < range.min || *truncated > static_cast<WideInt>(range.max)) {
      return invalid(path, out_of_range);
    }
    return mask_to_size(type, static_cast<uint64_t>(*truncated));
  }
  const uint64_t u = std::get<uint64_t>(value);
  if (u > range.max) return invalid(path, out_of_range);
  return u;
}

}  // namespace

double to_double(const Scalar& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<uint64_t>(&value)) return static_cast<double>(*u);
  if (const auto* decimal = std::get_if<Decimal>(&value)) return decimal_to_double(*decimal);
  return std::get<double>(value);
}

Expected<uint64_t> encode_scalar(const Scalar& value, DataType type, const std::string& path) {
  if (!is_floating(type)) return encode_integer(value, type, path);
  // Integers convert to the float type directly (round to nearest) rather than
  // through double, so INT64 values above 2^53 round once.
  if (const auto* decimal = std::get_if<Decimal>(&value)) {
    switch (type) {
      case DataType::Float32: return uint64_t{std::bit_cast<uint32_t>(decimal_to_float(*decimal))};
      case DataType::Float64: return std::bit_cast<uint64_t>(decimal_to_double(*decimal));
      default: return uint64_t{decimal_to_half_bits(*decimal)};
    }
  }
  switch (type) {
    case DataType::Float32: {
      float f = 0;
      if (const auto* i = std::get_if<int64_t>(&value)) f = static_cast<float>(*i);
      if (const auto* u = std::get_if<uint64_t>(&value)) f = static_cast<float>(*u);
      if (const auto* d = std::get_if<double>(&value)) f = static_cast<float>(*d);
      return uint64_t{std::bit_cast<uint32_t>(f)};
    }
    case DataType::Float64: return std::bit_cast<uint64_t>(to_double(value));
    default: return uint64_t{double_to_half(to_double(value))};
  }
}

Scalar read_element(DataType type, const std::byte* bytes) {
  switch (type) {
    case DataType::Float16: return static_cast<double>(half_to_float(load<uint16_t>(bytes)));
    case DataType::Float32: return static_cast<double>(load<float>(bytes));
    case DataType::Float64: return load<double>(bytes);
    case DataType::Int8: return int64_t{load<int8_t>(bytes)};
    case DataType::Int16: return int64_t{load<int16_t>(bytes)};
    case DataType::Int32: return int64_t{load<int32_t>(bytes)};
    case DataType::Int64: return load<int64_t>(bytes);
    case DataType::UInt8: return uint64_t{load<uint8_t>(bytes)};
    case DataType::UInt16: return uint64_t{load<uint16_t>(bytes)};
    case DataType::UInt32: return uint64_t{load<uint32_t>(bytes)};
    case DataType::UInt64: return load<uint64_t>(bytes);
  }
  return int64_t{0};
}

uint64_t read_element_bits(DataType type, const std::byte* bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, element_size(type));  // little-endian hosts only
  return bits;
}

void write_element_bits(DataType type, uint64_t bits, std::byte* bytes) {
  std::memcpy(bytes, &bits, element_size(type));
}

std::string format_scalar(const Scalar& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* u = std::get_if<uint64_t>(&value)) return std::to_string(*u);
  if (const auto* decimal = std::get_if<Decimal>(&value)) return decimal->text;
  const double d = std::get<double>(value);
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == std::trunc(d) && std::fabs(d) < 1e15) {
    // Integral values print without an exponent or decimals; keep -0's sign.
    if (d == 0 && std::signbit(d)) return "-0";
    return std::to_string(static_cast<int64_t>(d));
  }
  // Shortest text that reads back to the same double.
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
  return std::string(buffer, result.ptr);
}

}  // namespace stridescope
