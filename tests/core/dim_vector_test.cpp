// DirectML tensors have 1 to 8 dimensions (DimensionCount "between 1 and 8,
// inclusively"); DimVector holds one value per dimension without allocating.
#include "core/dim_vector.h"

#include <gtest/gtest.h>

#include <vector>

namespace stridescope {
namespace {

constexpr Sizes kPageSizes{1, 1, 4, 4};
static_assert(kPageSizes.size() == 4);
static_assert(kPageSizes[2] == 4);
static_assert(Sizes(3, 7)[2] == 7);
static_assert(kMaxRank == 8);

TEST(DimVector, HoldsUpToEightValuesInOrder) {
  Sizes sizes{1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(sizes.size(), 8u);
  EXPECT_EQ(sizes.back(), 8u);
  EXPECT_EQ(std::vector<uint64_t>(sizes.begin(), sizes.end()), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(DimVector, ResizeFillsNewEntriesAndKeepsOldOnes) {
  Strides strides{5, 6};
  strides.resize(4, 9);
  EXPECT_EQ(strides, (Strides{5, 6, 9, 9}));
  strides.resize(1);
  EXPECT_EQ(strides, (Strides{5}));
}

TEST(DimVector, EqualityComparesRankAndValues) {
  EXPECT_EQ((Sizes{1, 2}), (Sizes{1, 2}));
  EXPECT_FALSE((Sizes{1, 2}) == (Sizes{1, 2, 0}));
  EXPECT_FALSE((Sizes{1, 2}) == (Sizes{1, 3}));
  EXPECT_TRUE(Sizes{}.empty());
}

TEST(DimVector, ConvertsToASpanOfItsValues) {
  const Sizes sizes{4, 5, 6};
  std::span<const uint64_t> view = sizes;
  ASSERT_EQ(view.size(), 3u);
  EXPECT_EQ(view[1], 5u);
  const std::vector<int64_t> source{-1, 2};
  const DimVector<int64_t> from_span{std::span<const int64_t>(source)};
  EXPECT_EQ(from_span, (DimVector<int64_t>{-1, 2}));
}

TEST(DimVector, PushBackGrowsByOne) {
  Coord coord;
  coord.push_back(3);
  coord.push_back(0);
  EXPECT_EQ(coord, (Coord{3, 0}));
}

}  // namespace
}  // namespace stridescope
