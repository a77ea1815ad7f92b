// max_pooling2's interior pipeline (gpu/pooling_interior.h): which outputs
// the plan gives it and which boxes may run it. Expected regions are worked
// out by hand from the window rule (input index = output * stride - start
// padding + tap * dilation); the boxes are the splitter's, under limits
// that split nothing. Whether the pipelines then compute the right bits is
// vulkan_pooling_quads_test's job.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "gpu/pooling_interior.h"
#include "gpu/run_plan.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu/vk_pipelines.h"
#include "gpu_test_support.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

// 16x16, 3x3 stride 2, padding 1: 8x8 outputs. Output row and column 0
// read padding (taps -1, 0, 1), the others none (row 7: 13, 14, 15); column 0
// is the quad path's left edge group, and row 0's real taps are 0 and 1.
const PoolingShape kPadded{{1, 2, 16, 16}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt};

std::optional<gpu::ComputePass> pass_of(const PoolingShape& shape, uint64_t chunk = 16,
                                        std::optional<DataType> index_type = DataType::UInt32) {
  gpu::DeviceLimits limits = roomy_limits();
  limits.pooling_chunk = chunk;
  return planned_pass(pooling_request(shape, DataType::Float32, index_type), limits);
}

struct ExpectedBox {
  U64s lo;
  U64s extent;
  uint32_t pipeline;  // SS_GENERAL, SS_INTERIOR, SS_INTERIOR_AT + k
};

// Input strides in whole quads: every span starts at word 3 of a quad (the
// edge group's first span word is input column -1).
constexpr uint32_t kAtWord3 = SS_INTERIOR_AT + 3;

void expect_boxes(const gpu::ComputePass& pass, const std::vector<ExpectedBox>& expected) {
  ASSERT_EQ(pass.boxes.size(), expected.size());
  for (std::size_t b = 0; b < expected.size(); ++b) {
    SCOPED_TRACE(b);
    EXPECT_EQ(pass.boxes[b].lo, expected[b].lo);
    EXPECT_EQ(pass.boxes[b].extent, expected[b].extent);
    EXPECT_EQ(pass.boxes[b].variant, expected[b].pipeline);
    EXPECT_EQ(pass.key_for(pass.boxes[b]).constants[gpu::kPoolingPipeline], expected[b].pipeline);
  }
}

TEST(PoolingInterior, PaddedRowsJoinWithTheirRealTaps) {
  auto pass = pass_of(kPadded);
  ASSERT_TRUE(pass);
  // Axes N, C, D (size 1), H, W. The left edge group starts the rows; channel
  // 0's first row starts it at input word -1, a padded one.
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 8, 8}, kAtWord3}});
  EXPECT_EQ(pass->key.constants[gpu::kPoolingPipeline], SS_GENERAL);  // the pass's own key stays the general one
  // The real-tap pairs (first, count - 1) of D (one output, tap 0) and H.
  const std::vector<uint32_t>& t = pass->tables;
  ASSERT_GE(t.size(), SS_P_RUN_WORDS);
  const auto words = [&t](uint32_t at, std::size_t count) {
    return std::vector<uint32_t>(t.begin() + t[at], t.begin() + t[at] + static_cast<std::ptrdiff_t>(count));
  };
  EXPECT_EQ(words(SS_P_D_REAL, 2), (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(words(SS_P_H_REAL, 16), (std::vector<uint32_t>{0, 1, 1, 2, 3, 2, 5, 2, 7, 2, 9, 2, 11, 2, 13, 2}));
}

TEST(PoolingInterior, VolumesTakeThePaddedPlanesAndRowsButNotTheRightEdge) {
  // D and H: 6, window 3, stride 2, padding 1: outputs 0 (taps -1, 0, 1) padded, 1 and 2 not.
  // W: 15, padding 1: outputs 0 and 7 (taps 13, 14, 15) padded; edge group 0, run [1, 7),
  // so the interior takes one group, [0, 4), and the general pipeline [4, 8).
  // Rows of 15 words start spans anywhere in a quad.
  const PoolingShape volume{{1, 1, 6, 6, 15}, std::nullopt, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1},
                            std::nullopt};
  auto pass = pass_of(volume);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 4}, {1, 1, 3, 3, 4}, SS_GENERAL}, {{0, 0, 0, 0, 0}, {1, 1, 3, 3, 4}, SS_INTERIOR}});
}

TEST(PoolingInterior, NoneUnlessChunksAreWholeGroups) {
  auto pass = pass_of(kPadded, 6);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 8, 8}, SS_GENERAL}});
}

TEST(PoolingInterior, NoneWithoutTheQuadPath) {
  gpu::DeviceLimits limits = roomy_limits();
  auto pass = planned_pass(pooling_request(kPadded, DataType::Float16, DataType::UInt32), limits);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 8, 8}, SS_GENERAL}});
}

TEST(PoolingInterior, OutputRowsOffQuadBoundariesRunTheGeneralPipeline) {
  PoolingShape shape = kPadded;
  shape.out_strides = U64s{200, 100, 9, 1};  // rows 9 elements apart
  auto pass = pass_of(shape);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 8, 8}, SS_GENERAL}});
  // Rows 12 apart: quads again.
  shape.out_strides = U64s{200, 100, 12, 1};
  pass = pass_of(shape);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 8, 8}, kAtWord3}});
}

TEST(PoolingInterior, WideIndicesAndNoIndicesToo) {
  for (std::optional<DataType> index_type : {std::optional<DataType>{DataType::UInt64}, std::optional<DataType>{}}) {
    auto pass = pass_of(kPadded, 16, index_type);
    ASSERT_TRUE(pass);
    expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 8, 8}, kAtWord3}});
  }
}

TEST(PoolingInterior, TheLeftEdgeGroupMayStartBeforeTheInputWindow) {
  // No H padding: input row 0 is output row 0's first, and its edge group's
  // padded word, column -1, lies before the window; its real words do not.
  const PoolingShape shape{{1, 1, 8, 16}, std::nullopt, {2, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 0}, std::nullopt};
  auto pass = pass_of(shape);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 1, 1, 7, 8}, kAtWord3}});
}

TEST(PoolingInterior, TheLastGroupMayLoadQuadsPastTheWindowButUseNone) {
  // 2x2 stride 2 over 2x2x16 (the batch stride 70 is off whole quads): the
  // last group of the last row starts at word 32 + 16 + 8 = 56 and uses
  // words up to 63, the input's last; at any alignment the group loads three
  // quads, and its third (words 64-67) lies past the window: the shader
  // clamps it.
  const PoolingShape shape{{1, 2, 2, 16}, U64s{70, 32, 16, 1}, {2, 2}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, std::nullopt};
  auto pass = pass_of(shape);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 1, 8}, SS_INTERIOR}});
  // Packed, every span starts a quad, and two quads hold it.
  PoolingShape packed = shape;
  packed.in_strides = std::nullopt;
  pass = pass_of(packed);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 2, 1, 1, 8}, SS_INTERIOR_AT}});
  // 2x17, 34 words: the last group uses words 17 + 8 to 17 + 15, and word 32
  // lies in the window's partial quad (whole quads: words 0-31).
  const PoolingShape odd{{1, 1, 2, 17}, std::nullopt, {2, 2}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, std::nullopt};
  pass = pass_of(odd);
  ASSERT_TRUE(pass);
  expect_boxes(*pass, {{{0, 0, 0, 0, 0}, {1, 1, 1, 1, 8}, SS_GENERAL}});
}

}  // namespace
}  // namespace stridescope::test
