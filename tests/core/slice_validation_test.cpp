// Validation of SLICE and SLICE1, rule by rule, as the DirectML pages state them;
// each refusal names the field by its spec path.
//   - slice: Sizes equal the output sizes; strides >= 1; reads stay inside.
//   - slice1: strides != 0; the window is not empty and lies inside the input
//     (InputWindowOffsets[i] + InputWindowSizes[i] <= InputTensor.Sizes[i]);
//     1 <= OutputSizes[i] <= 1 + (InputWindowSizes[i] - 1) / |stride|.
#include "core/operation.h"

#include <gtest/gtest.h>

#include <string>

#include <limits>

#include "test_support.h"
#include "validation_requests.h"

namespace stridescope {
namespace {

using test::F32;
using test::slice1_page;
using test::slice_page;
using test::tensor;
using test::U64s;

// --- slice ---

TEST(Operation, Slice_ArraysNeedOneEntryPerDimension) {
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1};
  SS_EXPECT_REFUSED(request, "params.offsets");
  request = slice_page();
  std::get<SliceRequest>(request.params).sizes = {1, 1, 2, 2, 1};
  SS_EXPECT_REFUSED(request, "params.sizes");
  request = slice_page();
  std::get<SliceRequest>(request.params).strides = {1, 1, 2};
  SS_EXPECT_REFUSED(request, "params.strides");
}

TEST(Operation, Slice_StrideMustBeAtLeastOne) {
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).strides = {1, 1, 0, 3};
  SS_EXPECT_REFUSED(request, "params.strides[2]");
}

TEST(Operation, Slice_SizeMustBeAtLeastOne) {
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).sizes = {1, 0, 2, 2};
  request.output.sizes.reset();
  SS_EXPECT_REFUSED(request, "params.sizes[1]");
}

TEST(Operation, Slice_SizesMustEqualTheOutputSizes) {
  OpRequest request = slice_page();
  request.output.sizes = U64s{1, 1, 2, 1};
  SS_EXPECT_REFUSED(request, "output.sizes[3]");
}

TEST(Operation, Slice_OutputSizesDefaultToTheSliceSizes) {
  OpRequest request = slice_page();
  request.output.sizes.reset();
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.output().sizes(), (Sizes{1, 1, 2, 2}));
}

TEST(Operation, Slice_ReadsMustStayInsideTheInput) {
  // Axis 3: offset 1, stride 3, size 2 reads index 4 of a size-4 axis.
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1, 1};
  SS_EXPECT_REFUSED(request, "params.sizes[3]");
  // The last element read exactly at the edge is fine (offset 0: reads 0 and 3).
  EXPECT_TRUE(Operation::make(slice_page()).has_value());
  // An offset alone beyond the input.
  request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1, 4};
  std::get<SliceRequest>(request.params).sizes = {1, 1, 2, 1};
  request.output.sizes = U64s{1, 1, 2, 1};
  SS_EXPECT_REFUSED(request, "params.offsets[3]");
}

TEST(Operation, Slice_HugeOffsetsAndStridesAreRefusedWithoutOverflow) {
  OpRequest request{tensor(F32, {4}), TensorRequest{}, std::nullopt,
                    SliceRequest{{std::numeric_limits<uint64_t>::max()}, {2}, {std::numeric_limits<uint64_t>::max()}}};
  auto op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().path.rfind("params.", 0), 0u) << op.error().to_string();
  EXPECT_NE(op.error().path.find("[0]"), std::string::npos) << op.error().to_string();
  request.params = SliceRequest{{1}, {3}, {uint64_t{1} << 63}};
  op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().path.rfind("params.", 0), 0u) << op.error().to_string();
}

// --- slice1 ---

TEST(Operation, Slice1_StrideMustNotBeZero) {
  OpRequest request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_strides = {1, 1, 0, 2};
  auto op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().to_string(), "params.inputWindowStrides[2]: stride must not be 0");
}

TEST(Operation, Slice1_ArraysNeedOneEntryPerDimension) {
  OpRequest request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_strides = {1, 1, -2};
  SS_EXPECT_REFUSED(request, "params.inputWindowStrides");
  request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_offsets = {0, 0, 0, 1, 0};
  SS_EXPECT_REFUSED(request, "params.inputWindowOffsets");
  request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_sizes = {1, 1, 4};
  SS_EXPECT_REFUSED(request, "params.inputWindowSizes");
}

TEST(Operation, Slice1_WindowMustNotBeEmpty) {
  OpRequest request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_sizes = {1, 0, 4, 3};
  SS_EXPECT_REFUSED(request, "params.inputWindowSizes[1]");
}

TEST(Operation, Slice1_WindowMustLieInsideTheInput) {
  // InputWindowOffsets[3] + InputWindowSizes[3] = 2 + 3 > 4.
  OpRequest request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_offsets = {0, 0, 0, 2};
  SS_EXPECT_REFUSED(request, "params.inputWindowSizes[3]");
  request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_sizes = {1, 1, 5, 3};
  SS_EXPECT_REFUSED(request, "params.inputWindowSizes[2]");
  // Offset + size == input size is the largest valid window.
  request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_offsets = {0, 0, 0, 1};
  EXPECT_TRUE(Operation::make(request).has_value());
}

TEST(Operation, Slice1_OutputSizeMayBeSmallerThanReachableNeverLarger) {
  // Axis 2: window 4, |stride| 2: MaxCopiedElements = 1 + 3 / 2 = 2.
  OpRequest request = slice1_page();
  request.output.sizes = U64s{1, 1, 3, 2};
  SS_EXPECT_REFUSED(request, "output.sizes[2]");
  request.output.sizes = U64s{1, 1, 1, 1};
  EXPECT_TRUE(Operation::make(request).has_value());
  request.output.sizes = U64s{1, 1, 2, 2};
  EXPECT_TRUE(Operation::make(request).has_value());
}

TEST(Operation, Slice1_MaxCopiedDividesByTheStrideMagnitude) {
  // Window 3 with stride -2 reaches 2 elements (indices 2 and 0); with the
  // page's slip (dividing by the signed stride) it would be 1 + 2 / -2 = 0.
  OpRequest request{tensor(F32, {3}), tensor(F32, {2}), std::nullopt, Slice1Request{{0}, {3}, {-2}}};
  EXPECT_TRUE(Operation::make(request).has_value());
  request.output.sizes = U64s{3};
  SS_EXPECT_REFUSED(request, "output.sizes[0]");
}

TEST(Operation, Slice1_OmittedOutputSizesDefaultToTheReachableCount) {
  // DirectML always states slice1's output sizes; StrideScope, when they are
  // left out, takes MaxCopiedElements (operation.cpp's documented default):
  // axis 2: 1 + (4 - 1) / 2 = 2, axis 3: 1 + (3 - 1) / 2 = 2.
  OpRequest request = slice1_page();
  request.output.sizes.reset();
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.output().sizes(), (Sizes{1, 1, 2, 2}));
  std::get<Slice1Request>(request.params).input_window_strides = {1, 1, -1, 3};
  SS_ASSERT_MAKE(op2, request);
  EXPECT_EQ(op2.output().sizes(), (Sizes{1, 1, 4, 1}));
}

TEST(Operation, Slice1_OutputSizeZeroIsRefused) {
  OpRequest request = slice1_page();
  request.output.sizes = U64s{1, 1, 0, 2};
  SS_EXPECT_REFUSED(request, "output.sizes[2]");
}

TEST(Operation, Slice1_ExtremeStridesAreHandledWithoutOverflow) {
  // |INT64_MIN| has no int64; a window of 1 reaches one element whatever the stride.
  OpRequest request{tensor(F32, {3}), tensor(F32, {1}), std::nullopt,
                    Slice1Request{{1}, {1}, {std::numeric_limits<int64_t>::min()}}};
  auto op = Operation::make(request);
  if (op) {
    const std::vector<float> input{1, 2, 3};
    const auto bytes = test::bytes_of(input);
    const test::Outputs out = test::run_cpu(*op, bytes);
    ASSERT_EQ(out.output.size(), 4u);
    EXPECT_EQ(test::load<float>(out.output, 0), 2.0f);
  } else {
    EXPECT_EQ(op.error().path, "params.inputWindowStrides[0]") << op.error().to_string();
  }
}

}  // namespace
}  // namespace stridescope
