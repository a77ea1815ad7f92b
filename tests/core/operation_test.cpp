// Validation of operator invocations, rule by rule, as the DirectML pages
// and resources/docs/operators.md state them. Each refusal must name the field by its spec
// path ("params.inputWindowStrides[2]: stride must not be 0"), never crash
// and never allocate without bound.
//   - DimensionCount (1 to 8; max_pooling2 4 or 5) must match every array
//     and both tensors; InputTensor and OutputTensor have the same DataType.
//   - slice: Sizes equal the output sizes; strides >= 1; reads stay inside.
//   - slice1: strides != 0; the window is not empty and lies inside the input
//     (InputWindowOffsets[i] + InputWindowSizes[i] <= InputTensor.Sizes[i]);
//     1 <= OutputSizes[i] <= 1 + (InputWindowSizes[i] - 1) / |stride|.
//   - padding: OutputSizes[i] = InputSizes[i] + StartPadding[i] + EndPadding[i];
//     paddings larger than the input are valid for REFLECTION and SYMMETRIC.
//   - max_pooling2: output size (in + start + end - ((window-1)*dilation+1)) / stride + 1;
//     indices UINT32 or UINT64 with the output's sizes.
//   - An output whose strides make two elements share an offset is invalid.
#include "core/operation.h"

#include <gtest/gtest.h>

#include <limits>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

constexpr DataType F32 = DataType::Float32;

// DML_SLICE1 example 2: {1,1,4,4} input, window offsets {0,0,0,1}, sizes
// {1,1,4,3}, strides {1,1,-2,2}, output {1,1,2,2}.
OpRequest slice1_page() {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 2, 2}), std::nullopt,
                   Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}};
}

// DML_SLICE example 2: offsets {0,0,1,0}, sizes {1,1,2,2}, strides {1,1,2,3}.
OpRequest slice_page() {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 2, 2}), std::nullopt,
                   SliceRequest{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}}};
}

// DML_PADDING examples: {1,1,4,4} padded by {0,0,1,2} and {0,0,3,4} to {1,1,8,10}.
OpRequest padding_page(PaddingMode mode = PaddingMode::Constant) {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 8, 10}), std::nullopt,
                   PaddingRequest{mode, int64_t{9}, {0, 0, 1, 2}, {0, 0, 3, 4}}};
}

// A 2x2 window with stride 2 over {1,1,4,4}: output {1,1,2,2}.
OpRequest pooling_basic() {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 2, 2}), tensor(DataType::UInt32, {1, 1, 2, 2}),
                   MaxPooling2Request{{2, 2}, U64s{2, 2}, std::nullopt, std::nullopt, std::nullopt}};
}

OpRequest identity(U64s sizes, std::optional<U64s> in_strides = std::nullopt,
                   std::optional<U64s> out_strides = std::nullopt) {
  return OpRequest{tensor(F32, sizes, in_strides), TensorRequest{std::nullopt, std::nullopt, out_strides},
                   std::nullopt, IdentityRequest{}};
}

// --- the examples themselves are valid ---

TEST(Operation, TheDirectMLPageExamplesAreValid) {
  for (const OpRequest& request :
       {slice1_page(), slice_page(), padding_page(), padding_page(PaddingMode::Edge),
        padding_page(PaddingMode::Reflection), padding_page(PaddingMode::Symmetric), pooling_basic()}) {
    auto op = Operation::make(request);
    EXPECT_TRUE(op.has_value()) << to_string(request.kind()) << ": " << op.error().to_string();
  }
}

TEST(Operation, ValidatedOpKeepsParamsAndTensors) {
  SS_ASSERT_MAKE(op, slice1_page());
  EXPECT_EQ(op.kind(), OpKind::Slice1);
  const auto& p = op.params_as<Slice1Params>();
  EXPECT_EQ(p.window_offsets, (Sizes{0, 0, 0, 1}));
  EXPECT_EQ(p.window_sizes, (Sizes{1, 1, 4, 3}));
  EXPECT_EQ(p.window_strides, (WindowStrides{1, 1, -2, 2}));
  EXPECT_EQ(op.input().sizes(), (Sizes{1, 1, 4, 4}));
  EXPECT_EQ(op.output().sizes(), (Sizes{1, 1, 2, 2}));
  EXPECT_EQ(op.output().data_type(), F32);
  EXPECT_FALSE(op.output_indices().has_value());
}

// --- tensors ---

TEST(Operation, InputNeedsSizesAndADataType) {
  OpRequest no_sizes = identity({2});
  no_sizes.input.sizes.reset();
  SS_EXPECT_REFUSED(no_sizes, "input.sizes");
  OpRequest no_type = identity({2});
  no_type.input.data_type.reset();
  SS_EXPECT_REFUSED(no_type, "input.dataType");
}

TEST(Operation, RankMustBeOneToEight) {
  SS_EXPECT_REFUSED(identity({}), "input.sizes");
  SS_EXPECT_REFUSED(identity({1, 1, 1, 1, 1, 1, 1, 1, 1}), "input.sizes");
  SS_EXPECT_REFUSED(identity({1, 2, 1, 2, 1, 2, 1, 2}, U64s{1, 1, 1, 1, 1, 1, 1, 1, 1}), "input.strides");
  auto eight = Operation::make(identity({1, 2, 1, 2, 1, 2, 1, 2}));
  EXPECT_TRUE(eight.has_value()) << eight.error().to_string();
}

TEST(Operation, OutputDataTypeDefaultsToTheInputsAndMustEqualIt) {
  OpRequest defaulted = slice1_page();
  defaulted.output.data_type.reset();
  SS_ASSERT_MAKE(op, defaulted);
  EXPECT_EQ(op.output().data_type(), F32);
  OpRequest other = slice1_page();
  other.output.data_type = DataType::Float16;
  SS_EXPECT_REFUSED(other, "output.dataType");
}

TEST(Operation, OutputRankMustEqualTheInputs) {
  OpRequest request = slice1_page();
  request.output.sizes = U64s{1, 2, 2};
  SS_EXPECT_REFUSED(request, "output.sizes");
}

TEST(Operation, OutputStridesMustNotOverlap) {
  // Two output elements at one offset: [3,2] strides [1,2] (offset 2 twice).
  SS_EXPECT_REFUSED(identity({3, 2}, std::nullopt, U64s{1, 2}), "output.strides");
  // Broadcast is an overlap for an output.
  SS_EXPECT_REFUSED(identity({2, 3}, std::nullopt, U64s{0, 1}), "output.strides");
  // Permuted and gapped outputs are fine; so is a broadcast input.
  EXPECT_TRUE(Operation::make(identity({2, 3}, std::nullopt, U64s{1, 2})).has_value());
  EXPECT_TRUE(Operation::make(identity({2, 3}, std::nullopt, U64s{8, 2})).has_value());
  EXPECT_TRUE(Operation::make(identity({2, 3}, U64s{0, 1}, std::nullopt)).has_value());
  // A size-1 dimension with stride 0 shares nothing.
  EXPECT_TRUE(Operation::make(identity({1, 3}, std::nullopt, U64s{0, 1})).has_value());
}

TEST(Operation, OutputOverlapBeyondTheEnumerationBudgetIsRefused) {
  // [3,2] strides [1,2] share offset 2; repeated 2^25 + 1 times at stride 8
  // the output needs 2^28 + 5 bytes of INT8, inside the 1 GiB default, and
  // still has two elements at one offset. (Validation only: nothing runs.)
  const uint64_t repeats = (uint64_t{1} << 25) + 1;
  OpRequest request{tensor(DataType::Int8, {repeats, 3, 2}), TensorRequest{std::nullopt, std::nullopt, U64s{8, 1, 2}},
                    std::nullopt, IdentityRequest{}};
  SS_EXPECT_REFUSED(request, "output.strides");
}

TEST(Operation, OutputStridesNeedOneEntryPerDimension) {
  SS_EXPECT_REFUSED(identity({2, 3}, std::nullopt, U64s{1}), "output.strides");
}

TEST(Operation, IndicesAreOnlyForMaxPooling) {
  OpRequest request = slice1_page();
  request.output_indices = tensor(DataType::UInt32, {1, 1, 2, 2});
  SS_EXPECT_REFUSED(request, "outputIndices");
}

TEST(Operation, IdentityOutputSizesMustEqualTheInputs) {
  OpRequest request = identity({2, 3});
  request.output.sizes = U64s{2, 4};
  SS_EXPECT_REFUSED(request, "output.sizes[1]");
  request.output.sizes = U64s{2, 3};
  EXPECT_TRUE(Operation::make(request).has_value());
}

TEST(Operation, IdentityOutputSizesDefaultToTheInputs) {
  SS_ASSERT_MAKE(op, identity({2, 3}, U64s{1, 2}));
  EXPECT_EQ(op.output().sizes(), (Sizes{2, 3}));
  EXPECT_EQ(op.output().strides(), (Strides{3, 1}));  // omitted output strides are packed
}

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

// --- padding ---

TEST(Operation, Padding_OutputSizesAreInputPlusStartPlusEnd) {
  OpRequest request = padding_page();
  request.output.sizes = U64s{1, 1, 8, 9};
  SS_EXPECT_REFUSED(request, "output.sizes[3]");
  request.output.sizes.reset();
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.output().sizes(), (Sizes{1, 1, 8, 10}));
}

TEST(Operation, Padding_ArraysNeedOneEntryPerDimension) {
  OpRequest request = padding_page();
  std::get<PaddingRequest>(request.params).start_padding = {0, 0, 1};
  SS_EXPECT_REFUSED(request, "params.startPadding");
  request = padding_page();
  std::get<PaddingRequest>(request.params).end_padding = {0, 0, 3, 4, 0};
  SS_EXPECT_REFUSED(request, "params.endPadding");
}

TEST(Operation, Padding_ReflectionAndSymmetricFoldPaddingsLargerThanTheInput) {
  for (PaddingMode mode : {PaddingMode::Reflection, PaddingMode::Symmetric, PaddingMode::Edge}) {
    OpRequest request{tensor(F32, {1, 3}), TensorRequest{}, std::nullopt,
                      PaddingRequest{mode, int64_t{0}, {0, 7}, {0, 11}}};
    auto op = Operation::make(request);
    ASSERT_TRUE(op.has_value()) << to_string(mode) << ": " << op.error().to_string();
    EXPECT_EQ(op->output().sizes(), (Sizes{1, 21}));
  }
}

TEST(Operation, Padding_ValueIsConvertedToTheTensorType) {
  OpRequest request{tensor(DataType::Int32, {2}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Constant, 10.6, {1}, {1}}};
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.params_as<PaddingParams>().value_bits, 10u);
  EXPECT_EQ(op.params_as<PaddingParams>().value, Scalar{10.6});
  std::get<PaddingRequest>(request.params).padding_value = -10.6;
  SS_ASSERT_MAKE(negative, request);
  EXPECT_EQ(negative.params_as<PaddingParams>().value_bits, 0xFFFFFFF6u);
}

TEST(Operation, Padding_ValueOutsideTheTypeIsRefused) {
  OpRequest request{tensor(DataType::UInt8, {2}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Constant, int64_t{256}, {1}, {1}}};
  SS_EXPECT_REFUSED(request, "params.paddingValue");
  std::get<PaddingRequest>(request.params).padding_value = int64_t{-1};
  SS_EXPECT_REFUSED(request, "params.paddingValue");
}

TEST(Operation, Padding_HugePaddingsAreRefusedWithoutAllocating) {
  OpRequest request{tensor(F32, {2}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Constant, int64_t{0}, {uint64_t{1} << 40}, {0}}};
  auto op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().code, ErrorCode::InvalidSpec);
  std::get<PaddingRequest>(request.params).start_padding = {std::numeric_limits<uint64_t>::max()};
  std::get<PaddingRequest>(request.params).end_padding = {std::numeric_limits<uint64_t>::max()};
  op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().code, ErrorCode::InvalidSpec);
  // 2^28 + 1 floats: one element past the 1 GiB default.
  std::get<PaddingRequest>(request.params).start_padding = {(uint64_t{1} << 28) - 1};
  std::get<PaddingRequest>(request.params).end_padding = {0};
  op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().path.rfind("output", 0), 0u) << op.error().to_string();
}

// --- max_pooling2 ---

TEST(Operation, MaxPooling_InputMustBeFourOrFiveDimensional) {
  OpRequest request = pooling_basic();
  request.input.sizes = U64s{1, 4, 4};
  request.output.sizes.reset();
  request.output_indices.reset();
  SS_EXPECT_REFUSED(request, "input.sizes");
  request.input.sizes = U64s{1, 1, 1, 1, 4, 4};
  SS_EXPECT_REFUSED(request, "input.sizes");
}

TEST(Operation, MaxPooling_ArraysNeedOneEntryPerSpatialDimension) {
  OpRequest request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).window_size = {2, 2, 2};
  SS_EXPECT_REFUSED(request, "params.windowSize");
  request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).strides = U64s{2};
  SS_EXPECT_REFUSED(request, "params.strides");
  request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).start_padding = U64s{0, 0, 0, 0};
  SS_EXPECT_REFUSED(request, "params.startPadding");
  request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).end_padding = U64s{0};
  SS_EXPECT_REFUSED(request, "params.endPadding");
  request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).dilations = U64s{1, 1, 1};
  SS_EXPECT_REFUSED(request, "params.dilations");
}

TEST(Operation, MaxPooling_WindowStridesAndDilationsMustBeAtLeastOne) {
  OpRequest request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).window_size = {2, 0};
  SS_EXPECT_REFUSED(request, "params.windowSize[1]");
  request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).strides = U64s{0, 2};
  SS_EXPECT_REFUSED(request, "params.strides[0]");
  request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).dilations = U64s{1, 0};
  SS_EXPECT_REFUSED(request, "params.dilations[1]");
}

TEST(Operation, MaxPooling_DefaultsAreStrideOneNoPaddingNoDilation) {
  OpRequest request{tensor(F32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  SS_ASSERT_MAKE(op, request);
  const auto& p = op.params_as<MaxPooling2Params>();
  EXPECT_EQ(p.strides, (Sizes{1, 1}));
  EXPECT_EQ(p.dilations, (Sizes{1, 1}));
  EXPECT_EQ(p.start_padding, (Sizes{0, 0}));
  EXPECT_EQ(p.end_padding, (Sizes{0, 0}));
  EXPECT_EQ(op.output().sizes(), (Sizes{1, 1, 3, 3}));
  EXPECT_FALSE(p.indices_type.has_value());
}

TEST(Operation, MaxPooling_OutputSizesFollowTheFormulaWithDilation) {
  // in 5, window 2, dilation 3: the window spans 4, so (5 - 4) / 1 + 1 = 2.
  // (The page's formula without dilation would say 4.)
  OpRequest request{tensor(F32, {1, 1, 5, 5}), tensor(F32, {1, 1, 2, 2}), std::nullopt,
                    MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, U64s{3, 3}}};
  EXPECT_TRUE(Operation::make(request).has_value());
  request.output.sizes = U64s{1, 1, 4, 4};
  SS_EXPECT_REFUSED(request, "output.sizes[2]");
  request.output.sizes = U64s{1, 1, 2, 3};
  SS_EXPECT_REFUSED(request, "output.sizes[3]");
  // Batch and channel carry over.
  request.output.sizes = U64s{1, 2, 2, 2};
  SS_EXPECT_REFUSED(request, "output.sizes[1]");
}

TEST(Operation, MaxPooling_DilatedWindowLargerThanThePaddedInputIsRefused) {
  // Span (3 - 1) * 2 + 1 = 5 over 4 + 0 + 0.
  OpRequest request{tensor(F32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{3, 1}, std::nullopt, std::nullopt, std::nullopt, U64s{2, 1}}};
  SS_EXPECT_REFUSED(request, "params.windowSize[0]");
  // With one element of padding it fits.
  std::get<MaxPooling2Request>(request.params).end_padding = U64s{1, 0};
  auto op = Operation::make(request);
  ASSERT_TRUE(op.has_value()) << op.error().to_string();
  EXPECT_EQ(op->output().sizes(), (Sizes{1, 1, 1, 4}));
}

TEST(Operation, MaxPooling_WindowWhollyInPaddingIsRefused) {
  // Start padding 2 with window 1: output index 0 reads input index -2 only.
  OpRequest request{tensor(F32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{1, 1}, std::nullopt, U64s{0, 2}, std::nullopt, std::nullopt}};
  SS_EXPECT_REFUSED(request, "params.startPadding[1]");
  request.params = MaxPooling2Request{{1, 1}, std::nullopt, std::nullopt, U64s{0, 1}, std::nullopt};
  SS_EXPECT_REFUSED(request, "params.endPadding[1]");
  // A window reaching one real element is fine: start padding 1, window 2.
  request.params = MaxPooling2Request{{2, 2}, std::nullopt, U64s{1, 1}, U64s{1, 1}, std::nullopt};
  EXPECT_TRUE(Operation::make(request).has_value());
}

TEST(Operation, MaxPooling_IndicesMustBeUInt32OrUInt64) {
  OpRequest request = pooling_basic();
  request.output_indices->data_type = DataType::Int32;
  SS_EXPECT_REFUSED(request, "outputIndices.dataType");
  request.output_indices->data_type = DataType::Float32;
  SS_EXPECT_REFUSED(request, "outputIndices.dataType");
  request.output_indices->data_type = DataType::UInt64;
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.params_as<MaxPooling2Params>().indices_type, DataType::UInt64);
  ASSERT_TRUE(op.output_indices().has_value());
  EXPECT_EQ(op.output_indices()->data_type(), DataType::UInt64);
}

TEST(Operation, MaxPooling_IndicesTypeDefaultsToUInt32) {
  // DirectML's indices tensor was UINT32-only before feature level 5.0;
  // StrideScope takes UINT32 when outputIndices names no dataType.
  OpRequest request = pooling_basic();
  request.output_indices->data_type.reset();
  SS_ASSERT_MAKE(op, request);
  ASSERT_TRUE(op.output_indices().has_value());
  EXPECT_EQ(op.output_indices()->data_type(), DataType::UInt32);
  EXPECT_EQ(op.params_as<MaxPooling2Params>().indices_type, DataType::UInt32);
}

TEST(Operation, MaxPooling_IndicesHaveTheOutputSizes) {
  OpRequest request = pooling_basic();
  request.output_indices->sizes = U64s{1, 1, 2, 3};
  SS_EXPECT_REFUSED(request, "outputIndices.sizes[3]");
  request.output_indices->sizes.reset();
  SS_ASSERT_MAKE(op, request);
  EXPECT_EQ(op.output_indices()->sizes(), (Sizes{1, 1, 2, 2}));
}

TEST(Operation, MaxPooling_IndicesStridesMustNotOverlap) {
  OpRequest request = pooling_basic();
  request.output_indices->strides = U64s{4, 4, 1, 1};
  SS_EXPECT_REFUSED(request, "outputIndices.strides");
}

TEST(Operation, MaxPooling_HugeWindowsAreRefusedWithoutAllocating) {
  OpRequest request{tensor(F32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{uint64_t{1} << 32, 1}, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  SS_EXPECT_REFUSED(request, "params.windowSize[0]");
  request.params = MaxPooling2Request{{4294967295u, 1}, std::nullopt, U64s{4294967295u, 0},
                                      U64s{4294967295u, 0}, std::nullopt};
  auto op = Operation::make(request);
  ASSERT_FALSE(op.has_value()) << "a window of 2^32-1 taps per output element";
  EXPECT_EQ(op.error().code, ErrorCode::InvalidSpec);
  request.params = MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt,
                                      U64s{std::numeric_limits<uint64_t>::max(), 1}};
  op = Operation::make(request);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().path.rfind("params.", 0), 0u) << op.error().to_string();
}

TEST(Operation, MaxPooling_UInt32IndicesMustReachEveryInputElement) {
  // A broadcast input of 2^32 + 2^16 logical elements in one buffer element:
  // its last row-major index does not fit UINT32.
  OpRequest request{tensor(DataType::UInt8, {65537, 65536, 1, 1}, U64s{0, 0, 0, 0}), TensorRequest{},
                    tensor(DataType::UInt32, {65537, 65536, 1, 1}),
                    MaxPooling2Request{{1, 1}, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  const Limits roomy{uint64_t{1} << 36};  // validation only: nothing is run
  auto op = Operation::make(request, roomy);
  ASSERT_FALSE(op.has_value()) << "UINT32 indices cannot name element 2^32";
  EXPECT_EQ(op.error().path, "outputIndices.dataType") << op.error().to_string();
  request.output_indices->data_type = DataType::UInt64;
  op = Operation::make(request, roomy);
  EXPECT_TRUE(op.has_value()) << op.error().to_string();
}

// --- limits ---

TEST(Operation, LimitsApplyToEveryTensor) {
  const Limits small{64};
  OpRequest request = identity({4, 4});  // 64 bytes each
  EXPECT_TRUE(Operation::make(request, small).has_value());
  request = identity({4, 5});
  auto op = Operation::make(request, small);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().path, "input.sizes");
  // A gapped output beyond the limit is refused at the output.
  request = identity({4, 4}, std::nullopt, U64s{8, 1});
  op = Operation::make(request, small);
  ASSERT_FALSE(op.has_value());
  EXPECT_EQ(op.error().path.rfind("output.", 0), 0u) << op.error().to_string();
}

// --- infer_output_sizes ---

TEST(Operation, InferOutputSizesFollowsEachOp) {
  auto slice = infer_output_sizes(slice_page());
  ASSERT_TRUE(slice.has_value());
  EXPECT_EQ(**slice, (Sizes{1, 1, 2, 2}));
  auto padding = infer_output_sizes(padding_page());
  ASSERT_TRUE(padding.has_value());
  EXPECT_EQ(**padding, (Sizes{1, 1, 8, 10}));
  auto pooling = infer_output_sizes(pooling_basic());
  ASSERT_TRUE(pooling.has_value());
  EXPECT_EQ(**pooling, (Sizes{1, 1, 2, 2}));
  // slice1: the default Operation::make takes when output sizes are omitted
  // (MaxCopiedElements), although operation.h says nullopt (see core_bugs.md).
  auto slice1 = infer_output_sizes(slice1_page());
  ASSERT_TRUE(slice1.has_value());
  ASSERT_TRUE(slice1->has_value());
  EXPECT_EQ(**slice1, (Sizes{1, 1, 2, 2}));
  auto same = infer_output_sizes(identity({3, 2}));
  ASSERT_TRUE(same.has_value());
  ASSERT_TRUE(same->has_value());
  EXPECT_EQ(**same, (Sizes{3, 2}));
}

TEST(Operation, InferOutputSizesReportsTheSameErrors) {
  OpRequest request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).strides = U64s{0, 2};
  auto sizes = infer_output_sizes(request);
  ASSERT_FALSE(sizes.has_value());
  EXPECT_EQ(sizes.error().path, "params.strides[0]");
}

// --- validate_input ---

TEST(Operation, ValidateInputAcceptsTheInputWhileAParameterIsInvalid) {
  OpRequest request = pooling_basic();
  std::get<MaxPooling2Request>(request.params).strides = U64s{0, 2};
  ASSERT_FALSE(Operation::make(request).has_value());
  auto input = validate_input(request);
  ASSERT_TRUE(input.has_value()) << input.error().to_string();
  EXPECT_EQ(input->sizes(), Sizes(std::span<const uint64_t>(*request.input.sizes)));
}

TEST(Operation, ValidateInputNamesTheInputFieldLikeMake) {
  OpRequest request = identity({3, 2});
  request.input.sizes = U64s{1, 1, 1, 1, 1, 1, 1, 1, 1};  // nine dimensions
  auto input = validate_input(request);
  ASSERT_FALSE(input.has_value());
  EXPECT_EQ(input.error().path, "input.sizes");
  EXPECT_EQ(input.error().to_string(), Operation::make(request).error().to_string());
}

// --- index tables count against --max-bytes ---

TEST(Operation, ALongAxisWhoseIndexTablesExceedMaxBytesIsRefusedAtItsOutputSize) {
  // 2000 UINT8 elements in one axis: 2,000-byte buffers, but 2000 * 8 = 16,000
  // bytes of index table, over a 4,096-byte limit.
  OpRequest request = identity({2000});
  request.input.data_type = DataType::UInt8;
  auto refused = Operation::make(request, Limits{4096});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().path, "output.sizes[0]");
  EXPECT_NE(refused.error().message.find("16000 bytes of index tables"), std::string::npos) << refused.error().message;
  // The same 2000 elements as 40 x 50 need (40 + 50) * 8 = 720 bytes.
  OpRequest square = identity({40, 50});
  square.input.data_type = DataType::UInt8;
  EXPECT_TRUE(Operation::make(square, Limits{4096}).has_value());
}

TEST(Operation, PaddingIndexTablesCountTwice) {
  // Padding keeps two tables per axis (source and unfolded): 16 bytes per output index.
  auto padded = [](uint64_t n) {
    return OpRequest{tensor(DataType::UInt8, {n}), TensorRequest{}, std::nullopt,
                     PaddingRequest{PaddingMode::Edge, int64_t{0}, {10}, {10}}};
  };
  EXPECT_TRUE(Operation::make(padded(236), Limits{4096}).has_value());  // (236 + 20) * 16 = 4096
  auto refused = Operation::make(padded(237), Limits{4096});             // 4112
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().path, "output.sizes[0]");
}

}  // namespace
}  // namespace stridescope

namespace stridescope {
namespace {

// A refusal says how far the value may go with the other numbers of the spec
// (the nearest valid value), computed here by hand.
std::string refusal_message(const OpRequest& request) {
  auto refused = Operation::make(request);
  return refused.has_value() ? std::string("accepted") : refused.error().message;
}

TEST(RefusalNamesTheNearestValidValue, SliceSizeWithThisOffsetAndStride) {
  // Axis 3 of the page's slice: offset 1, stride 3 over 4 elements reads 1 and
  // 4; the largest size is (4 - 1 - 1) / 3 + 1 = 1.
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1, 1};
  EXPECT_NE(refusal_message(request).find("size at most 1 with this offset and stride"), std::string::npos)
      << refusal_message(request);
  // Axis 2: offset 0, stride 2, size 3 reads 0, 2, 4 of 4: at most (4 - 1 - 0) / 2 + 1 = 2.
  request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 0, 0};
  std::get<SliceRequest>(request.params).sizes = {1, 1, 3, 2};
  request.output.sizes = U64s{1, 1, 3, 2};
  EXPECT_NE(refusal_message(request).find("size at most 2 with this offset and stride"), std::string::npos)
      << refusal_message(request);
}

TEST(RefusalNamesTheNearestValidValue, OffsetsAtMostTheLastIndex) {
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1, 4};
  std::get<SliceRequest>(request.params).sizes = {1, 1, 2, 1};
  request.output.sizes = U64s{1, 1, 2, 1};
  EXPECT_NE(refusal_message(request).find("outside input size 4 (at most 3 here)"), std::string::npos)
      << refusal_message(request);
}

TEST(RefusalNamesTheNearestValidValue, Slice1WindowSizeAndOutputSize) {
  // Window offset 2 on a 4-wide axis: the window holds at most 4 - 2 = 2.
  OpRequest request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_offsets = {0, 0, 0, 2};
  EXPECT_NE(refusal_message(request).find("window size at most 2 with this offset"), std::string::npos)
      << refusal_message(request);
  // Window 4 with |stride| 2 supplies 1 + (4 - 1) / 2 = 2 elements; 3 asked.
  request = slice1_page();
  request.output.sizes = U64s{1, 1, 3, 2};
  EXPECT_NE(refusal_message(request).find("exceeds the 2 elements the window can supply"), std::string::npos)
      << refusal_message(request);
}

TEST(RefusalNamesTheNearestValidValue, PoolingWindowWithThisDilation) {
  // Padded size 4 + 0 + 0; dilation 2 spans (k - 1) * 2 + 1 <= 4, so k <= 2.
  OpRequest request{tensor(F32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{3, 1}, std::nullopt, std::nullopt, std::nullopt, U64s{2, 1}}};
  EXPECT_NE(refusal_message(request).find("window size at most 2 with dilation 2"), std::string::npos)
      << refusal_message(request);
  // Output sizes that disagree with the formula are told the size it gives:
  // (4 + 0 + 0 - 2) / 2 + 1 = 2.
  request = pooling_basic();
  request.output.sizes = U64s{1, 1, 3, 2};
  EXPECT_NE(refusal_message(request).find("is 3 but the op produces 2"), std::string::npos)
      << refusal_message(request);
}

}  // namespace
}  // namespace stridescope
