// max_pooling2's two ways of reading taps (shaders/max_pooling2.comp):
// outputs in the unpadded affine runs along D, H and W compute their taps,
// the others read core's tables. The runs are read off the tables
// (gpu/pooling_program.h) and pinned here by hand; the shader is compared
// bit for bit with the CPU reference and the independent reference for
// every data type and both index types, on shapes whose rows start, end and
// cross chunks inside and outside the runs: odd sizes, strides 1 to 3,
// dilation, padding on every side, windows larger than the stride, no run
// at all, strided inputs, batched N and C, 5-D. random_input's palette
// makes ties and NaNs common.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/pooling_program.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;
constexpr uint32_t kPad = SS_PADDING_INDEX;

TEST(PoolingAffineRun, WindowThreeStrideTwoPaddingOneRunsBetweenTheBorders) {
  // Input width 7: output o reads taps 2o - 1 + k.
  const std::vector<uint32_t> table = {kPad, 0, 1, 1, 2, 3, 3, 4, 5, 5, 6, kPad};
  const gpu::PoolingProgram::AffineRun run = gpu::affine_inner_run(table, 3);
  EXPECT_EQ(run.lo, 1u);
  EXPECT_EQ(run.hi, 3u);
  EXPECT_EQ(run.base, 0xFFFFFFFFu);  // -1 mod 2^32
  EXPECT_EQ(run.step_o, 2u);
  EXPECT_EQ(run.step_k, 1u);
}

TEST(PoolingAffineRun, DilatedTapsStepByTheDilation) {
  // Window 2, stride 1, dilation 3, no padding: taps o + 3k.
  const std::vector<uint32_t> table = {0, 3, 1, 4, 2, 5};
  const gpu::PoolingProgram::AffineRun run = gpu::affine_inner_run(table, 2);
  EXPECT_EQ(run.lo, 0u);
  EXPECT_EQ(run.hi, 3u);
  EXPECT_EQ(run.base, 0u);
  EXPECT_EQ(run.step_o, 1u);
  EXPECT_EQ(run.step_k, 3u);
}

TEST(PoolingAffineRun, OneUnpaddedOutputIsARunOfOne) {
  const gpu::PoolingProgram::AffineRun run = gpu::affine_inner_run({kPad, 0, 0, 1, 1, kPad}, 2);
  EXPECT_EQ(run.lo, 1u);
  EXPECT_EQ(run.hi, 2u);
  EXPECT_EQ(run.base, 0u);
  EXPECT_EQ(run.step_k, 1u);
}

TEST(PoolingAffineRun, TablesWithoutAnAffineUnpaddedRunHaveNone) {
  EXPECT_EQ(gpu::affine_inner_run({0, 1, 1, 2, 3, 4}, 2).hi, 0u);  // not affine
  EXPECT_EQ(gpu::affine_inner_run({kPad, kPad}, 1).hi, 0u);
}

TEST(PoolingAffineRun, TheProgramCarriesTheWidthRun) {
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{1, 1, 5, 37}, std::nullopt};
  MaxPooling2Request p;
  p.window_size = {3, 3};
  p.strides = U64s{2, 2};
  p.start_padding = U64s{1, 1};
  p.end_padding = U64s{1, 1};
  r.params = p;
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  // 19 outputs along W reading 2o - 1 + k: unpadded for o in [1, 18).
  const gpu::PoolingProgram program = gpu::make_pooling_program(*op);
  EXPECT_EQ(program.w_inner.lo, 1u);
  EXPECT_EQ(program.w_inner.hi, 18u);
  EXPECT_EQ(program.w_inner.step_o, 2u);
  // 3 outputs along H reading 2o - 1 + k: only o = 1 is unpadded.
  EXPECT_EQ(program.h_inner.lo, 1u);
  EXPECT_EQ(program.h_inner.hi, 2u);
  EXPECT_EQ(program.h_inner.step_k, 1u);
  // A 4-D op's D axis: one output, one tap at index 0.
  EXPECT_EQ(program.d_inner.lo, 0u);
  EXPECT_EQ(program.d_inner.hi, 1u);
}

class VulkanPoolingPaths : public VulkanTest {
 protected:
  // Every data type with UINT32 and UINT64 indices, against both references.
  void expect_all_types_match(const PoolingShape& shape) {
    uint64_t seed = 1;
    for (DataType type : kAllDataTypes) {
      for (DataType index_type : {DataType::UInt32, DataType::UInt64}) {
        auto op = Operation::make(pooling_request(shape, type, index_type));
        ASSERT_TRUE(op) << op.error().to_string();
        Rng rng(++seed);
        const std::vector<std::byte> input = random_input(op->input(), rng);
        EXPECT_TRUE(matches_cpu_and_reference(*backend_, *op, input, seed)) << describe(*op);
      }
    }
  }
};

TEST_F(VulkanPoolingPaths, ThreeByThreeStrideTwoPaddedOnEverySide) {
  expect_all_types_match({{1, 1, 5, 37}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}});
}

TEST_F(VulkanPoolingPaths, DilatedStrideThreeWithUnevenPaddingAndBatches) {
  expect_all_types_match({{2, 3, 7, 41}, std::nullopt, {2, 3}, {1, 3}, {1, 2}, {0, 2}, {1, 0}});
}

TEST_F(VulkanPoolingPaths, WindowsLargerThanTheStrideOverlap) {
  expect_all_types_match({{1, 2, 9, 53}, std::nullopt, {4, 5}, {3, 2}, {2, 1}, {2, 3}, {3, 4}});
}

TEST_F(VulkanPoolingPaths, WideDilatedWindowsOverLongOddRows) {
  expect_all_types_match({{1, 1, 3, 67}, std::nullopt, {1, 7}, {1, 3}, {1, 3}, {0, 1}, {0, 5}});
}

TEST_F(VulkanPoolingPaths, OneByOneWindowsCopyEveryElement) {
  expect_all_types_match({{3, 2, 4, 19}, std::nullopt, {1, 1}, {1, 1}, {1, 1}, {0, 0}, {0, 0}});
}

TEST_F(VulkanPoolingPaths, PaddingWiderThanTheInputLeavesNoRun) {
  expect_all_types_match({{1, 2, 2, 3}, std::nullopt, {2, 5}, {1, 1}, {1, 1}, {0, 3}, {1, 3}});
}

TEST_F(VulkanPoolingPaths, StridedInputsStepTheirOwnWidthStride) {
  // NHWC strides of a logical {1, 3, 5, 23}: W steps by 3 elements.
  expect_all_types_match({{1, 3, 5, 23}, U64s{345, 1, 69, 3}, {2, 3}, {2, 2}, {1, 1}, {1, 1}, {0, 1}});
}

TEST_F(VulkanPoolingPaths, FiveDimensionalWindowsUseTheRunAlongWidth) {
  expect_all_types_match({{1, 2, 3, 4, 29}, std::nullopt, {2, 2, 3}, {1, 2, 2}, {1, 1, 1}, {0, 1, 1}, {1, 0, 1}});
}

}  // namespace
}  // namespace stridescope::test
