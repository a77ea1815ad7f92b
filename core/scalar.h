// One element's value as a number, independent of its storage: what JSON
// writes (an integer kept exact in 64 bits, or any other number as the
// Decimal it was written as) and what a tensor element reads back as (an
// integer or a double). Used for paddingValue, fills, result documents and
// the numbers the app prints in cells.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "data_type.h"
#include "decimal.h"
#include "error.h"

namespace stridescope {

using Scalar = std::variant<int64_t, uint64_t, double, Decimal>;

// Converts a number to `type`'s bit pattern (zero-extended to 64 bits):
// floating types round to nearest, once (FLOAT16 in one step from a double,
// a Decimal straight from its digits); integer types truncate toward zero
// (10.6 -> 10, -10.6 -> -10) and take 64-bit integers and Decimals exactly. A value outside the type's range, or NaN/inf for an
// integer type, is an error at `path`.
Expected<uint64_t> encode_scalar(const Scalar& value, DataType type, const std::string& path);

// Reads the element at `bytes` (unaligned access is fine).
Scalar read_element(DataType type, const std::byte* bytes);
// Writes the low element_size(type) bytes of `bits` to `bytes`.
void write_element_bits(DataType type, uint64_t bits, std::byte* bytes);
uint64_t read_element_bits(DataType type, const std::byte* bytes);

double to_double(const Scalar& value);
// Shortest text that reads back to the same value: "3", "-2.5", "NaN", "Infinity".
std::string format_scalar(const Scalar& value);

}  // namespace stridescope
