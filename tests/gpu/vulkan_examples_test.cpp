// The worked examples of the DirectML documentation pages, run on the
// Vulkan backend. Expected values are copied from the pages (with the slips
// resources/examples/README.md lists corrected), not computed by any backend.
#include <gtest/gtest.h>

#include "gpu_test_support.h"
#include "tests/reference/directml_pages.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

class VulkanExamples : public VulkanTest {
 protected:
  // Runs `request` on the input values and returns the output buffer as floats.
  std::vector<float> run_float(const OpRequest& request, const std::vector<float>& input) {
    auto op = Operation::make(request);
    EXPECT_TRUE(op) << (op ? "" : op.error().to_string());
    if (!op) return {};
    auto result = run_to_new_buffers(*backend_, *op, bytes_of(input));
    EXPECT_TRUE(result) << (result ? "" : result.error().to_string());
    if (!result) return {};
    return values_of<float>(result->output, op->output().buffer_bytes() / sizeof(float));
  }
};

std::vector<float> iota16() {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
  return v;
}

OpRequest float_request(U64s in_sizes, ParamsRequest params, std::optional<U64s> out_sizes = std::nullopt) {
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, std::move(in_sizes), std::nullopt};
  r.output.sizes = std::move(out_sizes);
  r.params = std::move(params);
  return r;
}

// DML_SLICE_OPERATOR_DESC, example 1: a contiguous slice.
TEST_F(VulkanExamples, Slice_ContiguousSliceCopiesTheWindow) {
  EXPECT_EQ(run_float(float_request({1, 1, 4, 4}, SliceRequest{{0, 0, 1, 2}, {1, 1, 3, 2}, {1, 1, 1, 1}}), iota16()),
            (std::vector<float>{7, 8, 11, 12, 15, 16}));
}

// DML_SLICE_OPERATOR_DESC, example 2: a strided slice.
TEST_F(VulkanExamples, Slice_StridedSliceSkipsElements) {
  EXPECT_EQ(run_float(float_request({1, 1, 4, 4}, SliceRequest{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}}), iota16()),
            (std::vector<float>{5, 8, 13, 16}));
}

// DML_SLICE1_OPERATOR_DESC, example 1: strided slice with positive strides.
TEST_F(VulkanExamples, Slice1_PositiveStridesStartAtWindowStart) {
  EXPECT_EQ(run_float(float_request({1, 1, 4, 4}, Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, 2, 2}},
                                    U64s{1, 1, 2, 2}),
                      iota16()),
            (std::vector<float>{2, 4, 10, 12}));
}

// DML_SLICE1_OPERATOR_DESC, example 2: a negative stride starts at the window end.
TEST_F(VulkanExamples, Slice1_NegativeStrideStartsAtWindowEnd) {
  EXPECT_EQ(run_float(float_request({1, 1, 4, 4}, Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}},
                                    U64s{1, 1, 2, 2}),
                      iota16()),
            (std::vector<float>{14, 16, 6, 8}));
}

// DML_PADDING_OPERATOR_DESC examples 1-4: one input, start {0,0,1,2}, end {0,0,3,4}.
const std::vector<float> kPaddingInput = pages::values<float>(pages::kPaddingInput);

OpRequest padding_request(PaddingMode mode, double value = 0) {
  PaddingRequest p;
  p.padding_mode = mode;
  p.padding_value = value;
  p.start_padding = {0, 0, 1, 2};
  p.end_padding = {0, 0, 3, 4};
  return float_request({1, 1, 4, 4}, p);
}

TEST_F(VulkanExamples, Padding_ConstantFillsWithPaddingValue) {
  const std::vector<float> expected = pages::values<float>(pages::kPaddingConstant9);
  EXPECT_EQ(run_float(padding_request(PaddingMode::Constant, 9), kPaddingInput), expected);
}

TEST_F(VulkanExamples, Padding_EdgeRepeatsTheEdgeValue) {
  const std::vector<float> expected = pages::values<float>(pages::kPaddingEdge);
  EXPECT_EQ(run_float(padding_request(PaddingMode::Edge), kPaddingInput), expected);
}

TEST_F(VulkanExamples, Padding_ReflectionMirrorsWithoutTheEdgeAndFoldsAgain) {
  const std::vector<float> expected = pages::values<float>(pages::kPaddingReflection);
  EXPECT_EQ(run_float(padding_request(PaddingMode::Reflection), kPaddingInput), expected);
}

TEST_F(VulkanExamples, Padding_SymmetricMirrorsWithTheEdge) {
  const std::vector<float> expected = pages::values<float>(pages::kPaddingSymmetric);
  EXPECT_EQ(run_float(padding_request(PaddingMode::Symmetric), kPaddingInput), expected);
}

// Sizes and strides page: A..F stored as 1..6 in different layouts, read by
// identity into a packed output (row-major A B C / D E F).
OpRequest identity_2x3(std::optional<U64s> strides) {
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{2, 3}, std::move(strides)};
  r.params = IdentityRequest{};
  return r;
}

TEST_F(VulkanExamples, Layout_ColumnMajorReadsThroughStrides) {
  // Column-major 2x3: buffer A D B E C F, height stride 1, width stride 2.
  EXPECT_EQ(run_float(identity_2x3(U64s{1, 2}), {1, 4, 2, 5, 3, 6}), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(VulkanExamples, Layout_BroadcastRepeatsTheStoredRow) {
  // Three stored elements A B C, height stride 0.
  EXPECT_EQ(run_float(identity_2x3(U64s{0, 1}), {1, 2, 3}), (std::vector<float>{1, 2, 3, 1, 2, 3}));
}

TEST_F(VulkanExamples, Layout_PaddedRowsSkipTheirPadding) {
  // Buffer A B C x x D E F x x with a height stride of 5.
  EXPECT_EQ(run_float(identity_2x3(U64s{5, 1}), {1, 2, 3, -1, -1, 4, 5, 6, -1, -1}),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST_F(VulkanExamples, Layout_DhwOffsetOfElementHIsSeven) {
  // 2x2x3 "DHW": element H (d=1, h=0, w=1) is at offset {1,0,1} . {6,3,1} = 7.
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{2, 2, 3}, U64s{6, 3, 1}};
  r.output.sizes = U64s{1, 1, 1};
  r.params = SliceRequest{{1, 0, 1}, {1, 1, 1}, {1, 1, 1}};
  std::vector<float> buffer(12);
  for (std::size_t i = 0; i < 12; ++i) buffer[i] = static_cast<float>(i);
  EXPECT_EQ(run_float(r, buffer), (std::vector<float>{7}));
}

TEST_F(VulkanExamples, Layout_NhwcStridesReadLikeNchw) {
  // {1,1,3,5} packed NHWC: strides {15,1,5,1}; with C = 1 it reads as NCHW.
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{1, 1, 3, 5}, U64s{15, 1, 5, 1}};
  r.params = IdentityRequest{};
  std::vector<float> buffer(15);
  for (std::size_t i = 0; i < 15; ++i) buffer[i] = static_cast<float>(i + 1);
  EXPECT_EQ(run_float(r, buffer), buffer);
}

TEST_F(VulkanExamples, Layout_GappedOutputKeepsTheCallersGapBytes) {
  // Writing A..F into a 2x3 output with a height stride of 5 leaves x x alone.
  OpRequest r = identity_2x3(std::nullopt);
  r.output.strides = U64s{5, 1};
  auto op = Operation::make(r);
  ASSERT_TRUE(op);
  std::vector<float> output(10, -7.0f);
  std::vector<std::byte> out_bytes = bytes_of(output);
  std::vector<std::byte> no_indices;
  ASSERT_TRUE(backend_->run(*op, bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6}), out_bytes, no_indices));
  EXPECT_EQ(values_of<float>(out_bytes, 10), (std::vector<float>{1, 2, 3, -7, -7, 4, 5, 6, -7, -7}));
}

}  // namespace
}  // namespace stridescope::test
