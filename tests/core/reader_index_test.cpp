// The reader index (core/reader_index.h): which output elements read each
// input element, per axis, built once from the plans. Expected lists are
// worked out by hand from the DirectML pages' examples:
//   slice1 example 2: rows read 3, 1 (stride -2 starts at the window end),
//                     columns read 1, 3;
//   slice example 2:  rows 1, 3 and columns 0, 3 of a 4x4 input;
//   padding (4x4, start {1,2}, end {3,4}): the output's rows unfold to
//                     -1..6 and its columns to -2..7, then each mode folds;
//   max_pooling2:     output o of a window w, stride s, dilation t, start
//                     padding p reads o*s - p + k*t for k < w.
#include "core/reader_index.h"

#include <gtest/gtest.h>

#include "core/provenance.h"
#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;
using test::slice1_example2;
using test::page_padding;
using Readers = std::vector<uint64_t>;

// The readers along `dim` of input index 0, 1, 2, ... of that axis.
std::vector<Readers> axis_readers(const ReaderIndex& index, const Operation& op, std::size_t dim) {
  std::vector<Readers> lists;
  for (uint64_t i = 0; i < op.input().sizes()[dim]; ++i) {
    const auto list = index.readers(dim, i);
    lists.emplace_back(list.begin(), list.end());
  }
  return lists;
}

// Whether the plan-scanning path (tables too large) gives the same lists as
// the built tables, for every input element.
void expect_scan_agrees(const Operation& op) {
  const ReaderIndex tables = ReaderIndex::build(op);
  const ReaderIndex plans_only = ReaderIndex::build(op, 0);
  ASSERT_TRUE(tables.readers_known());
  ASSERT_FALSE(plans_only.readers_known());
  Coord in(op.input().rank(), 0);
  do {
    EXPECT_EQ(tables.readers_of(in), plans_only.readers_of(in)) << format_coord(in);
  } while (next_coord(in, op.input().sizes()));
}

OpRequest pooling(U64s window, std::optional<U64s> strides, std::optional<U64s> start, std::optional<U64s> end,
                  std::optional<U64s> dilations) {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                   MaxPooling2Request{window, strides, start, end, dilations}};
}

TEST(ReaderIndex, Slice1Example2_NegativeStrideReadsRowsFromTheWindowEnd) {
  SS_ASSERT_MAKE(op, slice1_example2());
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{}, {1}, {}, {0}}));
  EXPECT_EQ(axis_readers(index, op, 3), (std::vector<Readers>{{}, {0}, {}, {1}}));
  EXPECT_EQ(axis_readers(index, op, 0), (std::vector<Readers>{{0}}));
  EXPECT_EQ(index.reader_count(Coord{0, 0, 1, 1}), 1u);  // the page's 6, read by Output[0,0,1,0]
  EXPECT_EQ(index.only_reader(Coord{0, 0, 1, 1}), (Coord{0, 0, 1, 0}));
  EXPECT_EQ(index.only_reader(Coord{0, 0, 3, 3}), (Coord{0, 0, 0, 1}));
  EXPECT_FALSE(index.is_read(Coord{0, 0, 0, 0}));
  EXPECT_FALSE(index.is_read(Coord{0, 0, 1, 2}));
  EXPECT_EQ(index.window(2), std::make_pair(uint64_t{0}, uint64_t{3}));
  EXPECT_EQ(index.window(3), std::make_pair(uint64_t{1}, uint64_t{3}));
  EXPECT_EQ(index.output_source(Coord{0, 0, 1, 0}), (Coord{0, 0, 1, 1}));
  EXPECT_EQ(index.output_kind(Coord{0, 0, 1, 0}), SourceKind::Copied);
  expect_scan_agrees(op);
}

TEST(ReaderIndex, SliceExample2_StridedRowsAndColumns) {
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                                SliceRequest{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}}}));
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{}, {0}, {}, {1}}));
  EXPECT_EQ(axis_readers(index, op, 3), (std::vector<Readers>{{0}, {}, {}, {1}}));
  EXPECT_EQ(index.only_reader(Coord{0, 0, 3, 3}), (Coord{0, 0, 1, 1}));  // the page's 16
  EXPECT_EQ(index.window(2), std::make_pair(uint64_t{1}, uint64_t{3}));
  EXPECT_EQ(index.window(3), std::make_pair(uint64_t{0}, uint64_t{3}));
  expect_scan_agrees(op);
}

TEST(ReaderIndex, ReflectionPadding_FoldedRowsAndColumnsReadOneElementManyTimes) {
  // Rows unfold to -1..6 and reflect to 1,0,1,2,3,2,1,0; columns unfold to
  // -2..7 and reflect to 2,1,0,1,2,3,2,1,0,1.
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{1, 7}, {0, 2, 6}, {3, 5}, {4}}));
  EXPECT_EQ(axis_readers(index, op, 3), (std::vector<Readers>{{2, 8}, {1, 3, 7, 9}, {0, 4, 6}, {5}}));
  EXPECT_EQ(index.reader_count(Coord{0, 0, 1, 1}), 12u);
  EXPECT_EQ(index.only_reader(Coord{0, 0, 3, 3}), (Coord{0, 0, 4, 5}));
  EXPECT_EQ(index.output_kind(Coord{0, 0, 0, 0}), SourceKind::PaddingFolded);
  EXPECT_EQ(index.output_kind(Coord{0, 0, 1, 2}), SourceKind::Copied);
  EXPECT_EQ(index.output_source(Coord{0, 0, 0, 0}), (Coord{0, 0, 1, 2}));  // the page's 7
  const std::vector<bool> row_padded{true, false, false, false, false, true, true, true};
  for (uint64_t o = 0; o < row_padded.size(); ++o) EXPECT_EQ(index.in_padding(2, o), row_padded[o]) << o;
  EXPECT_FALSE(index.window(2).has_value());
  expect_scan_agrees(op);
}

TEST(ReaderIndex, SymmetricAndEdgePadding_RepeatTheBorder) {
  // Symmetric rows: 0,0,1,2,3,3,2,1. Edge rows: 0,0,1,2,3,3,3,3.
  SS_ASSERT_MAKE(symmetric, page_padding(PaddingMode::Symmetric));
  const ReaderIndex s = ReaderIndex::build(symmetric);
  EXPECT_EQ(axis_readers(s, symmetric, 2), (std::vector<Readers>{{0, 1}, {2, 7}, {3, 6}, {4, 5}}));
  SS_ASSERT_MAKE(edge, page_padding(PaddingMode::Edge));
  const ReaderIndex e = ReaderIndex::build(edge);
  EXPECT_EQ(axis_readers(e, edge, 2), (std::vector<Readers>{{0, 1}, {2}, {3}, {4, 5, 6, 7}}));
  // Edge columns -2..7 clamp to 0,0,0,1,2,3,3,3,3,3.
  EXPECT_EQ(axis_readers(e, edge, 3), (std::vector<Readers>{{0, 1, 2}, {3}, {4}, {5, 6, 7, 8, 9}}));
  expect_scan_agrees(symmetric);
  expect_scan_agrees(edge);
}

TEST(ReaderIndex, ConstantPadding_EachElementReadOnceAndPaddingHasNoSource) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Constant));
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{1}, {2}, {3}, {4}}));
  EXPECT_EQ(axis_readers(index, op, 3), (std::vector<Readers>{{2}, {3}, {4}, {5}}));
  EXPECT_EQ(index.output_kind(Coord{0, 0, 0, 5}), SourceKind::PaddingConstant);
  EXPECT_FALSE(index.output_source(Coord{0, 0, 0, 5}).has_value());
  EXPECT_EQ(index.source(2, 0), kPaddingIndex);
  expect_scan_agrees(op);
}

TEST(ReaderIndex, Pooling_PaddedWindowsOverlap) {
  // 3x3 window, stride 1, one element of padding each side: output o reads
  // o-1..o+1, so input i is read by outputs i-1..i+1 that exist.
  SS_ASSERT_MAKE(op, pooling({3, 3}, std::nullopt, U64s{1, 1}, U64s{1, 1}, std::nullopt));
  const ReaderIndex index = ReaderIndex::build(op);
  const std::vector<Readers> expected{{0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3}};
  EXPECT_EQ(axis_readers(index, op, 2), expected);
  EXPECT_EQ(axis_readers(index, op, 3), expected);
  EXPECT_EQ(axis_readers(index, op, 0), (std::vector<Readers>{{0}}));
  EXPECT_EQ(axis_readers(index, op, 1), (std::vector<Readers>{{0}}));
  EXPECT_EQ(index.reader_count(Coord{0, 0, 1, 1}), 9u);
  EXPECT_EQ(index.reader_count(Coord{0, 0, 0, 0}), 4u);
  EXPECT_EQ(index.output_kind(Coord{0, 0, 0, 0}), SourceKind::Pooled);
  expect_scan_agrees(op);
}

TEST(ReaderIndex, Pooling_StridedWindowsTileTheInput) {
  SS_ASSERT_MAKE(op, pooling({2, 2}, U64s{2, 2}, std::nullopt, std::nullopt, std::nullopt));
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{0}, {0}, {1}, {1}}));
  EXPECT_EQ(index.only_reader(Coord{0, 0, 1, 2}), (Coord{0, 0, 0, 1}));
  expect_scan_agrees(op);
}

TEST(ReaderIndex, Pooling_DilatedWindowsSkipElements) {
  // Window 2, dilation 2: output o reads o and o+2; two outputs per axis.
  SS_ASSERT_MAKE(op, pooling({2, 2}, std::nullopt, std::nullopt, std::nullopt, U64s{2, 2}));
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{0}, {1}, {0}, {1}}));
  expect_scan_agrees(op);
}

TEST(ReaderIndex, Pooling_WindowsWiderThanTheInputAllReadIt) {
  // Window 3, dilation 1, padding 2 each side over 1 element: outputs 0..2
  // all cover input 0.
  SS_ASSERT_MAKE(op, (OpRequest{tensor(DataType::Float32, {1, 1, 1, 1}), TensorRequest{}, std::nullopt,
                                MaxPooling2Request{{3, 3}, std::nullopt, U64s{2, 2}, U64s{2, 2}, std::nullopt}}));
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(axis_readers(index, op, 2), (std::vector<Readers>{{0, 1, 2}}));
  EXPECT_EQ(index.reader_count(Coord{0, 0, 0, 0}), 9u);
}

TEST(ReaderIndex, TooLargeForTablesStillAnswersFromThePlans) {
  SS_ASSERT_MAKE(op, page_padding(PaddingMode::Reflection));
  const ReaderIndex index = ReaderIndex::build(op, 0);
  EXPECT_FALSE(index.readers_known());
  EXPECT_TRUE(index.readers(2, 1).empty());
  EXPECT_EQ(index.reader_count(Coord{0, 0, 1, 1}), 0u);  // unknown, not "never read"
  const AxisReaderLists lists = index.readers_of(Coord{0, 0, 1, 1});
  EXPECT_EQ(lists[2], (Readers{0, 2, 6}));
  EXPECT_EQ(lists[3], (Readers{1, 3, 7, 9}));
}

TEST(ReaderIndex, ACoordinateOfTheWrongRankOrOutsideHasNoReaders) {
  SS_ASSERT_MAKE(op, slice1_example2());
  const ReaderIndex index = ReaderIndex::build(op);
  EXPECT_EQ(index.readers_of(Coord{0, 0, 1}), AxisReaderLists{});
  EXPECT_EQ(index.readers_of(Coord{0, 0, 4, 0}), AxisReaderLists{});
  EXPECT_TRUE(index.readers(2, 4).empty());
  EXPECT_TRUE(index.readers(7, 0).empty());
}

TEST(ReaderIndex, ExplainReadsTheIndexPlans) {
  SS_ASSERT_MAKE(op, slice1_example2());
  const ReaderIndex index = ReaderIndex::build(op);
  const Expected<Provenance> p = explain(op, index, Coord{0, 0, 1, 0});
  ASSERT_TRUE(p.has_value()) << p.error().to_string();
  EXPECT_EQ(p->source, (Coord{0, 0, 1, 1}));  // the page's 6
  EXPECT_EQ(p->source_offset, 5u);
  SS_ASSERT_MAKE(pool, pooling({3, 3}, std::nullopt, U64s{1, 1}, U64s{1, 1}, std::nullopt));
  const Expected<Provenance> q = explain(pool, ReaderIndex::build(pool), Coord{0, 0, 0, 0});
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->window.size(), 9u);
  EXPECT_EQ(q->window[4].coord, (SignedCoord{0, 0, 0, 0}));
  // An index of another operation is not trusted: the answer is op's own.
  const Expected<Provenance> r = explain(op, ReaderIndex::build(pool), Coord{0, 0, 1, 0});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->source, (Coord{0, 0, 1, 1}));
}

}  // namespace
}  // namespace stridescope
