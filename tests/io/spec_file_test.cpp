// resources/docs/spec-format.md: one operator invocation per JSON file, field names as
// the DirectML structs in camelCase. "Unknown fields in a spec are an error,
// not silently ignored", and every error names the field by its JSON path,
// e.g. "params.inputWindowStrides[2]".
#include "core/io/spec_file.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <thread>

#include <sys/stat.h>

#include "core/io/npy.h"
#include "core/operation.h"
#include "spec_test_support.h"
#include "temp_folder.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;
using test::expect_error_at;
using test::expect_round_trip;
using test::parse_ok;

// The spec-format.md example, the base the error tests edit.
constexpr const char* kOpspecExample = R"({
  "op": "slice1",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,4], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2] },
  "params": {
    "inputWindowOffsets": [0,0,0,1],
    "inputWindowSizes":   [1,1,4,3],
    "inputWindowStrides": [1,1,-2,2]
  }
})";

std::string tensor_spec(std::string_view input_extra, std::string_view rest = "") {
  return std::string(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,3])") +
         std::string(input_extra) + "}" + std::string(rest) + "}";
}

template <class T>
const T& params_of(const Spec& spec) {
  return std::get<T>(spec.request.params);
}

// ---------------------------------------------------------------- reading

TEST(SpecFile, ReadsTheOpspecExample) {
  const Spec spec = parse_ok(kOpspecExample);
  EXPECT_EQ(spec.request.kind(), OpKind::Slice1);
  EXPECT_EQ(spec.request.input.data_type, DataType::Float32);
  EXPECT_EQ(spec.request.input.sizes, (U64s{1, 1, 4, 4}));
  EXPECT_FALSE(spec.request.input.strides.has_value());
  EXPECT_EQ(spec.request.output.sizes, (U64s{1, 1, 2, 2}));
  ASSERT_TRUE(std::holds_alternative<Fill>(spec.input_source));
  EXPECT_TRUE(std::holds_alternative<FillIota>(std::get<Fill>(spec.input_source)));
  const auto& p = params_of<Slice1Request>(spec);
  EXPECT_EQ(p.input_window_offsets, (U64s{0, 0, 0, 1}));
  EXPECT_EQ(p.input_window_sizes, (U64s{1, 1, 4, 3}));
  EXPECT_EQ(p.input_window_strides, (std::vector<int64_t>{1, 1, -2, 2}));
}

TEST(SpecFile, InputWithoutDataFillOrNpyIsIota) {
  const Spec spec = parse_ok(tensor_spec(""));
  ASSERT_TRUE(std::holds_alternative<Fill>(spec.input_source));
  EXPECT_TRUE(std::holds_alternative<FillIota>(std::get<Fill>(spec.input_source)));
}

TEST(SpecFile, OutputAndIdentityParamsMayBeLeftOut) {
  const Spec spec = parse_ok(tensor_spec(""));
  EXPECT_EQ(spec.request.kind(), OpKind::Identity);
  EXPECT_FALSE(spec.request.output.data_type.has_value());
  EXPECT_FALSE(spec.request.output.sizes.has_value());
  EXPECT_EQ(parse_ok(tensor_spec("", R"(, "params": {})")).request.kind(), OpKind::Identity);
}

TEST(SpecFile, ReadsStridesAndOutputStrides) {
  const Spec spec = parse_ok(tensor_spec(R"(, "strides": [0,1])", R"(, "output": {"strides": [4,1]})"));
  EXPECT_EQ(spec.request.input.strides, (U64s{0, 1}));
  EXPECT_EQ(spec.request.output.strides, (U64s{4, 1}));
}

TEST(SpecFile, ReadsSliceParams) {
  const Spec spec = parse_ok(R"({"op": "slice", "input": {"dataType": "INT8", "sizes": [4]},
    "params": {"offsets": [1], "sizes": [2], "strides": [2]}})");
  const auto& p = params_of<SliceRequest>(spec);
  EXPECT_EQ(p.offsets, U64s{1});
  EXPECT_EQ(p.sizes, U64s{2});
  EXPECT_EQ(p.strides, U64s{2});
}

TEST(SpecFile, ReadsPaddingParamsWithValueDefaultingToZero) {
  const Spec spec = parse_ok(R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [4]},
    "params": {"paddingMode": "REFLECTION", "startPadding": [1], "endPadding": [2]}})");
  const auto& p = params_of<PaddingRequest>(spec);
  EXPECT_EQ(p.padding_mode, PaddingMode::Reflection);
  EXPECT_EQ(p.padding_value, Scalar{int64_t{0}});
  EXPECT_EQ(p.start_padding, U64s{1});
  EXPECT_EQ(p.end_padding, U64s{2});
}

Scalar padding_value_of(std::string_view value_json) {
  const std::string text = R"({"op": "padding", "input": {"dataType": "INT64", "sizes": [1]},
    "params": {"paddingMode": "CONSTANT", "paddingValue": )" + std::string(value_json) +
                           R"(, "startPadding": [0], "endPadding": [0]}})";
  return params_of<PaddingRequest>(parse_ok(text)).padding_value;
}

TEST(SpecFile, PaddingValueKeepsSixtyFourBitIntegersExact) {
  // 2^53 + 1 is not a double; it must survive as an integer.
  EXPECT_EQ(padding_value_of("9007199254740993"), Scalar{int64_t{9007199254740993}});
  EXPECT_EQ(padding_value_of("-9223372036854775808"), Scalar{std::numeric_limits<int64_t>::min()});
  EXPECT_EQ(padding_value_of("18446744073709551615"), Scalar{std::numeric_limits<uint64_t>::max()});
  EXPECT_EQ(padding_value_of("-7"), Scalar{int64_t{-7}});
}

TEST(SpecFile, PaddingValueFractionsAreKeptAsWritten) {
  EXPECT_EQ(padding_value_of("10.6"), Scalar{Decimal{"10.6"}});
  EXPECT_EQ(padding_value_of("-1e3"), Scalar{Decimal{"-1e3"}});
  EXPECT_EQ(padding_value_of("-9223372036854775809"), Scalar{Decimal{"-9223372036854775809"}});  // beyond int64
}

// What a double would have changed (operators.md: floating types round to
// nearest, integer types truncate toward zero, 64-bit integers exactly).
TEST(SpecFile, PaddingValueConvertsFromTheDecimalWrittenRoundingOnce) {
  const auto bits = [](std::string_view number, DataType type) {
    Expected<uint64_t> b = encode_scalar(padding_value_of(std::string(number)), type, "params.paddingValue");
    return b ? std::to_string(*b) : b.error().to_string();
  };
  // 2^53 + 1 written with a fraction: a double would drop the 1.
  EXPECT_EQ(bits("9007199254740993.0", DataType::Int64), "9007199254740993");
  // Truncation of the decimal, not of its nearest double (…568).
  EXPECT_EQ(bits("12345678901234567.9", DataType::Int64), "12345678901234567");
  EXPECT_EQ(bits("2.9999999999999999999", DataType::Int32), "2");
  // Below INT64's minimum: a double would round it onto the minimum.
  EXPECT_EQ(bits("-9223372036854775809", DataType::Int64),
            "params.paddingValue: value -9223372036854775809 does not fit in INT64");
  EXPECT_EQ(bits("18446744073709551615.0", DataType::UInt64), "18446744073709551615");
  EXPECT_EQ(bits("18446744073709551616", DataType::UInt64),
            "params.paddingValue: value 18446744073709551616 does not fit in UINT64");
  // 1 + 2^-24 + 2^-77 lies just above the midpoint between 1 and the next
  // float (1 + 2^-23); its nearest double is the midpoint itself, which
  // rounds to even (1). Rounded once it is 1 + 2^-23: 0x3f800001.
  EXPECT_EQ(bits("1.0000000596046448", DataType::Float32), std::to_string(0x3f800001u));
  // FLOAT16: 1 + 2^-11 is the midpoint between 1 and 1 + 2^-10. A hair
  // above it (1 + 2^-11 + 10^-20, closer to the midpoint than any double)
  // rounds up; the midpoint itself rounds to even.
  EXPECT_EQ(bits("1.00048828125000000001", DataType::Float16), std::to_string(0x3c01u));
  EXPECT_EQ(bits("1.00048828125", DataType::Float16), std::to_string(0x3c00u));
  EXPECT_EQ(bits("1.00048828124999999999", DataType::Float16), std::to_string(0x3c00u));
  EXPECT_EQ(bits("0.1", DataType::Float64), std::to_string(std::bit_cast<uint64_t>(0.1)));
}

TEST(SpecFile, PaddingValueAcceptsNonFiniteNames) {
  EXPECT_TRUE(std::isnan(std::get<double>(padding_value_of(R"("NaN")"))));
  EXPECT_EQ(padding_value_of(R"("Infinity")"), Scalar{std::numeric_limits<double>::infinity()});
  EXPECT_EQ(padding_value_of(R"("-Infinity")"), Scalar{-std::numeric_limits<double>::infinity()});
}

TEST(SpecFile, MaxPooling2OptionalArraysStayUnsetWhenLeftOut) {
  const Spec spec = parse_ok(R"({"op": "max_pooling2", "input": {"dataType": "FLOAT16", "sizes": [1,1,4,4]},
    "outputIndices": {"dataType": "UINT64"}, "params": {"windowSize": [2,2], "dilations": [1,2]}})");
  const auto& p = params_of<MaxPooling2Request>(spec);
  EXPECT_EQ(p.window_size, (U64s{2, 2}));
  EXPECT_EQ(p.dilations, (U64s{1, 2}));
  EXPECT_FALSE(p.strides.has_value());
  EXPECT_FALSE(p.start_padding.has_value());
  EXPECT_FALSE(p.end_padding.has_value());
  ASSERT_TRUE(spec.request.output_indices.has_value());
  EXPECT_EQ(spec.request.output_indices->data_type, DataType::UInt64);
}

TEST(SpecFile, NumberBeyondADoubleIsAnErrorAtItsField) {
  expect_error_at(tensor_spec(R"(, "data": [1, 1e400])"), "input.data[1]");
  expect_error_at(tensor_spec(R"(, "data": [1])", R"(, "params": {"paddingValue": -1e400})"), "params.paddingValue");
}

TEST(SpecFile, ReadsDataWithNonFiniteNames) {
  const Spec spec = parse_ok(tensor_spec(R"(, "data": [1, -2.5, "NaN", "Infinity", 18446744073709551615, -3])"));
  const auto& data = std::get<std::vector<Scalar>>(spec.input_source);
  ASSERT_EQ(data.size(), 6u);
  EXPECT_EQ(data[0], Scalar{int64_t{1}});
  EXPECT_EQ(data[1], Scalar{Decimal{"-2.5"}});
  EXPECT_TRUE(std::isnan(std::get<double>(data[2])));
  EXPECT_EQ(data[3], Scalar{std::numeric_limits<double>::infinity()});
  EXPECT_EQ(data[4], Scalar{std::numeric_limits<uint64_t>::max()});
  EXPECT_EQ(data[5], Scalar{int64_t{-3}});
}

TEST(SpecFile, ReadsFills) {
  auto fill_of = [](std::string_view fill) {
    return std::get<Fill>(parse_ok(tensor_spec(std::string(R"(, "fill": )") + std::string(fill))).input_source);
  };
  EXPECT_TRUE(std::holds_alternative<FillZeros>(fill_of(R"("zeros")")));
  EXPECT_TRUE(std::holds_alternative<FillIota>(fill_of(R"("iota")")));
  const Fill random = fill_of(R"({"random": {"seed": 42, "min": -1, "max": 2.5}})");
  ASSERT_TRUE(std::holds_alternative<FillRandom>(random));
  EXPECT_EQ(std::get<FillRandom>(random).seed, 42u);
  EXPECT_EQ(std::get<FillRandom>(random).min, -1.0);
  EXPECT_EQ(std::get<FillRandom>(random).max, 2.5);
}

TEST(SpecFile, NpyPathIsResolvedAgainstTheSpecFolder) {
  const Spec relative = parse_ok(tensor_spec(R"(, "npy": "data/in.npy")"), "/specs/here");
  EXPECT_EQ(std::get<std::filesystem::path>(relative.input_source), std::filesystem::path("/specs/here/data/in.npy"));
  const Spec absolute = parse_ok(tensor_spec(R"(, "npy": "/abs/in.npy")"), "/specs/here");
  EXPECT_EQ(std::get<std::filesystem::path>(absolute.input_source), std::filesystem::path("/abs/in.npy"));
}

TEST(SpecFile, IntegralFloatsAreIntegers) {
  const Spec spec = parse_ok(R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2.0, 1e1]}})");
  EXPECT_EQ(spec.request.input.sizes, (U64s{2, 10}));
}

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

// ---------------------------------------------------------------- files

TEST(SpecFile, LoadSpecFileNamesAMissingFile) {
  test::TempFolder folder;
  Expected<Spec> spec = load_spec_file(folder / "missing.json");
  ASSERT_FALSE(spec.has_value());
  EXPECT_EQ(spec.error().code, ErrorCode::Io);
  EXPECT_EQ(spec.error().path, (folder / "missing.json").string());
}

TEST(SpecFile, LoadSpecFileReadsAPipe) {
  // A pipe has no size (cat spec.json | stridescope-cli run /dev/stdin).
  test::TempFolder folder;
  const std::filesystem::path fifo = folder / "spec.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { test::write_text(fifo, tensor_spec(R"(, "fill": "iota")")); });
  Expected<Spec> spec = load_spec_file(fifo);
  writer.join();
  ASSERT_TRUE(spec.has_value()) << spec.error().to_string();
  EXPECT_EQ(spec->request.input.sizes, (U64s{2, 3}));
}

TEST(SpecFile, LoadSpecFileRefusesAFolder) {
  test::TempFolder folder;
  Expected<Spec> spec = load_spec_file(folder.path());
  ASSERT_FALSE(spec.has_value());
  EXPECT_EQ(spec.error().code, ErrorCode::Io);
  EXPECT_NE(spec.error().message.find("folder"), std::string::npos) << spec.error().to_string();
}

TEST(SpecFile, LoadSpecFileNamesTheFileForSyntaxErrorsAndTheFieldOtherwise) {
  test::TempFolder folder;
  test::write_text(folder / "broken.json", "{ nope");
  Expected<Spec> broken = load_spec_file(folder / "broken.json");
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().path, (folder / "broken.json").string());

  test::write_text(folder / "field.json", tensor_spec(R"(, "colour": 1)"));
  Expected<Spec> field = load_spec_file(folder / "field.json");
  ASSERT_FALSE(field.has_value());
  EXPECT_EQ(field.error().path, "input.colour");
}

TEST(SpecFile, LoadSpecFileResolvesNpyBesideTheSpec) {
  test::TempFolder folder;
  test::write_text(folder / "s.json", tensor_spec(R"(, "npy": "in.npy")"));
  Expected<Spec> spec = load_spec_file(folder / "s.json");
  ASSERT_TRUE(spec.has_value()) << spec.error().to_string();
  EXPECT_EQ(std::get<std::filesystem::path>(spec->input_source), folder / "in.npy");
}

// ---------------------------------------------------------------- writing

TEST(SpecFileWriting, OpspecExampleRoundTripsWithTheSameFields) {
  const Spec spec = parse_ok(kOpspecExample);
  const std::string text = write_spec(spec);
  const Spec again = parse_ok(text);
  EXPECT_EQ(params_of<Slice1Request>(again).input_window_strides, (std::vector<int64_t>{1, 1, -2, 2}));
  EXPECT_EQ(again.request.output.sizes, (U64s{1, 1, 2, 2}));
  EXPECT_NE(text.find("\"inputWindowStrides\": [1,1,-2,2]"), std::string::npos) << text;
  expect_round_trip(spec);
}

TEST(SpecFileWriting, EveryBundledExampleRoundTrips) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    Expected<Spec> spec = load_spec_file(entry.path());
    ASSERT_TRUE(spec.has_value()) << spec.error().to_string();
    expect_round_trip(*spec);
    ++count;
  }
  EXPECT_GE(count, 15);
}

TEST(SpecFileWriting, ScalarsKeepTheirKind) {
  Spec spec;
  spec.request.input = TensorRequest{DataType::Int64, U64s{3}, U64s{1}};
  spec.request.output = TensorRequest{DataType::Int64, U64s{5}, std::nullopt};
  spec.request.params = PaddingRequest{PaddingMode::Constant, Scalar{9.0}, {1}, {1}};
  spec.input_source = std::vector<Scalar>{int64_t{9007199254740993}, std::numeric_limits<uint64_t>::max(), -0.5,
                                          Decimal{"1.00000005960464480"}};
  const std::string text = write_spec(spec);
  EXPECT_NE(text.find("\"paddingValue\": 9.0"), std::string::npos) << text;
  EXPECT_NE(text.find("[9007199254740993,18446744073709551615,-0.5,1.00000005960464480]"), std::string::npos)
      << text;
  // Doubles come back as the decimals they were written as; decimals as written.
  const Spec again = parse_ok(text);
  EXPECT_EQ(params_of<PaddingRequest>(again).padding_value, Scalar{Decimal{"9.0"}});
  const std::vector<Scalar> expected{int64_t{9007199254740993}, std::numeric_limits<uint64_t>::max(),
                                     Decimal{"-0.5"}, Decimal{"1.00000005960464480"}};
  EXPECT_EQ(std::get<std::vector<Scalar>>(again.input_source), expected);
  expect_round_trip(again);
}

TEST(SpecFileWriting, NonFiniteValuesAreWrittenAsNames) {
  Spec spec;
  spec.request.input = TensorRequest{DataType::Float32, U64s{2}, std::nullopt};
  spec.request.params = PaddingRequest{PaddingMode::Constant, Scalar{-std::numeric_limits<double>::infinity()}, {0}, {1}};
  spec.input_source = std::vector<Scalar>{std::nan(""), std::numeric_limits<double>::infinity()};
  const std::string text = write_spec(spec);
  EXPECT_NE(text.find(R"("paddingValue": "-Infinity")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(["NaN","Infinity"])"), std::string::npos) << text;
  expect_round_trip(spec, /*compare_fields=*/false);
}

TEST(SpecFileWriting, RandomFillAndOptionalPoolingArraysRoundTrip) {
  Spec spec;
  spec.request.input = TensorRequest{DataType::UInt16, U64s{1, 2, 3, 3, 3}, std::nullopt};
  spec.request.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  MaxPooling2Request pooling;
  pooling.window_size = {2, 2, 2};
  pooling.end_padding = U64s{1, 0, 1};
  spec.request.params = pooling;
  spec.input_source = Fill{FillRandom{7, -3, 100.25}};
  const std::string text = write_spec(spec);
  EXPECT_NE(text.find(R"("fill": {"random": {"seed": 7, "min": -3.0, "max": 100.25}})"), std::string::npos) << text;
  EXPECT_EQ(text.find("dilations"), std::string::npos) << text;
  const Spec again = parse_ok(text);
  const auto& random = std::get<FillRandom>(std::get<Fill>(again.input_source));
  EXPECT_EQ(random.seed, 7u);
  EXPECT_EQ(random.min, -3.0);
  EXPECT_EQ(random.max, 100.25);
  EXPECT_EQ(params_of<MaxPooling2Request>(again).end_padding, (U64s{1, 0, 1}));
  EXPECT_FALSE(params_of<MaxPooling2Request>(again).strides.has_value());
  expect_round_trip(spec);
}

// resources/docs/spec-format.md lists padding's params as paddingMode, paddingValue, startPadding,
// endPadding; a value only CONSTANT reads is left out at its default.
TEST(SpecFileWriting, ParamsAreWrittenInTheSpecsOrder) {
  Spec spec;
  spec.request.input = TensorRequest{DataType::Float32, U64s{2, 3}, std::nullopt};
  spec.request.params = PaddingRequest{PaddingMode::Edge, int64_t{0}, {1, 0}, {0, 2}};
  const std::string text = write_spec(spec);
  EXPECT_NE(text.find("\"params\": {\n    \"paddingMode\": \"EDGE\",\n    \"startPadding\": [1,0],\n"
                      "    \"endPadding\": [0,2]\n  }"),
            std::string::npos)
      << text;
  expect_round_trip(spec);
  std::get<PaddingRequest>(spec.request.params).padding_mode = PaddingMode::Constant;
  EXPECT_NE(write_spec(spec).find("\"paddingMode\": \"CONSTANT\",\n    \"paddingValue\": 0,"), std::string::npos);
}

TEST(SpecFileWriting, SaveSpecFileWritesLoadableFileWithNpyRelativeToIt) {
  test::TempFolder folder;
  std::filesystem::create_directories(folder / "specs");
  Spec spec = parse_ok(tensor_spec(""));
  spec.input_source = std::filesystem::path(folder / "data" / "in.npy");
  ASSERT_TRUE(save_spec_file(spec, folder / "specs" / "s.json").ok());
  const std::string text = test::read_text(folder / "specs" / "s.json");
  EXPECT_NE(text.find(R"("npy": "../data/in.npy")"), std::string::npos) << text;
  Expected<Spec> loaded = load_spec_file(folder / "specs" / "s.json");
  ASSERT_TRUE(loaded.has_value()) << loaded.error().to_string();
  EXPECT_EQ(std::get<std::filesystem::path>(loaded->input_source).lexically_normal(),
            (folder / "data" / "in.npy").lexically_normal());
}

// ---------------------------------------------------------------- input buffers

TensorDesc desc_of(DataType type, U64s sizes, std::optional<U64s> strides = std::nullopt) {
  std::optional<Strides> s;
  if (strides) s = Strides(std::span<const uint64_t>(*strides));
  Expected<TensorDesc> desc = TensorDesc::make(type, Sizes(std::span<const uint64_t>(sizes)), s, "input");
  EXPECT_TRUE(desc.has_value());
  return *desc;
}

template <class T>
std::vector<T> elements(const std::vector<std::byte>& bytes, std::size_t count) {
  std::vector<T> values(count);
  std::memcpy(values.data(), bytes.data(), count * sizeof(T));
  return values;
}

TEST(InputBuffer, DataFillsTheBufferInBufferOrder) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{-2}, 10.6, -10.6};
  const Expected<std::vector<std::byte>> buffer = make_input_buffer(spec, desc_of(DataType::Int16, {2, 2}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  EXPECT_EQ(buffer->size(), 8u);
  // DirectML: integer types truncate toward zero (10.6 -> 10, -10.6 -> -10).
  EXPECT_EQ(elements<int16_t>(*buffer, 4), (std::vector<int16_t>{1, -2, 10, -10}));
}

TEST(InputBuffer, DataCoversTheStridedBufferNotTheLogicalCount) {
  // Broadcast rows: sizes {2,3}, strides {0,1} span 3 buffer elements.
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{2}, int64_t{3}};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::UInt8, {2, 3}, U64s{0, 1}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  ASSERT_EQ(buffer->size(), 4u);  // 3 bytes rounded up to 4 (DMLCalcBufferTensorSize)
  EXPECT_EQ(elements<uint8_t>(*buffer, 4), (std::vector<uint8_t>{1, 2, 3, 0}));
}

TEST(InputBuffer, ShortDataIsAnErrorAtInputData) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{2}};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Float32, {3}));
  ASSERT_FALSE(buffer.has_value());
  EXPECT_EQ(buffer.error().path, "input.data");
}

TEST(InputBuffer, ValueOutOfRangeNamesItsIndex) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{127}, int64_t{128}};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Int8, {3}));
  ASSERT_FALSE(buffer.has_value());
  EXPECT_EQ(buffer.error().path, "input.data[2]");
}

TEST(InputBuffer, ExtraDataIsIgnored) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{1.5, 2.5, 99.0, 1e300};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Float32, {2}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  EXPECT_EQ(elements<float>(*buffer, 2), (std::vector<float>{1.5f, 2.5f}));
}

TEST(InputBuffer, IotaCountsFromOneInBufferOrder) {
  Spec spec;  // iota by default
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Int32, {2, 2}, U64s{1, 2}));
  ASSERT_TRUE(buffer.has_value());
  EXPECT_EQ(elements<int32_t>(*buffer, 4), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(InputBuffer, NpyMustMatchTheTypeAndHoldEnoughElements) {
  test::TempFolder folder;
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  std::vector<std::byte> bytes(24);
  std::memcpy(bytes.data(), values.data(), 24);
  const U64s shape = {2, 3};
  ASSERT_TRUE(write_npy(folder / "in.npy", DataType::Float32, shape, bytes).ok());
  Spec spec;
  spec.input_source = folder / "in.npy";

  // The shape does not matter, only the element count: the buffer is flat.
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Float32, {3, 2}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  EXPECT_EQ(elements<float>(*buffer, 6), values);

  const auto fewer = make_input_buffer(spec, desc_of(DataType::Float32, {4}));
  ASSERT_TRUE(fewer.has_value());
  EXPECT_EQ(elements<float>(*fewer, 4), (std::vector<float>{1, 2, 3, 4}));

  const auto too_many = make_input_buffer(spec, desc_of(DataType::Float32, {7}));
  ASSERT_FALSE(too_many.has_value());
  EXPECT_EQ(too_many.error().path, "input.npy");

  const auto wrong_type = make_input_buffer(spec, desc_of(DataType::Int32, {6}));
  ASSERT_FALSE(wrong_type.has_value());
  EXPECT_EQ(wrong_type.error().path, "input.npy");
  EXPECT_NE(wrong_type.error().message.find("<f4"), std::string::npos) << wrong_type.error().message;
}

TEST(InputBuffer, NpyOverTheLimitOrMissingIsAnErrorAtInputNpy) {
  test::TempFolder folder;
  const U64s shape = {100};
  ASSERT_TRUE(write_npy(folder / "big.npy", DataType::UInt8, shape, std::vector<std::byte>(100)).ok());
  Spec spec;
  spec.input_source = folder / "big.npy";
  const auto limited = make_input_buffer(spec, desc_of(DataType::UInt8, {4}), Limits{50});
  ASSERT_FALSE(limited.has_value());
  EXPECT_EQ(limited.error().path, "input.npy");

  spec.input_source = folder / "missing.npy";
  const auto missing = make_input_buffer(spec, desc_of(DataType::UInt8, {4}));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().path, "input.npy");
  EXPECT_EQ(missing.error().code, ErrorCode::Io);
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
