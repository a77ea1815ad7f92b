// IEEE 754 binary16, as DirectML's FLOAT16 tensors store it: 1 sign bit, 5
// exponent bits (bias 15), 10 fraction bits; exponent 0 holds the subnormals
// (fraction * 2^-24), exponent 31 infinities and NaNs. Converting a wider
// float rounds to nearest, ties to even, in one step; every half is exactly
// a float, and a NaN stays a NaN (its payload kept, made quiet).
#include "core/float16.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

namespace stridescope {
namespace {

// The value of a finite half from its fields, computed independently.
double half_value(uint16_t h) {
  const int exponent = (h >> 10) & 0x1F;
  const int fraction = h & 0x3FF;
  const double magnitude = exponent == 0 ? std::ldexp(fraction, -24)
                                         : std::ldexp(1024 + fraction, exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

bool is_nan_half(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }
bool is_inf_half(uint16_t h) { return (h & 0x7FFF) == 0x7C00; }

TEST(Float16, EveryHalfConvertsToItsExactFloatValue) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto half = static_cast<uint16_t>(h);
    const float f = half_to_float(half);
    if (is_nan_half(half)) {
      // Payload kept: the float's top fraction bits are the half's fraction.
      const uint32_t bits = std::bit_cast<uint32_t>(f);
      ASSERT_EQ(bits, (uint32_t{half & 0x8000u} << 16) | 0x7F800000u | (uint32_t{half & 0x3FFu} << 13))
          << std::hex << h;
    } else if (is_inf_half(half)) {
      ASSERT_TRUE(std::isinf(f)) << std::hex << h;
      ASSERT_EQ(std::signbit(f), (half & 0x8000) != 0) << std::hex << h;
    } else {
      ASSERT_EQ(static_cast<double>(f), half_value(half)) << std::hex << h;
      ASSERT_EQ(std::signbit(f), (half & 0x8000) != 0) << std::hex << h;  // -0 stays -0
      ASSERT_EQ(half_to_double(half), half_value(half)) << std::hex << h;
    }
  }
}

TEST(Float16, EveryHalfRoundTripsThroughFloatAndDouble) {
  for (uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto half = static_cast<uint16_t>(h);
    // A NaN comes back quiet (bit 9 set) with its payload and sign, as the
    // F16C instructions do; every other half comes back bit for bit.
    const uint16_t expected = is_nan_half(half) ? static_cast<uint16_t>(half | 0x0200) : half;
    ASSERT_EQ(float_to_half(half_to_float(half)), expected) << std::hex << h;
    ASSERT_EQ(double_to_half(half_to_double(half)), expected) << std::hex << h;
  }
}

// Between two neighbouring halves a and b: below the midpoint rounds to a,
// above to b, and the midpoint itself to whichever has an even fraction.
TEST(Float16, RoundsToNearestTiesToEvenBetweenEveryPairOfNeighbours) {
  for (uint16_t h = 0; h < 0x7BFF; ++h) {
    const uint16_t next = static_cast<uint16_t>(h + 1);
    for (int sign = 0; sign < 2; ++sign) {
      const uint16_t s = sign ? 0x8000 : 0;
      const double a = half_value(static_cast<uint16_t>(h | s));
      const double b = half_value(static_cast<uint16_t>(next | s));
      const double mid = (a + b) / 2;  // exact: halves have 11 significant bits
      const uint16_t even = static_cast<uint16_t>(((h & 1) == 0 ? h : next) | s);
      ASSERT_EQ(double_to_half(mid), even) << std::hex << h;
      ASSERT_EQ(float_to_half(static_cast<float>(mid)), even) << std::hex << h;
      const double toward_a = std::nextafter(mid, a);
      const double toward_b = std::nextafter(mid, b);
      ASSERT_EQ(double_to_half(toward_a), static_cast<uint16_t>(h | s)) << std::hex << h;
      ASSERT_EQ(double_to_half(toward_b), static_cast<uint16_t>(next | s)) << std::hex << h;
      ASSERT_EQ(float_to_half(std::nextafter(static_cast<float>(mid), static_cast<float>(a))),
                static_cast<uint16_t>(h | s)) << std::hex << h;
      ASSERT_EQ(float_to_half(std::nextafter(static_cast<float>(mid), static_cast<float>(b))),
                static_cast<uint16_t>(next | s)) << std::hex << h;
    }
  }
}

TEST(Float16, KnownValuesEncodeAsTheStandardSays) {
  EXPECT_EQ(float_to_half(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half(0.5f), 0x3800);
  EXPECT_EQ(double_to_half(0.1), 0x2E66);  // 0.0999755859375
  EXPECT_EQ(float_to_half(65504.0f), 0x7BFF);
  EXPECT_EQ(float_to_half(0.0f), 0x0000);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(double_to_half(-0.0), 0x8000);
}

TEST(Float16, DoubleTiesRoundOnceNotThroughFloat) {
  // 1 + 2^-11 is the midpoint between 1 (0x3C00) and 1 + 2^-10 (0x3C01).
  // Slightly above it the half must be 0x3C01; rounding to float first would
  // land exactly on the midpoint and then tie to the even 0x3C00.
  const double above_mid = 1.0 + 0x1p-11 + 0x1p-40;
  EXPECT_EQ(double_to_half(above_mid), 0x3C01);
  EXPECT_EQ(float_to_half(static_cast<float>(above_mid)), 0x3C00);  // the trap being avoided
  const double below_mid = 1.0 + 0x1p-11 - 0x1p-40;
  EXPECT_EQ(double_to_half(below_mid), 0x3C00);
  // The exact midpoint ties to even both ways.
  EXPECT_EQ(double_to_half(1.0 + 0x1p-11), 0x3C00);
  EXPECT_EQ(double_to_half(1.0 + 0x1p-10 + 0x1p-11), 0x3C02);
  // Integers: 2049 ties to 2048, 2051 ties to 2052 (spacing 2 above 2048).
  EXPECT_EQ(double_to_half(2049.0), 0x6800);
  EXPECT_EQ(double_to_half(2051.0), 0x6802);
}

TEST(Float16, OverflowGoesToInfinity) {
  EXPECT_EQ(double_to_half(65519.99), 0x7BFF);  // below the midpoint to 65536
  EXPECT_EQ(double_to_half(65520.0), 0x7C00);   // the midpoint ties to even: infinity
  EXPECT_EQ(float_to_half(65520.0f), 0x7C00);
  EXPECT_EQ(double_to_half(-65520.0), 0xFC00);
  EXPECT_EQ(double_to_half(1e10), 0x7C00);
  EXPECT_EQ(double_to_half(-1e300), 0xFC00);
  EXPECT_EQ(double_to_half(DBL_MAX), 0x7C00);
  EXPECT_EQ(float_to_half(FLT_MAX), 0x7C00);
  EXPECT_EQ(float_to_half(-FLT_MAX), 0xFC00);
  EXPECT_EQ(double_to_half(std::numeric_limits<double>::infinity()), 0x7C00);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xFC00);
}

TEST(Float16, SubnormalsRoundToNearestEvenAndUnderflowToSignedZero) {
  EXPECT_EQ(double_to_half(0x1p-24), 0x0001);             // smallest subnormal
  EXPECT_EQ(double_to_half(0x1p-25), 0x0000);             // half of it ties to even zero
  EXPECT_EQ(double_to_half(std::nextafter(0x1p-25, 1.0)), 0x0001);
  EXPECT_EQ(double_to_half(0x3p-25), 0x0002);             // 1.5 * 2^-24 ties to even 2
  EXPECT_EQ(double_to_half(0x1p-14), 0x0400);             // smallest normal
  EXPECT_EQ(double_to_half(1023 * 0x1p-24), 0x03FF);      // largest subnormal
  EXPECT_EQ(double_to_half(1023.5 * 0x1p-24), 0x0400);    // ties up to the even normal
  EXPECT_EQ(double_to_half(1022.5 * 0x1p-24), 0x03FE);
  EXPECT_EQ(float_to_half(0x1p-24f), 0x0001);
  EXPECT_EQ(double_to_half(-0x1p-24), 0x8001);
  EXPECT_EQ(double_to_half(0x1p-30), 0x0000);
  EXPECT_EQ(double_to_half(-0x1p-30), 0x8000);
  // Float and double subnormals are far below half's range.
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::denorm_min()), 0x8000);
  EXPECT_EQ(double_to_half(-std::numeric_limits<double>::denorm_min()), 0x8000);
  EXPECT_EQ(double_to_half(std::numeric_limits<double>::min()), 0x0000);
}

TEST(Float16, NaNStaysNaNWithItsSign) {
  const uint16_t from_float = float_to_half(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(is_nan_half(from_float));
  const uint16_t from_double = double_to_half(-std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(is_nan_half(from_double));
  EXPECT_NE(from_double & 0x8000, 0);
  // A signalling NaN whose payload sits only in low bits must not become infinity.
  const float low_payload = std::bit_cast<float>(0x7F800001u);
  EXPECT_TRUE(is_nan_half(float_to_half(low_payload)));
  const double low_payload_d = std::bit_cast<double>(0x7FF0000000000001ull);
  EXPECT_TRUE(is_nan_half(double_to_half(low_payload_d)));
  // The top payload bits are kept.
  EXPECT_EQ(float_to_half(std::bit_cast<float>(0x7FC02000u)), 0x7E01);
}

}  // namespace
}  // namespace stridescope
