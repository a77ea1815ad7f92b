// DML_SLICE_OPERATOR_DESC:  OutputTensor[OutputCoordinates] =
//     InputTensor[Offsets + Strides * OutputCoordinates]
// DML_SLICE1_OPERATOR_DESC: CopyStart = InputWindowOffsets; for every
//     dimension with a negative stride CopyStart[i] += InputWindowSizes[i] - 1
//     ("start at the end of the window"); OutputTensor[OutputCoordinates] =
//     InputTensor[CopyStart + InputWindowStrides * OutputCoordinates];
//     MaxCopiedElements[i] = 1 + (InputWindowSize[i] - 1) / |InputWindowStrides[i]|.
// The worked examples below use the pages' own input (1..16 in a {1,1,4,4}
// tensor) and the values they print.
#include "core/slice.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

// --- compile-time checks of the page formulas ---

static_assert(slice1_max_copied(4, -2) == 2);  // slice1 example 2, axis 2
static_assert(slice1_max_copied(3, 2) == 2);   // slice1 example 1, axis 3
static_assert(slice1_max_copied(3, -2) == 2);  // the page's slip would divide by -2
static_assert(slice1_max_copied(1, -7) == 1);
static_assert(slice1_max_copied(5, 1) == 5);
static_assert(slice1_max_copied(5, -5) == 1);

// DML_SLICE example 2: offsets {0,0,1,0}, strides {1,1,2,3}.
constexpr SliceParams kSliceExample2{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}};
static_assert(slice_source_index(kSliceExample2, 2, 0) == 1);
static_assert(slice_source_index(kSliceExample2, 2, 1) == 3);
static_assert(slice_source_index(kSliceExample2, 3, 1) == 3);

std::vector<float> page_input() { return test::iota_floats(16); }

// Runs on core's CPU backend and on the independent reference; both must
// print the page's values.
void expect_page_output(const OpRequest& request, const std::vector<float>& expected) {
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(page_input());
  const test::Outputs cpu = test::run_cpu(op, input);
  const test::Outputs ref = test::run_reference(op, input);
  EXPECT_EQ(test::logical_values<float>(op.output(), cpu.output), expected) << "cpu backend";
  EXPECT_EQ(test::logical_values<float>(op.output(), ref.output), expected) << "reference";
}

OpRequest slice(U64s offsets, U64s sizes, U64s strides) {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                   SliceRequest{std::move(offsets), std::move(sizes), std::move(strides)}};
}

OpRequest slice1(U64s out_sizes, U64s offsets, U64s sizes, std::vector<int64_t> strides) {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), tensor(DataType::Float32, std::move(out_sizes)),
                   std::nullopt, Slice1Request{std::move(offsets), std::move(sizes), std::move(strides)}};
}

TEST(Slice, Example1_ContiguousSlice) {
  expect_page_output(slice({0, 0, 1, 2}, {1, 1, 3, 2}, {1, 1, 1, 1}), {7, 8, 11, 12, 15, 16});
}

TEST(Slice, Example2_StridedSlice) {
  expect_page_output(slice({0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}), {5, 8, 13, 16});
}

TEST(Slice, SourceIndexIsOffsetPlusStrideTimesOutputIndex) {
  const SliceParams p{{0, 0, 1, 2}, {1, 1, 3, 2}, {1, 1, 1, 1}};
  EXPECT_EQ(slice_source_index(p, 2, 2), 3);
  EXPECT_EQ(slice_source_index(p, 3, 1), 3);
  EXPECT_EQ(slice_source_index(kSliceExample2, 3, 0), 0);
}

TEST(Slice1, Example1_PositiveStridesStartAtTheWindowStart) {
  expect_page_output(slice1({1, 1, 2, 2}, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}), {2, 4, 10, 12});
}

TEST(Slice1, Example2_NegativeStrideStartsAtWindowEnd) {
  // Axis 2 starts at InputWindowOffsets[2] + InputWindowSizes[2] - 1 = 3.
  expect_page_output(slice1({1, 1, 2, 2}, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}), {14, 16, 6, 8});
}

TEST(Slice1, NegativeStrideStartsAtWindowEnd_NotAtTheInputEnd) {
  // Window rows 1..2 of the 4 rows, stride -1: rows 2 then 1.
  expect_page_output(slice1({1, 1, 2, 4}, {0, 0, 1, 0}, {1, 1, 2, 4}, {1, 1, -1, 1}),
                     {9, 10, 11, 12, 5, 6, 7, 8});
}

TEST(Slice1, AllAxesReversed) {
  expect_page_output(slice1({1, 1, 4, 4}, {0, 0, 0, 0}, {1, 1, 4, 4}, {-1, -1, -1, -1}),
                     {16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
}

TEST(Slice1, OutputMayCopyFewerThanTheReachableElements) {
  // Only Output[0,0,0,0] of example 2: Input[{0,0,3,1}] = 14.
  expect_page_output(slice1({1, 1, 1, 1}, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}), {14});
  // Window 3 with stride -2 reaches indices 3 then 1 of a window at offset 1.
  expect_page_output(slice1({1, 1, 1, 2}, {0, 0, 2, 1}, {1, 1, 1, 3}, {1, 1, 1, -2}), {12, 10});
}

TEST(Slice1, SourceIndexFollowsCopyStart) {
  const Slice1Params p{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}};
  EXPECT_EQ(p.copy_start(2), 3);
  EXPECT_EQ(p.copy_start(3), 1);
  EXPECT_EQ(slice1_source_index(p, 2, 0), 3);
  EXPECT_EQ(slice1_source_index(p, 2, 1), 1);
  EXPECT_EQ(slice1_source_index(p, 3, 1), 3);
}

TEST(Slice1, ReadsThroughInputStrides) {
  // The same logical input stored column-major (strides {16,16,1,4}):
  // example 2's values must not change.
  std::vector<float> column_major(16);
  for (int h = 0; h < 4; ++h) {
    for (int w = 0; w < 4; ++w) column_major[static_cast<std::size_t>(w * 4 + h)] = static_cast<float>(h * 4 + w + 1);
  }
  OpRequest request = slice1({1, 1, 2, 2}, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2});
  request.input.strides = U64s{16, 16, 1, 4};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(column_major);
  const test::Outputs cpu = test::run_cpu(op, input);
  EXPECT_EQ(test::logical_values<float>(op.output(), cpu.output), (std::vector<float>{14, 16, 6, 8}));
}

TEST(Slice1, WritesThroughGappedOutputStridesLeavingGapsZero) {
  OpRequest request = slice1({1, 1, 2, 2}, {0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2});
  request.output.strides = U64s{12, 12, 5, 2};  // offsets 0, 2, 5, 7
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(page_input());
  const test::Outputs cpu = test::run_cpu(op, input);
  ASSERT_EQ(cpu.output.size(), 32u);  // 8 elements
  const std::vector<float> buffer{14, 0, 16, 0, 0, 6, 0, 8};
  for (std::size_t i = 0; i < buffer.size(); ++i) EXPECT_EQ(test::load<float>(cpu.output, i), buffer[i]) << i;
}

}  // namespace
}  // namespace stridescope
