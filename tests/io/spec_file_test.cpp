// resources/docs/spec-format.md: one operator invocation per JSON file, field names as
// the DirectML structs in camelCase. "Unknown fields in a spec are an error,
// not silently ignored", and every error names the field by its JSON path,
// e.g. "params.inputWindowStrides[2]".
// Reading specs, from text and from files.
#include "core/io/spec_file.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>

#include "spec_test_support.h"
#include "temp_folder.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;
using test::expect_error_at;
using test::kOpspecExample;
using test::params_of;
using test::parse_ok;
using test::tensor_spec;

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

}  // namespace
}  // namespace stridescope
