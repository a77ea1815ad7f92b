// Validation of MAX_POOLING2, rule by rule, as the DirectML page states it; each
// refusal names the field by its spec path.
//   - max_pooling2: output size (in + start + end - ((window-1)*dilation+1)) / stride + 1;
//     indices UINT32 or UINT64 with the output's sizes.
#include "core/operation.h"

#include <gtest/gtest.h>

#include <limits>

#include "test_support.h"
#include "validation_requests.h"

namespace stridescope {
namespace {

using test::F32;
using test::pooling_basic;
using test::tensor;
using test::U64s;

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

}  // namespace
}  // namespace stridescope
