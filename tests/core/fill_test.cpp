// spec-format.md `fill`: "iota" writes 1, 2, 3, ... in buffer order, as in the
// DirectML examples (whose {1,1,4,4} inputs read 1..16); "zeros"; and
// {"random": {seed, min, max}}, the same buffer for a seed on every machine.
// fill.h: integers wrap modulo 2^bits (INT8 goes 126, 127, -128), FLOAT16
// rounds to nearest once past 2048; random integers lie in
// [ceil(min), floor(max)] clamped to the type's range.
#include "core/fill.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/float16.h"
#include "test_support.h"

namespace stridescope {
namespace {

using test::load;

std::vector<std::byte> filled(const Fill& fill, DataType type, uint64_t elements, std::size_t extra_bytes = 0) {
  std::vector<std::byte> buffer(elements * element_size(type) + extra_bytes, std::byte{0xEE});
  fill_buffer(fill, type, elements, buffer);
  return buffer;
}

TEST(Fill, IotaCountsFromOneInBufferOrder) {
  const auto buffer = filled(FillIota{}, DataType::Float32, 16);
  for (uint64_t i = 0; i < 16; ++i) EXPECT_EQ(load<float>(buffer, i), static_cast<float>(i + 1));
  const auto doubles = filled(FillIota{}, DataType::Float64, 3);
  EXPECT_EQ(load<double>(doubles, 2), 3.0);
  const auto u64 = filled(FillIota{}, DataType::UInt64, 3);
  EXPECT_EQ(load<uint64_t>(u64, 0), 1u);
}

TEST(Fill, IotaWrapsInt8At127) {
  const auto buffer = filled(FillIota{}, DataType::Int8, 260);
  EXPECT_EQ(load<int8_t>(buffer, 125), 126);
  EXPECT_EQ(load<int8_t>(buffer, 126), 127);
  EXPECT_EQ(load<int8_t>(buffer, 127), -128);
  EXPECT_EQ(load<int8_t>(buffer, 128), -127);
  EXPECT_EQ(load<int8_t>(buffer, 254), -1);
  EXPECT_EQ(load<int8_t>(buffer, 255), 0);
  EXPECT_EQ(load<int8_t>(buffer, 256), 1);
}

TEST(Fill, IotaWrapsUnsignedTypes) {
  const auto u8 = filled(FillIota{}, DataType::UInt8, 257);
  EXPECT_EQ(load<uint8_t>(u8, 254), 255);
  EXPECT_EQ(load<uint8_t>(u8, 255), 0);
  EXPECT_EQ(load<uint8_t>(u8, 256), 1);
  const auto i16 = filled(FillIota{}, DataType::Int16, 32769);
  EXPECT_EQ(load<int16_t>(i16, 32766), 32767);
  EXPECT_EQ(load<int16_t>(i16, 32767), -32768);
}

TEST(Fill, IotaFloat16RoundsToNearestEvenPast2048) {
  const auto buffer = filled(FillIota{}, DataType::Float16, 2052);
  EXPECT_EQ(load<uint16_t>(buffer, 0), 0x3C00);                         // 1
  EXPECT_EQ(half_to_float(load<uint16_t>(buffer, 2046)), 2047.0f);
  EXPECT_EQ(half_to_float(load<uint16_t>(buffer, 2047)), 2048.0f);
  EXPECT_EQ(half_to_float(load<uint16_t>(buffer, 2048)), 2048.0f);     // 2049 ties to even
  EXPECT_EQ(half_to_float(load<uint16_t>(buffer, 2049)), 2050.0f);
  EXPECT_EQ(half_to_float(load<uint16_t>(buffer, 2050)), 2052.0f);     // 2051 ties to even
  EXPECT_EQ(half_to_float(load<uint16_t>(buffer, 2051)), 2052.0f);
}

TEST(Fill, ZerosWritesZeroBits) {
  for (DataType type : kAllDataTypes) {
    const auto buffer = filled(FillZeros{}, type, 5);
    EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](std::byte b) { return b == std::byte{0}; }))
        << to_string(type);
  }
}

TEST(Fill, WritesOnlyTheRequestedElements) {
  for (DataType type : kAllDataTypes) {
    for (const Fill& fill : {Fill{FillIota{}}, Fill{FillZeros{}}, Fill{FillRandom{7, -5, 5}}}) {
      const auto buffer = filled(fill, type, 3, 5);
      for (std::size_t b = 3 * element_size(type); b < buffer.size(); ++b) {
        ASSERT_EQ(buffer[b], std::byte{0xEE}) << to_string(type) << " byte " << b;
      }
    }
  }
}

TEST(Fill, RandomIsDeterministicPerSeed) {
  for (DataType type : kAllDataTypes) {
    const auto a = filled(FillRandom{42, -100, 100}, type, 64);
    const auto b = filled(FillRandom{42, -100, 100}, type, 64);
    const auto c = filled(FillRandom{43, -100, 100}, type, 64);
    EXPECT_EQ(a, b) << to_string(type);
    EXPECT_NE(a, c) << to_string(type);
  }
}

TEST(Fill, RandomFloatsLieInTheRange) {
  const auto f32 = filled(FillRandom{1, -2.5, 3.5}, DataType::Float32, 1000);
  std::set<float> distinct;
  for (uint64_t i = 0; i < 1000; ++i) {
    const float v = load<float>(f32, i);
    ASSERT_GE(v, -2.5f);
    ASSERT_LE(v, 3.5f);
    distinct.insert(v);
  }
  EXPECT_GT(distinct.size(), 900u);  // not a constant
  const auto f16 = filled(FillRandom{1, -2, 2}, DataType::Float16, 1000);
  for (uint64_t i = 0; i < 1000; ++i) {
    const float v = half_to_float(load<uint16_t>(f16, i));
    ASSERT_GE(v, -2.0f);
    ASSERT_LE(v, 2.0f);
  }
  const auto f64 = filled(FillRandom{9, 10, 11}, DataType::Float64, 100);
  for (uint64_t i = 0; i < 100; ++i) {
    ASSERT_GE(load<double>(f64, i), 10.0);
    ASSERT_LE(load<double>(f64, i), 11.0);
  }
}

TEST(Fill, RandomFloatsSpanningMoreThanADoubleHoldsStayFinite) {
  // max - min = 2e308 overflows to infinity; the draws must still lie in [min, max].
  const auto f64 = filled(FillRandom{3, -1e308, 1e308}, DataType::Float64, 200);
  std::set<double> distinct;
  for (uint64_t i = 0; i < 200; ++i) {
    const double v = load<double>(f64, i);
    ASSERT_TRUE(std::isfinite(v)) << i;
    ASSERT_GE(v, -1e308);
    ASSERT_LE(v, 1e308);
    distinct.insert(v);
  }
  EXPECT_GT(distinct.size(), 190u);
}

TEST(Fill, RandomIntegersLieInCeilMinToFloorMax) {
  const auto i32 = filled(FillRandom{5, -2.5, 3.7}, DataType::Int32, 2000);
  std::set<int32_t> seen;
  for (uint64_t i = 0; i < 2000; ++i) seen.insert(load<int32_t>(i32, i));
  EXPECT_EQ(seen, (std::set<int32_t>{-2, -1, 0, 1, 2, 3}));  // every value reachable, none outside
}

TEST(Fill, RandomIntegerRangeIsClampedToTheType) {
  // [-1000, 1000] clamped to INT8 is [-128, 127], to UINT8 [0, 255]: every
  // value lies inside and both ends are reached.
  const auto i8 = filled(FillRandom{3, -1000, 1000}, DataType::Int8, 4000);
  const auto u8 = filled(FillRandom{3, -1000, 1000}, DataType::UInt8, 4000);
  int lo = 1000, hi = -1000;
  std::set<int> u8_values;
  for (uint64_t i = 0; i < 4000; ++i) {
    lo = std::min<int>(lo, load<int8_t>(i8, i));
    hi = std::max<int>(hi, load<int8_t>(i8, i));
    u8_values.insert(load<uint8_t>(u8, i));
  }
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  EXPECT_EQ(*u8_values.begin(), 0);
  EXPECT_EQ(*u8_values.rbegin(), 255);
}

TEST(Fill, RandomSixtyFourBitIntegersUseTheFullRange) {
  const auto u64 = filled(FillRandom{11, 0, 1.8446744073709552e19}, DataType::UInt64, 200);
  bool above_2_53 = false;
  for (uint64_t i = 0; i < 200; ++i) above_2_53 = above_2_53 || load<uint64_t>(u64, i) > (uint64_t{1} << 53);
  EXPECT_TRUE(above_2_53);
}

}  // namespace
}  // namespace stridescope

namespace stridescope {
namespace {

TEST(FillRandom, CheckRefusesAnIntervalWithNoIntegerForAnIntegerType) {
  const Status s = check_fill(Fill{FillRandom{1, 0.5, 0.7}}, DataType::UInt8, "input.fill.random");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().to_string(), "input.fill.random: [0.5, 0.7] holds no integer, and a UINT8 fill draws integers");
  EXPECT_TRUE(check_fill(Fill{FillRandom{1, 0.5, 0.7}}, DataType::Float16, "input.fill.random").ok());
}

TEST(FillRandom, CheckRefusesAnIntervalOutsideTheTypeButClampsAnOverlap) {
  const Status s = check_fill(Fill{FillRandom{1, 1000, 2000}}, DataType::UInt8, "input.fill.random");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().to_string(), "input.fill.random: [1000, 2000] lies outside the range of UINT8, [0, 255]");
  EXPECT_FALSE(check_fill(Fill{FillRandom{1, -9, -1}}, DataType::UInt16, "input.fill.random").ok());
  EXPECT_TRUE(check_fill(Fill{FillRandom{1, -5, 5}}, DataType::UInt8, "input.fill.random").ok());  // clamped to [0, 5]
  EXPECT_TRUE(check_fill(Fill{FillIota{}}, DataType::UInt8, "input.fill.random").ok());
}

}  // namespace
}  // namespace stridescope

// fill.h FillLogicalIota: "1, 2, 3, ... in the tensor's logical (row-major)
// order, each written at its element's offset"; a shared buffer element holds
// the first number, a gap 0. FillRandom `integers`: float types draw integers.
namespace stridescope {
namespace {

std::vector<float> logical_iota(const test::U64s& sizes, const test::U64s& strides) {
  const Expected<TensorDesc> desc = TensorDesc::make(DataType::Float32, Sizes(std::span<const uint64_t>(sizes)),
                                                     Strides(std::span<const uint64_t>(strides)), "input");
  EXPECT_TRUE(desc.has_value());
  std::vector<std::byte> buffer(desc->buffer_bytes(), std::byte{0xEE});
  EXPECT_TRUE(fill_tensor_buffer(Fill{FillLogicalIota{}}, *desc, buffer, "input.fill").ok());
  std::vector<float> values;
  for (uint64_t i = 0; i < desc->buffer_elements(); ++i) values.push_back(test::load<float>(buffer, i));
  return values;
}

TEST(FillLogicalIota, NumbersTheLogicalGridWhateverTheStrides) {
  // Column-major 2x3: element (i, j) at offset i + 2j; numbered 1..6 row by row.
  EXPECT_EQ(logical_iota({2, 3}, {1, 2}), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // Packed: the same as iota in buffer order.
  EXPECT_EQ(logical_iota({2, 3}, {3, 1}), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

TEST(FillLogicalIota, SharedElementsKeepTheFirstNumberAndGapsHoldZero) {
  // Height stride 0: both rows read offsets 0..2, numbered by row 0.
  EXPECT_EQ(logical_iota({2, 3}, {0, 1}), (std::vector<float>{1, 2, 3}));
  // Row stride 3 for 2 elements: offset 2 is a gap.
  EXPECT_EQ(logical_iota({2, 2}, {3, 1}), (std::vector<float>{1, 2, 0, 3, 4}));
}

TEST(FillLogicalIota, TooManyLogicalElementsIsAnErrorAtTheFill) {
  // 2^14 x 2^13 elements broadcast from one: 2^27 logical elements.
  const Expected<TensorDesc> desc =
      TensorDesc::make(DataType::Float32, Sizes{uint64_t{1} << 14, uint64_t{1} << 13}, Strides{0, 0}, "input");
  ASSERT_TRUE(desc.has_value());
  std::vector<std::byte> buffer(desc->buffer_bytes());
  const Status s = fill_tensor_buffer(Fill{FillLogicalIota{}}, *desc, buffer, "input.fill");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().path, "input.fill");
  EXPECT_NE(s.error().message.find("134217728"), std::string::npos) << s.error().message;
}

TEST(FillRandom, IntegersInAFloatTypeAreWholeNumbersInTheRange) {
  const auto f32 = filled(FillRandom{5, -9, 9, true}, DataType::Float32, 2000);
  std::set<float> seen;
  for (uint64_t i = 0; i < 2000; ++i) seen.insert(test::load<float>(f32, i));
  std::set<float> expected;
  for (int v = -9; v <= 9; ++v) expected.insert(static_cast<float>(v));
  EXPECT_EQ(seen, expected);  // every whole number from -9 to 9, nothing between
}

TEST(FillRandom, CheckRefusesAnIntegersIntervalWithNoIntegerForAFloatType) {
  const Status s = check_fill(Fill{FillRandom{1, 0.2, 0.8, true}}, DataType::Float32, "input.fill.random");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().to_string(), "input.fill.random: [0.2, 0.8] holds no integer, and an integers fill draws integers");
}

}  // namespace
}  // namespace stridescope
