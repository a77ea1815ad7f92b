// resources/docs/result-document.md: `data` is the physical output buffer in
// buffer order (row-major logical order when packed). FLOAT16 values are
// written as their numeric value. 64-bit integers are written exactly (as
// JSON integers), never through a double. Non-finite floats are written as
// the strings "NaN", "Infinity", "-Infinity".
#include "core/io/result_document.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/float16.h"

namespace stridescope {
namespace {

using json = nlohmann::json;

template <class T>
std::vector<std::byte> buffer_of(const std::vector<T>& values) {
  std::vector<std::byte> bytes((values.size() * sizeof(T) + 3) / 4 * 4);
  std::memcpy(bytes.data(), values.data(), values.size() * sizeof(T));
  return bytes;
}

// An identity op over a 1-D tensor of `count` elements of `type`.
Operation identity_1d(DataType type, uint64_t count) {
  OpRequest request;
  request.input = TensorRequest{type, std::vector<uint64_t>{count}, std::nullopt};
  request.params = IdentityRequest{};
  Expected<Operation> op = Operation::make(request);
  EXPECT_TRUE(op.has_value()) << op.error().to_string();
  return *op;
}

// The text between "data": [ and the next ].
std::string data_text(const std::string& document) {
  const auto start = document.find("\"data\": [");
  return document.substr(start + 9, document.find(']', start) - start - 9);
}

TEST(ResultDocument, OpspecSlice1ExampleReadsAsTheContractShows) {
  OpRequest request;
  request.input = TensorRequest{DataType::Float32, std::vector<uint64_t>{1, 1, 4, 4}, std::nullopt};
  request.output = TensorRequest{DataType::Float32, std::vector<uint64_t>{1, 1, 2, 2}, std::nullopt};
  request.params = Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}};
  const Expected<Operation> op = Operation::make(request);
  ASSERT_TRUE(op.has_value()) << op.error().to_string();
  const auto output = buffer_of<float>({14, 16, 6, 8});

  const json document = json::parse(write_result_document("cpu", *op, output, {}));
  EXPECT_EQ(document, json::parse(R"({
    "backend": "cpu",
    "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2], "strides": [4,4,2,1], "data": [14,16,6,8] }
  })"));
}

TEST(ResultDocument, SixtyFourBitIntegersAreExact) {
  const std::vector<int64_t> signed_values = {std::numeric_limits<int64_t>::min(), -1, 9007199254740993,
                                              std::numeric_limits<int64_t>::max()};
  const std::string doc = write_result_document("cpu", identity_1d(DataType::Int64, 4), buffer_of(signed_values), {});
  EXPECT_EQ(data_text(doc), "-9223372036854775808,-1,9007199254740993,9223372036854775807");

  const std::vector<uint64_t> unsigned_values = {0, 18446744073709551615u, 9007199254740993u};
  const std::string udoc =
      write_result_document("cpu", identity_1d(DataType::UInt64, 3), buffer_of(unsigned_values), {});
  EXPECT_EQ(data_text(udoc), "0,18446744073709551615,9007199254740993");
  // A JSON reader keeping integers exact gets them back.
  EXPECT_EQ(json::parse(udoc)["output"]["data"][1].get<uint64_t>(), 18446744073709551615u);
}

TEST(ResultDocument, SmallIntegersOfEveryWidthAndSign) {
  EXPECT_EQ(data_text(write_result_document("cpu", identity_1d(DataType::Int8, 3),
                                            buffer_of<int8_t>({-128, 0, 127}), {})),
            "-128,0,127");
  EXPECT_EQ(data_text(write_result_document("cpu", identity_1d(DataType::UInt8, 2), buffer_of<uint8_t>({0, 255}), {})),
            "0,255");
  EXPECT_EQ(data_text(write_result_document("cpu", identity_1d(DataType::Int16, 2),
                                            buffer_of<int16_t>({-32768, 32767}), {})),
            "-32768,32767");
  EXPECT_EQ(data_text(write_result_document("cpu", identity_1d(DataType::UInt32, 1),
                                            buffer_of<uint32_t>({4294967295u}), {})),
            "4294967295");
}

TEST(ResultDocument, NonFiniteFloatsAreStrings) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::string f32 = write_result_document("cpu", identity_1d(DataType::Float32, 4),
                                                buffer_of<float>({std::nanf(""), inf, -inf, 1.5f}), {});
  EXPECT_EQ(data_text(f32), R"("NaN","Infinity","-Infinity",1.5)");

  const double dinf = std::numeric_limits<double>::infinity();
  const std::string f64 = write_result_document("cpu", identity_1d(DataType::Float64, 3),
                                                buffer_of<double>({-dinf, std::nan(""), 0.25}), {});
  EXPECT_EQ(data_text(f64), R"("-Infinity","NaN",0.25)");

  const std::string f16 = write_result_document("cpu", identity_1d(DataType::Float16, 3),
                                                buffer_of<uint16_t>({0x7E00, 0x7C00, 0xFC00}), {});
  EXPECT_EQ(data_text(f16), R"("NaN","Infinity","-Infinity")");
  EXPECT_TRUE(json::accept(f16));
}

TEST(ResultDocument, Float16IsWrittenAsItsValueNotItsBits) {
  // 1.0, -2.0, 0.5, 65504 (largest finite half), -0.0.
  const std::string doc = write_result_document("cpu", identity_1d(DataType::Float16, 5),
                                                buffer_of<uint16_t>({0x3C00, 0xC000, 0x3800, 0x7BFF, 0x8000}), {});
  EXPECT_EQ(data_text(doc), "1,-2,0.5,65504,-0.0");
}

TEST(ResultDocument, EveryFiniteFloat16ReadsBackToTheSameHalf) {
  // The shortest text is chosen so that a reader parsing a double and
  // rounding it to the nearest half gets the same bits.
  std::vector<uint16_t> halves;
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    if ((h & 0x7C00) != 0x7C00) halves.push_back(static_cast<uint16_t>(h));
  }
  const std::string doc = write_result_document("cpu", identity_1d(DataType::Float16, halves.size()),
                                                buffer_of(halves), {});
  const json data = json::parse(doc)["output"]["data"];
  ASSERT_EQ(data.size(), halves.size());
  for (std::size_t i = 0; i < halves.size(); ++i) {
    ASSERT_EQ(double_to_half(data[i].get<double>()), halves[i]) << std::hex << halves[i] << " written " << data[i];
  }
  // The smallest subnormal, 2^-24 = 5.96e-8, needs only one digit.
  EXPECT_NE(doc.find(",6e-08,"), std::string::npos);
}

TEST(ResultDocument, NegativeZeroKeepsItsSign) {
  const std::string doc = write_result_document("cpu", identity_1d(DataType::Float32, 2),
                                                buffer_of<float>({-0.0f, 0.0f}), {});
  EXPECT_EQ(data_text(doc), "-0.0,0");
  EXPECT_TRUE(std::signbit(json::parse(doc)["output"]["data"][0].get<double>()));
}

TEST(ResultDocument, Float32UsesTheShortestTextThatRoundTrips) {
  const std::string doc = write_result_document("cpu", identity_1d(DataType::Float32, 3),
                                                buffer_of<float>({0.1f, 16777216.0f, 1e-45f}), {});
  EXPECT_EQ(data_text(doc), "0.1,16777216,1e-45");
  const json data = json::parse(doc)["output"]["data"];
  EXPECT_EQ(static_cast<float>(data[0].get<double>()), 0.1f);
  EXPECT_EQ(static_cast<float>(data[2].get<double>()), 1e-45f);
}

TEST(ResultDocument, GappedOutputListsThePhysicalBufferWithItsGaps) {
  // Output sizes {2,2} with strides {3,1}: offsets 0,1,3,4; offset 2 is a gap.
  OpRequest request;
  request.input = TensorRequest{DataType::Int32, std::vector<uint64_t>{2, 2}, std::nullopt};
  request.output = TensorRequest{std::nullopt, std::nullopt, std::vector<uint64_t>{3, 1}};
  request.params = IdentityRequest{};
  const Expected<Operation> op = Operation::make(request);
  ASSERT_TRUE(op.has_value()) << op.error().to_string();
  const std::string doc = write_result_document("cpu", *op, buffer_of<int32_t>({1, 2, 0, 3, 4}), {});
  const json output = json::parse(doc)["output"];
  EXPECT_EQ(output["strides"], json::parse("[3,1]"));
  EXPECT_EQ(output["data"], json::parse("[1,2,0,3,4]"));
}

TEST(ResultDocument, PoolingWithIndicesAddsOutputIndices) {
  OpRequest request;
  request.input = TensorRequest{DataType::Float32, std::vector<uint64_t>{1, 1, 2, 2}, std::nullopt};
  request.output_indices = TensorRequest{DataType::UInt64, std::nullopt, std::nullopt};
  request.params = MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  const Expected<Operation> op = Operation::make(request);
  ASSERT_TRUE(op.has_value()) << op.error().to_string();
  const json doc = json::parse(write_result_document("vulkan", *op, buffer_of<float>({4}), buffer_of<uint64_t>({3})));
  EXPECT_EQ(doc["backend"], "vulkan");
  EXPECT_EQ(doc["outputIndices"], json::parse(R"({"dataType": "UINT64", "sizes": [1,1,1,1],
                                                  "strides": [1,1,1,1], "data": [3]})"));
}

TEST(ResultDocument, NoIndicesMemberWithoutAnIndicesTensor) {
  const json doc = json::parse(write_result_document("cpu", identity_1d(DataType::UInt8, 1), buffer_of<uint8_t>({7}), {}));
  EXPECT_FALSE(doc.contains("outputIndices"));
}

TEST(ResultDocumentReading, ReadsBackTheBuffersItWasWrittenFrom) {
  OpRequest request;
  request.input = TensorRequest{DataType::Float32, std::vector<uint64_t>{1, 1, 2, 2}, std::nullopt};
  request.output = TensorRequest{std::nullopt, std::vector<uint64_t>{1, 1, 1, 1}, std::vector<uint64_t>{2, 2, 2, 2}};
  request.output_indices = TensorRequest{DataType::UInt64, std::nullopt, std::nullopt};
  request.params = MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  const Expected<Operation> op = Operation::make(request);
  ASSERT_TRUE(op.has_value()) << op.error().to_string();
  const std::vector<std::byte> output = buffer_of<float>({-0.0f});
  const std::vector<std::byte> indices = buffer_of<uint64_t>({(uint64_t{1} << 63) + 1});
  const std::string text = write_result_document("mine", *op, output, indices);
  const Expected<ResultDocument> read = read_result_document(text, *op);
  ASSERT_TRUE(read.has_value()) << read.error().to_string();
  EXPECT_EQ(read->backend, "mine");
  EXPECT_EQ(read->output, output);  // -0 keeps its sign bit
  EXPECT_EQ(read->indices, indices);  // above 2^53, exactly
}

TEST(ResultDocumentReading, ValuesMustFitTheSpecsTensor) {
  const Operation op = identity_1d(DataType::Int8, 2);
  const auto error_of = [&](const std::string& text) {
    const Expected<ResultDocument> read = read_result_document(text, op);
    return read ? std::string("no error") : read.error().to_string();
  };
  EXPECT_EQ(error_of(R"({"output": {"dataType": "INT8", "sizes": [2], "data": [1, -128]}})"), "no error");
  EXPECT_EQ(error_of(R"({"output": {"dataType": "INT8", "sizes": [2], "data": [1, 128]}})").substr(0, 16),
            "output.data[1]: ");
  EXPECT_EQ(error_of(R"({"output": {"dataType": "INT8", "sizes": [2], "strides": [2], "data": [1, 2]}})"),
            "output.strides: are [2]; the spec's are [1]");
  EXPECT_EQ(error_of(R"({"output": {"dataType": "INT8", "sizes": [2], "data": "1,2"}})"),
            "output.data: expected an array, got a string");
  EXPECT_EQ(error_of("[1]").substr(0, 9), "expected ");
}

}  // namespace
}  // namespace stridescope
