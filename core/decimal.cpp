#include "decimal.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>

#include "float16.h"

namespace stridescope {
namespace {

// value = (negative ? -1 : 1) * digits * 10^exponent, digits without leading
// or trailing zeros ("" is zero).
struct Parts {
  bool negative = false;
  std::string digits;
  int64_t exponent = 0;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<Parts> split(std::string_view text) {
  Parts parts;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    parts.negative = true;
    ++i;
  }
  const std::size_t int_begin = i;
  while (i < text.size() && is_digit(text[i])) ++i;
  const std::string_view integer = text.substr(int_begin, i - int_begin);
  if (integer.empty() || (integer.size() > 1 && integer[0] == '0')) return std::nullopt;
  std::string_view fraction;
  if (i < text.size() && text[i] == '.') {
    const std::size_t begin = ++i;
    while (i < text.size() && is_digit(text[i])) ++i;
    fraction = text.substr(begin, i - begin);
    if (fraction.empty()) return std::nullopt;
  }
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    const std::size_t begin = i;
    for (; i < text.size() && is_digit(text[i]); ++i) {
      exponent = std::min<int64_t>(exponent * 10 + (text[i] - '0'), int64_t{1} << 40);  // saturates
    }
    if (i == begin) return std::nullopt;
    if (negative_exponent) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  parts.digits = std::string(integer) + std::string(fraction);
  parts.exponent = exponent - static_cast<int64_t>(fraction.size());
  const std::size_t first = parts.digits.find_first_not_of('0');
  if (first == std::string::npos) {
    parts.digits.clear();
    parts.exponent = 0;
    return parts;
  }
  parts.digits.erase(0, first);
  const std::size_t last = parts.digits.find_last_not_of('0');
  parts.exponent += static_cast<int64_t>(parts.digits.size() - 1 - last);
  parts.digits.erase(last + 1);
  return parts;
}

// Where the leading digit sits: 10^(order - 1) <= |value| < 10^order.
int64_t order_of(const Parts& p) { return static_cast<int64_t>(p.digits.size()) + p.exponent; }

// Compares |a| with |b|: negative, zero or positive.
int compare_magnitudes(const Parts& a, const Parts& b) {
  if (a.digits.empty() || b.digits.empty()) return int(!a.digits.empty()) - int(!b.digits.empty());
  if (order_of(a) != order_of(b)) return order_of(a) < order_of(b) ? -1 : 1;
  const std::size_t n = std::max(a.digits.size(), b.digits.size());
  for (std::size_t k = 0; k < n; ++k) {
    const char x = k < a.digits.size() ? a.digits[k] : '0';
    const char y = k < b.digits.size() ? b.digits[k] : '0';
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

template <class F>
F to_binary(const Decimal& value) {
  const std::string& text = value.text;
  F result = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (error == std::errc::result_out_of_range) {
    const Parts parts = *split(text);
    const F magnitude = order_of(parts) > 0 ? std::numeric_limits<F>::infinity() : F(0);
    return parts.negative ? -magnitude : magnitude;
  }
  return result;
}

// The exact decimal of a finite double (every double is a finite binary
// fraction; 800 significant digits cover the longest).
Parts exact_parts(double d) {
  char buffer[900];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d, std::chars_format::scientific, 800);
  return *split(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

}  // namespace

std::optional<Decimal> make_decimal(std::string_view text) {
  if (!split(text)) return std::nullopt;
  return Decimal{std::string(text)};
}

double decimal_to_double(const Decimal& value) { return to_binary<double>(value); }
float decimal_to_float(const Decimal& value) { return to_binary<float>(value); }

uint16_t decimal_to_half_bits(const Decimal& value) {
  // Round to double (once, correctly), then to half: the second rounding can
  // only go wrong when the double lands exactly on the midpoint of two
  // halves while the decimal lies off it. Then the decimal decides.
  const double d = decimal_to_double(value);
  const uint16_t h = double_to_half(d);
  if (!std::isfinite(d)) return h;
  const uint16_t sign = h & 0x8000;
  const uint16_t magnitude = h & 0x7fff;
  // Halves by magnitude bits; infinity stands where the next step, 65536, would be.
  const auto value_of = [](uint16_t bits) { return bits >= 0x7c00 ? 65536.0 : half_to_double(bits); };
  const double rounded = value_of(magnitude);
  if (rounded == std::fabs(d)) return h;
  // The other half next to |d|.
  const bool rounded_up = rounded > std::fabs(d);
  const uint16_t other = rounded_up ? static_cast<uint16_t>(magnitude - 1) : static_cast<uint16_t>(magnitude + 1);
  const double other_value = value_of(other);
  if ((rounded + other_value) / 2 != std::fabs(d)) return h;
  const int side = compare_magnitudes(*split(value.text), exact_parts(std::fabs(d)));
  if (side == 0) return h;  // a true tie: double_to_half rounded it to even
  const bool take_larger = side > 0;
  const uint16_t larger = rounded_up ? magnitude : other;
  const uint16_t smaller = rounded_up ? other : magnitude;
  return static_cast<uint16_t>(sign | (take_larger ? std::min<uint16_t>(larger, 0x7c00) : smaller));
}

bool decimal_is_integer(const Decimal& value) {
  const Parts parts = *split(value.text);
  return parts.digits.empty() || parts.exponent >= 0;
}

std::optional<WideInt> decimal_truncated(const Decimal& value) {
  const Parts parts = *split(value.text);
  if (parts.digits.empty() || order_of(parts) <= 0) return WideInt{0};
  if (order_of(parts) > 20) return std::nullopt;  // at least 10^20 > 2^64
  std::string integer = parts.exponent >= 0
                            ? parts.digits + std::string(static_cast<std::size_t>(parts.exponent), '0')
                            : parts.digits.substr(0, static_cast<std::size_t>(order_of(parts)));
  WideInt magnitude = 0;  // at most 20 digits: below 2^67
  for (char c : integer) magnitude = magnitude * 10 + (c - '0');
  if (magnitude > (static_cast<WideInt>(1) << 64)) return std::nullopt;
  return parts.negative ? -magnitude : magnitude;
}

}  // namespace stridescope
