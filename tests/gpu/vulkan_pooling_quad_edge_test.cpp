// The quad path's left edge group (SS_P_W_EDGE, shaders/pooling_quads.glsl):
// outputs left of the W run whose first taps lie in padding pool from quads,
// their padded span words keyed lowest and each output starting from its
// first real tap. Windows of 1 x 3 taps at stride 2, padded by one column on
// the left, over rows of 16 words: output 0 reads padding, words 0 and 1; the
// word before each row (the previous row's last) is bait that must never
// win. Output row 0 falls back to the tables (its group would start before
// the input); the others take the edge group. Expected values by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "gpu/pooling_program.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"
#include "pooled_words.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

const PoolingShape kLeftPaddedRows{{1, 1, 7, 16}, std::nullopt, {1, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 0}};

gpu::QuadEdge edge_of(const PoolingShape& shape, DataType type) {
  auto op = Operation::make(pooling_request(shape, type, DataType::UInt32));
  EXPECT_TRUE(op) << op.error().to_string();
  if (!op) return {};
  const gpu::PoolingProgram program = gpu::make_pooling_program(*op);
  return gpu::quad_edge(program, gpu::quad_path(program));
}

constexpr uint32_t starts(uint32_t s0, uint32_t s1, uint32_t s2, uint32_t s3) {
  return s0 | s1 << 8 | s2 << 16 | s3 << 24;
}

// 16 words of `fill` but for the words `set` names.
std::vector<uint32_t> row(uint32_t fill, const std::map<int, uint32_t>& set) {
  std::vector<uint32_t> words(16, fill);
  for (const auto& [w, bits] : set) words[static_cast<std::size_t>(w)] = bits;
  return words;
}

TEST(PoolingQuadEdge, OnePaddedColumnStartsEachOutputAtItsFirstRealTap) {
  // Group input column -1: output 0 starts at column 0 (span word 1), then 1, 3, 5.
  const gpu::QuadEdge edge = edge_of(kLeftPaddedRows, DataType::Float32);
  EXPECT_EQ(edge.edge, 0u);
  EXPECT_EQ(edge.pad_words, 1u);
  EXPECT_EQ(edge.starts, starts(1, 2, 4, 6));
}

TEST(PoolingQuadEdge, TwoPaddedColumnsMakeTwoEdgeOutputs) {
  // Window 5, stride 1, padding 2: outputs 0 and 1 read padding; all four start at column 0 or 1.
  const PoolingShape shape{{1, 1, 2, 20}, std::nullopt, {1, 5}, {1, 1}, {1, 1}, {0, 2}, {0, 2}};
  const gpu::QuadEdge edge = edge_of(shape, DataType::Int32);
  EXPECT_EQ(edge.edge, 0u);
  EXPECT_EQ(edge.pad_words, 2u);
  EXPECT_EQ(edge.starts, starts(2, 2, 2, 3));
}

TEST(PoolingQuadEdge, NoneWithoutLeftPadding) {
  const PoolingShape shape{{1, 1, 2, 20}, std::nullopt, {1, 3}, {1, 2}, {1, 1}, {0, 0}, {0, 1}};
  EXPECT_EQ(edge_of(shape, DataType::Float32).edge, SS_PADDING_INDEX);
}

class VulkanPoolingQuadEdge : public VulkanTest {
 protected:
  // Pools `input` (bits of `type`) without indices and with both index
  // types and checks every output and index.
  void expect_pooled(const PoolingShape& shape, DataType type, const std::vector<uint32_t>& input,
                     const PooledWords& expected) {
    ASSERT_EQ(edge_of(shape, type).edge, 0u) << "the shape must take the edge group";
    for (std::optional<DataType> index_type :
         {std::optional<DataType>{}, std::optional<DataType>{DataType::UInt32}, std::optional<DataType>{DataType::UInt64}}) {
      auto op = Operation::make(pooling_request(shape, type, index_type));
      ASSERT_TRUE(op) << op.error().to_string();
      expect_pooled_words(*backend_, *op, input, expected);
    }
  }
};

constexpr uint32_t kOne = 0x3F800000;
constexpr uint32_t kTwo = 0x40000000;
constexpr uint32_t kMinusOne = 0xBF800000;
constexpr uint32_t kMinusZero = 0x80000000;
constexpr uint32_t kNaN = 0x7FC00000;

TEST_F(VulkanPoolingQuadEdge, FloatEdgeTiesNaNsZerosAndBait) {
  std::vector<uint32_t> input;
  for (const auto& r : {
           row(kOne, {{0, kTwo}, {1, 0x40400000}, {15, kNaN}}),              // plain (tables); NaN bait
           row(kOne, {{0, 0x40A00000}, {1, 0x40A00000}, {15, 0x7F800000}}),  // a tie at the edge; +inf bait
           row(kOne, {{0, 0x7FC00001}, {1, 0x7FC00002}, {15, 0x7FC00003}}),  // a NaN in the first real tap stays
           row(kOne, {{0, 0xFF800000}, {1, 0xFF800000}}),                    // -inf at the edge
           row(kMinusOne, {{0, kMinusZero}, {1, 0}, {2, kMinusZero}, {3, kMinusZero}}),  // -0 ties +0
           row(kOne, {{1, kTwo}}),                                           // the second real tap wins
           row(kMinusOne, {{0, 0}, {1, kMinusZero}}),                        // +0 ties -0
       }) {
    input.insert(input.end(), r.begin(), r.end());
  }
  expect_pooled(kLeftPaddedRows, DataType::Float32, input,
                {{0x40400000, 0x40400000, kOne, kOne, kOne, kOne, kOne, kNaN,                  //
                  0x40A00000, 0x40A00000, kOne, kOne, kOne, kOne, kOne, 0x7F800000,            //
                  0x7FC00001, 0x7FC00002, kOne, kOne, kOne, kOne, kOne, 0x7FC00003,            //
                  0xFF800000, kOne, kOne, kOne, kOne, kOne, kOne, kOne,                        //
                  kMinusZero, 0, kMinusZero, kMinusOne, kMinusOne, kMinusOne, kMinusOne, kMinusOne,  //
                  kTwo, kTwo, kOne, kOne, kOne, kOne, kOne, kOne,                              //
                  0, kMinusZero, kMinusOne, kMinusOne, kMinusOne, kMinusOne, kMinusOne, kMinusOne},
                 {1,  1,  3,  5,  7,  9,  11,  15,   //
                  16, 17, 19, 21, 23, 25, 27,  31,   //
                  32, 33, 35, 37, 39, 41, 43,  47,   //
                  48, 50, 51, 53, 55, 57, 59,  61,   //
                  64, 65, 67, 69, 71, 73, 75,  77,   //
                  81, 81, 83, 85, 87, 89, 91,  93,   //
                  96, 97, 99, 101, 103, 105, 107, 109}});
}

// All-lowest rows after a row ending in the largest value: every output's
// first real tap wins, never the padded word before it.
TEST_F(VulkanPoolingQuadEdge, AllLowestIntegerWindowsPickTheFirstRealTap) {
  const PoolingShape shape{{1, 1, 2, 16}, std::nullopt, {1, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 0}};
  for (auto [type, lowest, largest] : {std::tuple{DataType::Int32, 0x80000000u, 0x7FFFFFFFu},
                                       std::tuple{DataType::UInt32, 0x00000000u, 0xFFFFFFFFu}}) {
    std::vector<uint32_t> input = row(5, {{15, largest}});
    const std::vector<uint32_t> low = row(lowest, {});
    input.insert(input.end(), low.begin(), low.end());
    expect_pooled(shape, type, input,
                  {{5, 5, 5, 5, 5, 5, 5, largest, lowest, lowest, lowest, lowest, lowest, lowest, lowest, lowest},
                   {0, 1, 3, 5, 7, 9, 11, 15, 16, 17, 19, 21, 23, 25, 27, 29}});
  }
}

TEST_F(VulkanPoolingQuadEdge, AGroupThatWouldStartBeforeTheInputFallsBack) {
  // Two window rows: output row 0's group would start one word before the
  // input, and its last window row's would not; output row 1 takes the edge group.
  const PoolingShape shape{{1, 1, 3, 16}, std::nullopt, {2, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 0}};
  const std::vector<uint32_t> input(48, 0xC0000000);  // -2 everywhere: the first real tap wins
  const uint32_t m = 0xC0000000;
  expect_pooled(shape, DataType::Float32, input,
                {{m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m},
                 {0, 1, 3, 5, 7, 9, 11, 13, 16, 17, 19, 21, 23, 25, 27, 29}});
}

}  // namespace
}  // namespace stridescope::test
