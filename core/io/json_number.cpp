#include "core/io/json_number.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <system_error>

#include "core/float16.h"

namespace stridescope {
namespace {

void append_chars(std::string& out, const char* first, const char* last) { out.append(first, last); }

void append_non_finite(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "\"NaN\"";
  } else {
    out += value < 0 ? "\"-Infinity\"" : "\"Infinity\"";
  }
}

// Negative zero as "-0.0": readers parse "-0" as the integer 0 and lose the sign.
bool append_special(std::string& out, double value) {
  if (!std::isfinite(value)) {
    append_non_finite(out, value);
    return true;
  }
  if (value == 0 && std::signbit(value)) {
    out += "-0.0";
    return true;
  }
  return false;
}

void append_double(std::string& out, double value) {
  if (append_special(out, value)) return;
  std::array<char, 32> text{};
  const auto result = std::to_chars(text.data(), text.data() + text.size(), value);
  append_chars(out, text.data(), result.ptr);
}

double parse_double(const char* first, const char* last) {
  double value = 0;
  std::from_chars(first, last, value);
  return value;
}

// The shortest "%.{p}g" text of `value` that a reader converting through
// double and then `round_trip` gets back exactly; 17 digits always does,
// because they give the double itself and `value` is exact in double.
template <class RoundTrip>
void append_shortest_for(std::string& out, double value, RoundTrip round_trip) {
  if (append_special(out, value)) return;
  std::array<char, 40> text{};
  for (int precision = 1; precision <= 17; ++precision) {
    const auto result = std::to_chars(text.data(), text.data() + text.size(), value,
                                      std::chars_format::general, precision);
    if (precision == 17 || round_trip(parse_double(text.data(), result.ptr))) {
      return append_chars(out, text.data(), result.ptr);
    }
  }
}

void append_float(std::string& out, float value) {
  if (append_special(out, value)) return;
  std::array<char, 32> text{};
  const auto result = std::to_chars(text.data(), text.data() + text.size(), value);
  // Shortest for float; checked through double because that is how JSON
  // readers parse it (a double rounding could in principle differ).
  if (static_cast<float>(parse_double(text.data(), result.ptr)) == value) {
    return append_chars(out, text.data(), result.ptr);
  }
  append_shortest_for(out, value, [value](double parsed) { return static_cast<float>(parsed) == value; });
}

void append_half(std::string& out, uint16_t bits) {
  const double value = half_to_double(bits);
  // Whole halves (at most 65504) as integers: "65504", not the shorter "6.55e+04".
  if (std::isfinite(value) && std::trunc(value) == value && !(value == 0 && std::signbit(value))) {
    out += std::to_string(static_cast<int64_t>(value));
    return;
  }
  append_shortest_for(out, value, [bits](double parsed) { return double_to_half(parsed) == bits; });
}

template <class T>
T load(const std::byte* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

}  // namespace

void append_json_element(std::string& out, DataType type, const std::byte* bytes) {
  switch (type) {
    case DataType::Float16: return append_half(out, load<uint16_t>(bytes));
    case DataType::Float32: return append_float(out, load<float>(bytes));
    case DataType::Float64: return append_double(out, load<double>(bytes));
    case DataType::Int8: out += std::to_string(load<int8_t>(bytes)); return;
    case DataType::Int16: out += std::to_string(load<int16_t>(bytes)); return;
    case DataType::Int32: out += std::to_string(load<int32_t>(bytes)); return;
    case DataType::Int64: out += std::to_string(load<int64_t>(bytes)); return;
    case DataType::UInt8: out += std::to_string(load<uint8_t>(bytes)); return;
    case DataType::UInt16: out += std::to_string(load<uint16_t>(bytes)); return;
    case DataType::UInt32: out += std::to_string(load<uint32_t>(bytes)); return;
    case DataType::UInt64: out += std::to_string(load<uint64_t>(bytes)); return;
  }
}

void append_json_scalar(std::string& out, const Scalar& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) {
    out += std::to_string(*i);
  } else if (const auto* u = std::get_if<uint64_t>(&value)) {
    out += std::to_string(*u);
  } else if (const auto* decimal = std::get_if<Decimal>(&value)) {
    out += decimal->text;  // as it was written: JSON number grammar
  } else {
    const double d = std::get<double>(value);
    const std::size_t start = out.size();
    append_double(out, d);
    // Keeps a whole double a double when read back: "9.0", not "9".
    if (std::isfinite(d) && out.find_first_of(".eE", start) == std::string::npos) out += ".0";
  }
}

std::optional<double> parse_non_finite_name(std::string_view text) {
  if (text == "NaN") return std::nan("");
  if (text == "Infinity") return HUGE_VAL;
  if (text == "-Infinity") return -HUGE_VAL;
  return std::nullopt;
}

}  // namespace stridescope
