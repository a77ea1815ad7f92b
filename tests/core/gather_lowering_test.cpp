// core/gather_lowering.h: a gather's tables as segments of input offsets,
// size-1 dimensions folded and affine neighbours merged, exactly. Expected
// segments are worked out by hand from the DirectML formulas and the
// input's packed strides; the randomized test checks every output element
// against core's GatherPlan evaluated directly (index_plan.h's formula).
#include "core/gather_lowering.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "core/index_plan.h"
#include "reference/random_specs.h"
#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using Dims = std::vector<std::size_t>;

void expect_segment(const GatherSegment& s, uint64_t begin, int64_t value, int64_t step, bool pad) {
  EXPECT_EQ(s.begin, begin);
  EXPECT_EQ(s.pad, pad);
  if (!pad) {
    EXPECT_EQ(s.value, value);
    EXPECT_EQ(s.step, step);
  }
}

GatherAxis affine_axis(uint64_t size, uint64_t out_stride, int64_t value, int64_t step, std::size_t dim) {
  return GatherAxis{size, out_stride, {GatherSegment{0, value, step, false}}, {dim}};
}

// A 2x2 window at row 1, column 1 of a packed 1x1x4x4 input (strides
// 16, 16, 4, 1): N and C have size 1 and fold away, leaving two axes.
// Rows read offsets 4, 8 (value 4, step 4); columns 1, 2 (value 1, step 1).
// They do not merge: the rows step 4, not 2 x 1.
TEST(GatherLowering, SliceOf1x1x4x4FoldsTo2D) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    SliceRequest{{0, 0, 1, 1}, {1, 1, 2, 2}, {1, 1, 1, 1}}};
  SS_ASSERT_MAKE(op, request);
  const GatherLowering lowering = lower_gather(op);
  EXPECT_EQ(lowering.element_size, 4u);
  EXPECT_EQ(lowering.input_base, 0);
  ASSERT_EQ(lowering.axes.size(), 2u);
  const GatherAxis& rows = lowering.axes[0];
  EXPECT_EQ(rows.size, 2u);
  EXPECT_EQ(rows.out_stride, 2u);
  EXPECT_EQ(rows.dims, (Dims{2}));
  ASSERT_EQ(rows.segments.size(), 1u);
  expect_segment(rows.segments[0], 0, 4, 4, false);
  const GatherAxis& columns = lowering.axes[1];
  EXPECT_EQ(columns.size, 2u);
  EXPECT_EQ(columns.out_stride, 1u);
  EXPECT_EQ(columns.dims, (Dims{3}));
  ASSERT_EQ(columns.segments.size(), 1u);
  expect_segment(columns.segments[0], 0, 1, 1, false);
  // Output (1, 1) reads input (2, 2): offset 2 * 4 + 2.
  EXPECT_EQ(lowering.source_offset(std::vector<uint64_t>{1, 1}), 10);
  EXPECT_EQ(lowering.axis_coord(Coord{0, 0, 1, 0}, op.output().sizes()), (std::vector<uint64_t>{1, 0}));
}

// A packed 2x3x4 identity walks both tensors as one line of 24 elements.
TEST(GatherLowering, PackedIdentityMergesIntoOneAxis) {
  OpRequest request{tensor(DataType::UInt8, {2, 3, 4}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  const GatherLowering lowering = lower_gather(op);
  ASSERT_EQ(lowering.axes.size(), 1u);
  EXPECT_EQ(lowering.axes[0].size, 24u);
  EXPECT_EQ(lowering.axes[0].out_stride, 1u);
  EXPECT_EQ(lowering.axes[0].dims, (Dims{0, 1, 2}));
  ASSERT_EQ(lowering.axes[0].segments.size(), 1u);
  expect_segment(lowering.axes[0].segments[0], 0, 0, 1, false);
}

// One element at (2, 3) of a packed 3x5 input: the first dimension folds
// into the base (2 * 5), the last stays so that there is a row.
TEST(GatherLowering, SingleElementKeepsTheLastAxis) {
  OpRequest request{tensor(DataType::Int32, {3, 5}), TensorRequest{}, std::nullopt,
                    SliceRequest{{2, 3}, {1, 1}, {1, 1}}};
  SS_ASSERT_MAKE(op, request);
  const GatherLowering lowering = lower_gather(op);
  EXPECT_EQ(lowering.input_base, 10);
  ASSERT_EQ(lowering.axes.size(), 1u);
  EXPECT_EQ(lowering.axes[0].size, 1u);
  EXPECT_EQ(lowering.axes[0].dims, (Dims{1}));
  expect_segment(lowering.axes[0].segments[0], 0, 3, 0, false);
  EXPECT_EQ(lowering.source_offset(std::vector<uint64_t>{0}), 13);
}

// CONSTANT padding of 3 elements by 1 before and 2 after: padding [0, 1),
// input 0..2 at [1, 4), padding [4, 6); the value's bits travel along.
TEST(GatherLowering, ConstantPaddingIsPaddingDataPadding) {
  PaddingRequest padding;
  padding.padding_value = int64_t{9};
  padding.start_padding = {1};
  padding.end_padding = {2};
  OpRequest request{tensor(DataType::Int16, {3}), TensorRequest{}, std::nullopt, padding};
  SS_ASSERT_MAKE(op, request);
  const GatherLowering lowering = lower_gather(op);
  EXPECT_EQ(lowering.padding_bits, 9u);
  ASSERT_EQ(lowering.axes.size(), 1u);
  const GatherAxis& axis = lowering.axes[0];
  EXPECT_FALSE(axis.affine());
  ASSERT_EQ(axis.segments.size(), 3u);
  expect_segment(axis.segments[0], 0, 0, 0, true);
  expect_segment(axis.segments[1], 1, 0, 1, false);
  expect_segment(axis.segments[2], 4, 0, 0, true);
  EXPECT_EQ(axis.segment_end(1), 4u);
  EXPECT_EQ(axis.segment_end(2), 6u);
  EXPECT_EQ(lowering.source_offset(std::vector<uint64_t>{0}), std::nullopt);
  EXPECT_EQ(lowering.source_offset(std::vector<uint64_t>{3}), 2);
  EXPECT_EQ(axis.input_range(0, 6), (ElementRange{0, 2}));
  EXPECT_EQ(axis.input_range(4, 6), std::nullopt);
}

// DML_SLICE1 example 2 on a packed 1x1x4x4 input: rows start at 3 and step
// by -2 (offsets 12, 4: value 12, step -8); columns start at 1 and step by
// 2 (offsets 1, 3).
TEST(GatherLowering, NegativeSlice1StrideIsADescendingSegment) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}};
  request.output.sizes = test::U64s{1, 1, 2, 2};
  SS_ASSERT_MAKE(op, request);
  const GatherLowering lowering = lower_gather(op);
  ASSERT_EQ(lowering.axes.size(), 2u);
  expect_segment(lowering.axes[0].segments[0], 0, 12, -8, false);
  expect_segment(lowering.axes[1].segments[0], 0, 1, 2, false);
  EXPECT_EQ(lowering.axes[0].input_range(0, 2), (ElementRange{4, 12}));
}

// Outer 3 x 8 (step 8, out stride 8) then inner 4 x 2 (step 2, out stride 2):
// 8 == 4 * 2 in both tensors, so one axis of 12 with the inner strides and
// the two first offsets added.
TEST(GatherLowering, MergeJoinsAxesThatBothTensorsWalkAsOne) {
  GatherAxis outer = affine_axis(3, 8, 5, 8, 0);
  EXPECT_TRUE(try_merge_axes(outer, affine_axis(4, 2, 1, 2, 1)));
  EXPECT_EQ(outer.size, 12u);
  EXPECT_EQ(outer.out_stride, 2u);
  expect_segment(outer.segments[0], 0, 6, 2, false);
  EXPECT_EQ(outer.dims, (Dims{0, 1}));
}

TEST(GatherLowering, MergeRefusesMismatchesLimitsAndOverflow) {
  GatherAxis outer = affine_axis(3, 8, 0, 8, 0);
  EXPECT_FALSE(try_merge_axes(outer, affine_axis(4, 2, 0, 3, 1)));  // input step 8 != 4 * 3
  EXPECT_FALSE(try_merge_axes(outer, affine_axis(4, 1, 0, 2, 1)));  // output stride 8 != 4 * 1
  EXPECT_FALSE(try_merge_axes(outer, affine_axis(4, 2, 0, 2, 1), 11));  // 12 elements > 11
  EXPECT_EQ(outer.size, 3u);
  EXPECT_EQ(outer.dims, (Dims{0}));

  // 2^33 * 2^33 elements overflow 64 bits even though the strides match.
  const uint64_t big = uint64_t{1} << 33;
  GatherAxis huge = affine_axis(big, big, 0, static_cast<int64_t>(big), 0);
  EXPECT_FALSE(try_merge_axes(huge, affine_axis(big, 1, 0, 1, 1)));
  EXPECT_EQ(huge.size, big);

  GatherAxis padded{3, 8, {GatherSegment{0, 0, 0, true}}, {0}};
  EXPECT_FALSE(try_merge_axes(padded, affine_axis(4, 2, 0, 2, 1)));
}

// 2 x 12, 3 x 4, 4 x 1 (steps 12, 4, 2): the first two merge (12 == 3 * 4),
// the third does not (4 != 4 * 2).
TEST(GatherLowering, MergeNeighboursJoinsRunsOfNeighbours) {
  std::vector<GatherAxis> axes{affine_axis(2, 12, 0, 12, 0), affine_axis(3, 4, 0, 4, 1), affine_axis(4, 1, 0, 2, 2)};
  merge_neighbours(axes);
  ASSERT_EQ(axes.size(), 2u);
  EXPECT_EQ(axes[0].size, 6u);
  EXPECT_EQ(axes[0].dims, (Dims{0, 1}));
  EXPECT_EQ(axes[1].dims, (Dims{2}));
}

// Every output element of random gathers reads what core's plan says:
// out[o] = in[sum_d source[d][o_d] * inStride[d]], or padding.
TEST(GatherLowering, ReadsWhatTheCorePlanSaysForRandomSpecs) {
  reference::Rng rng(11);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const DataType type = DataType::Float32;
    OpRequest request;
    switch (i % 4) {
      case 0: request = reference::random_identity(rng, type); break;
      case 1: request = reference::random_slice(rng, type); break;
      case 2: request = reference::random_slice1(rng, type); break;
      default: request = reference::random_padding(rng, type); break;
    }
    auto op = Operation::make(request);
    if (!op || op->output().element_count() > 4096) continue;
    const GatherPlan plan = make_gather_plan(*op);
    const GatherLowering lowering = lower_gather(*op);
    ASSERT_FALSE(lowering.axes.empty());
    const TensorDesc& out = op->output();
    Coord coord(out.rank(), 0);
    do {
      std::optional<int64_t> expected = 0;
      for (std::size_t d = 0; d < plan.rank && expected; ++d) {
        const int64_t source = plan.source[d][coord[d]];
        if (source == kPaddingIndex) {
          expected = std::nullopt;
        } else {
          *expected += source * static_cast<int64_t>(op->input().strides()[d]);
        }
      }
      const std::vector<uint64_t> axis_coord = lowering.axis_coord(coord, out.sizes());
      ASSERT_EQ(lowering.source_offset(axis_coord), expected) << "draw " << i;
      uint64_t out_offset = 0;
      for (std::size_t a = 0; a < lowering.axes.size(); ++a) out_offset += axis_coord[a] * lowering.axes[a].out_stride;
      ASSERT_EQ(out_offset, out.offset_of(coord)) << "draw " << i;
    } while (next_coord(coord, out.sizes()));
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

}  // namespace
}  // namespace stridescope
