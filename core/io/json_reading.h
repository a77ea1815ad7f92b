// Reading StrideScope's JSON documents with nlohmann-json: the small typed
// readers the spec parser is built from. Each returns the value or an
// InvalidSpec error naming the field by its JSON path ("params.strides[1]").
// Internal to stridescope_io (nlohmann-json is a private dependency).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data_type.h"
#include "core/error.h"
#include "core/scalar.h"

namespace stridescope::json_reading {

using json = nlohmann::json;

// "params" + "strides" -> "params.strides"; "" + "op" -> "op".
std::string field(const std::string& path, std::string_view key);
// "params.strides" + 1 -> "params.strides[1]".
std::string indexed(const std::string& path, std::size_t i);

// Parses JSON text; syntax errors (with line and column), a key given twice
// in one object (nlohmann would keep the last silently) and a number beyond
// a double's range are errors. Every number that is not a 64-bit integer
// (a fraction, an exponent, a larger integer) is kept as written: a binary
// value holding its text (JSON itself has no binary values), which the
// readers below turn into a Decimal, so it is rounded once, for its type.
Expected<json> parse_json(std::string_view text);
// The text of a number parse_json kept as written; nullopt for anything else.
std::optional<Decimal> decimal_of(const json& value);

std::string type_name(const json& value);  // "an array", "a string", ...
Error wrong_type(const std::string& path, std::string_view expected, const json& value);
Error missing(const std::string& path);

// `value` must be an object holding only `allowed` keys.
Status check_object(const json& value, const std::string& path, std::initializer_list<std::string_view> allowed);
Status check_object(const json& value, const std::string& path, std::span<const std::string_view> allowed);
const json* find(const json& object, std::string_view key);

// Integers: JSON integers, or floats with an integral value (2.0, 1e2).
Expected<uint64_t> read_uint(const json& value, const std::string& path);
Expected<int64_t> read_int(const json& value, const std::string& path);
// A number as a Scalar: integers exact (int64_t when they fit, else uint64_t),
// other numbers as the Decimal written, and "NaN", "Infinity", "-Infinity" as
// the doubles they name.
Expected<Scalar> read_scalar(const json& value, const std::string& path);
Expected<double> read_finite_double(const json& value, const std::string& path);
Expected<std::string> read_string(const json& value, const std::string& path);
Expected<DataType> read_data_type(const json& value, const std::string& path);

// Per-dimension arrays: at most kMaxRank entries.
Expected<std::vector<uint64_t>> read_uint_array(const json& value, const std::string& path);
Expected<std::vector<int64_t>> read_int_array(const json& value, const std::string& path);
// The array member `key` of `object`, if present / required.
Status read_optional_uints(const json& object, const std::string& path, std::string_view key,
                           std::optional<std::vector<uint64_t>>& out);
Status read_required_uints(const json& object, const std::string& path, std::string_view key,
                           std::vector<uint64_t>& out);

}  // namespace stridescope::json_reading
