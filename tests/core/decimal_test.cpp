// core/decimal.h: numbers kept as written, converted once. Expected values
// are worked out by hand from the binary formats (IEEE 754 binary16/32/64).
#include "core/decimal.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

namespace stridescope {
namespace {

Decimal dec(const char* text) {
  std::optional<Decimal> d = make_decimal(text);
  EXPECT_TRUE(d.has_value()) << text;
  return d.value_or(Decimal{"0"});
}

TEST(Decimal, AcceptsTheJsonNumberGrammarOnly) {
  for (const char* ok : {"0", "-0", "12", "-1.25", "1e5", "1E+5", "2.5e-3", "0.000"}) {
    EXPECT_TRUE(make_decimal(ok).has_value()) << ok;
  }
  for (const char* bad : {"", "-", "01", ".5", "1.", "+1", "1e", "1e+", "0x10", "1.5.2", "1 ", "NaN", "inf"}) {
    EXPECT_FALSE(make_decimal(bad).has_value()) << bad;
  }
}

TEST(Decimal, TruncatesTowardZeroExactly) {
  EXPECT_EQ(decimal_truncated(dec("10.6")), WideInt{10});
  EXPECT_EQ(decimal_truncated(dec("-10.6")), WideInt{-10});
  EXPECT_EQ(decimal_truncated(dec("-0.9")), WideInt{0});
  EXPECT_EQ(decimal_truncated(dec("1.5e3")), WideInt{1500});
  EXPECT_EQ(decimal_truncated(dec("123e-2")), WideInt{1});
  // 2^64 is still answered (so that callers can say "out of range"); beyond not.
  EXPECT_EQ(decimal_truncated(dec("18446744073709551616")), static_cast<WideInt>(1) << 64);
  EXPECT_FALSE(decimal_truncated(dec("18446744073709551617")).has_value());
  EXPECT_FALSE(decimal_truncated(dec("1e30")).has_value());
  EXPECT_EQ(decimal_truncated(dec("1e-99999999999999999999")), WideInt{0});  // saturated exponent
}

TEST(Decimal, KnowsWholeNumbers) {
  EXPECT_TRUE(decimal_is_integer(dec("4.000")));
  EXPECT_TRUE(decimal_is_integer(dec("1e2")));
  EXPECT_TRUE(decimal_is_integer(dec("-0.0")));
  EXPECT_FALSE(decimal_is_integer(dec("1.5")));
  EXPECT_FALSE(decimal_is_integer(dec("15e-1")));
}

TEST(Decimal, OverflowsToInfinityAndUnderflowsToSignedZero) {
  EXPECT_EQ(decimal_to_double(dec("1e400")), std::numeric_limits<double>::infinity());
  EXPECT_EQ(decimal_to_double(dec("-1e400")), -std::numeric_limits<double>::infinity());
  const double tiny = decimal_to_double(dec("-1e-400"));
  EXPECT_EQ(tiny, 0.0);
  EXPECT_TRUE(std::signbit(tiny));
  EXPECT_EQ(decimal_to_float(dec("3.4028236e38")), std::numeric_limits<float>::infinity());  // past FLT_MAX's half ulp
  EXPECT_EQ(decimal_to_float(dec("1e-45")), std::numeric_limits<float>::denorm_min());     // nearest: 2^-149
  EXPECT_EQ(decimal_to_half_bits(dec("65520")), 0x7c00);  // the midpoint above 65504 rounds to even: infinity
  EXPECT_EQ(decimal_to_half_bits(dec("65519.99999999999999999")), 0x7bff);
}

TEST(Decimal, Float16RoundsOnceAroundMidpoints) {
  // 2049 lies between halves 2048 and 2050: a tie, to even (2048 = 0x6800).
  EXPECT_EQ(decimal_to_half_bits(dec("2049")), 0x6800);
  EXPECT_EQ(decimal_to_half_bits(dec("2049.0000000000000000001")), 0x6801);  // 2050
  EXPECT_EQ(decimal_to_half_bits(dec("-2049.0000000000000000001")), 0xe801);
  EXPECT_EQ(decimal_to_half_bits(dec("2050.9999999999999999999")), 0x6801);
}

}  // namespace
}  // namespace stridescope
