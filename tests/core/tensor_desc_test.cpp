// DirectML "tensor sizes and strides": sizes are the logical dimensions,
// strides the number of elements to skip to reach the next element in a
// dimension; the dot product of a coordinate and the strides is its offset
// (DHW 2x2x3: element H at {1,0,1} sits at 1*6 + 0*3 + 1*1 = 7). A tensor is
// packed when its buffer holds exactly its elements, each at its own offset;
// a stride of 0 broadcasts; a stride larger than packed pads (gaps);
// DMLCalcBufferTensorSize gives the minimal buffer: (offset of the last
// element + 1) * element size, rounded up to a multiple of 4 bytes.
#include "core/tensor_desc.h"

#include <gtest/gtest.h>

#include <limits>
#include <set>

namespace stridescope {
namespace {

TensorDesc make_ok(DataType type, Sizes sizes, std::optional<Strides> strides = std::nullopt,
                   Limits limits = {}) {
  auto desc = TensorDesc::make(type, sizes, strides, "input", limits);
  EXPECT_TRUE(desc.has_value()) << desc.error().to_string();
  if (!desc) return *TensorDesc::make(DataType::Float32, {1}, std::nullopt, "input");
  return *desc;
}

void expect_refused(DataType type, Sizes sizes, std::optional<Strides> strides, const std::string& path,
                    Limits limits = {}) {
  auto desc = TensorDesc::make(type, sizes, strides, "input", limits);
  ASSERT_FALSE(desc.has_value()) << "accepted; expected an error at " << path;
  EXPECT_EQ(desc.error().code, ErrorCode::InvalidSpec);
  EXPECT_EQ(desc.error().path, path) << desc.error().to_string();
}

// Distinct offsets by brute force, independent of the classifier.
uint64_t count_distinct_offsets(const TensorDesc& desc) {
  std::set<uint64_t> offsets;
  Coord coord(desc.rank(), 0);
  do {
    uint64_t offset = 0;
    for (std::size_t d = 0; d < desc.rank(); ++d) offset += coord[d] * desc.strides()[d];
    offsets.insert(offset);
  } while (next_coord(coord, desc.sizes()));
  return offsets.size();
}

LayoutTraits traits(bool row_major, bool packed, bool broadcast, bool gapped, bool overlapping,
                    bool permuted, uint64_t distinct) {
  return LayoutTraits{row_major, packed, broadcast, gapped, overlapping, permuted, distinct};
}

TEST(TensorDesc, OmittedStridesArePackedRowMajor) {
  const TensorDesc hw = make_ok(DataType::Float32, {2, 3});
  EXPECT_EQ(hw.strides(), (Strides{3, 1}));
  EXPECT_EQ(TensorDesc::packed_strides({1, 1, 3, 5}), (Strides{15, 15, 5, 1}));
  EXPECT_EQ(TensorDesc::packed_strides({2, 2, 3}), (Strides{6, 3, 1}));
  EXPECT_EQ(TensorDesc::packed_strides({7}), (Strides{1}));
}

TEST(TensorDesc, OffsetIsTheDotProductOfCoordinateAndStrides) {
  // The page's DHW example: H = {1,0,1} sits at offset 7.
  const TensorDesc dhw = make_ok(DataType::Float32, {2, 2, 3});
  EXPECT_EQ(dhw.offset_of({1, 0, 1}), 7u);
  EXPECT_EQ(dhw.offset_of({1, 1, 2}), 11u);
  const TensorDesc padded = make_ok(DataType::Float32, {2, 3}, Strides{5, 1});
  EXPECT_EQ(padded.offset_of({1, 0}), 5u);  // D follows two padding elements
}

TEST(TensorDesc, HwRowMajorIsPacked) {
  const TensorDesc hw = make_ok(DataType::Float32, {2, 3}, Strides{3, 1});
  EXPECT_EQ(hw.layout(), traits(true, true, false, false, false, false, 6));
  EXPECT_EQ(hw.element_count(), 6u);
  EXPECT_EQ(hw.buffer_elements(), 6u);
  EXPECT_EQ(hw.buffer_bytes(), 24u);
}

TEST(TensorDesc, WhColumnMajorIsPackedButPermuted) {
  // Height stride 1, width stride 2 (the height size): A D B E C F.
  const TensorDesc wh = make_ok(DataType::Float32, {2, 3}, Strides{1, 2});
  EXPECT_EQ(wh.layout(), traits(false, true, false, false, false, true, 6));
  EXPECT_EQ(wh.offset_of({0, 1}), 2u);  // B
  EXPECT_EQ(wh.offset_of({1, 0}), 1u);  // D
  EXPECT_EQ(wh.buffer_elements(), 6u);
}

TEST(TensorDesc, DhwIsPackedRowMajor) {
  const TensorDesc dhw = make_ok(DataType::Float32, {2, 2, 3}, Strides{6, 3, 1});
  EXPECT_EQ(dhw.layout(), traits(true, true, false, false, false, false, 12));
  EXPECT_EQ(dhw.buffer_bytes(), 48u);
}

TEST(TensorDesc, BroadcastRowStoresThreeElementsForSix) {
  // A B C / A B C: height stride 0, physical size 3, logical size 6.
  const TensorDesc broadcast = make_ok(DataType::Float32, {2, 3}, Strides{0, 1});
  EXPECT_EQ(broadcast.layout(), traits(false, false, true, false, false, false, 3));
  EXPECT_EQ(broadcast.element_count(), 6u);
  EXPECT_EQ(broadcast.buffer_elements(), 3u);
  EXPECT_EQ(broadcast.buffer_bytes(), 12u);
  EXPECT_EQ(broadcast.offset_of({1, 2}), 2u);
}

TEST(TensorDesc, PaddedRowsLeaveGaps) {
  // A B C x x D E F: row stride 5 instead of 3; the minimal buffer ends at F.
  const TensorDesc padded = make_ok(DataType::Float32, {2, 3}, Strides{5, 1});
  EXPECT_EQ(padded.layout(), traits(false, false, false, true, false, false, 6));
  EXPECT_EQ(padded.buffer_elements(), 8u);
  EXPECT_EQ(padded.buffer_bytes(), 32u);
}

TEST(TensorDesc, NhwcOfThePageIsRowMajorBecauseItsChannelDimensionHasSizeOne) {
  // Sizes {1,1,3,5}, NHWC strides {15,1,5,1}: with one channel the bytes are
  // those of packed NCHW, and dimensions of size 1 do not count.
  const TensorDesc nhwc = make_ok(DataType::Float32, {1, 1, 3, 5}, Strides{15, 1, 5, 1});
  EXPECT_EQ(nhwc.layout(), traits(true, true, false, false, false, false, 15));
  EXPECT_EQ(nhwc.buffer_bytes(), 60u);
  const TensorDesc nchw = make_ok(DataType::Float32, {1, 1, 3, 5}, Strides{15, 15, 5, 1});
  EXPECT_EQ(nchw.layout(), nhwc.layout());
}

TEST(TensorDesc, NhwcWithChannelsIsPackedAndPermuted) {
  // N=1, C=3, H=2, W=2 stored NHWC: C stride 1, W stride C, H stride W*C, N stride H*W*C.
  const TensorDesc nhwc = make_ok(DataType::Float32, {1, 3, 2, 2}, Strides{12, 1, 6, 3});
  EXPECT_EQ(nhwc.layout(), traits(false, true, false, false, false, true, 12));
  EXPECT_EQ(nhwc.offset_of({0, 2, 1, 0}), 8u);
}

TEST(TensorDesc, BufferBytesRoundUpToFourLikeDmlCalcBufferTensorSize) {
  EXPECT_EQ(make_ok(DataType::UInt8, {1}).buffer_bytes(), 4u);
  EXPECT_EQ(make_ok(DataType::Int8, {4}).buffer_bytes(), 4u);
  EXPECT_EQ(make_ok(DataType::Int8, {5}).buffer_bytes(), 8u);
  EXPECT_EQ(make_ok(DataType::Float16, {3}).buffer_bytes(), 8u);
  EXPECT_EQ(make_ok(DataType::Float16, {2}).buffer_bytes(), 4u);
  EXPECT_EQ(make_ok(DataType::Int16, {3}, Strides{2}).buffer_bytes(), 12u);  // 5 elements, 10 bytes
  EXPECT_EQ(make_ok(DataType::Float64, {3}).buffer_bytes(), 24u);
  EXPECT_EQ(make_ok(DataType::UInt8, {7}, Strides{0}).buffer_bytes(), 4u);
  EXPECT_EQ(make_ok(DataType::UInt8, {7}, Strides{0}).buffer_elements(), 1u);
}

TEST(TensorDesc, OverlapOutsideNestingIsFoundByEnumeration) {
  // Sizes [3,2] strides [1,2]: offsets 0,2,1,3,2,4 - offset 2 is used twice.
  const TensorDesc overlapping = make_ok(DataType::Float32, {3, 2}, Strides{1, 2});
  EXPECT_EQ(overlapping.layout(), traits(false, false, false, false, true, true, 5));
  EXPECT_EQ(overlapping.buffer_elements(), 5u);
  // Sizes [2,3] strides [3,2]: offsets 0,2,4,3,5,7 - unique although the
  // stride-3 dimension does not step over the stride-2 one's reach (0..4).
  const TensorDesc unique = make_ok(DataType::Float32, {2, 3}, Strides{3, 2});
  EXPECT_EQ(unique.layout(), traits(false, false, false, true, false, false, 6));
  EXPECT_EQ(unique.buffer_elements(), 8u);
  // Sizes [2,2] strides [3,2]: offsets 0,2,3,5, unique, gaps at 1 and 4.
  const TensorDesc nested = make_ok(DataType::Float32, {2, 2}, Strides{3, 2});
  EXPECT_EQ(nested.layout(), traits(false, false, false, true, false, false, 4));
}

TEST(TensorDesc, EqualStridesOverlap) {
  const TensorDesc same = make_ok(DataType::Float32, {2, 2}, Strides{1, 1});  // 0,1,1,2
  EXPECT_TRUE(same.layout().overlapping);
  EXPECT_FALSE(same.layout().broadcast);
  EXPECT_FALSE(same.layout().packed);
  EXPECT_EQ(same.layout().distinct_offsets, 3u);
}

TEST(TensorDesc, BroadcastWithOverlapIsReportedAsBoth) {
  // Dim 0 broadcasts; dims 1,2 overlap as [3,2] strides [1,2] do.
  const TensorDesc both = make_ok(DataType::Int8, {4, 3, 2}, Strides{0, 1, 2});
  EXPECT_TRUE(both.layout().broadcast);
  EXPECT_TRUE(both.layout().overlapping);
  EXPECT_EQ(both.layout().distinct_offsets, 5u);
}

TEST(TensorDesc, ClassificationAgreesWithBruteForceOnSmallLayouts) {
  // Every 2-D and 3-D layout with sizes 1..3 and strides 0..4.
  int checked = 0;
  for (uint64_t a = 1; a <= 3; ++a) {
    for (uint64_t b = 1; b <= 3; ++b) {
      for (uint64_t c = 1; c <= 3; ++c) {
        for (uint64_t sa = 0; sa <= 4; ++sa) {
          for (uint64_t sb = 0; sb <= 4; ++sb) {
            for (uint64_t sc = 0; sc <= 4; ++sc) {
              const TensorDesc desc = make_ok(DataType::UInt16, {a, b, c}, Strides{sa, sb, sc});
              const uint64_t distinct = count_distinct_offsets(desc);
              uint64_t addressed = 1;  // coordinates once broadcast dimensions collapse
              bool broadcast = false;
              if (sa == 0 && a > 1) broadcast = true; else addressed *= a;
              if (sb == 0 && b > 1) broadcast = true; else addressed *= b;
              if (sc == 0 && c > 1) broadcast = true; else addressed *= c;
              const uint64_t buffer = (a - 1) * sa + (b - 1) * sb + (c - 1) * sc + 1;
              const LayoutTraits& t = desc.layout();
              ASSERT_EQ(t.distinct_offsets, distinct) << a << b << c << " " << sa << sb << sc;
              ASSERT_EQ(t.broadcast, broadcast) << a << b << c << " " << sa << sb << sc;
              ASSERT_EQ(t.overlapping, distinct < addressed) << a << b << c << " " << sa << sb << sc;
              ASSERT_EQ(t.gapped, distinct < buffer) << a << b << c << " " << sa << sb << sc;
              ASSERT_EQ(t.packed, !broadcast && distinct == desc.element_count() && distinct == buffer)
                  << a << b << c << " " << sa << sb << sc;
              ASSERT_EQ(desc.buffer_elements(), buffer);
              ASSERT_TRUE(t.exact);
              ++checked;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 27 * 125);
}

TEST(TensorDesc, OverlapBeyondTheEnumerationBudgetIsNeverReportedAsUnique) {
  // [3,2] strides [1,2] overlap (offset 2 twice), repeated 2^25 + 1 times at
  // stride 8: 6 * (2^25 + 1) coordinates in 2^28 + 5 buffer elements, so
  // counting alone cannot prove the overlap, and the buffer (256 MiB of
  // INT8) is within the default limit. Past the enumeration budget the
  // classifier may say "may overlap" (exact = false), never "unique".
  const uint64_t repeats = (uint64_t{1} << 25) + 1;
  const TensorDesc desc = make_ok(DataType::Int8, {repeats, 3, 2}, Strides{8, 1, 2});
  EXPECT_EQ(desc.buffer_elements(), (uint64_t{1} << 28) + 5);
  EXPECT_TRUE(desc.layout().overlapping);
  EXPECT_FALSE(desc.layout().packed);
  // Below the budget the answer is exact.
  const TensorDesc small = make_ok(DataType::Int8, {1000, 3, 2}, Strides{8, 1, 2});
  EXPECT_TRUE(small.layout().exact);
  EXPECT_TRUE(small.layout().overlapping);
  EXPECT_EQ(small.layout().distinct_offsets, 5000u);
  const TensorDesc unique = make_ok(DataType::Int8, {1000, 2, 3}, Strides{8, 3, 2});
  EXPECT_TRUE(unique.layout().exact);
  EXPECT_FALSE(unique.layout().overlapping);
}

TEST(TensorDesc, SizesAndStridesAreValidated) {
  expect_refused(DataType::Float32, Sizes{}, std::nullopt, "input.sizes");
  expect_refused(DataType::Float32, {2, 0, 3}, std::nullopt, "input.sizes[1]");
  expect_refused(DataType::Float32, {uint64_t{1} << 32}, std::nullopt, "input.sizes[0]");
  expect_refused(DataType::Float32, {2, 3}, Strides{1}, "input.strides");
  expect_refused(DataType::Float32, {2, 3}, Strides{3, 1, 1}, "input.strides");
  expect_refused(DataType::Float32, {2, 3}, Strides{3, uint64_t{1} << 32}, "input.strides[1]");
  // DirectML's UINT: the largest size is accepted (broadcast keeps it small).
  EXPECT_TRUE(TensorDesc::make(DataType::UInt8, {4294967295u}, Strides{0}, "input").has_value());
}

TEST(TensorDesc, HugeSizesAreRefusedWithoutAllocating) {
  // 8 dimensions of 2^32 - 1: the element count overflows 64 bits, even with
  // broadcast strides that would need only one buffer element.
  const Sizes huge(8, 4294967295u);
  expect_refused(DataType::Float32, huge, std::nullopt, "input.sizes");
  expect_refused(DataType::Float32, huge, Strides(8, 0), "input.sizes");
  // 2^32 - 1 elements of 8 bytes each: 32 GiB, above the 1 GiB default.
  expect_refused(DataType::Float64, {4294967295u}, std::nullopt, "input.sizes");
  // Huge strides: the last element's offset is beyond any limit.
  expect_refused(DataType::UInt8, {2, 2}, Strides{4294967295u, 4294967295u}, "input.strides[0]");
  expect_refused(DataType::UInt8, Sizes(8, 4294967295u), Strides(8, 4294967295u), "input.sizes");
}

TEST(TensorDesc, MaxBytesIsEnforcedAtTheByte) {
  const Limits exact{uint64_t{4} << 20};
  EXPECT_EQ(make_ok(DataType::Float32, {1024, 1024}, std::nullopt, exact).buffer_bytes(), uint64_t{4} << 20);
  expect_refused(DataType::Float32, {1024, 1024}, std::nullopt, "input.sizes", Limits{(uint64_t{4} << 20) - 1});
  // The default limit is 1 GiB.
  EXPECT_TRUE(TensorDesc::make(DataType::Float32, {uint64_t{1} << 28}, std::nullopt, "input").has_value());
  expect_refused(DataType::Float32, {(uint64_t{1} << 28) + 1}, std::nullopt, "input.sizes");
  // The message names the limit.
  auto refused = TensorDesc::make(DataType::Float32, {1024, 1024}, std::nullopt, "input", Limits{1000});
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("1000"), std::string::npos) << refused.error().message;
}

TEST(TensorDesc, MaxBytesBlamesTheStrideThatSpreadsTheBuffer) {
  // 2x3 FLOAT32 packed is 24 bytes; a row stride of 1000000 puts the last
  // element at offset 1 * 1000000 + 2 = 1000002: 4000012 bytes.
  auto refused = TensorDesc::make(DataType::Float32, {2, 3}, Strides{1000000, 1}, "output", Limits{4096});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().to_string(),
            "output.strides[0]: buffer of 4000012 bytes exceeds the limit of 4096 bytes (--max-bytes); "
            "packed, these sizes would need 24 bytes");
  // The second dimension's stride reaches further: (3 - 1) * 5000 > (2 - 1) * 1.
  expect_refused(DataType::Float32, {2, 3}, Strides{1, 5000}, "input.strides[1]", Limits{4096});
  // Sizes too large even packed: the sizes are to blame, whatever the strides.
  expect_refused(DataType::Float32, {64, 64}, Strides{64, 1}, "input.sizes", Limits{4096});
}

TEST(TensorDesc, ErrorsNameTheGivenTensorPath) {
  auto refused = TensorDesc::make(DataType::Float32, {2, 0}, std::nullopt, "outputIndices");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().path, "outputIndices.sizes[1]");
  EXPECT_EQ(refused.error().to_string().rfind("outputIndices.sizes[1]: ", 0), 0u);
}

TEST(TensorDesc, FlatIndexIsRowMajorWhateverTheStrides) {
  const TensorDesc nhwc = make_ok(DataType::Float32, {2, 3, 2, 2}, Strides{12, 1, 6, 3});
  EXPECT_EQ(nhwc.flat_index_of({0, 0, 0, 0}), 0u);
  EXPECT_EQ(nhwc.flat_index_of({0, 2, 1, 0}), 10u);
  EXPECT_EQ(nhwc.flat_index_of({1, 0, 0, 1}), 13u);
  EXPECT_EQ(nhwc.flat_index_of({1, 2, 1, 1}), 23u);
  for (uint64_t flat = 0; flat < nhwc.element_count(); ++flat) {
    EXPECT_EQ(nhwc.flat_index_of(nhwc.coord_of_flat_index(flat)), flat);
  }
  EXPECT_EQ(nhwc.coord_of_flat_index(13), (Coord{1, 0, 0, 1}));
}

TEST(TensorDesc, NextCoordWalksRowMajorAndStopsAfterTheLast) {
  Coord coord{0, 0};
  std::vector<Coord> seen{coord};
  while (next_coord(coord, Sizes{2, 3})) seen.push_back(coord);
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_EQ(seen[1], (Coord{0, 1}));
  EXPECT_EQ(seen[3], (Coord{1, 0}));
  EXPECT_EQ(seen[5], (Coord{1, 2}));
  Coord single{0};
  EXPECT_FALSE(next_coord(single, Sizes{1}));
}

TEST(TensorDesc, FormatCoordWritesBrackets) {
  EXPECT_EQ(format_coord(Coord{0, 0, 1, 2}), "[0,0,1,2]");
  EXPECT_EQ(format_coord(Coord{7}), "[7]");
}

TEST(TensorDesc, RankEightIsAccepted) {
  const TensorDesc eight = make_ok(DataType::UInt8, {2, 1, 2, 1, 2, 1, 2, 1});
  EXPECT_EQ(eight.rank(), 8u);
  EXPECT_EQ(eight.element_count(), 16u);
  EXPECT_TRUE(eight.layout().packed);
}

}  // namespace
}  // namespace stridescope
