// The operators are separable per dimension, so their index arithmetic
// becomes one small table per dimension:
//   slice:   source[d][o] = Offsets[d] + Strides[d] * o
//   slice1:  source[d][o] = CopyStart[d] + InputWindowStrides[d] * o, CopyStart
//            at the window end where the stride is negative
//   padding: source[d][o] = input index o - StartPadding[d] folded by the
//            mode, or kPaddingIndex where CONSTANT padding supplies the value
//   max_pooling2: taps[s][o * window + k] = o * Stride - Start + k * Dilation,
//            or kPaddingIndex where the tap lies in padding.
// The expected tables are read off the DirectML examples by hand.
#include "core/index_plan.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;
using test::page_padding;
using Table = std::vector<int64_t>;
constexpr int64_t P = kPaddingIndex;

TEST(IndexPlan, IdentityMapsEveryIndexToItself) {
  OpRequest request{tensor(DataType::Float32, {2, 3}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  const GatherPlan plan = make_gather_plan(op);
  EXPECT_EQ(plan.rank, 2u);
  EXPECT_EQ(plan.source[0], (Table{0, 1}));
  EXPECT_EQ(plan.source[1], (Table{0, 1, 2}));
}

TEST(IndexPlan, SliceExample2Table) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    SliceRequest{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}}};
  SS_ASSERT_MAKE(op, request);
  const GatherPlan plan = make_gather_plan(op);
  EXPECT_EQ(plan.rank, 4u);
  EXPECT_EQ(plan.source[0], (Table{0}));
  EXPECT_EQ(plan.source[2], (Table{1, 3}));
  EXPECT_EQ(plan.source[3], (Table{0, 3}));
}

TEST(IndexPlan, Slice1NegativeStrideTableStartsAtTheWindowEnd) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), tensor(DataType::Float32, {1, 1, 2, 2}),
                    std::nullopt, Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}};
  SS_ASSERT_MAKE(op, request);
  const GatherPlan plan = make_gather_plan(op);
  EXPECT_EQ(plan.source[2], (Table{3, 1}));
  EXPECT_EQ(plan.source[3], (Table{1, 3}));
}

TEST(IndexPlan, Slice1TableHasOneEntryPerOutputIndexNotPerReachableOne) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), tensor(DataType::Float32, {1, 1, 1, 2}),
                    std::nullopt, Slice1Request{{0, 0, 0, 0}, {1, 1, 4, 4}, {1, 1, -1, -1}}};
  SS_ASSERT_MAKE(op, request);
  const GatherPlan plan = make_gather_plan(op);
  EXPECT_EQ(plan.source[2], (Table{3}));
  EXPECT_EQ(plan.source[3], (Table{3, 2}));
}

TEST(IndexPlan, PaddingTablesFollowThePageExamples) {
  {
    SS_ASSERT_MAKE(op, page_padding(PaddingMode::Constant));
    const GatherPlan plan = make_gather_plan(op);
    EXPECT_EQ(plan.source[2], (Table{P, 0, 1, 2, 3, P, P, P}));
    EXPECT_EQ(plan.source[3], (Table{P, P, 0, 1, 2, 3, P, P, P, P}));
  }
  {
    SS_ASSERT_MAKE(op, page_padding(PaddingMode::Edge));
    const GatherPlan plan = make_gather_plan(op);
    EXPECT_EQ(plan.source[2], (Table{0, 0, 1, 2, 3, 3, 3, 3}));
    EXPECT_EQ(plan.source[3], (Table{0, 0, 0, 1, 2, 3, 3, 3, 3, 3}));
  }
  {
    SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
    const GatherPlan plan = make_gather_plan(op);
    EXPECT_EQ(plan.source[2], (Table{1, 0, 1, 2, 3, 2, 1, 0}));
    EXPECT_EQ(plan.source[3], (Table{2, 1, 0, 1, 2, 3, 2, 1, 0, 1}));
  }
  {
    SS_ASSERT_MAKE(op, page_padding(PaddingMode::Symmetric));
    const GatherPlan plan = make_gather_plan(op);
    EXPECT_EQ(plan.source[2], (Table{0, 0, 1, 2, 3, 3, 2, 1}));
    EXPECT_EQ(plan.source[3], (Table{1, 0, 0, 1, 2, 3, 3, 2, 1, 0}));
  }
  {
    SS_ASSERT_MAKE(op, page_padding(PaddingMode::Constant));
    const GatherPlan plan = make_gather_plan(op);
    EXPECT_EQ(plan.source[0], (Table{0}));  // unpadded dimensions map to themselves
    EXPECT_EQ(plan.source[1], (Table{0}));
  }
}

// The input index before folding is what tells a padding region apart: the
// page's StartPadding {0,0,1,2} over a 4x4 input puts output rows 0 and 5..7
// and columns 0..1 and 6..9 outside [0, 4).
TEST(IndexPlan, PaddingUnfoldedTablesLocateThePaddingRegions) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
  const GatherPlan plan = make_gather_plan(op);
  EXPECT_EQ(plan.unfolded[0], (Table{0}));
  EXPECT_EQ(plan.unfolded[2], (Table{-1, 0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(plan.unfolded[3], (Table{-2, -1, 0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(IndexPlan, OnlyPaddingHasUnfoldedTables) {
  OpRequest request{tensor(DataType::Float32, {2, 3}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  const GatherPlan plan = make_gather_plan(op);
  EXPECT_TRUE(plan.unfolded[0].empty());
  EXPECT_TRUE(plan.unfolded[1].empty());
}

TEST(IndexPlan, PoolingTapsMarkPaddingAndSpreadByDilation) {
  // Input 4x4; H: window 3, stride 1, start 1, end 1 -> 4 outputs;
  // W: window 2, dilation 2, stride 2 -> (4 - 3) / 2 + 1 = 1 output.
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{3, 2}, U64s{1, 2}, U64s{1, 0}, U64s{1, 0}, U64s{1, 2}}};
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.output().sizes(), (Sizes{1, 1, 4, 1}));
  const PoolingPlan plan = make_pooling_plan(op);
  EXPECT_EQ(plan.spatial_rank, 2u);
  EXPECT_EQ(plan.axes[0].window, 3u);
  EXPECT_EQ(plan.axes[0].taps, (Table{P, 0, 1, 0, 1, 2, 1, 2, 3, 2, 3, P}));
  EXPECT_EQ(plan.axes[1].window, 2u);
  EXPECT_EQ(plan.axes[1].taps, (Table{0, 2}));
}

TEST(IndexPlan, PoolingPlanHasThreeAxesForFiveDimensionalInput) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 3, 2, 2}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{2, 1, 2}, U64s{1, 1, 1}, std::nullopt, std::nullopt, std::nullopt}};
  SS_ASSERT_MAKE(op, request);
  const PoolingPlan plan = make_pooling_plan(op);
  EXPECT_EQ(plan.spatial_rank, 3u);
  EXPECT_EQ(plan.axes[0].taps, (Table{0, 1, 1, 2}));
  EXPECT_EQ(plan.axes[1].taps, (Table{0, 1}));
  EXPECT_EQ(plan.axes[2].taps, (Table{0, 1}));
}

}  // namespace
}  // namespace stridescope
