// max_pooling2 where vertically adjacent windows overlap: output rows H and
// H + 1 read some input rows both (3x3 stride 2: one row; dilated: two, or
// none when they interleave), the shape that a kernel pooling several rows
// per invocation exploits. The shader is compared bit for bit with the CPU
// reference and the independent reference on shapes whose output height is
// odd, whose rows pad at the top and bottom, whose H taps are dilated, with
// a D axis, in every element size with and without indices (UINT32 and
// UINT64), and on inputs whose overlapping rows hold NaNs, ties and both
// zeros.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <vector>

#include "gpu_test_support.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

// 3x3 windows, stride 2, padding 1 on every side: output rows o and o + 1
// read input rows 2o - 1 .. 2o + 1 and 2o + 1 .. 2o + 3.
const PoolingShape k3x3Stride2{{1, 2, 9, 37}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt};

class VulkanPoolingRowOverlap : public VulkanTest {
 protected:
  // Every element size without indices and with both index types, against
  // both references.
  void expect_matches(const PoolingShape& shape, const std::vector<DataType>& types) {
    std::vector<OpRequest> requests;
    for (DataType type : types) {
      for (std::optional<DataType> index_type : {std::optional<DataType>{}, std::optional<DataType>{DataType::UInt32},
                                                 std::optional<DataType>{DataType::UInt64}}) {
        requests.push_back(pooling_request(shape, type, index_type));
      }
    }
    expect_each_matches_cpu_and_reference(*backend_, requests, 300);
  }
};

const std::vector<DataType> kQuadTypes{DataType::Float32, DataType::Int32, DataType::UInt32};
const std::vector<DataType> kOtherSizes{DataType::UInt8, DataType::Float16, DataType::Float64, DataType::Int64};

TEST_F(VulkanPoolingRowOverlap, OddOutputHeightLeavesTheLastRowWithoutANeighbour) {
  expect_matches(k3x3Stride2, kQuadTypes);
  expect_matches(k3x3Stride2, kOtherSizes);
}

TEST_F(VulkanPoolingRowOverlap, PaddingTopAndBottomNextToUnpaddedRows) {
  // Padding 2 on top and 1 below: the first and last rows read padding,
  // their neighbours do not.
  const PoolingShape shape{{1, 2, 10, 30}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {2, 1}, {1, 1}, std::nullopt};
  expect_matches(shape, kQuadTypes);
  expect_matches(shape, kOtherSizes);
}

TEST_F(VulkanPoolingRowOverlap, DilatedRowsShareTwoInputRowsOrNone) {
  expect_matches({{1, 2, 13, 26}, std::nullopt, {3, 2}, {2, 2}, {2, 1}, {0, 0}, {0, 1}, std::nullopt}, kQuadTypes);
  expect_matches({{1, 2, 12, 26}, std::nullopt, {3, 2}, {1, 2}, {2, 1}, {1, 0}, {0, 1}, std::nullopt}, kQuadTypes);
}

TEST_F(VulkanPoolingRowOverlap, FiveDimensionalOverlapAlongHPerDTap) {
  const PoolingShape shape{{1, 2, 4, 7, 29}, std::nullopt, {2, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {0, 1, 1},
                           std::nullopt};
  expect_matches(shape, kQuadTypes);
  expect_matches(shape, {DataType::Float16, DataType::Float64});
}

TEST_F(VulkanPoolingRowOverlap, SeveralBatchesAndChannels) {
  // Output 3 x 5 x 8 x 20: a channel's last row and the next one's first
  // share nothing.
  expect_matches({{3, 5, 15, 40}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt}, kQuadTypes);
}

// Element bits of a 3x3 stride-2 input whose odd rows (read by two
// adjacent output rows) hold NaNs of two payloads, while every row holds +0, -0 and 1.0
// in a pattern that makes most windows tie.
std::vector<std::byte> shared_row_input(const Operation& op) {
  const auto& sizes = op.input().sizes();
  const uint64_t h = sizes[2];
  const uint64_t w = sizes[3];
  std::vector<uint32_t> bits(op.input().buffer_bytes() / 4, 0);
  for (uint64_t i = 0; i < bits.size(); ++i) {
    const uint64_t row = (i / w) % h;
    const uint64_t col = i % w;
    const uint64_t pick = (col * 7 + row * 3 + i / (w * h)) % 11;
    uint32_t v = pick < 4 ? 0x00000000u : pick < 8 ? 0x80000000u : 0x3F800000u;
    if (row % 2 == 1 && pick == 10) v = 0x7FC00000u;
    if (row % 2 == 1 && pick == 9) v = 0xFFC00001u;
    bits[i] = v;
  }
  std::vector<std::byte> bytes(bits.size() * 4);
  std::memcpy(bytes.data(), bits.data(), bytes.size());
  return bytes;
}

TEST_F(VulkanPoolingRowOverlap, NaNsTiesAndZerosInTheSharedRowKeepEachWindowsFirstWinner) {
  for (std::optional<DataType> index_type : {std::optional<DataType>{}, std::optional<DataType>{DataType::UInt32},
                                             std::optional<DataType>{DataType::UInt64}}) {
    auto op = Operation::make(pooling_request(
        {{1, 3, 11, 41}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt}, DataType::Float32,
        index_type));
    ASSERT_TRUE(op) << op.error().to_string();
    EXPECT_TRUE(matches_cpu_and_reference(*backend_, *op, shared_row_input(*op), 7)) << describe(*op);
  }
}

}  // namespace
}  // namespace stridescope::test
