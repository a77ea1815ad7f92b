// What the spec-file tests check of parse_spec and write_spec, shared by their
// suites: a text that must parse, a text refused at exactly one JSON path, and
// a spec that survives writing and reading back.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <string_view>

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

}  // namespace stridescope::test
