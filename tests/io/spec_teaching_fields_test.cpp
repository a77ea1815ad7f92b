// resources/docs/spec-format.md, the fields that help a spec teach: a
// one-line `description` (the app shows it; every bundled example has one),
// `"fill": "logicalIota"` (1, 2, 3, ... in logical order, each at its
// element's offset) and a random fill's `integers` (whole numbers in a float
// type). Each is read, written back, and refused with an error naming it.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "core/io/spec_file.h"
#include "core/operation.h"
#include "spec_test_support.h"

namespace stridescope {
namespace {

using test::expect_error_at;
using test::expect_round_trip;
using test::parse_ok;

std::string identity_spec(std::string_view top, std::string_view input_extra) {
  return "{" + std::string(top) + R"("op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,3], "strides": [1,2])" +
         std::string(input_extra) + "}}";
}

TEST(SpecDescription, IsReadAndWrittenBack) {
  const Spec spec = parse_ok(identity_spec(R"("description": "Column-major: strides [1,2]", )", ""));
  EXPECT_EQ(spec.description, "Column-major: strides [1,2]");
  EXPECT_NE(write_spec(spec).find(R"("description": "Column-major: strides [1,2]")"), std::string::npos);
  expect_round_trip(spec);
  EXPECT_EQ(write_spec(parse_ok(identity_spec("", ""))).find("description"), std::string::npos);
}

TEST(SpecDescription, MustBeOneLineOfText) {
  expect_error_at(identity_spec(R"("description": 3, )", ""), "description");
  expect_error_at(identity_spec(R"("description": "two\nlines", )", ""), "description");
  expect_error_at(identity_spec(R"("description": ")" + std::string(301, 'x') + "\", ", ""), "description");
}

TEST(SpecDescription, EveryBundledExampleHasOne) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    const Expected<Spec> spec = load_spec_file(entry.path());
    ASSERT_TRUE(spec.has_value()) << entry.path() << ": " << spec.error().to_string();
    EXPECT_FALSE(spec->description.empty()) << entry.path() << " has no description";
    ++count;
  }
  EXPECT_GE(count, 22);
}

TEST(SpecLogicalIota, IsReadWrittenAndFillsByTheStrides) {
  const Spec spec = parse_ok(identity_spec("", R"(, "fill": "logicalIota")"));
  ASSERT_TRUE(std::holds_alternative<FillLogicalIota>(std::get<Fill>(spec.input_source)));
  EXPECT_NE(write_spec(spec).find(R"("fill": "logicalIota")"), std::string::npos);
  expect_round_trip(spec);
  // Column-major 2x3: element (i, j) at offset i + 2j holds 3i + j + 1.
  const Expected<Operation> op = Operation::make(spec.request);
  ASSERT_TRUE(op.has_value()) << op.error().to_string();
  const Expected<std::vector<std::byte>> buffer = make_input_buffer(spec, op->input());
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  std::vector<float> values(6);
  std::memcpy(values.data(), buffer->data(), 6 * sizeof(float));
  EXPECT_EQ(values, (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(SpecRandomIntegers, IsReadWrittenAndRefusedWhenNotABoolean) {
  const Spec spec =
      parse_ok(identity_spec("", R"(, "fill": {"random": {"seed": 7, "min": -9, "max": 9, "integers": true}})"));
  const auto& random = std::get<FillRandom>(std::get<Fill>(spec.input_source));
  EXPECT_TRUE(random.integers);
  EXPECT_EQ(random.min, -9.0);
  EXPECT_NE(write_spec(spec).find(R"("integers": true)"), std::string::npos);
  expect_round_trip(spec);
  const Spec plain = parse_ok(identity_spec("", R"(, "fill": {"random": {"seed": 7}})"));
  EXPECT_FALSE(std::get<FillRandom>(std::get<Fill>(plain.input_source)).integers);
  EXPECT_EQ(write_spec(plain).find("integers"), std::string::npos);
  expect_error_at(identity_spec("", R"(, "fill": {"random": {"integers": 1}})"), "input.fill.random.integers");
  expect_error_at(identity_spec("", R"(, "fill": "logicaliota")"), "input.fill");
}

}  // namespace
}  // namespace stridescope
