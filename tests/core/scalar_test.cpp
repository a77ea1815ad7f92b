// DML_PADDING_OPERATOR_DESC: "if the DataType of the tensor is not FLOAT16 or
// FLOAT32, the value may be truncated (for example, 10.6 becomes 10)".
// operators.md: paddingValue is converted to the tensor's type: floating
// types round to nearest, integer types truncate toward zero (10.6 becomes
// 10, -10.6 becomes -10), and a 64-bit integer value is taken exactly. A
// value outside the type's range is an error naming the field.
#include "core/scalar.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace stridescope {
namespace {

const std::string kPath = "params.paddingValue";

uint64_t encode_ok(const Scalar& value, DataType type) {
  auto bits = encode_scalar(value, type, kPath);
  EXPECT_TRUE(bits.has_value()) << (bits ? "" : bits.error().to_string());
  return bits ? *bits : 0xDEADBEEF;
}

void expect_refused(const Scalar& value, DataType type) {
  auto bits = encode_scalar(value, type, kPath);
  ASSERT_FALSE(bits.has_value()) << to_string(type) << " accepted, bits " << *bits;
  EXPECT_EQ(bits.error().code, ErrorCode::InvalidSpec);
  EXPECT_EQ(bits.error().path, kPath);
  EXPECT_FALSE(bits.error().message.empty());
}

TEST(Scalar, IntegerTypesTruncateTowardZero) {
  EXPECT_EQ(encode_ok(10.6, DataType::Int32), 10u);
  EXPECT_EQ(encode_ok(-10.6, DataType::Int32), 0xFFFFFFF6u);  // -10, zero-extended to 64 bits
  EXPECT_EQ(encode_ok(10.6, DataType::UInt8), 10u);
  EXPECT_EQ(encode_ok(-10.6, DataType::Int8), 0xF6u);
  EXPECT_EQ(encode_ok(-10.6, DataType::Int64), static_cast<uint64_t>(int64_t{-10}));
  EXPECT_EQ(encode_ok(255.9, DataType::UInt8), 255u);
  EXPECT_EQ(encode_ok(-0.9, DataType::UInt16), 0u);  // truncates to 0, which fits
  EXPECT_EQ(encode_ok(-128.7, DataType::Int8), 0x80u);
}

TEST(Scalar, IntegersEncodeAsTwosComplementOfTheirWidth) {
  EXPECT_EQ(encode_ok(int64_t{-1}, DataType::Int8), 0xFFu);
  EXPECT_EQ(encode_ok(int64_t{-1}, DataType::Int16), 0xFFFFu);
  EXPECT_EQ(encode_ok(int64_t{-2}, DataType::Int32), 0xFFFFFFFEu);
  EXPECT_EQ(encode_ok(int64_t{127}, DataType::Int8), 0x7Fu);
  EXPECT_EQ(encode_ok(int64_t{-128}, DataType::Int8), 0x80u);
  EXPECT_EQ(encode_ok(uint64_t{65535}, DataType::UInt16), 0xFFFFu);
  EXPECT_EQ(encode_ok(int64_t{9}, DataType::UInt64), 9u);
}

TEST(Scalar, SixtyFourBitIntegersAreTakenExactly) {
  // 2^53 + 1 has no double; going through one would give 2^53.
  EXPECT_EQ(encode_ok(int64_t{9007199254740993}, DataType::Int64), 9007199254740993u);
  EXPECT_EQ(encode_ok(uint64_t{9007199254740993}, DataType::UInt64), 9007199254740993u);
  EXPECT_EQ(encode_ok(std::numeric_limits<uint64_t>::max(), DataType::UInt64),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(encode_ok(std::numeric_limits<int64_t>::min(), DataType::Int64), uint64_t{1} << 63);
  EXPECT_EQ(encode_ok(std::numeric_limits<int64_t>::max(), DataType::Int64),
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(encode_ok(int64_t{-9007199254740993}, DataType::Int64),
            static_cast<uint64_t>(int64_t{-9007199254740993}));
  // A double is exact up to 2^64 - 2048; -2^63 fits INT64.
  EXPECT_EQ(encode_ok(-0x1p63, DataType::Int64), uint64_t{1} << 63);
  EXPECT_EQ(encode_ok(0x1p63, DataType::UInt64), uint64_t{1} << 63);
}

TEST(Scalar, OutOfRangeIntegersAreErrorsNamingThePath) {
  expect_refused(int64_t{128}, DataType::Int8);
  expect_refused(int64_t{-129}, DataType::Int8);
  expect_refused(int64_t{256}, DataType::UInt8);
  expect_refused(int64_t{-1}, DataType::UInt8);
  expect_refused(int64_t{-1}, DataType::UInt64);
  expect_refused(int64_t{65536}, DataType::UInt16);
  expect_refused(int64_t{2147483648}, DataType::Int32);
  expect_refused(uint64_t{1} << 63, DataType::Int64);
  expect_refused(std::numeric_limits<uint64_t>::max(), DataType::Int64);
  expect_refused(uint64_t{4294967296}, DataType::UInt32);
  expect_refused(256.0, DataType::UInt8);
  expect_refused(-1.0, DataType::UInt32);
  expect_refused(0x1p63, DataType::Int64);
  expect_refused(0x1p64, DataType::UInt64);
  expect_refused(-0x1p63 * 1.5, DataType::Int64);
  expect_refused(1e300, DataType::Int32);
}

TEST(Scalar, NaNAndInfinityAreErrorsForIntegerTypes) {
  for (DataType type : {DataType::Int8, DataType::Int32, DataType::Int64, DataType::UInt8, DataType::UInt64}) {
    expect_refused(std::numeric_limits<double>::quiet_NaN(), type);
    expect_refused(std::numeric_limits<double>::infinity(), type);
    expect_refused(-std::numeric_limits<double>::infinity(), type);
  }
}

TEST(Scalar, FloatingTypesRoundToNearest) {
  EXPECT_EQ(encode_ok(0.1, DataType::Float32), std::bit_cast<uint32_t>(0.1f));
  EXPECT_EQ(encode_ok(0.1, DataType::Float64), std::bit_cast<uint64_t>(0.1));
  EXPECT_EQ(encode_ok(-2.5, DataType::Float32), std::bit_cast<uint32_t>(-2.5f));
  EXPECT_EQ(encode_ok(int64_t{9}, DataType::Float32), std::bit_cast<uint32_t>(9.0f));
  // 2^24 + 1 ties to even 2^24 in float.
  EXPECT_EQ(encode_ok(int64_t{16777217}, DataType::Float32), 0x4B800000u);
  // 2^53 + 1 ties to even 2^53 in double.
  EXPECT_EQ(encode_ok(int64_t{9007199254740993}, DataType::Float64),
            std::bit_cast<uint64_t>(9007199254740992.0));
  EXPECT_EQ(encode_ok(std::numeric_limits<uint64_t>::max(), DataType::Float64),
            std::bit_cast<uint64_t>(0x1p64));
  EXPECT_EQ(encode_ok(-0.0, DataType::Float32), 0x80000000u);
  EXPECT_EQ(encode_ok(std::numeric_limits<double>::infinity(), DataType::Float32), 0x7F800000u);
  EXPECT_EQ(encode_ok(-std::numeric_limits<double>::infinity(), DataType::Float64),
            std::bit_cast<uint64_t>(-std::numeric_limits<double>::infinity()));
}

TEST(Scalar, Float16RoundsOnceFromDouble) {
  EXPECT_EQ(encode_ok(1.0, DataType::Float16), 0x3C00u);
  EXPECT_EQ(encode_ok(0.1, DataType::Float16), 0x2E66u);
  EXPECT_EQ(encode_ok(-2.0, DataType::Float16), 0xC000u);
  // Just above the midpoint of 1 and 1 + 2^-10: rounding via float would tie down.
  EXPECT_EQ(encode_ok(1.0 + 0x1p-11 + 0x1p-40, DataType::Float16), 0x3C01u);
  EXPECT_EQ(encode_ok(int64_t{2049}, DataType::Float16), 0x6800u);  // ties to 2048
  EXPECT_EQ(encode_ok(int64_t{2051}, DataType::Float16), 0x6802u);  // ties to 2052
  EXPECT_EQ(encode_ok(65504.0, DataType::Float16), 0x7BFFu);
  EXPECT_EQ(encode_ok(std::numeric_limits<double>::infinity(), DataType::Float16), 0x7C00u);
}

TEST(Scalar, NaNPaddingValueStaysNaNForFloatingTypes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const uint64_t h = encode_ok(nan, DataType::Float16);
  EXPECT_EQ(h & 0x7C00u, 0x7C00u);
  EXPECT_NE(h & 0x3FFu, 0u);
  EXPECT_TRUE(std::isnan(std::bit_cast<float>(static_cast<uint32_t>(encode_ok(nan, DataType::Float32)))));
  EXPECT_TRUE(std::isnan(std::bit_cast<double>(encode_ok(nan, DataType::Float64))));
}

TEST(Scalar, ReadElementDecodesEveryType) {
  std::array<std::byte, 9> buffer{};  // offset 1: unaligned on purpose
  auto put = [&](auto value) { std::memcpy(buffer.data() + 1, &value, sizeof(value)); };
  put(int8_t{-10});
  EXPECT_EQ(read_element(DataType::Int8, buffer.data() + 1), Scalar{int64_t{-10}});
  put(uint8_t{250});
  EXPECT_EQ(read_element(DataType::UInt8, buffer.data() + 1), Scalar{uint64_t{250}});
  put(int16_t{-30000});
  EXPECT_EQ(read_element(DataType::Int16, buffer.data() + 1), Scalar{int64_t{-30000}});
  put(uint16_t{0x3C00});
  EXPECT_EQ(read_element(DataType::Float16, buffer.data() + 1), Scalar{1.0});
  EXPECT_EQ(read_element(DataType::UInt16, buffer.data() + 1), Scalar{uint64_t{0x3C00}});
  put(int32_t{-7});
  EXPECT_EQ(read_element(DataType::Int32, buffer.data() + 1), Scalar{int64_t{-7}});
  put(uint32_t{4000000000u});
  EXPECT_EQ(read_element(DataType::UInt32, buffer.data() + 1), Scalar{uint64_t{4000000000u}});
  put(2.5f);
  EXPECT_EQ(read_element(DataType::Float32, buffer.data() + 1), Scalar{2.5});
  put(int64_t{-9007199254740993});
  EXPECT_EQ(read_element(DataType::Int64, buffer.data() + 1), Scalar{int64_t{-9007199254740993}});
  put(std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(read_element(DataType::UInt64, buffer.data() + 1), Scalar{std::numeric_limits<uint64_t>::max()});
  put(-0.1);
  EXPECT_EQ(read_element(DataType::Float64, buffer.data() + 1), Scalar{-0.1});
}

TEST(Scalar, WriteElementBitsTouchesOnlyItsOwnBytes) {
  for (DataType type : kAllDataTypes) {
    std::array<std::byte, 10> buffer;
    buffer.fill(std::byte{0xAB});
    write_element_bits(type, 0x0102030405060708ull, buffer.data() + 1);
    const std::size_t size = element_size(type);
    EXPECT_EQ(buffer[0], std::byte{0xAB}) << to_string(type);
    EXPECT_EQ(buffer[1 + size], std::byte{0xAB}) << to_string(type);
    const uint64_t mask = size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1;
    EXPECT_EQ(read_element_bits(type, buffer.data() + 1), 0x0102030405060708ull & mask) << to_string(type);
    EXPECT_EQ(buffer[1], std::byte{0x08}) << "little-endian, " << to_string(type);
  }
}

TEST(Scalar, EncodedValuesReadBack) {
  std::array<std::byte, 8> buffer{};
  write_element_bits(DataType::Int16, encode_ok(-10.6, DataType::Int16), buffer.data());
  EXPECT_EQ(read_element(DataType::Int16, buffer.data()), Scalar{int64_t{-10}});
  write_element_bits(DataType::Float16, encode_ok(0.5, DataType::Float16), buffer.data());
  EXPECT_EQ(read_element(DataType::Float16, buffer.data()), Scalar{0.5});
}

TEST(Scalar, ToDoubleConvertsEachAlternative) {
  EXPECT_EQ(to_double(Scalar{int64_t{-3}}), -3.0);
  EXPECT_EQ(to_double(Scalar{uint64_t{7}}), 7.0);
  EXPECT_EQ(to_double(Scalar{2.5}), 2.5);
}

TEST(Scalar, FormatScalarWritesShortestTextAndJsonNames) {
  EXPECT_EQ(format_scalar(Scalar{int64_t{3}}), "3");
  EXPECT_EQ(format_scalar(Scalar{3.0}), "3");
  EXPECT_EQ(format_scalar(Scalar{-2.5}), "-2.5");
  EXPECT_EQ(format_scalar(Scalar{0.1}), "0.1");
  EXPECT_EQ(format_scalar(Scalar{std::numeric_limits<double>::quiet_NaN()}), "NaN");
  EXPECT_EQ(format_scalar(Scalar{std::numeric_limits<double>::infinity()}), "Infinity");
  EXPECT_EQ(format_scalar(Scalar{-std::numeric_limits<double>::infinity()}), "-Infinity");
  EXPECT_EQ(format_scalar(Scalar{int64_t{-9007199254740993}}), "-9007199254740993");
  EXPECT_EQ(format_scalar(Scalar{std::numeric_limits<uint64_t>::max()}), "18446744073709551615");
}

TEST(Scalar, FormattedDoublesReadBackToTheSameBits) {
  for (double value : {0.1, 1.0 / 3, -1e-300, 6.103515625e-05, 65504.0, 1e21, 123456789012345678.0,
                       std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(), -0.0}) {
    const std::string text = format_scalar(Scalar{value});
    const double back = std::strtod(text.c_str(), nullptr);
    EXPECT_EQ(std::bit_cast<uint64_t>(back), std::bit_cast<uint64_t>(value)) << text;
    EXPECT_LE(text.size(), 24u) << text;
  }
}

}  // namespace
}  // namespace stridescope
