// core/codegen/python_text.h: literals that read back as exactly the element
// (values worked out by hand: IEEE bit patterns, Python's literal rules).
#include "core/codegen/python_text.h"

#include <gtest/gtest.h>

#include <bit>
#include <limits>

namespace stridescope::codegen {
namespace {

uint64_t f32(float value) { return std::bit_cast<uint32_t>(value); }

TEST(PythonText, FloatLiteralsKeepSignsAndReadBackExactly) {
  EXPECT_EQ(python_element(DataType::Float32, f32(-0.0f)), "-0.0");  // "-0" would be the integer 0
  EXPECT_EQ(python_element(DataType::Float32, f32(0.1f)), "0.1");
  EXPECT_EQ(python_element(DataType::Float32, f32(3.0f)), "3.0");
  // FLT_MAX: the short form reads as a double past FLT_MAX, which PyTorch refuses.
  EXPECT_EQ(python_element(DataType::Float32, f32(std::numeric_limits<float>::max())), "3.4028235e+38");
  EXPECT_EQ(python_element(DataType::Float32, f32(std::numeric_limits<float>::max()), true), "3.4028234663852886e+38");
  EXPECT_EQ(python_element(DataType::Float64, std::bit_cast<uint64_t>(0.1)), "0.1");
  EXPECT_EQ(python_element(DataType::Float16, 0x3555), "0.333251953125");  // half 0x3555, exact as a double
  EXPECT_EQ(python_element(DataType::Float16, 0x7E00), "math.nan");
  EXPECT_EQ(python_element(DataType::Float16, 0xFC00), "-math.inf");
  EXPECT_EQ(python_element(DataType::Float32, 0x7FC00001), std::nullopt);  // a payload
  EXPECT_EQ(python_element(DataType::Float32, 0xFFC00000), std::nullopt);  // a negative NaN
}

TEST(PythonText, IntegersInDecimalWithTheirSign) {
  EXPECT_EQ(python_element(DataType::Int8, 0x80), "-128");
  EXPECT_EQ(python_element(DataType::Int16, 0xFFFF), "-1");
  EXPECT_EQ(python_element(DataType::UInt64, ~uint64_t{0}), "18446744073709551615");
  EXPECT_EQ(python_element(DataType::Int64, uint64_t{1} << 63), "-9223372036854775808");
}

TEST(PythonText, ANanPayloadWritesEveryElementAsBits) {
  const uint32_t words[] = {0x3F800000, 0xFFC00000};  // 1.0f, a negative NaN
  const auto bytes = std::as_bytes(std::span(words));
  const PythonValues numpy = python_values(DataType::Float32, bytes, 2, false);
  EXPECT_TRUE(numpy.as_bits);
  EXPECT_EQ(numpy.items, (std::vector<std::string>{"1065353216", "4290772992"}));
  const PythonValues torch = python_values(DataType::Float32, bytes, 2, true);  // int32 for torch
  EXPECT_EQ(torch.items, (std::vector<std::string>{"1065353216", "-4194304"}));
}

TEST(PythonText, SlicesStopBeforeIndexZeroByLeavingTheStopOut) {
  EXPECT_EQ(python_slice(3, -2, 2), "3:0:-2");  // 3, 1
  EXPECT_EQ(python_slice(1, -1, 2), "1::-1");   // 1, 0: a stop of -1 would mean the last element
  EXPECT_EQ(python_slice(0, 1, 4), "0:4");
  EXPECT_EQ(python_slice(1, 2, 2), "1:4:2");
}

TEST(PythonText, StringsAndTuples) {
  EXPECT_EQ(python_string("a'b\\c\nd"), "'a\\'b\\\\c\\x0ad'");
  EXPECT_EQ(python_tuple(std::vector<uint64_t>{4}), "(4,)");
  EXPECT_EQ(python_tuple(std::vector<int64_t>{1, -2}), "(1, -2)");
}

}  // namespace
}  // namespace stridescope::codegen
