// Validation of operator invocations: the rules every operator shares, as the
// DirectML pages and resources/docs/operators.md state them. Each refusal must name
// the field by its spec path ("params.inputWindowStrides[2]: stride must not be 0"),
// never crash and never allocate without bound. One file per operator holds its own
// rules (slice_validation_test.cpp, padding_validation_test.cpp,
// pooling_validation_test.cpp).
//   - DimensionCount (1 to 8; max_pooling2 4 or 5) must match every array
//     and both tensors; InputTensor and OutputTensor have the same DataType.
//   - An output whose strides make two elements share an offset is invalid.
#include "core/operation.h"

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"
#include "validation_requests.h"

namespace stridescope {
namespace {

using test::F32;
using test::identity;
using test::padding_page;
using test::pooling_basic;
using test::slice1_page;
using test::slice_page;
using test::tensor;
using test::U64s;

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
