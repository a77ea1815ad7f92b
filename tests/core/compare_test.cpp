// resources/docs/cli.md `compare`: outputs are compared bit for bit, reporting the
// first differing coordinates. Only the elements the output tensor addresses
// count: a gapped output's gaps hold whatever the caller put there.
#include "core/compare.h"

#include <gtest/gtest.h>

#include <bit>
#include <limits>

#include "test_support.h"

namespace stridescope {
namespace {

TensorDesc desc(DataType type, Sizes sizes, std::optional<Strides> strides = std::nullopt) {
  return *TensorDesc::make(type, sizes, strides, "output");
}

TEST(Compare, EqualBuffersMatch) {
  const TensorDesc d = desc(DataType::Float32, {2, 3});
  const auto a = test::bytes_of(test::iota_floats(6));
  EXPECT_FALSE(compare_tensors(d, a, a).has_value());
}

TEST(Compare, ReportsCountFirstCoordinateAndOffset) {
  const TensorDesc d = desc(DataType::Float32, {2, 3});
  const auto a = test::bytes_of(test::iota_floats(6));
  auto values = test::iota_floats(6);
  values[4] = 0;
  values[5] = 0;
  const auto b = test::bytes_of(values);
  const auto m = compare_tensors(d, a, b);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->count, 2u);
  EXPECT_EQ(m->first, (Coord{1, 1}));
  EXPECT_EQ(m->first_offset, 4u);
}

TEST(Compare, FirstIsInRowMajorOrderNotBufferOrder) {
  // Column-major 2x3 (strides {1,2}): buffer offset 1 is coordinate (1,0),
  // offset 2 is (0,1); row-major order meets (0,1) first.
  const TensorDesc d = desc(DataType::Int32, {2, 3}, Strides{1, 2});
  const auto a = test::bytes_of(std::vector<int32_t>{0, 1, 2, 3, 4, 5});
  const auto b = test::bytes_of(std::vector<int32_t>{0, 9, 9, 3, 4, 5});
  const auto m = compare_tensors(d, a, b);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->count, 2u);
  EXPECT_EQ(m->first, (Coord{0, 1}));
  EXPECT_EQ(m->first_offset, 2u);
}

TEST(Compare, ListsTheFirstDifferencesUpToTheLimitInRowMajorOrder) {
  // Column-major 2x3 again: differing buffer offsets 1, 2 and 5 are
  // coordinates (1,0), (0,1) and (1,2); row-major order is (0,1), (1,0), (1,2).
  const TensorDesc d = desc(DataType::Int32, {2, 3}, Strides{1, 2});
  const auto a = test::bytes_of(std::vector<int32_t>{0, 1, 2, 3, 4, 5});
  const auto b = test::bytes_of(std::vector<int32_t>{0, 9, 9, 3, 4, 9});
  const auto two = compare_tensors(d, a, b, 2);
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->count, 3u);
  EXPECT_EQ(two->listed, (std::vector<ElementMismatch>{{Coord{0, 1}, 2}, {Coord{1, 0}, 1}}));
  const auto all = compare_tensors(d, a, b, 100);
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->listed.size(), 3u);
  EXPECT_EQ(all->listed.back(), (ElementMismatch{Coord{1, 2}, 5}));
  EXPECT_TRUE(compare_tensors(d, a, b)->listed.empty());  // no limit given: nothing listed
}

TEST(Compare, GapsAreNotCompared) {
  // Rows padded to 5: offsets 3, 4 are gaps.
  const TensorDesc d = desc(DataType::UInt8, {2, 3}, Strides{5, 1});
  const auto a = test::bytes_of(std::vector<uint8_t>{1, 2, 3, 0, 0, 4, 5, 6});
  const auto b = test::bytes_of(std::vector<uint8_t>{1, 2, 3, 77, 88, 4, 5, 6});
  EXPECT_FALSE(compare_tensors(d, a, b).has_value());
}

TEST(Compare, BitsNotValues) {
  const TensorDesc d = desc(DataType::Float32, {1});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(compare_tensors(d, test::bytes_of(std::vector<float>{nan}), test::bytes_of(std::vector<float>{nan}))
                   .has_value())
      << "the same NaN bits are equal";
  EXPECT_TRUE(compare_tensors(d, test::bytes_of(std::vector<float>{0.0f}), test::bytes_of(std::vector<float>{-0.0f}))
                  .has_value())
      << "+0 and -0 differ in bits";
  const float other_nan = std::bit_cast<float>(0x7FC00001u);
  EXPECT_TRUE(compare_tensors(d, test::bytes_of(std::vector<float>{nan}), test::bytes_of(std::vector<float>{other_nan}))
                  .has_value())
      << "NaN payloads count";
}

TEST(Compare, EveryByteOfWideElementsCounts) {
  const TensorDesc d = desc(DataType::UInt64, {2});
  const auto a = test::bytes_of(std::vector<uint64_t>{1, uint64_t{1} << 63});
  const auto b = test::bytes_of(std::vector<uint64_t>{1, 0});
  const auto m = compare_tensors(d, a, b);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->first, (Coord{1}));
  const TensorDesc h = desc(DataType::Float16, {3});
  const auto c = test::bytes_of(std::vector<uint16_t>{1, 2, 0x0103});
  const auto e = test::bytes_of(std::vector<uint16_t>{1, 2, 0x0003});
  ASSERT_TRUE(compare_tensors(h, c, e).has_value());
  EXPECT_EQ(compare_tensors(h, c, e)->first_offset, 2u);
}

TEST(Compare, BroadcastElementsCountOncePerCoordinate) {
  // Two logical elements read offset 0: one differing buffer element is two
  // differing logical elements.
  const TensorDesc d = desc(DataType::Float32, {2, 1}, Strides{0, 1});
  const auto m = compare_tensors(d, test::bytes_of(std::vector<float>{1}), test::bytes_of(std::vector<float>{2}));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->count, 2u);
  EXPECT_EQ(m->first, (Coord{0, 0}));
}

}  // namespace
}  // namespace stridescope
