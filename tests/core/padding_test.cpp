// DML_PADDING_OPERATOR_DESC: OutputTensor.Sizes[i] = InputTensor.Sizes[i] +
// StartPadding[i] + EndPadding[i].
//   CONSTANT    every padded value is PaddingValue (example 1)
//   EDGE        the dimension's edge value (example 2)
//   REFLECTION  mirrors as if folded at the edge, the edge itself not
//               repeated; StartPadding[i] >= Sizes[i] is valid and folds the
//               new padding over the previous one, periodically (example 3)
//   SYMMETRIC   like REFLECTION but the edge is mirrored too (example 4)
// operators.md: REFLECTION reads m < n ? m : 2n-2-m with m = i mod (2n-2),
// SYMMETRIC m < n ? m : 2n-1-m with m = i mod 2n, a size-1 dimension repeats
// its element; PaddingValue truncates toward zero for integer types.
// The examples use the page's input and print the page's outputs.
#include "core/padding.h"

#include <gtest/gtest.h>

#include <bit>

#include "test_support.h"
#include "tests/reference/directml_pages.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

// --- compile-time checks: the page's examples, folded more than once ---

// Example 3 (REFLECTION, n = 4): padded columns read 2,1 | 0..3 | 2,1,0,1.
static_assert(fold_padded_index(PaddingMode::Reflection, -1, 4) == 1);
static_assert(fold_padded_index(PaddingMode::Reflection, 5, 4) == 1);
static_assert(fold_padded_index(PaddingMode::Reflection, 6, 4) == 0);
static_assert(fold_padded_index(PaddingMode::Reflection, 7, 4) == 1);  // folds a second time
// Example 4 (SYMMETRIC, n = 4): padded columns read 1,0 | 0..3 | 3,2,1,0.
static_assert(fold_padded_index(PaddingMode::Symmetric, -2, 4) == 1);
static_assert(fold_padded_index(PaddingMode::Symmetric, 4, 4) == 3);
static_assert(fold_padded_index(PaddingMode::Symmetric, 7, 4) == 0);
// Periodic far away: REFLECTION has period 2n-2, SYMMETRIC 2n.
static_assert(fold_padded_index(PaddingMode::Reflection, -7, 3) == 1);
static_assert(fold_padded_index(PaddingMode::Reflection, 9, 3) == 1);
static_assert(fold_padded_index(PaddingMode::Symmetric, -7, 3) == 0);
static_assert(fold_padded_index(PaddingMode::Symmetric, 9, 3) == 2);
// Size 1 repeats its element; EDGE clamps; CONSTANT reads nothing.
static_assert(fold_padded_index(PaddingMode::Reflection, -5, 1) == 0);
static_assert(fold_padded_index(PaddingMode::Symmetric, 6, 1) == 0);
static_assert(fold_padded_index(PaddingMode::Edge, -100, 4) == 0);
static_assert(fold_padded_index(PaddingMode::Constant, -1, 4) == kPaddingIndex);
static_assert(fold_padded_index(PaddingMode::Constant, 2, 4) == 2);
static_assert(floor_mod(-1, 6) == 5);
static_assert(parse_padding_mode("SYMMETRIC") == PaddingMode::Symmetric);
static_assert(!parse_padding_mode("reflect").has_value());

// Example input, shared by all four examples.
const std::vector<float> kPageInput = pages::values<float>(pages::kPaddingInput);

OpRequest page_request(PaddingMode mode, Scalar value = int64_t{0}) {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                   PaddingRequest{mode, value, {0, 0, 1, 2}, {0, 0, 3, 4}}};
}

void expect_output(const OpRequest& request, const std::vector<float>& input, const std::vector<float>& expected) {
  SS_ASSERT_MAKE(op, request);
  const auto bytes = test::bytes_of(input);
  const test::Outputs cpu = test::run_cpu(op, bytes);
  const test::Outputs ref = test::run_reference(op, bytes);
  EXPECT_EQ(test::logical_values<float>(op.output(), cpu.output), expected) << "cpu backend";
  EXPECT_EQ(test::logical_values<float>(op.output(), ref.output), expected) << "reference";
}

TEST(Padding, Example1_ConstantFillsWithThePaddingValue) {
  expect_output(page_request(PaddingMode::Constant, int64_t{9}), kPageInput,
                pages::values<float>(pages::kPaddingConstant9));
}

TEST(Padding, Example2_EdgeRepeatsTheEdgeValue) {
  expect_output(page_request(PaddingMode::Edge), kPageInput,
                pages::values<float>(pages::kPaddingEdge));
}

TEST(Padding, Example3_ReflectionMirrorsWithoutRepeatingTheEdge) {
  expect_output(page_request(PaddingMode::Reflection), kPageInput,
                pages::values<float>(pages::kPaddingReflection));
}

TEST(Padding, Example4_SymmetricMirrorsRepeatingTheEdge) {
  expect_output(page_request(PaddingMode::Symmetric), kPageInput,
                pages::values<float>(pages::kPaddingSymmetric));
}

OpRequest line(PaddingMode mode, uint64_t n, uint64_t start, uint64_t end) {
  return OpRequest{tensor(DataType::Float32, {n}), TensorRequest{}, std::nullopt,
                   PaddingRequest{mode, int64_t{0}, {start}, {end}}};
}

TEST(Padding, ReflectionFoldsPaddingsLargerThanTheInputSeveralTimes) {
  expect_output(line(PaddingMode::Reflection, 3, 7, 7), {1, 2, 3},
                {2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2});
  expect_output(line(PaddingMode::Reflection, 2, 5, 5), {10, 20},
                {20, 10, 20, 10, 20, 10, 20, 10, 20, 10, 20, 10});
}

TEST(Padding, SymmetricFoldsPaddingsLargerThanTheInputSeveralTimes) {
  expect_output(line(PaddingMode::Symmetric, 3, 7, 7), {1, 2, 3},
                {1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3});
}

TEST(Padding, EdgeClampsPaddingsLargerThanTheInput) {
  expect_output(line(PaddingMode::Edge, 3, 7, 7), {1, 2, 3},
                {1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3});
}

TEST(Padding, SizeOneDimensionRepeatsItsElement) {
  expect_output(line(PaddingMode::Reflection, 1, 3, 3), {5}, {5, 5, 5, 5, 5, 5, 5});
  expect_output(line(PaddingMode::Symmetric, 1, 3, 3), {5}, {5, 5, 5, 5, 5, 5, 5});
}

TEST(Padding, FoldMatchesTheWalkingReferenceEverywhere) {
  for (int64_t n = 1; n <= 6; ++n) {
    for (int64_t i = -40; i < 40; ++i) {
      for (PaddingMode mode : {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection,
                               PaddingMode::Symmetric}) {
        const auto walked = reference::fold_by_walking(mode, i, static_cast<uint64_t>(n));
        const int64_t expected = walked ? static_cast<int64_t>(*walked) : kPaddingIndex;
        ASSERT_EQ(fold_padded_index(mode, i, n), expected) << to_string(mode) << " i=" << i << " n=" << n;
      }
    }
  }
}

TEST(Padding, SourceIndexSubtractsTheStartPadding) {
  PaddingParams p;
  p.mode = PaddingMode::Reflection;
  p.start_padding = {0, 0, 1, 2};
  p.end_padding = {0, 0, 3, 4};
  const Sizes input{1, 1, 4, 4};
  EXPECT_EQ(padding_source_index(p, input, 3, 0), 2);  // column -2 reads 2
  EXPECT_EQ(padding_source_index(p, input, 3, 2), 0);
  EXPECT_EQ(padding_source_index(p, input, 3, 9), 1);  // column 7 reads 1
  EXPECT_EQ(padding_source_index(p, input, 2, 7), 0);  // row 6 reads 0
}

TEST(Padding, IntegerPaddingValueTruncatesTowardZero) {
  // "10.6 becomes 10"; and -10.6 becomes -10.
  for (double value : {10.6, -10.6}) {
    OpRequest request{tensor(DataType::Int16, {2}), TensorRequest{}, std::nullopt,
                      PaddingRequest{PaddingMode::Constant, value, {1}, {1}}};
    SS_ASSERT_MAKE(op, request);
    const auto input = test::bytes_of(std::vector<int16_t>{3, 4});
    const test::Outputs cpu = test::run_cpu(op, input);
    const int16_t pad = value > 0 ? 10 : -10;
    EXPECT_EQ(test::logical_values<int16_t>(op.output(), cpu.output), (std::vector<int16_t>{pad, 3, 4, pad}));
  }
}

TEST(Padding, SixtyFourBitPaddingValueIsExact) {
  const int64_t big = (int64_t{1} << 53) + 1;
  OpRequest request{tensor(DataType::Int64, {1}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Constant, big, {1}, {0}}};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(std::vector<int64_t>{-1});
  const test::Outputs cpu = test::run_cpu(op, input);
  EXPECT_EQ(test::logical_values<int64_t>(op.output(), cpu.output), (std::vector<int64_t>{big, -1}));
}

TEST(Padding, Float16PaddingValueRoundsToNearest) {
  OpRequest request{tensor(DataType::Float16, {1}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Constant, 0.1, {1}, {1}}};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(std::vector<uint16_t>{0x3C00});
  const test::Outputs cpu = test::run_cpu(op, input);
  EXPECT_EQ(test::logical_values<uint16_t>(op.output(), cpu.output), (std::vector<uint16_t>{0x2E66, 0x3C00, 0x2E66}));
}

TEST(Padding, PaddingValueIsIgnoredByMirroringModes) {
  OpRequest request{tensor(DataType::Float32, {2}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Reflection, int64_t{9}, {1}, {1}}};
  expect_output(request, {1, 2}, {2, 1, 2, 1});
}

TEST(Padding, ReadsBroadcastInputThroughItsStrides) {
  // Two identical rows stored once (stride 0), reflected by one row each side.
  OpRequest request{tensor(DataType::Float32, {2, 3}, U64s{0, 1}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Reflection, int64_t{0}, {1, 1}, {1, 0}}};
  expect_output(request, {1, 2, 3},
                {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3});
}

}  // namespace
}  // namespace stridescope
