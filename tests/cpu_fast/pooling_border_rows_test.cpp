// Two pieces of the fast max_pooling2 kernels, checked by hand:
// - border outputs (and every output where there is no vector path) pack
//   each tap's key and its place in the window into one number and keep the
//   largest (kernels_pool_first.inc): ties must still go to the first tap in
//   row-major window order, -0 tie +0, the first NaN stay, and a window of
//   nothing but the type's lowest value give its first tap;
// - the vector path lists an output row's taps relative to its first input
//   row and keeps the lists for the next rows whose taps stand the same way
//   (kernels_pool_taps.inc): rows after the first full one must add their
//   own row; plans whose rows have the same vertical taps but other columns,
//   run one after another on one backend, must each give their own result.
// INT8 and FLOAT16 (narrow vectors) and FLOAT32 (wide), every fast variant.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/fill.h"
#include "core/operation.h"
#include "fast_variants.h"
#include "reference/pooling_shape.h"

// Its own namespace: a unity build compiles it beside the other pooling tests.
namespace stridescope::border_rows {
namespace {

constexpr uint64_t kRows = 8;
constexpr uint64_t kWidth = 259;     // odd: the last output's window ends in padding
constexpr uint64_t kOutWidth = 130;  // (259 + 2 - 3) / 2 + 1; interior [1, 129), borders 0 and 129

Operation pooling(DataType type, uint64_t column_dilation) {
  const test::PoolingShape shape{{1, 1, kRows, kWidth}, std::nullopt, {3, 3}, {2, 2}, {1, column_dilation},
                                 {1, column_dilation}, {1, column_dilation}};
  return testing::make_op(test::pooling_request(shape, type, DataType::UInt32));
}

// The element bits of the values the cases use, per type.
struct Elements {
  DataType type;
  uint32_t size;
  uint32_t lowest;  // the type's lowest value: every element the cases leave alone
  uint32_t five, six, seven, nine;
  uint32_t zero, minus_zero, nan_a, nan_b;  // integers: 0 and 0, 9 and 9
};

const Elements kTypes[] = {
    {DataType::Int8, 1, 0x80, 5, 6, 7, 9, 0, 0, 9, 9},
    {DataType::Float16, 2, 0xfc00, 0x4500, 0x4600, 0x4700, 0x4880, 0x0000, 0x8000, 0x7e0a, 0xfe0b},
    {DataType::Float32, 4, 0xff800000, 0x40a00000, 0x40c00000, 0x40e00000, 0x41100000, 0x0, 0x80000000,
     0x7fc0000a, 0xffc0000b},
};

struct Plane {
  const Elements& e;
  std::vector<std::byte> bytes;
  explicit Plane(const Elements& el) : e(el), bytes(kRows * kWidth * el.size) {
    for (uint64_t i = 0; i < kRows * kWidth; ++i) set(i / kWidth, i % kWidth, e.lowest);
  }
  void set(uint64_t row, uint64_t col, uint32_t bits) {
    std::memcpy(bytes.data() + (row * kWidth + col) * e.size, &bits, e.size);
  }
};

uint32_t element(const std::vector<std::byte>& v, uint64_t i, uint32_t size) {
  uint32_t w = 0;
  std::memcpy(&w, v.data() + i * size, size);
  return w;
}

// Output (y, x) must be input element `index`, and say so.
struct HandIndex {
  uint64_t y, x, index;
  const char* why;
};

TEST(CpuFastPoolingBorderRows, FirstMaximumAtBordersAndInRowsThatShareTapLists) {
  for (const Elements& e : kTypes) {
    Plane plane(e);
    // Left border, output row 1 (input rows 1..3, columns 0 and 1): two
    // equal maxima, the later row's in the earlier column.
    plane.set(1, 1, e.five);
    plane.set(2, 0, e.five);
    // Right border, output row 0 (input rows 0 and 1, columns 257 and 258):
    // -0 first, +0 later.
    plane.set(0, 258, e.minus_zero);
    plane.set(1, 257, e.zero);
    // Right border, output row 2 (input rows 3..5, columns 257 and 258):
    // a number, then a NaN (row 4), then another NaN (row 5, earlier column).
    plane.set(3, 257, e.seven);
    plane.set(4, 258, e.nan_a);
    plane.set(5, 257, e.nan_b);
    // Interior, output rows 2 and 3 (input rows 3..5 and 5..7): row 5 is the
    // bottom tap of one and the top tap of the other.
    plane.set(5, 79, e.six);
    // Interior, output row 1: equal maxima on the first and last input rows.
    plane.set(1, 201, e.six);
    plane.set(3, 199, e.six);
    const std::vector<HandIndex> hand = {
        {1, 0, 1 * kWidth + 1, "left border: (1,1) before (2,0)"},
        {0, 129, 258, "right border: -0 before +0"},
        {2, 129, 4 * kWidth + 258, "right border: the first NaN (integers: the first 9)"},
        {3, 129, 5 * kWidth + 257, "right border: row 5's"},
        {3, 128, 5 * kWidth + 257, "interior, last lane: row 5's, right tap"},
        {2, 40, 5 * kWidth + 79, "interior: row 5, bottom tap"},
        {3, 40, 5 * kWidth + 79, "interior: row 5, top tap"},
        {3, 39, 5 * kWidth + 79, "interior: row 5, right tap"},
        {1, 100, 1 * kWidth + 201, "interior: row 1 before row 3"},
        {3, 60, 5 * kWidth + 119, "interior: nothing but the lowest value, the first tap"},
    };
    const Operation op = pooling(e.type, 1);
    CpuReferenceBackend reference;
    const auto expected = run_to_new_buffers(reference, op, plane.bytes);
    ASSERT_TRUE(expected.has_value());
    for (testing::FastVariant& v : testing::fast_variants()) {
      const auto r = run_to_new_buffers(*v.backend, op, plane.bytes);
      ASSERT_TRUE(r.has_value()) << v.name;
      const std::string what = v.name + " " + std::string(to_string(e.type));
      EXPECT_EQ(r->output, expected->output) << what << ": values differ from the reference";
      EXPECT_EQ(r->indices, expected->indices) << what << ": indices differ from the reference";
      for (const HandIndex& h : hand) {
        const uint64_t o = h.y * kOutWidth + h.x;
        EXPECT_EQ(element(r->indices, o, 4), h.index) << what << " " << h.why;
        EXPECT_EQ(element(r->output, o, e.size), element(plane.bytes, h.index, e.size)) << what << " " << h.why;
      }
    }
  }
}

// Plans whose rows have the same vertical taps but other columns (column
// dilation 1, 2, then 1 again) one after another on one backend.
TEST(CpuFastPoolingBorderRows, PlansWithTheSameVerticalTapsEachMatchTheReference) {
  CpuReferenceBackend reference;
  for (const Elements& e : kTypes) {
    std::vector<std::byte> in(kRows * kWidth * e.size);
    fill_buffer(FillRandom{11, -100, 100}, e.type, kRows * kWidth, in);
    for (testing::FastVariant& v : testing::fast_variants()) {
      for (uint64_t dilation : {1u, 2u, 1u}) {
        const Operation op = pooling(e.type, dilation);
        const auto expected = run_to_new_buffers(reference, op, in);
        const auto r = run_to_new_buffers(*v.backend, op, in);
        ASSERT_TRUE(expected.has_value() && r.has_value());
        const std::string what = v.name + " " + std::string(to_string(e.type)) + " dilation " + std::to_string(dilation);
        EXPECT_EQ(r->output, expected->output) << what;
        EXPECT_EQ(r->indices, expected->indices) << what;
      }
    }
  }
}

}  // namespace
}  // namespace stridescope::border_rows
