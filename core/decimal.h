// A number exactly as written in decimal: a JSON number of a spec file, or a
// value typed in the app, kept as text until it is converted to a tensor's
// data type, so that it is rounded once, for that type:
//   - integer types truncate the decimal toward zero (12345678901234567.9
//     becomes 12345678901234567, not the double 12345678901234568), and a
//     value beyond 64 bits is out of range rather than rounded into it;
//   - FLOAT64 and FLOAT32 round the decimal to nearest, FLOAT16 too (going
//     through a double first would round twice: 1.0000000596046448 is a hair
//     above the midpoint between 1 and the next float, and a double rounds it
//     onto the midpoint).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stridescope {

// Wide enough for every 64-bit integer type's range and one step beyond (a
// GCC/Clang extension; __extension__ keeps -Wpedantic quiet about it).
__extension__ typedef __int128 WideInt;

struct Decimal {
  // The JSON number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  std::string text;

  friend bool operator==(const Decimal&, const Decimal&) = default;
};

// nullopt unless `text` follows the JSON number grammar.
std::optional<Decimal> make_decimal(std::string_view text);

// Rounded to nearest (ties to even), overflowing to an infinity and
// underflowing to a signed zero.
double decimal_to_double(const Decimal& value);
float decimal_to_float(const Decimal& value);
uint16_t decimal_to_half_bits(const Decimal& value);

// Whether the value is a whole number (4, 4.0, 1e2; not 1.5).
bool decimal_is_integer(const Decimal& value);

// The value truncated toward zero, when it lies within [-2^64, 2^64]
// (every 64-bit integer type's range, with room to say "out of range").
std::optional<WideInt> decimal_truncated(const Decimal& value);

}  // namespace stridescope
