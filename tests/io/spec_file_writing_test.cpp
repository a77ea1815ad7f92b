// write_spec and save_spec_file: what is written reads back to the same spec
// (resources/docs/spec-format.md), in the spec's field order.
#include "core/io/spec_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "spec_test_support.h"
#include "temp_folder.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;
using test::expect_round_trip;
using test::kOpspecExample;
using test::params_of;
using test::parse_ok;
using test::tensor_spec;

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

}  // namespace
}  // namespace stridescope
