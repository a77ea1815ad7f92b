// Sizes, strides and offsets come from user input (DirectML's UINT, up to
// 2^32 - 1 each); their products and sums must be checked, never wrap.
#include "core/checked_math.h"

#include <gtest/gtest.h>

#include <limits>

namespace stridescope {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
static_assert(checked_mul(4294967295u, 4294967297u) == kMax);
static_assert(!checked_mul(uint64_t{1} << 32, uint64_t{1} << 32).has_value());
static_assert(checked_add(kMax - 1, 1) == kMax);
static_assert(!checked_add(kMax, 1).has_value());

TEST(CheckedMath, ProductsThatFitAreExact) {
  EXPECT_EQ(checked_mul(0, kMax), 0u);
  EXPECT_EQ(checked_mul(3, 5), 15u);
  EXPECT_EQ(checked_mul(uint64_t{1} << 31, uint64_t{1} << 32), uint64_t{1} << 63);
}

TEST(CheckedMath, SignedProductsKeepTheSignAndReportOverflow) {
  EXPECT_EQ(checked_mul_signed(-3, 5), -15);
  EXPECT_EQ(checked_mul_signed(INT64_MIN, 1), INT64_MIN);
  EXPECT_FALSE(checked_mul_signed(INT64_MIN, -1).has_value());
  EXPECT_FALSE(checked_mul_signed(int64_t{1} << 32, -(int64_t{1} << 32)).has_value());
}

TEST(CheckedMath, OverflowIsReportedNotWrapped) {
  EXPECT_FALSE(checked_mul(uint64_t{1} << 32, uint64_t{1} << 32).has_value());
  EXPECT_FALSE(checked_mul(kMax, 2).has_value());
  EXPECT_FALSE(checked_add(kMax, kMax).has_value());
  EXPECT_EQ(checked_add(kMax, 0), kMax);
}

}  // namespace
}  // namespace stridescope
