// resources/docs/spec-format.md: one operator invocation per JSON file, field names as
// the DirectML structs in camelCase. "Unknown fields in a spec are an error,
// not silently ignored", and every error names the field by its JSON path,
// e.g. "params.inputWindowStrides[2]".
// Refusals: each names the field by its JSON path.
#include "core/io/spec_file.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/operation.h"
#include "spec_test_support.h"

namespace stridescope {
namespace {

using test::expect_error_at;
using test::kOpspecExample;
using test::parse_ok;
using test::tensor_spec;

// ---------------------------------------------------------------- errors

TEST(SpecFileErrors, InvalidJsonSaysWhere) {
  Expected<Spec> spec = parse_spec("{\"op\": \"slice\",\n  oops}", {});
  ASSERT_FALSE(spec.has_value());
  EXPECT_EQ(spec.error().code, ErrorCode::InvalidSpec);
  EXPECT_NE(spec.error().message.find("line 2"), std::string::npos) << spec.error().message;
}

TEST(SpecFileErrors, SpecMustBeAnObject) {
  expect_error_at("[1,2]", "");
  expect_error_at("\"slice\"", "");
}

TEST(SpecFileErrors, UnknownTopLevelFieldIsAnError) {
  expect_error_at(tensor_spec("", R"(, "comment": "a note")"), "comment");
}

TEST(SpecFileErrors, AFieldGivenTwiceIsAnError) {
  expect_error_at(R"({"op": "identity", "op": "slice", "input": {"dataType": "FLOAT32", "sizes": [1]}})", "op");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1], "sizes": [2]}})",
                  "input.sizes");
  expect_error_at(R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [1], "fill":
    {"random": {"seed": 1, "seed": 2}}}, "params": {}})",
                  "input.fill.random.seed");
}

TEST(SpecFileErrors, OpIsRequiredKnownAndAString) {
  expect_error_at(R"({"input": {"dataType": "FLOAT32", "sizes": [1]}})", "op");
  expect_error_at(R"({"op": 3, "input": {"dataType": "FLOAT32", "sizes": [1]}})", "op");
  expect_error_at(R"({"op": "slice2", "input": {"dataType": "FLOAT32", "sizes": [1]}})", "op");
  expect_error_at(R"({"op": "SLICE", "input": {"dataType": "FLOAT32", "sizes": [1]}})", "op");
}

TEST(SpecFileErrors, InputIsARequiredObject) {
  expect_error_at(R"({"op": "identity"})", "input");
  expect_error_at(R"({"op": "identity", "input": [1]})", "input");
}

TEST(SpecFileErrors, InputNeedsDataTypeAndSizes) {
  expect_error_at(R"({"op": "identity", "input": {"sizes": [1]}})", "input.dataType");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32"}})", "input.sizes");
}

TEST(SpecFileErrors, UnknownTensorFieldsAreErrors) {
  expect_error_at(tensor_spec(R"(, "layout": "NHWC")"), "input.layout");
  // Only the input takes values.
  expect_error_at(tensor_spec("", R"(, "output": {"data": [1]})"), "output.data");
  expect_error_at(tensor_spec("", R"(, "output": {"fill": "iota"})"), "output.fill");
  expect_error_at(tensor_spec("", R"(, "outputIndices": {"npy": "x.npy"})"), "outputIndices.npy");
  expect_error_at(tensor_spec("", R"(, "output": [2,3])"), "output");
}

TEST(SpecFileErrors, DataTypeMustBeOneOfTheEleven) {
  expect_error_at(tensor_spec("", R"(, "output": {"dataType": "FLOAT8"})"), "output.dataType");
  expect_error_at(tensor_spec("", R"(, "output": {"dataType": "float32"})"), "output.dataType");
  expect_error_at(tensor_spec("", R"(, "outputIndices": {"dataType": 32})"), "outputIndices.dataType");
}

TEST(SpecFileErrors, SizesAreArraysOfNonNegativeIntegers) {
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": 4}})", "input.sizes");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,-1]}})", "input.sizes[1]");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1.5]}})", "input.sizes[0]");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1,2,"3"]}})", "input.sizes[2]");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [null]}})", "input.sizes[0]");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1e30]}})", "input.sizes[0]");
  expect_error_at(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1,1,1,1,1,1,1,1,1]}})",
                  "input.sizes");
  expect_error_at(tensor_spec(R"(, "strides": [3,-1])"), "input.strides[1]");
  expect_error_at(tensor_spec("", R"(, "output": {"sizes": [true]})"), "output.sizes[0]");
}

TEST(SpecFileErrors, OnlyOneOfDataFillAndNpy) {
  expect_error_at(tensor_spec(R"(, "data": [1,2,3,4,5,6], "fill": "iota")"), "input.fill");
  expect_error_at(tensor_spec(R"(, "fill": "zeros", "npy": "a.npy")"), "input.npy");
}

TEST(SpecFileErrors, DataIsAnArrayOfNumbers) {
  expect_error_at(tensor_spec(R"(, "data": 5)"), "input.data");
  expect_error_at(tensor_spec(R"(, "data": [1, 2, "three"])"), "input.data[2]");
  expect_error_at(tensor_spec(R"(, "data": [true])"), "input.data[0]");
  expect_error_at(tensor_spec(R"(, "data": [1, [2]])"), "input.data[1]");
  expect_error_at(tensor_spec(R"(, "data": ["nan"])"), "input.data[0]");
}

TEST(SpecFileErrors, FillIsIotaZerosOrRandom) {
  expect_error_at(tensor_spec(R"(, "fill": "ones")"), "input.fill");
  expect_error_at(tensor_spec(R"(, "fill": 1)"), "input.fill");
  expect_error_at(tensor_spec(R"(, "fill": {"uniform": {}})"), "input.fill.uniform");
  expect_error_at(tensor_spec(R"(, "fill": {})"), "input.fill.random");
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"mean": 0}})"), "input.fill.random.mean");
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"seed": -1}})"), "input.fill.random.seed");
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"seed": 0.5}})"), "input.fill.random.seed");
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"min": "0"}})"), "input.fill.random.min");
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"min": 3, "max": 2}})"), "input.fill.random.max");
}

TEST(SpecFileErrors, NpyIsANonEmptyString) {
  expect_error_at(tensor_spec(R"(, "npy": 3)"), "input.npy");
  expect_error_at(tensor_spec(R"(, "npy": "")"), "input.npy");
}

TEST(SpecFileErrors, ParamsAreRequiredExceptForIdentity) {
  expect_error_at(R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4]}})", "params");
  expect_error_at(R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4]}, "params": [1]})", "params");
  expect_error_at(tensor_spec("", R"(, "params": {"offsets": [0,0]})"), "params.offsets");
}

TEST(SpecFileErrors, SliceParamsAreKnownRequiredAndUnsigned) {
  const std::string head = R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4]}, "params": )";
  expect_error_at(head + R"({"sizes": [1], "strides": [1]}})", "params.offsets");
  expect_error_at(head + R"({"offsets": [0], "strides": [1]}})", "params.sizes");
  expect_error_at(head + R"({"offsets": [0], "sizes": [1]}})", "params.strides");
  expect_error_at(head + R"({"offsets": [0], "sizes": [1], "strides": [-1]}})", "params.strides[0]");
  // slice1's names belong to slice1.
  expect_error_at(head + R"({"offsets": [0], "sizes": [1], "strides": [1], "inputWindowOffsets": [0]}})",
                  "params.inputWindowOffsets");
}

TEST(SpecFileErrors, Slice1StridesAreSignedIntegers) {
  const std::string head = R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4]}, "params": )";
  expect_error_at(head + R"({"inputWindowSizes": [1], "inputWindowStrides": [1]}})", "params.inputWindowOffsets");
  expect_error_at(head + R"({"inputWindowOffsets": [0], "inputWindowStrides": [1]}})", "params.inputWindowSizes");
  expect_error_at(head + R"({"inputWindowOffsets": [0], "inputWindowSizes": [1]}})", "params.inputWindowStrides");
  expect_error_at(head + R"({"inputWindowOffsets": [-1], "inputWindowSizes": [1], "inputWindowStrides": [1]}})",
                  "params.inputWindowOffsets[0]");
  expect_error_at(head + R"({"inputWindowOffsets": [0], "inputWindowSizes": [1], "inputWindowStrides": [1.5]}})",
                  "params.inputWindowStrides[0]");
  expect_error_at(
      head + R"({"inputWindowOffsets": [0], "inputWindowSizes": [1], "inputWindowStrides": [9223372036854775808]}})",
      "params.inputWindowStrides[0]");
  expect_error_at(head + R"({"inputWindowOffsets": [0], "inputWindowSizes": [1], "inputWindowStrides": ["-1"]}})",
                  "params.inputWindowStrides[0]");
  // Negative strides are fine.
  parse_ok(head + R"({"inputWindowOffsets": [0], "inputWindowSizes": [1], "inputWindowStrides": [-9223372036854775808]}})");
}

TEST(SpecFileErrors, PaddingModeIsRequiredAndKnown) {
  const std::string head = R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [4]}, "params": )";
  expect_error_at(head + R"({"startPadding": [0], "endPadding": [0]}})", "params.paddingMode");
  expect_error_at(head + R"({"paddingMode": "WRAP", "startPadding": [0], "endPadding": [0]}})", "params.paddingMode");
  expect_error_at(head + R"({"paddingMode": "edge", "startPadding": [0], "endPadding": [0]}})", "params.paddingMode");
  expect_error_at(head + R"({"paddingMode": 1, "startPadding": [0], "endPadding": [0]}})", "params.paddingMode");
  expect_error_at(head + R"({"paddingMode": "EDGE", "endPadding": [0]}})", "params.startPadding");
  expect_error_at(head + R"({"paddingMode": "EDGE", "startPadding": [0]}})", "params.endPadding");
  expect_error_at(head + R"({"paddingMode": "EDGE", "startPadding": [0], "endPadding": [-2]}})",
                  "params.endPadding[0]");
}

TEST(SpecFileErrors, PaddingValueIsANumber) {
  const std::string head = R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [4]}, "params":
    {"paddingMode": "CONSTANT", "startPadding": [0], "endPadding": [0], "paddingValue": )";
  expect_error_at(head + R"("9"}})", "params.paddingValue");
  expect_error_at(head + R"("nan"}})", "params.paddingValue");
  expect_error_at(head + R"(null}})", "params.paddingValue");
  expect_error_at(head + R"([9]}})", "params.paddingValue");
}

TEST(SpecFileErrors, MaxPooling2ParamsAreKnownAndUnsigned) {
  const std::string head = R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]}, "params": )";
  expect_error_at(head + R"({"strides": [1,1]}})", "params.windowSize");
  expect_error_at(head + R"({"windowSize": [2,2], "dilations": [1,-1]}})", "params.dilations[1]");
  expect_error_at(head + R"({"windowSize": [2,2], "startPadding": "1"}})", "params.startPadding");
  expect_error_at(head + R"({"windowSize": [2,2], "endPadding": [0.5, 0]}})", "params.endPadding[0]");
  expect_error_at(head + R"({"windowSize": [2,2], "strides": [1,1,1,1,1,1,1,1,1]}})", "params.strides");
  expect_error_at(head + R"({"windowSize": [2,2], "padding": [1,1]}})", "params.padding");
}

TEST(SpecFileErrors, OversizedTextIsRefusedBeforeParsing) {
  const std::string text(kMaxSpecBytes + 1, ' ');
  Expected<Spec> spec = parse_spec(text, {});
  ASSERT_FALSE(spec.has_value());
  EXPECT_NE(spec.error().message.find(".npy"), std::string::npos);
}

TEST(SpecFileErrors, DeepNestingIsRefusedBeforeItIsBuilt) {
  // 16 MiB of '[' would be 16 million nested arrays (gigabytes); a spec nests 4 levels.
  const std::string deep(1 << 20, '[');
  Expected<Spec> spec = parse_spec(deep, {});
  ASSERT_FALSE(spec.has_value());
  EXPECT_NE(spec.error().message.find("nested deeper than 64 levels"), std::string::npos) << spec.error().message;
  // 63 levels inside a field is still only a wrong type, not a nesting error.
  expect_error_at(tensor_spec(R"(, "data": )" + std::string(62, '[') + std::string(62, ']')), "input.data[0]");
}

TEST(SpecFileErrors, RandomFillBoundsADoubleCannotHoldAreRefused) {
  // 2^53 + 1 would become 2^53, so an INT64 fill of [2^53 + 1, 2^53 + 1] would
  // draw a value outside it.
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"seed": 3, "min": 9007199254740993, "max": 9007199254740993}})"),
                  "input.fill.random.min");
  expect_error_at(tensor_spec(R"(, "fill": {"random": {"min": 0, "max": 9007199254740993.0}})"),
                  "input.fill.random.max");
  // Exact ones are fine: 2^53, 2^63 (a power of two), and any fraction or
  // magnitude past the 64-bit range (those are float bounds).
  parse_ok(tensor_spec(R"(, "fill": {"random": {"min": 9007199254740992, "max": 9223372036854775808}})"));
  parse_ok(tensor_spec(R"(, "fill": {"random": {"min": -1e30, "max": 0.1}})"));
}

// Field errors the parser leaves to Operation::make keep the same path style.
TEST(SpecFileErrors, SemanticErrorsComeFromOperationMakeWithSpecPaths) {
  std::string text = kOpspecExample;
  text.replace(text.find("[1,1,-2,2]"), 10, "[1,1,0,2]");
  const Spec spec = parse_ok(text);
  Expected<Operation> op = Operation::make(spec.request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().to_string(), "params.inputWindowStrides[2]: stride must not be 0");
}


TEST(SpecFileErrors, CorruptedSpecsAreRefusedWithAnErrorOrParsed) {
  // Random character changes must never crash the parser or leave an error
  // without a message.
  const std::string valid = kOpspecExample;
  const std::string alphabet = "{}[],:\"-.0123456789eE aZ\\\n";
  std::mt19937 random(777);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string text = valid;
    const int changes = 1 + static_cast<int>(random() % 3);
    for (int c = 0; c < changes; ++c) text[random() % text.size()] = alphabet[random() % alphabet.size()];
    const Expected<Spec> spec = parse_spec(text, {});
    if (!spec) {
      ASSERT_FALSE(spec.error().message.empty()) << text;
    }
  }
}

}  // namespace
}  // namespace stridescope
