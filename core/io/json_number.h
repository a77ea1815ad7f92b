// How StrideScope's files write numbers in JSON (resources/docs/result-document.md):
//   - integers exactly, 64-bit ones included (never through a double);
//   - floating values as the shortest decimal that reads back to the same
//     value of their own type (parse as double, round to nearest FLOAT16 /
//     FLOAT32 / FLOAT64), so FLOAT16 1.0 is written 1, not its bits 15360;
//     (whole FLOAT16 values as plain integers: 65504, not 6.55e+04);
//   - negative zero as -0.0 (a reader would take "-0" as the integer 0);
//   - non-finite values as the strings "NaN", "Infinity", "-Infinity",
//     because JSON has no literal for them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/data_type.h"
#include "core/scalar.h"

namespace stridescope {

// Appends the JSON text of the element of `type` stored at `bytes`.
void append_json_element(std::string& out, DataType type, const std::byte* bytes);

// Appends the JSON text of a number as written in a spec (paddingValue):
// integers exactly, doubles shortest-round-trip, non-finite as strings.
void append_json_scalar(std::string& out, const Scalar& value);

// "NaN", "Infinity", "-Infinity" as a double; nullopt for any other text.
std::optional<double> parse_non_finite_name(std::string_view text);

}  // namespace stridescope
