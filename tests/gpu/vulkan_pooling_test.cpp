// max_pooling2 on Vulkan, hand-computed cases for the rules of
// core/max_pooling.h: the first maximum in row-major window order wins, a NaN
// beats every number and the first NaN stays, -0 equals +0, padded taps never
// win, denormals and 64-bit integers compare exactly (2^53 + 1 > 2^53), and
// indices are flat row-major positions in the logical input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

struct Pooled {
  std::vector<std::byte> output;
  std::vector<uint64_t> indices;
};

class VulkanPooling : public VulkanTest {
 protected:
  // Pools a {1,1,H,W} input of `type` (raw element bytes) with UINT64 indices.
  Pooled pool(DataType type, U64s in_sizes, std::optional<U64s> in_strides, const std::vector<std::byte>& input,
              MaxPooling2Request params) {
    OpRequest r;
    r.input = TensorRequest{type, std::move(in_sizes), std::move(in_strides)};
    r.output_indices = TensorRequest{DataType::UInt64, std::nullopt, std::nullopt};
    r.params = std::move(params);
    auto op = Operation::make(r);
    EXPECT_TRUE(op) << (op ? "" : op.error().to_string());
    if (!op) return {};
    auto result = run_to_new_buffers(*backend_, *op, input);
    EXPECT_TRUE(result) << (result ? "" : result.error().to_string());
    if (!result) return {};
    return {result->output, values_of<uint64_t>(result->indices, op->output_indices()->element_count())};
  }

  // A 1x2 window over a {1,1,1,2} input: which of the two elements wins.
  template <class T>
  Pooled pair(DataType type, T first, T second) {
    return pool(type, {1, 1, 1, 2}, std::nullopt, bytes_of(std::vector<T>{first, second}), window(1, 2));
  }

  static MaxPooling2Request window(uint64_t h, uint64_t w) {
    MaxPooling2Request p;
    p.window_size = {h, w};
    return p;
  }
};

template <class T>
T first_value(const Pooled& p) {
  return values_of<T>(p.output, 1)[0];
}

template <class T>
uint64_t bits_of(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

TEST_F(VulkanPooling, TwoByTwoWindowsTakeTheMaximumAndItsFlatIndex) {
  std::vector<float> input(16);
  for (std::size_t i = 0; i < 16; ++i) input[i] = static_cast<float>(i + 1);
  MaxPooling2Request p = window(2, 2);
  p.strides = U64s{2, 2};
  const Pooled r = pool(DataType::Float32, {1, 1, 4, 4}, std::nullopt, bytes_of(input), p);
  EXPECT_EQ(values_of<float>(r.output, 4), (std::vector<float>{6, 8, 14, 16}));
  EXPECT_EQ(r.indices, (std::vector<uint64_t>{5, 7, 13, 15}));
}

TEST_F(VulkanPooling, TiesKeepTheFirstInRowMajorWindowOrder) {
  const Pooled r = pool(DataType::Int32, {1, 1, 2, 2}, std::nullopt, bytes_of(std::vector<int32_t>{4, 4, 4, 4}),
                        window(2, 2));
  EXPECT_EQ(r.indices, (std::vector<uint64_t>{0}));
}

// Input [3,1,4,1,5], window 2 with dilation 2, one padded element at the start:
// output o reads taps o - 1 and o + 1: {pad,1} {3,4} {1,1} {4,5}.
TEST_F(VulkanPooling, DilationAndAsymmetricPaddingNeverPickPaddedTaps) {
  MaxPooling2Request p = window(1, 2);
  p.dilations = U64s{1, 2};
  p.start_padding = U64s{0, 1};
  p.end_padding = U64s{0, 0};
  const Pooled r = pool(DataType::Int8, {1, 1, 1, 5}, std::nullopt, bytes_of(std::vector<int8_t>{3, 1, 4, 1, 5}), p);
  EXPECT_EQ(values_of<int8_t>(r.output, 4), (std::vector<int8_t>{1, 4, 1, 5}));
  EXPECT_EQ(r.indices, (std::vector<uint64_t>{1, 2, 1, 4}));
}

TEST_F(VulkanPooling, NegativeValuesBeatPaddingToo) {
  MaxPooling2Request p = window(1, 3);
  p.start_padding = U64s{0, 1};
  p.end_padding = U64s{0, 1};
  const Pooled r = pool(DataType::Int16, {1, 1, 1, 2}, std::nullopt, bytes_of(std::vector<int16_t>{-5, -9}), p);
  EXPECT_EQ(values_of<int16_t>(r.output, 2), (std::vector<int16_t>{-5, -5}));
  EXPECT_EQ(r.indices, (std::vector<uint64_t>{0, 0}));
}

TEST_F(VulkanPooling, NanBeatsEveryNumberAndTheFirstNanStays) {
  const float inf = std::numeric_limits<float>::infinity();
  float nan_a;
  float nan_b;
  const uint32_t a = 0x7FC00001u;
  const uint32_t b = 0xFFC00002u;
  std::memcpy(&nan_a, &a, 4);
  std::memcpy(&nan_b, &b, 4);
  const Pooled r = pool(DataType::Float32, {1, 1, 1, 4}, std::nullopt, bytes_of(std::vector<float>{inf, nan_a, 5, nan_b}),
                        window(1, 4));
  EXPECT_EQ(bits_of(first_value<float>(r)), a);
  EXPECT_EQ(r.indices, (std::vector<uint64_t>{1}));
}

TEST_F(VulkanPooling, NegativeZeroEqualsPositiveZeroSoTheFirstWins) {
  const Pooled neg_first = pair<float>(DataType::Float32, -0.0f, 0.0f);
  EXPECT_EQ(bits_of(first_value<float>(neg_first)), 0x80000000u);
  EXPECT_EQ(neg_first.indices, (std::vector<uint64_t>{0}));
  const Pooled pos_first = pair<double>(DataType::Float64, 0.0, -0.0);
  EXPECT_EQ(bits_of(first_value<double>(pos_first)), 0u);
  EXPECT_EQ(pos_first.indices, (std::vector<uint64_t>{0}));
  const Pooled half = pair<uint16_t>(DataType::Float16, 0x8000, 0x0000);
  EXPECT_EQ(first_value<uint16_t>(half), 0x8000);
}

TEST_F(VulkanPooling, InfinitiesOrderAroundEveryFiniteValue) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(pair<double>(DataType::Float64, -inf, -1e308).indices, (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<double>(DataType::Float64, 1e308, inf).indices, (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<uint16_t>(DataType::Float16, 0x7BFF, 0x7C00).indices, (std::vector<uint64_t>{1}));  // 65504 < inf
}

TEST_F(VulkanPooling, DenormalsCompareExactly) {
  EXPECT_EQ(pair<float>(DataType::Float32, 0.0f, std::numeric_limits<float>::denorm_min()).indices,
            (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<float>(DataType::Float32, -std::numeric_limits<float>::denorm_min(), -0.0f).indices,
            (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<double>(DataType::Float64, 0.0, std::numeric_limits<double>::denorm_min()).indices,
            (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<uint16_t>(DataType::Float16, 0x0001, 0x0002).indices, (std::vector<uint64_t>{1}));
}

TEST_F(VulkanPooling, SixtyFourBitIntegersAbove2To53CompareExactly) {
  const int64_t p53 = int64_t{1} << 53;
  EXPECT_EQ(pair<int64_t>(DataType::Int64, p53, p53 + 1).indices, (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<int64_t>(DataType::Int64, p53 + 1, p53).indices, (std::vector<uint64_t>{0}));
  EXPECT_EQ(pair<int64_t>(DataType::Int64, -1, std::numeric_limits<int64_t>::min()).indices,
            (std::vector<uint64_t>{0}));
  EXPECT_EQ(pair<uint64_t>(DataType::UInt64, 0x8000000000000000u, 0x7FFFFFFFFFFFFFFFu).indices,
            (std::vector<uint64_t>{0}));
  EXPECT_EQ(first_value<uint64_t>(pair<uint64_t>(DataType::UInt64, 1, 0xFFFFFFFFFFFFFFFFu)), 0xFFFFFFFFFFFFFFFFu);
}

TEST_F(VulkanPooling, SmallIntegersCompareWithTheirSign) {
  EXPECT_EQ(pair<int8_t>(DataType::Int8, -128, 127).indices, (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<uint8_t>(DataType::UInt8, 128, 127).indices, (std::vector<uint64_t>{0}));
  EXPECT_EQ(pair<int16_t>(DataType::Int16, -1, 0).indices, (std::vector<uint64_t>{1}));
  EXPECT_EQ(pair<uint16_t>(DataType::UInt16, 0xFFFF, 1).indices, (std::vector<uint64_t>{0}));
}

// Column-major 2x2 input {1,1,2,2}, strides {4,4,1,2}: buffer [1,9,3,2] holds
// logical [[1,3],[9,2]]; 9 sits at logical (1,0), flat index 2, buffer offset 1.
TEST_F(VulkanPooling, IndicesAreLogicalRowMajorWhateverTheStrides) {
  const Pooled r = pool(DataType::UInt32, {1, 1, 2, 2}, U64s{4, 4, 1, 2}, bytes_of(std::vector<uint32_t>{1, 9, 3, 2}),
                        window(2, 2));
  EXPECT_EQ(first_value<uint32_t>(r), 9u);
  EXPECT_EQ(r.indices, (std::vector<uint64_t>{2}));
}

// 5-D {1,2,2,2,2}: channel 1 holds 8..15 with its maximum 15 at flat index 15.
TEST_F(VulkanPooling, FiveDimensionalWindowsCoverDepthHeightAndWidth) {
  std::vector<float> input(16);
  for (std::size_t i = 0; i < 16; ++i) input[i] = static_cast<float>(i);
  input[3] = 100;  // channel 0's maximum, at flat index 3
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{1, 2, 2, 2, 2}, std::nullopt};
  r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  MaxPooling2Request p;
  p.window_size = {2, 2, 2};
  r.params = p;
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  auto result = run_to_new_buffers(*backend_, *op, bytes_of(input));
  ASSERT_TRUE(result) << result.error().to_string();
  EXPECT_EQ(values_of<float>(result->output, 2), (std::vector<float>{100, 15}));
  EXPECT_EQ(values_of<uint32_t>(result->indices, 2), (std::vector<uint32_t>{3, 15}));
}

}  // namespace
}  // namespace stridescope::test
