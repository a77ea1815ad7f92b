// Validation of PADDING, rule by rule, as the DirectML page states it; each
// refusal names the field by its spec path.
//   - padding: OutputSizes[i] = InputSizes[i] + StartPadding[i] + EndPadding[i];
//     paddings larger than the input are valid for REFLECTION and SYMMETRIC.
#include "core/operation.h"

#include <gtest/gtest.h>

#include <limits>

#include "test_support.h"
#include "validation_requests.h"

namespace stridescope {
namespace {

using test::F32;
using test::padding_page;
using test::tensor;
using test::U64s;

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

}  // namespace
}  // namespace stridescope
