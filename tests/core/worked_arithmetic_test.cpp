// The arithmetic of output sizes and of one output element, written with the
// spec's numbers. Every expected line is worked by hand from the DirectML
// pages' formulas (resources/docs/operators.md), not by the code under test.
#include "core/worked_arithmetic.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

std::vector<std::string> texts(const std::vector<WorkedStep>& steps) {
  std::vector<std::string> lines;
  for (const WorkedStep& step : steps) lines.push_back(step.text());
  return lines;
}

Provenance explained(const Operation& op, const Coord& at, std::span<const std::byte> input = {}) {
  auto p = explain(op, at, input);
  EXPECT_TRUE(p.has_value()) << p.error().to_string();
  return p ? *p : Provenance{};
}

TEST(WorkedArithmetic, PoolingOutputSize_DilatedWindowWithTheNumbers) {
  // H: floor((9 + 1 + 0 - ((3 - 1)*2 + 1)) / 2) + 1 = floor(5 / 2) + 1 = 3.
  // W: window 2, no dilation, stride 1, no padding: floor((9 - 2) / 1) + 1 = 8.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 2, 9, 9}), TensorRequest{}, std::nullopt,
                                MaxPooling2Request{{3, 2}, U64s{2, 1}, U64s{1, 0}, U64s{0, 0}, U64s{2, 1}}}));
  const std::vector<std::string> expected{
      "N_out = N_in = 1",
      "C_out = C_in = 2",
      "H_out = floor((in + start + end - ((window - 1)\u00b7dilation + 1)) / stride) + 1 = "
      "floor((9 + 1 + 0 - ((3 - 1)\u00b72 + 1)) / 2) + 1 = 3",
      "W_out = floor((in + start + end - ((window - 1)\u00b7dilation + 1)) / stride) + 1 = "
      "floor((9 + 0 + 0 - ((2 - 1)\u00b71 + 1)) / 1) + 1 = 8",
  };
  EXPECT_EQ(texts(output_size_steps(op)), expected);
}

TEST(WorkedArithmetic, Slice1OutputSize_IsMaxCopiedElementsOrSaysTheLimit) {
  // The page's example 2: window sizes {1,1,4,3}, strides {1,1,-2,2}:
  // 1 + (4 - 1) / 2 = 2 and 1 + (3 - 1) / 2 = 2; an output of 1 there is under the limit.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), tensor(DataType::Float32, {1, 1, 2, 1}),
                                std::nullopt, Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}}));
  const std::vector<std::string> lines = texts(output_size_steps(op));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[2], "out[2] = MaxCopiedElements = 1 + (windowSize - 1) / |stride| = 1 + (4 - 1) / |-2| = 2");
  EXPECT_EQ(lines[3], "out[3] = 1  (the spec's output size; at most MaxCopiedElements = 1 + (3 - 1) / |2| = 2)");
}

TEST(WorkedArithmetic, PaddingOutputSize_IsInputPlusStartPlusEnd) {
  // The page's examples: 4 + 1 + 3 = 8 rows, 4 + 2 + 4 = 10 columns.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                                PaddingRequest{PaddingMode::Reflection, int64_t{0}, {0, 0, 1, 2}, {0, 0, 3, 4}}}));
  const std::vector<std::string> lines = texts(output_size_steps(op));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "out[0] = in + start + end = 1 + 0 + 0 = 1");
  EXPECT_EQ(lines[2], "out[2] = in + start + end = 4 + 1 + 3 = 8");
  EXPECT_EQ(lines[3], "out[3] = in + start + end = 4 + 2 + 4 = 10");
}

TEST(WorkedArithmetic, Slice1Element_NegativeStrideStartsAtTheWindowEnd) {
  // out[0,0,1,0] of the page's example 2: axis 2 starts at 0 + 4 - 1 = 3 and
  // reads 3 + (-2)*1 = 1; axis 3 reads 1 + 2*0 = 1; in[0,0,1,1] is at offset
  // 1*4 + 1*1 = 5; the output element at 1*2 + 0 = 2.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), tensor(DataType::Float32, {1, 1, 2, 2}),
                                std::nullopt, Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}}));
  const std::vector<std::string> expected{
      "start[2] = offset + size - 1 = 0 + 4 - 1 = 3  (stride -2 is negative: the copy starts at the window's end)",
      "in[2] = start + stride\u00b7o = 3 + (-2)\u00b71 = 1",
      "in[3] = offset + stride\u00b7o = 1 + 2\u00b70 = 1",
      "input offset = c0\u00b7s0 + c1\u00b7s1 + c2\u00b7s2 + c3\u00b7s3 = 0\u00b716 + 0\u00b716 + 1\u00b74 + 1\u00b71 = 5  "
      "(c: coordinate, s: strides [16,16,4,1])",
      "output offset = c0\u00b7s0 + c1\u00b7s1 + c2\u00b7s2 + c3\u00b7s3 = 0\u00b74 + 0\u00b74 + 1\u00b72 + 0\u00b71 = 2  "
      "(c: coordinate, s: strides [4,4,2,1])",
  };
  EXPECT_EQ(texts(element_steps(op, explained(op, Coord{0, 0, 1, 0}))), expected);
}

TEST(WorkedArithmetic, ReflectionElement_FoldsWithTheFloorModulo) {
  // operators.md's worked example 3, out[0,0,0,0]: row i = 0 - 1 = -1,
  // m = -1 mod 6 = 5 >= 4, row 8 - 2 - 5 = 1; column i = 0 - 2 = -2,
  // m = -2 mod 6 = 4 >= 4, column 8 - 2 - 4 = 2. in[0,0,1,2] at 1*4 + 2 = 6.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                                PaddingRequest{PaddingMode::Reflection, int64_t{0}, {0, 0, 1, 2}, {0, 0, 3, 4}}}));
  const std::vector<std::string> lines = texts(element_steps(op, explained(op, Coord{0, 0, 0, 0})));
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[0], "i[2] = o - start = 0 - 1 = -1");
  EXPECT_EQ(lines[1], "m[2] = i mod (2n - 2) = -1 mod 6 = 5  (the floor modulo: never negative)");
  EXPECT_EQ(lines[2], "in[2] = 2n - 2 - m = 8 - 2 - 5 = 1  (m >= n = 4: the mirror, not repeating the edge)");
  EXPECT_EQ(lines[3], "i[3] = o - start = 0 - 2 = -2");
  EXPECT_EQ(lines[4], "m[3] = i mod (2n - 2) = -2 mod 6 = 4  (the floor modulo: never negative)");
  EXPECT_EQ(lines[5], "in[3] = 2n - 2 - m = 8 - 2 - 4 = 2  (m >= n = 4: the mirror, not repeating the edge)");
  EXPECT_EQ(lines[6].substr(0, lines[6].find(" = ")), "input offset");
  EXPECT_NE(lines[6].find("= 0\u00b716 + 0\u00b716 + 1\u00b74 + 2\u00b71 = 6"), std::string::npos) << lines[6];
}

TEST(WorkedArithmetic, SymmetricEdgeAndConstantElements) {
  // Output column 8 of the page's examples is input column 8 - 2 = 6 (n = 4):
  // SYMMETRIC m = 6 mod 8 = 6 >= 4 reads 8 - 1 - 6 = 1; EDGE clamps 6 to 3;
  // CONSTANT lies outside [0, 4) and takes the padding value.
  OpRequest request{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    PaddingRequest{PaddingMode::Symmetric, int64_t{9}, {0, 0, 1, 2}, {0, 0, 3, 4}}};
  {
    SS_ASSERT_MAKE(op, request);
    const std::vector<std::string> lines = texts(element_steps(op, explained(op, Coord{0, 0, 1, 8})));
    EXPECT_EQ(lines[0], "i[2] = o - start = 1 - 1 = 0  (inside [0, 4): copied)");
    EXPECT_EQ(lines[1], "i[3] = o - start = 8 - 2 = 6");
    EXPECT_EQ(lines[2], "m[3] = i mod 2n = 6 mod 8 = 6  (the floor modulo: never negative)");
    EXPECT_EQ(lines[3], "in[3] = 2n - 1 - m = 8 - 1 - 6 = 1  (m >= n = 4: the mirror, repeating the edge)");
  }
  std::get<PaddingRequest>(request.params).padding_mode = PaddingMode::Edge;
  {
    SS_ASSERT_MAKE(op, request);
    EXPECT_EQ(texts(element_steps(op, explained(op, Coord{0, 0, 1, 8})))[2],
              "in[3] = clamp(i, 0, n - 1) = clamp(6, 0, 3) = 3");
  }
  std::get<PaddingRequest>(request.params).padding_mode = PaddingMode::Constant;
  {
    SS_ASSERT_MAKE(op, request);
    const std::vector<std::string> lines = texts(element_steps(op, explained(op, Coord{0, 0, 1, 8})));
    EXPECT_EQ(lines[2], "in[3] = paddingValue  (6 lies outside [0, 4))");
    EXPECT_EQ(lines.size(), 4u);  // no input offset: nothing is read
  }
}

TEST(WorkedArithmetic, PoolingElement_TapsWinnerAndFlatIndex) {
  // 3x3 window, stride 1, padding 1 over iota 1..16 (4x4); out[0,0,0,0]: taps
  // 0*1 - 1 + k*1 = -1, 0, 1 on both axes, -1 in padding; the largest real tap
  // is in[0,0,1,1] = 6, tap #8; its flat index ((0*1 + 0)*4 + 1)*4 + 1 = 5.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{},
                                tensor(DataType::UInt32, {1, 1, 4, 4}),
                                MaxPooling2Request{{3, 3}, std::nullopt, U64s{1, 1}, U64s{1, 1}, std::nullopt}}));
  const auto input = test::bytes_of(test::iota_floats(16));
  const std::vector<std::string> lines = texts(element_steps(op, explained(op, Coord{0, 0, 0, 0}, input)));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "H taps = o\u00b7stride - start + k\u00b7dilation = 0\u00b71 - 1 + k\u00b71 for k = 0..2 = -1, 0, 1  "
                      "(-1 in padding: never read, never wins)");
  EXPECT_EQ(lines[1].substr(0, 7), "W taps ");
  EXPECT_EQ(lines[2].substr(0, lines[2].find("  (")), "winner = in[0,0,1,1]");
  EXPECT_NE(lines[2].find("tap #8"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[3], "index = ((n\u00b7C + c)\u00b7H + h)\u00b7W + w = ((0\u00b71 + 0)\u00b74 + 1)\u00b74 + 1 = 5  "
                      "(the flat row-major position in the whole logical input, whatever its strides)");
  EXPECT_EQ(lines[4].substr(0, 13), "output offset");
}

}  // namespace
}  // namespace stridescope
