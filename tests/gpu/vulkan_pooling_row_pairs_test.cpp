// max_pooling2's row pairs (shaders/max_pooling2.comp): each invocation
// pools output rows H and H + 1, and inside the runs the quad path reads the
// input rows the two windows share once (SS_P_H_PAIR_SHIFT). The plan's
// pair geometry is pinned by hand; the shader is compared bit for bit with
// the CPU reference and the independent reference on shapes whose box ends
// with a row alone, whose rows pad at the top and bottom, whose H taps are
// dilated, with a D axis, in every element size with and without indices,
// and on inputs whose shared rows hold NaNs, ties and both zeros.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <vector>

#include "gpu/pooling_program.h"
#include "gpu/run_plan.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"
#include "pooling_shape.h"

namespace stridescope::test {
namespace {

std::optional<gpu::RunPlan> plan_for(const PoolingShape& shape) {
  auto op = Operation::make(pooling_request(shape, DataType::Float32, std::nullopt));
  EXPECT_TRUE(op) << op.error().to_string();
  if (!op) return std::nullopt;
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{1} << 27;
  auto plan = gpu::plan_run(*op, limits);
  EXPECT_TRUE(plan) << plan.error().to_string();
  if (!plan || !plan->compute) return std::nullopt;
  return std::move(*plan);
}

uint32_t pair_shift(const PoolingShape& shape) {
  const auto plan = plan_for(shape);
  return plan ? plan->compute->tables.at(SS_P_H_PAIR_SHIFT) : 0;
}

// 3x3 windows, stride 2, padding 1 on every side: output rows o and o + 1
// read input rows 2o - 1 .. 2o + 1 and 2o + 1 .. 2o + 3.
const PoolingShape k3x3Stride2{{1, 2, 9, 37}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt};

TEST(PoolingRowPairs, StrideTwoWindowThreeSharesOneInputRow) {
  EXPECT_EQ(pair_shift(k3x3Stride2), 2u);  // row o + 1's first tap is row o's third
}

TEST(PoolingRowPairs, DilationTwoStrideTwoSharesTwoInputRows) {
  // Taps 2o, 2o + 2, 2o + 4 and 2o + 2, 2o + 4, 2o + 6.
  EXPECT_EQ(pair_shift({{1, 1, 12, 20}, std::nullopt, {3, 2}, {2, 1}, {2, 1}, {0, 0}, {0, 0}, std::nullopt}), 1u);
}

TEST(PoolingRowPairs, DilationTwoStrideOneSharesNoInputRow) {
  // Taps o, o + 2, o + 4 and o + 1, o + 3, o + 5: the rows interleave.
  EXPECT_EQ(pair_shift({{1, 1, 12, 20}, std::nullopt, {3, 2}, {1, 1}, {2, 1}, {0, 0}, {0, 0}, std::nullopt}), 3u);
}

TEST(PoolingRowPairs, StrideAboveTheWindowSharesNoInputRow) {
  EXPECT_EQ(pair_shift({{1, 1, 12, 20}, std::nullopt, {2, 2}, {3, 1}, {1, 1}, {0, 0}, {0, 0}, std::nullopt}), 2u);
}

TEST(PoolingRowPairs, OneInvocationPerChunkOfTwoRowsTheLastRowAlone) {
  // Output 2 x 5 x 19: three row pairs per channel (the third holds row 4
  // alone), two chunks of 16 outputs per row.
  const auto plan = plan_for(k3x3Stride2);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->compute->boxes.size(), 1u);
  EXPECT_EQ(plan->compute->boxes[0].items, 2u * 3u * 2u);
}

class VulkanPoolingRowPairs : public VulkanTest {
 protected:
  // Every element size without indices and with both index types, against
  // both references.
  void expect_matches(const PoolingShape& shape, const std::vector<DataType>& types) {
    uint64_t seed = 300;
    for (DataType type : types) {
      for (std::optional<DataType> index_type : {std::optional<DataType>{}, std::optional<DataType>{DataType::UInt32},
                                                 std::optional<DataType>{DataType::UInt64}}) {
        auto op = Operation::make(pooling_request(shape, type, index_type));
        ASSERT_TRUE(op) << op.error().to_string();
        Rng rng(++seed);
        const std::vector<std::byte> input = random_input(op->input(), rng);
        EXPECT_TRUE(matches_cpu_and_reference(*backend_, *op, input, seed)) << describe(*op);
      }
    }
  }
};

const std::vector<DataType> kQuadTypes{DataType::Float32, DataType::Int32, DataType::UInt32};
const std::vector<DataType> kOtherSizes{DataType::UInt8, DataType::Float16, DataType::Float64, DataType::Int64};

TEST_F(VulkanPoolingRowPairs, OddOutputHeightEndsWithARowAlone) {
  expect_matches(k3x3Stride2, kQuadTypes);
  expect_matches(k3x3Stride2, kOtherSizes);
}

TEST_F(VulkanPoolingRowPairs, PaddingTopAndBottomPairsARunRowWithAPaddedOne) {
  // Padding 2 on top and 1 below: rows 0 and the last read padding, so the
  // pairs (0, 1) and (4, 5) mix a table row with a run row.
  const PoolingShape shape{{1, 2, 10, 30}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {2, 1}, {1, 1}, std::nullopt};
  expect_matches(shape, kQuadTypes);
  expect_matches(shape, kOtherSizes);
}

TEST_F(VulkanPoolingRowPairs, DilatedRowsShareTwoInputRowsOrNone) {
  expect_matches({{1, 2, 13, 26}, std::nullopt, {3, 2}, {2, 2}, {2, 1}, {0, 0}, {0, 1}, std::nullopt}, kQuadTypes);
  expect_matches({{1, 2, 12, 26}, std::nullopt, {3, 2}, {1, 2}, {2, 1}, {1, 0}, {0, 1}, std::nullopt}, kQuadTypes);
}

TEST_F(VulkanPoolingRowPairs, FiveDimensionalPairsAlongHPerDTap) {
  const PoolingShape shape{{1, 2, 4, 7, 29}, std::nullopt, {2, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {0, 1, 1},
                           std::nullopt};
  expect_matches(shape, kQuadTypes);
  expect_matches(shape, {DataType::Float16, DataType::Float64});
}

TEST_F(VulkanPoolingRowPairs, SeveralBatchesAndChannelsPairRowsWithinEachChannel) {
  // Output 3 x 5 x 8 x 20: a pair never crosses a channel's last row.
  expect_matches({{3, 5, 15, 40}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt}, kQuadTypes);
}

// Element bits of a 3x3 stride-2 input whose odd rows (read by both rows of
// a pair) hold NaNs of two payloads, while every row holds +0, -0 and 1.0
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

TEST_F(VulkanPoolingRowPairs, NaNsTiesAndZerosInTheSharedRowKeepTheFirstWinner) {
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
