// What the spec-file tests check of parse_spec and write_spec, shared by their
// suites: a text that must parse, a text refused at exactly one JSON path, and
// a spec that survives writing and reading back; and the texts they start from.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <variant>

#include "core/io/spec_file.h"

namespace stridescope::test {

// The spec `text` describes; the test fails (and gets an empty Spec) if it
// is refused.
inline Spec parse_ok(std::string_view text, const std::filesystem::path& base = {}) {
  Expected<Spec> spec = parse_spec(text, base);
  EXPECT_TRUE(spec.has_value()) << spec.error().to_string() << "\n" << text;
  return spec.has_value() ? *spec : Spec{};
}

// Expects `text` refused as InvalidSpec at exactly `path`, with a message.
inline void expect_error_at(std::string_view text, const std::string& path) {
  Expected<Spec> spec = parse_spec(text, {});
  ASSERT_FALSE(spec.has_value()) << "accepted; expected an error at " << path << "\n" << text;
  EXPECT_EQ(spec.error().code, ErrorCode::InvalidSpec);
  EXPECT_EQ(spec.error().path, path) << spec.error().to_string();
  EXPECT_FALSE(spec.error().message.empty());
}

// write_spec's text reads back to the same Spec, which writes the same text.
// A spec holding NaN cannot compare equal to itself field by field (NaN !=
// NaN); for it only the text is compared.
inline void expect_round_trip(const Spec& spec, bool compare_fields = true) {
  const std::string text = write_spec(spec);
  Expected<Spec> again = parse_spec(text, {});
  ASSERT_TRUE(again.has_value()) << again.error().to_string() << "\n" << text;
  if (compare_fields) {
    EXPECT_TRUE(*again == spec) << "a field was lost or changed by write_spec:\n" << text;
  }
  EXPECT_EQ(write_spec(*again), text);
}

// The spec-format.md example, the base the error tests edit.
inline constexpr const char* kOpspecExample = R"({
  "op": "slice1",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,4], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2] },
  "params": {
    "inputWindowOffsets": [0,0,0,1],
    "inputWindowSizes":   [1,1,4,3],
    "inputWindowStrides": [1,1,-2,2]
  }
})";

// An identity spec on a 2x3 FLOAT32 input: `input_extra` goes inside the
// input's object, `rest` after it (further top-level fields).
inline std::string tensor_spec(std::string_view input_extra, std::string_view rest = "") {
  return std::string(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,3])") +
         std::string(input_extra) + "}" + std::string(rest) + "}";
}

template <class T>
const T& params_of(const Spec& spec) {
  return std::get<T>(spec.request.params);
}

}  // namespace stridescope::test
