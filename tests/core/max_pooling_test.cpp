// DML_MAX_POOLING2_OPERATOR_DESC: the maximum of the elements in a sliding
// window over a {N,C,H,W} or {N,C,D,H,W} input, optionally with the indices
// of the chosen maxima: "zero-based, treating the input tensor as a
// contiguous one-dimensional array. If several elements within the sliding
// window have the same value, the later equal values are ignored and the
// index points to the first value found."
// operators.md: output size (in + start + end - ((window-1)*dilation + 1)) /
// stride + 1 (the page leaves out dilation); padded positions never win;
// indices are the winner's row-major position in the whole logical input,
// whatever the input's strides. max_pooling.h: a NaN beats every number and
// the first NaN met wins.
// The page prints no values, so the expected outputs here are hand-computed.
#include "core/max_pooling.h"

#include <gtest/gtest.h>

#include <bit>
#include <limits>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

// pooling_prefers: only a strictly greater value or a first NaN replaces the best.
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
static_assert(pooling_prefers(2.0f, 1.0f));
static_assert(!pooling_prefers(1.0f, 1.0f));     // ties keep the first
static_assert(!pooling_prefers(0.0f, -0.0f));    // +0 and -0 tie
static_assert(pooling_prefers(kNaN, 1.0f));      // NaN beats every number
static_assert(pooling_prefers(kNaN, std::numeric_limits<float>::infinity()));
static_assert(!pooling_prefers(5.0f, kNaN));     // nothing beats a NaN
static_assert(!pooling_prefers(kNaN, kNaN));     // the first NaN stays
static_assert(pooling_prefers<int64_t>((int64_t{1} << 53) + 1, int64_t{1} << 53));
static_assert(!pooling_prefers<uint8_t>(0, 255));

struct Case {
  TensorRequest input;
  MaxPooling2Request params;
  DataType indices_type = DataType::UInt32;
};

// Runs the CPU backend and the reference; checks both against the expected
// row-major output bits and indices.
template <class T, class I = uint32_t>
void expect_pooling(const Case& c, const std::vector<T>& input, const std::vector<T>& expected,
                    const std::vector<I>& expected_indices) {
  OpRequest request{c.input, TensorRequest{}, TensorRequest{c.indices_type, std::nullopt, std::nullopt}, c.params};
  SS_ASSERT_MAKE(op, request);
  const auto bytes = test::bytes_of(input);
  for (const auto& [who, out] : {std::pair{"cpu backend", test::run_cpu(op, bytes)},
                                 std::pair{"reference", test::run_reference(op, bytes)}}) {
    const std::vector<T> values = test::logical_values<T>(op.output(), out.output);
    ASSERT_EQ(values.size(), expected.size()) << who;
    for (std::size_t i = 0; i < values.size(); ++i) {
      // Bits, so that NaN payloads and the sign of zero count.
      EXPECT_EQ(std::memcmp(&values[i], &expected[i], sizeof(T)), 0)
          << who << ": output " << i << " is " << +values[i] << ", expected " << +expected[i];
    }
    EXPECT_EQ(test::logical_values<I>(*op.output_indices(), out.indices), expected_indices) << who;
  }
}

MaxPooling2Request pool(U64s window, U64s strides = {}, U64s start = {}, U64s end = {}, U64s dilations = {}) {
  auto opt = [](U64s v) { return v.empty() ? std::nullopt : std::optional<U64s>(std::move(v)); };
  return MaxPooling2Request{std::move(window), opt(std::move(strides)), opt(std::move(start)), opt(std::move(end)),
                            opt(std::move(dilations))};
}

const TensorRequest kInput4x4 = tensor(DataType::Float32, {1, 1, 4, 4});

TEST(MaxPooling, TapIndexIsOutputTimesStrideMinusStartPlusTapTimesDilation) {
  MaxPooling2Params p;
  p.window_size = {3, 2};
  p.strides = {2, 1};
  p.start_padding = {1, 0};
  p.end_padding = {0, 0};
  p.dilations = {2, 1};
  EXPECT_EQ(p.spatial_rank(), 2u);
  EXPECT_EQ(pooling_tap_index(p, 0, 0, 0), -1);  // in the start padding
  EXPECT_EQ(pooling_tap_index(p, 0, 1, 1), 3);   // 1*2 - 1 + 1*2
  EXPECT_EQ(pooling_tap_index(p, 0, 2, 2), 7);
  EXPECT_EQ(pooling_tap_index(p, 1, 3, 1), 4);
}

TEST(MaxPooling, TwoByTwoWindowStrideTwo) {
  expect_pooling<float>({kInput4x4, pool({2, 2}, {2, 2})}, test::iota_floats(16), {6, 8, 14, 16},
                        {5, 7, 13, 15});
}

TEST(MaxPooling, PaddedThreeByThreeWindowKeepsTheSize) {
  expect_pooling<float>({kInput4x4, pool({3, 3}, {}, {1, 1}, {1, 1})}, test::iota_floats(16),
                        {6, 7, 8, 8, 10, 11, 12, 12, 14, 15, 16, 16, 14, 15, 16, 16},
                        {5, 6, 7, 7, 9, 10, 11, 11, 13, 14, 15, 15, 13, 14, 15, 15});
}

TEST(MaxPooling, DilationSpreadsTheTaps) {
  // Window 2x2 with dilation 2 spans 3x3: taps {o, o+2} on each axis.
  expect_pooling<float>({kInput4x4, pool({2, 2}, {}, {}, {}, {2, 2})}, test::iota_floats(16), {11, 12, 15, 16},
                        {10, 11, 14, 15});
}

TEST(MaxPooling, FirstMaximumInWindowOrderWinsTies) {
  const TensorRequest row = tensor(DataType::Float32, {1, 1, 1, 4});
  expect_pooling<float>({row, pool({1, 2})}, {3, 5, 5, 1}, {5, 5, 5}, {1, 1, 2});
  // Row-major window order: in a 2x2 window of equal values the top-left wins.
  expect_pooling<float>({tensor(DataType::Float32, {1, 1, 2, 2}), pool({2, 2})}, {7, 7, 7, 7}, {7}, {0});
}

TEST(MaxPooling, PaddedPositionsNeverWin) {
  const TensorRequest row = tensor(DataType::Float32, {1, 1, 1, 2});
  expect_pooling<float>({row, pool({1, 3}, {}, {0, 1}, {0, 1})}, {-5, -3}, {-3, -3}, {1, 1});
  const float inf = std::numeric_limits<float>::infinity();
  expect_pooling<float>({row, pool({1, 2}, {}, {0, 1}, {0, 1})}, {-inf, -inf}, {-inf, -inf, -inf}, {0, 0, 1});
  const TensorRequest ints = tensor(DataType::Int32, {1, 1, 1, 2});
  const int32_t lowest = std::numeric_limits<int32_t>::min();
  expect_pooling<int32_t>({ints, pool({1, 2}, {}, {0, 1}, {0, 1})}, {lowest, lowest}, {lowest, lowest, lowest},
                          {0, 0, 1});
}

TEST(MaxPooling, NaNBeatsEveryNumberAndTheFirstNaNWins) {
  const float nan1 = std::bit_cast<float>(0x7FC00001u);
  const float nan2 = std::bit_cast<float>(0xFFC00002u);
  const TensorRequest row = tensor(DataType::Float32, {1, 1, 1, 4});
  expect_pooling<float>({row, pool({1, 2})}, {1, nan1, 3, nan2}, {nan1, nan1, nan2}, {1, 1, 3});
  expect_pooling<float>({row, pool({1, 4})}, {nan2, 9, nan1, 1}, {nan2}, {0});
  const float inf = std::numeric_limits<float>::infinity();
  expect_pooling<float>({row, pool({1, 4})}, {inf, 1, nan1, 1}, {nan1}, {2});
}

TEST(MaxPooling, SignedZerosTieAndTheFirstWins) {
  const TensorRequest row = tensor(DataType::Float32, {1, 1, 1, 2});
  expect_pooling<float>({row, pool({1, 2})}, {-0.0f, 0.0f}, {-0.0f}, {0});
  expect_pooling<float>({row, pool({1, 2})}, {0.0f, -0.0f}, {0.0f}, {0});
}

TEST(MaxPooling, Float16ComparesValuesNotBits) {
  // 0xBC00 = -1 has larger bits than 0x4000 = 2; 0x7E00 is NaN; 0x0001 a denormal.
  const TensorRequest row = tensor(DataType::Float16, {1, 1, 1, 4});
  expect_pooling<uint16_t>({row, pool({1, 2})}, {0xBC00, 0x4000, 0x0001, 0x8001}, {0x4000, 0x4000, 0x0001},
                           {1, 1, 2});
  expect_pooling<uint16_t>({row, pool({1, 2})}, {0x3C00, 0x7E00, 0x7C00, 0xFC00}, {0x7E00, 0x7E00, 0x7C00},
                           {1, 1, 2});
}

TEST(MaxPooling, IndicesCountBatchAndChannel) {
  // 2x3x2x2 iota: each 2x2 window's maximum is its last element.
  expect_pooling<float>({tensor(DataType::Float32, {2, 3, 2, 2}), pool({2, 2})}, test::iota_floats(24),
                        {4, 8, 12, 16, 20, 24}, {3, 7, 11, 15, 19, 23});
}

TEST(MaxPooling, IndicesAreLogicalPositionsWhateverTheInputStrides) {
  // The 2x3x2x2 iota tensor stored NHWC (strides {12,1,6,3}): same values,
  // same indices, though the winners' buffer offsets differ.
  std::vector<float> nhwc(24);
  for (uint64_t n = 0; n < 2; ++n)
    for (uint64_t c = 0; c < 3; ++c)
      for (uint64_t h = 0; h < 2; ++h)
        for (uint64_t w = 0; w < 2; ++w) nhwc[n * 12 + c + h * 6 + w * 3] = static_cast<float>(n * 12 + c * 4 + h * 2 + w + 1);
  expect_pooling<float>({tensor(DataType::Float32, {2, 3, 2, 2}, U64s{12, 1, 6, 3}), pool({2, 2})}, nhwc,
                        {4, 8, 12, 16, 20, 24}, {3, 7, 11, 15, 19, 23});
}

TEST(MaxPooling, BroadcastInputIndicesNameTheFirstLogicalElement) {
  // One stored value broadcast over 2x2: all equal, the first (index 0) wins.
  expect_pooling<float>({tensor(DataType::Float32, {1, 1, 2, 2}, U64s{0, 0, 0, 0}), pool({2, 2})}, {4}, {4}, {0});
}

TEST(MaxPooling, FiveDimensionalWithUInt64Indices) {
  std::vector<float> input = test::iota_floats(8);
  input[5] = 100;
  expect_pooling<float, uint64_t>({tensor(DataType::Float32, {1, 1, 2, 2, 2}), pool({2, 2, 2}), DataType::UInt64},
                                  input, {100}, {5});
  expect_pooling<float, uint64_t>(
      {tensor(DataType::Float32, {1, 1, 2, 2, 2}), pool({1, 2, 1}), DataType::UInt64}, test::iota_floats(8),
      {3, 4, 7, 8}, {2, 3, 6, 7});
}

TEST(MaxPooling, SixtyFourBitIntegersCompareExactly) {
  // 2^53 and 2^53 + 1 are one double: comparing through double would tie.
  const int64_t big = int64_t{1} << 53;
  const TensorRequest row = tensor(DataType::Int64, {1, 1, 1, 2});
  expect_pooling<int64_t>({row, pool({1, 2})}, {big, big + 1}, {big + 1}, {1});
  expect_pooling<int64_t>({row, pool({1, 2})}, {big + 1, big}, {big + 1}, {0});
  const uint64_t top = std::numeric_limits<uint64_t>::max();
  const TensorRequest urow = tensor(DataType::UInt64, {1, 1, 1, 2});
  expect_pooling<uint64_t>({urow, pool({1, 2})}, {top - 1, top}, {top}, {1});
  const TensorRequest srow = tensor(DataType::Int64, {1, 1, 1, 3});
  expect_pooling<int64_t>({srow, pool({1, 3})}, {-1, std::numeric_limits<int64_t>::min(), -2}, {-1}, {0});
}

TEST(MaxPooling, SmallIntegersCompareBySign) {
  expect_pooling<int8_t>({tensor(DataType::Int8, {1, 1, 1, 4}), pool({1, 4})}, {-128, -1, 127, 0}, {127}, {2});
  expect_pooling<uint8_t>({tensor(DataType::UInt8, {1, 1, 1, 4}), pool({1, 4})}, {128, 255, 1, 0}, {255}, {1});
  expect_pooling<int16_t>({tensor(DataType::Int16, {1, 1, 1, 3}), pool({1, 3})}, {-300, -2, -5}, {-2}, {1});
}

TEST(MaxPooling, IndicesAreOptional) {
  OpRequest request{kInput4x4, TensorRequest{}, std::nullopt, pool({2, 2}, {2, 2})};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(test::iota_floats(16));
  const test::Outputs cpu = test::run_cpu(op, input);
  EXPECT_TRUE(cpu.indices.empty());
  EXPECT_EQ(test::logical_values<float>(op.output(), cpu.output), (std::vector<float>{6, 8, 14, 16}));
}

TEST(MaxPooling, WritesGappedIndicesThroughTheirStrides) {
  OpRequest request{kInput4x4, TensorRequest{}, tensor(DataType::UInt64, {1, 1, 2, 2}, U64s{8, 8, 4, 1}),
                    pool({2, 2}, {2, 2})};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(test::iota_floats(16));
  const test::Outputs cpu = test::run_cpu(op, input);
  ASSERT_EQ(cpu.indices.size(), 6u * 8);  // offsets 0, 1, 4, 5
  const std::vector<uint64_t> buffer{5, 7, 0, 0, 13, 15};
  for (std::size_t i = 0; i < buffer.size(); ++i) EXPECT_EQ(test::load<uint64_t>(cpu.indices, i), buffer[i]) << i;
}

}  // namespace
}  // namespace stridescope
