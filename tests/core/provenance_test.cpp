// Where an output element came from, in the DirectML pages' own words:
//   slice1: "if a stride is negative, elements are copied starting at the end
//           of the window in that dimension" (Output[0,0,1,0] of example 2 =
//           Input[{0,0,1,1}] = 6, axis 2 starting at 0 + 4 - 1 = 3);
//   padding: a padded element is the padding value (CONSTANT) or an input
//           element found by folding the padded coordinate (EDGE,
//           REFLECTION, SYMMETRIC);
//   max_pooling2: the maximum of the window taps, padded taps never winning.
// readers_per_axis answers the opposite question, per dimension.
#include "core/provenance.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <vector>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;
using test::slice1_example2;
using test::page_padding;
using Readers = std::vector<uint64_t>;

bool mentions(const std::string& text, std::string word) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower.find(word) != std::string::npos;
}

TEST(Provenance, Slice1_NegativeStrideRuleMentionsTheWindowEnd) {
  SS_ASSERT_MAKE(op, slice1_example2());
  auto p = explain(op, Coord{0, 0, 1, 0});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::Copied);
  EXPECT_EQ(p->output_coord, (Coord{0, 0, 1, 0}));
  EXPECT_EQ(p->output_offset, 2u);
  ASSERT_TRUE(p->source.has_value());
  EXPECT_EQ(*p->source, (Coord{0, 0, 1, 1}));
  EXPECT_EQ(p->source_offset, 5u);
  EXPECT_TRUE(mentions(p->rule, "window end")) << p->rule;
  EXPECT_TRUE(mentions(p->rule, "negative")) << p->rule;
  EXPECT_TRUE(mentions(p->rule, "[0,0,1,1]")) << p->rule;
}

TEST(Provenance, Slice1_PositiveStridesDoNotClaimTheWindowEnd) {
  OpRequest request = slice1_example2();
  std::get<Slice1Request>(request.params).input_window_strides = {1, 1, 2, 2};
  SS_ASSERT_MAKE(op, request);
  auto p = explain(op, Coord{0, 0, 1, 1});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(*p->source, (Coord{0, 0, 2, 3}));  // example 1: Input[{0,0,2,3}] = 12
  EXPECT_FALSE(mentions(p->rule, "window end")) << p->rule;
}

TEST(Provenance, SourceOffsetFollowsInputStrides) {
  OpRequest request = slice1_example2();
  request.input.strides = U64s{16, 16, 1, 4};  // column-major storage
  SS_ASSERT_MAKE(op, request);
  auto p = explain(op, Coord{0, 0, 1, 0});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p->source, (Coord{0, 0, 1, 1}));
  EXPECT_EQ(p->source_offset, 5u);  // 1*1 + 1*4
  request = slice1_example2();
  request.input.strides = U64s{16, 16, 8, 1};  // padded rows
  SS_ASSERT_MAKE(padded, request);
  p = explain(padded, Coord{0, 0, 0, 1});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p->source, (Coord{0, 0, 3, 3}));
  EXPECT_EQ(p->source_offset, 27u);
}

TEST(Provenance, OutputOffsetFollowsOutputStrides) {
  OpRequest request = slice1_example2();
  request.output.strides = U64s{12, 12, 5, 2};
  SS_ASSERT_MAKE(op, request);
  auto p = explain(op, Coord{0, 0, 1, 1});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->output_offset, 7u);
}

TEST(Provenance, Padding_ReflectionNamesTheFoldedCoordinate) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
  auto p = explain(op, Coord{0, 0, 0, 0});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::PaddingFolded);
  EXPECT_EQ(p->unfolded, (SignedCoord{0, 0, -1, -2}));
  ASSERT_TRUE(p->source.has_value());
  EXPECT_EQ(*p->source, (Coord{0, 0, 1, 2}));  // the page's 7
  EXPECT_EQ(p->source_offset, 6u);
  EXPECT_TRUE(mentions(p->rule, "reflect")) << p->rule;
  // Past the end, folded again: row 6 -> 0, column 7 -> 1.
  p = explain(op, Coord{0, 0, 7, 9});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->unfolded, (SignedCoord{0, 0, 6, 7}));
  EXPECT_EQ(*p->source, (Coord{0, 0, 0, 1}));
}

TEST(Provenance, Padding_SymmetricNamesTheFoldedCoordinate) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Symmetric));
  auto p = explain(op, Coord{0, 0, 7, 0});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::PaddingFolded);
  EXPECT_EQ(p->unfolded, (SignedCoord{0, 0, 6, -2}));
  EXPECT_EQ(*p->source, (Coord{0, 0, 1, 1}));  // the page's 6
  EXPECT_TRUE(mentions(p->rule, "symmetric")) << p->rule;
}

TEST(Provenance, Padding_EdgeNamesTheClampedCoordinate) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Edge));
  auto p = explain(op, Coord{0, 0, 7, 9});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::PaddingFolded);
  EXPECT_EQ(p->unfolded, (SignedCoord{0, 0, 6, 7}));
  EXPECT_EQ(*p->source, (Coord{0, 0, 3, 3}));
  EXPECT_EQ(p->source_offset, 15u);
  EXPECT_TRUE(mentions(p->rule, "edge")) << p->rule;
}

TEST(Provenance, Padding_ConstantHasNoSource) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Constant));
  auto p = explain(op, Coord{0, 0, 0, 5});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::PaddingConstant);
  EXPECT_FALSE(p->source.has_value());
  EXPECT_EQ(p->unfolded, (SignedCoord{0, 0, -1, 3}));
  EXPECT_TRUE(mentions(p->rule, "9")) << "names the padding value: " << p->rule;
}

TEST(Provenance, Padding_InsideTheInputIsACopy) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
  auto p = explain(op, Coord{0, 0, 1, 2});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::Copied);
  EXPECT_EQ(*p->source, (Coord{0, 0, 0, 0}));
  EXPECT_EQ(p->unfolded, (SignedCoord{0, 0, 0, 0}));
}

OpRequest padded_pooling() {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, tensor(DataType::UInt32, {1, 1, 4, 4}),
                   MaxPooling2Request{{3, 3}, std::nullopt, U64s{1, 1}, U64s{1, 1}, std::nullopt}};
}

TEST(Provenance, Pooling_WindowListsTapsInRowMajorOrderWithPaddedTaps) {
  SS_ASSERT_MAKE(op, padded_pooling());
  const auto input = test::bytes_of(test::iota_floats(16));
  auto p = explain(op, Coord{0, 0, 0, 0}, input);
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->kind, SourceKind::Pooled);
  ASSERT_EQ(p->window.size(), 9u);
  const std::vector<SignedCoord> coords{{0, 0, -1, -1}, {0, 0, -1, 0}, {0, 0, -1, 1}, {0, 0, 0, -1}, {0, 0, 0, 0},
                                        {0, 0, 0, 1},   {0, 0, 1, -1}, {0, 0, 1, 0},  {0, 0, 1, 1}};
  const std::vector<bool> padded{true, true, true, true, false, false, true, false, false};
  for (std::size_t k = 0; k < 9; ++k) {
    EXPECT_EQ(p->window[k].coord, coords[k]) << k;
    EXPECT_EQ(p->window[k].padded, padded[k]) << k;
  }
  EXPECT_EQ(p->window[4].offset, 0u);
  EXPECT_EQ(p->window[5].offset, 1u);
  EXPECT_EQ(p->window[7].offset, 4u);
  EXPECT_EQ(p->window[8].offset, 5u);
  ASSERT_TRUE(p->winner.has_value());
  EXPECT_EQ(*p->winner, 8u);
  EXPECT_EQ(p->winner_index, 5u);
}

TEST(Provenance, Pooling_PaddedTapsNeverWinEvenOverNegativeValues) {
  SS_ASSERT_MAKE(op, padded_pooling());
  std::vector<float> input(16, -1.0f);
  input[4] = -0.5f;  // (1,0)
  const auto bytes = test::bytes_of(input);
  auto p = explain(op, Coord{0, 0, 0, 0}, bytes);
  ASSERT_TRUE(p.has_value());
  ASSERT_TRUE(p->winner.has_value());
  EXPECT_EQ(*p->winner, 7u);
  EXPECT_EQ(p->winner_index, 4u);
  // Ties: the first real tap in window order.
  std::vector<float> flat(16, 2.0f);
  const auto flat_bytes = test::bytes_of(flat);
  p = explain(op, Coord{0, 0, 0, 0}, flat_bytes);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p->winner, 4u);
  EXPECT_EQ(p->winner_index, 0u);
}

// The rule names the reason the winner won: a NaN beats every number (here
// a larger Infinity before it), which the first-maximum rule would not
// explain; one padded tap is "1 tap".
TEST(Provenance, Pooling_ARuleNamesTheNaNRuleWhereANaNWins) {
  SS_ASSERT_MAKE(op, padded_pooling());
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> input(16, 1.0f);
  input[0] = inf;                                       // (0,0), tap 4 of out[0,0]'s window
  input[5] = std::numeric_limits<float>::quiet_NaN();   // (1,1), tap 8
  const auto bytes = test::bytes_of(input);
  auto p = explain(op, Coord{0, 0, 0, 0}, bytes);
  ASSERT_TRUE(p.has_value());
  ASSERT_TRUE(p->winner.has_value());
  EXPECT_EQ(*p->winner, 8u);
  EXPECT_NE(p->rule.find("a NaN beats every number"), std::string::npos) << p->rule;
  EXPECT_EQ(p->rule.find("first maximum"), std::string::npos) << p->rule;
  input[5] = 1.0f;  // no NaN: Infinity is the first maximum
  const auto numbers = test::bytes_of(input);
  p = explain(op, Coord{0, 0, 0, 0}, numbers);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p->winner, 4u);
  EXPECT_NE(p->rule.find("the first maximum in row-major window order wins"), std::string::npos) << p->rule;
}

TEST(Provenance, Pooling_OnePaddedTapIsSingular) {
  // A 1x2 window padded by one column before: out[0,0] has one padded tap.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 1, 2}), TensorRequest{}, std::nullopt,
                                MaxPooling2Request{{1, 2}, std::nullopt, U64s{0, 1}, std::nullopt, std::nullopt}}));
  auto p = explain(op, Coord{0, 0, 0, 0});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_NE(p->rule.find("(1 tap in padding never wins)"), std::string::npos) << p->rule;
}

TEST(Provenance, Pooling_AHugeWindowListsItsFirstTapsAndStillFindsTheWinner) {
  // One input element under a 300x300 window padded by 299 before it: 90,000
  // taps, of which only the last, (0,0), is in the input.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 1, 1}), TensorRequest{}, std::nullopt,
                                MaxPooling2Request{{300, 300}, std::nullopt, U64s{299, 299}, std::nullopt, std::nullopt}}));
  const std::vector<float> input{7.0f};
  const auto bytes = test::bytes_of(input);
  auto p = explain(op, Coord{0, 0, 0, 0}, bytes);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->window_taps, 90000u);
  EXPECT_EQ(p->window.size(), kMaxListedTaps);
  EXPECT_EQ(p->window.front().coord, (SignedCoord{0, 0, -299, -299}));
  ASSERT_TRUE(p->winner.has_value());
  EXPECT_EQ(*p->winner, 89999u);  // the last tap in window order
  EXPECT_EQ(p->source, (Coord{0, 0, 0, 0}));
  EXPECT_EQ(p->winner_index, 0u);
}

TEST(Provenance, Pooling_WithoutInputDataNoWinnerIsNamed) {
  SS_ASSERT_MAKE(op, padded_pooling());
  auto p = explain(op, Coord{0, 0, 3, 3});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->window.size(), 9u);
  EXPECT_FALSE(p->winner.has_value());
  EXPECT_FALSE(p->winner_index.has_value());
  EXPECT_TRUE(p->window[8].padded);  // (4,4)
}

TEST(Provenance, CoordinateOutsideTheOutputIsAnErrorAtAt) {
  // A coordinate of the wrong rank is an error at "--at"; an entry beyond
  // the output's size names its position, "--at[d]".
  SS_ASSERT_MAKE(op, slice1_example2());
  const std::vector<std::pair<Coord, std::string>> bad{
      {Coord{0, 0, 2, 0}, "--at[2]"}, {Coord{1, 0, 0, 0}, "--at[0]"}, {Coord{0, 0, 0, 7}, "--at[3]"},
      {Coord{0, 0, 0}, "--at"},       {Coord{0, 0, 0, 0, 0}, "--at"}};
  for (const auto& [coord, path] : bad) {
    auto p = explain(op, coord);
    ASSERT_FALSE(p.has_value()) << format_coord(coord);
    EXPECT_EQ(p.error().path, path) << format_coord(coord);
    EXPECT_EQ(p.error().code, ErrorCode::InvalidSpec);
  }
}

TEST(Provenance, IdentityAndSliceAreCopies) {
  OpRequest identity{tensor(DataType::Float32, {2, 3}, U64s{1, 2}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(id, identity);
  auto p = explain(id, Coord{1, 2});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->kind, SourceKind::Copied);
  EXPECT_EQ(*p->source, (Coord{1, 2}));
  EXPECT_EQ(p->source_offset, 5u);
  EXPECT_EQ(p->output_offset, 5u);
  OpRequest slice{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                  SliceRequest{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}}};
  SS_ASSERT_MAKE(sl, slice);
  p = explain(sl, Coord{0, 0, 1, 1});
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p->source, (Coord{0, 0, 3, 3}));  // the page's 16
}

TEST(Provenance, ReadersPerAxis_Slice1) {
  SS_ASSERT_MAKE(op, slice1_example2());
  auto readers = readers_per_axis(op, Coord{0, 0, 1, 1});  // the 6 of Output[0,0,1,0]
  EXPECT_EQ(readers[0], (Readers{0}));
  EXPECT_EQ(readers[1], (Readers{0}));
  EXPECT_EQ(readers[2], (Readers{1}));
  EXPECT_EQ(readers[3], (Readers{0}));
  readers = readers_per_axis(op, Coord{0, 0, 0, 0});  // row 0 and column 0 are never read
  EXPECT_TRUE(readers[2].empty());
  EXPECT_TRUE(readers[3].empty());
}

TEST(Provenance, ReadersPerAxis_ReflectionReadsOneElementManyTimes) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
  const auto readers = readers_per_axis(op, Coord{0, 0, 1, 1});
  EXPECT_EQ(readers[2], (Readers{0, 2, 6}));
  EXPECT_EQ(readers[3], (Readers{1, 3, 7, 9}));
}

TEST(Provenance, ReadersPerAxis_ConstantPaddingReadsEachElementOnce) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Constant));
  const auto readers = readers_per_axis(op, Coord{0, 0, 0, 0});
  EXPECT_EQ(readers[2], (Readers{1}));
  EXPECT_EQ(readers[3], (Readers{2}));
}

TEST(Provenance, ReadersPerAxis_PoolingCountsAnyWindowTap) {
  SS_ASSERT_MAKE(op, padded_pooling());
  auto readers = readers_per_axis(op, Coord{0, 0, 0, 3});
  EXPECT_EQ(readers[0], (Readers{0}));
  EXPECT_EQ(readers[1], (Readers{0}));
  EXPECT_EQ(readers[2], (Readers{0, 1}));
  EXPECT_EQ(readers[3], (Readers{2, 3}));
  OpRequest strided{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{2, 2}, U64s{2, 2}, std::nullopt, std::nullopt, std::nullopt}};
  SS_ASSERT_MAKE(op2, strided);
  readers = readers_per_axis(op2, Coord{0, 0, 1, 2});
  EXPECT_EQ(readers[2], (Readers{0}));
  EXPECT_EQ(readers[3], (Readers{1}));
}

}  // namespace
}  // namespace stridescope
