// The vector path of the fast max_pooling2 loads a window's three adjacent
// columns on one input row together when the column step is 2 (two loads
// hold the middle and right taps as even and odd elements; the left tap is
// the right one moved up a lane, with the element before the vector below
// it). These cases put ties, NaNs and signed zeros on the left, middle and
// right taps of vectors' first and last lanes, in the tail vector and next to
// the padded borders, and check max_pooling.h's rules by hand: the first
// maximum in row-major window order wins, a NaN beats every number and the
// first NaN stays, -0 ties +0. Every element type (the path is for 2-, 4- and
// 8-byte elements, and two apart only 4- and 8-byte ones; the others must keep
// the strided loads) and odd widths are also compared with the reference
// backend, for every instruction set this CPU runs. FLOAT16's NaNs and signed
// zeros on this path: pooling_border_rows_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/fill.h"
#include "core/operation.h"
#include "fast_variants.h"
#include "reference/pooling_shape.h"

// Its own namespace: a unity build compiles it beside pooling_tap_order_test.cpp,
// whose helpers have the same names.
namespace stridescope::adjacent_taps {
namespace {

constexpr uint64_t kWidth = 71;  // odd: the last output's window ends in padding
constexpr uint64_t kRows = 4;
constexpr uint64_t kOutWidth = 36;  // (71 + 2 - 3) / 2 + 1, and with dilation 2 (71 + 4 - 5) / 2 + 1; interior [1, 35)
constexpr uint32_t kNaNA = 0x7fc0000a;
constexpr uint32_t kNaNB = 0xffc0000b;
constexpr uint32_t kNaNC = 0x7fc0000c;
constexpr uint32_t kMinusZero = 0x80000000;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// FLOAT32 {1, 1, 4, 71}, every element -1 but the cases below.
std::vector<uint32_t> input() {
  std::vector<uint32_t> in(kRows * kWidth, bits(-1.0f));
  auto at = [&](uint64_t row, uint64_t col) -> uint32_t& { return in[row * kWidth + col]; };
  at(0, 1) = bits(5.0f);  // output 1 (a vector's lane 0): equal maxima, left and right taps
  at(0, 3) = bits(5.0f);
  at(1, 2) = bits(5.0f);
  at(0, 33) = kMinusZero;  // output 17 (the second vector's lane 0): -0 left, +0 middle
  at(0, 34) = bits(0.0f);
  at(0, 17) = kNaNA;  // output 8: a NaN on the right of row 0, another on the left of row 1
  at(1, 15) = kNaNB;
  at(1, 49) = bits(7.0f);  // output 25: a number on the left, a NaN on the right
  at(1, 51) = kNaNC;
  at(2, 69) = bits(8.0f);  // output 34 (the tail vector's last lane): right of row 2, left of row 3
  at(3, 67) = bits(8.0f);
  return in;
}

Operation pooling(DataType type, uint64_t width, uint64_t dilation,
                  std::optional<DataType> index_type = DataType::UInt32) {
  // Padding as wide as the dilation: one padded tap on each side.
  const test::PoolingShape shape{{1, 2, kRows, width}, std::nullopt, {3, 3}, {2, 2}, {dilation, dilation},
                                 {dilation, dilation}, {dilation, dilation}};
  return testing::make_op(test::pooling_request(shape, type, index_type));
}

struct Result {
  std::vector<std::byte> values;
  std::vector<std::byte> indices;
};

Result run(Backend& backend, const Operation& op, const std::vector<std::byte>& in) {
  auto result = run_to_new_buffers(backend, op, in);
  EXPECT_TRUE(result.has_value());
  if (!result) return {};
  return {result->output, result->indices};
}

uint32_t word(const std::vector<std::byte>& v, uint64_t i) {
  uint32_t w = 0;
  std::memcpy(&w, v.data() + i * 4, 4);
  return w;
}

// One output's value and index, worked out by hand (output row y, column x
// of channel 0; channel 1 repeats it one plane later).
struct HandValue {
  uint64_t y, x;
  uint32_t value;
  uint64_t index;
};

// Runs `op` over `plane` repeated in both channels on every fast variant:
// each must read the taps from the input, equal the reference backend, and
// give `values`.
void expect_hand_values(const Operation& op, const std::vector<uint32_t>& plane,
                        const std::vector<HandValue>& values) {
  std::vector<std::byte> in(2 * plane.size() * 4);  // plane 1 repeats plane 0
  std::memcpy(in.data(), plane.data(), plane.size() * 4);
  std::memcpy(in.data() + plane.size() * 4, plane.data(), plane.size() * 4);
  CpuReferenceBackend reference;
  const Result expected = run(reference, op, in);
  for (testing::FastVariant& v : testing::fast_variants()) {
    EXPECT_NE(v.backend->prepare(op).summary().find("from the input"), std::string::npos) << v.name;
    const Result r = run(*v.backend, op, in);
    EXPECT_EQ(r.values, expected.values) << v.name << ": values differ from the reference";
    EXPECT_EQ(r.indices, expected.indices) << v.name << ": indices differ from the reference";
    for (const HandValue& h : values) {
      for (uint64_t c = 0; c < 2; ++c) {
        const uint64_t o = (c * 2 + h.y) * kOutWidth + h.x;
        EXPECT_EQ(word(r.values, o), h.value) << v.name << " output " << c << "," << h.y << "," << h.x;
        EXPECT_EQ(word(r.indices, o), c * kRows * kWidth + h.index)
            << v.name << " output " << c << "," << h.y << "," << h.x;
      }
    }
  }
}

TEST(CpuFastPoolingAdjacentTaps, FirstMaximumInWindowOrderAtEveryLoadedTap) {
  expect_hand_values(pooling(DataType::Float32, kWidth, 1), input(),
                     {
                      {0, 0, bits(5.0f), 1},            // border: padding, column 0, then 5
                      {0, 1, bits(5.0f), 1},            // 5 left (row 0), right (row 0), middle (row 1): the left
                      {0, 16, kMinusZero, 33},          // -0 on the right, the rest -1
                      {0, 17, kMinusZero, 33},          // -0 left ties +0 middle: the left
                      {0, 7, kNaNB, kWidth + 15},       // the NaN on the right of row 1
                      {0, 8, kNaNA, 17},                // NaNs right of row 0 and left of row 1: row 0's
                      {0, 9, kNaNA, 17},                // the NaN on the left of row 0
                      {1, 8, kNaNB, kWidth + 15},       // rows 1..3: only row 1's NaN
                      {0, 24, bits(7.0f), kWidth + 49},  // the 7 on the right
                      {0, 25, kNaNC, kWidth + 51},       // 7 left, the NaN right: the NaN
                      {0, 26, kNaNC, kWidth + 51},       // the NaN on the left
                      {1, 25, kNaNC, kWidth + 51},
                      {1, 34, bits(8.0f), 2 * kWidth + 69},  // 8 right of row 2, left of row 3: row 2's
                      {1, 35, bits(8.0f), 2 * kWidth + 69},  // border: 8 left, then padding
                      {1, 33, bits(8.0f), 3 * kWidth + 67},  // the 8 on the right of row 3
                     });
}

// Dilation 2 (padding 2): each row's taps are columns 2x - 2, 2x and 2x + 2,
// all even: the middle tap's vector, moved a lane either way, with the
// element before (2x0 - 2) or after (the last lane's 2x + 2) the vector.
// Output rows 0 and 1 both read input rows 0 and 2.
TEST(CpuFastPoolingAdjacentTaps, DilatedTapsKeepFirstMaximumAtTheVectorEdges) {
  const Operation op = pooling(DataType::Float32, kWidth, 2);
  std::vector<uint32_t> plane(kRows * kWidth, bits(-1.0f));
  auto at = [&](uint64_t row, uint64_t col) -> uint32_t& { return plane[row * kWidth + col]; };
  at(2, 0) = kNaNA;  // output 1 (lane 0): a NaN on the left of row 2, another on the right of row 0
  at(0, 4) = kNaNB;
  at(0, 32) = bits(6.0f);  // output 16 (the first vector's last lane): equal maxima, middle and right
  at(0, 34) = bits(6.0f);
  at(0, 70) = bits(4.0f);  // output 34 (the tail's last lane): right of row 0, left of row 2
  at(2, 66) = bits(4.0f);
  expect_hand_values(op, plane,
                     {
                      {0, 0, kNaNA, 2 * kWidth},       // border: padding, then row 2's NaN (row 0 has -1s)
                      {0, 1, kNaNB, 4},                // row 0's NaN (right) before row 2's (left)
                      {1, 2, kNaNB, 4},                // row 0's NaN on the left
                      {0, 16, bits(6.0f), 32},         // 6 in the middle and on the right: the middle
                      {0, 17, bits(6.0f), 32},         // 6 on the left and in the middle: the left
                      {0, 18, bits(6.0f), 34},         // the 6 on the left
                      {0, 15, bits(6.0f), 32},         // the 6 on the right
                      {1, 34, bits(4.0f), 70},         // 4 right of row 0, left of row 2: row 0's
                      {1, 35, bits(4.0f), 70},         // border: 4 left of row 0, then padding
                      {0, 33, bits(4.0f), 2 * kWidth + 66},  // the 4 in the middle of row 2
                     });
}

// Random data in every element type, widths around the vector sizes (odd,
// tails, one vector, several), dilation 1 (adjacent taps) and 2 (not), and
// each kind of indices (UINT64 ones give 1- and 2-byte elements wide keys:
// FLOAT16's carry its bits beside its order, a masked compare).
TEST(CpuFastPoolingAdjacentTaps, MatchesReferenceForEveryTypeWidthAndIndexType) {
  CpuReferenceBackend reference;
  const std::optional<DataType> index_types[] = {DataType::UInt32, DataType::UInt64, std::nullopt};
  for (DataType type : {DataType::Float16, DataType::Float32, DataType::Float64, DataType::Int8, DataType::UInt8,
                        DataType::Int16, DataType::UInt16, DataType::Int32, DataType::UInt32, DataType::Int64,
                        DataType::UInt64}) {
    for (uint64_t width : {33u, 67u, 130u, 161u, 259u}) {
      for (const auto& [dilation, index_type] : {std::pair{1u, index_types[0]}, std::pair{2u, index_types[0]},
                                                 std::pair{1u, index_types[1]}, std::pair{1u, index_types[2]}}) {
        const Operation op = pooling(type, width, dilation, index_type);
        std::vector<std::byte> in(op.input().buffer_bytes());
        // Whole numbers in a small range: many ties, and zeros.
        fill_buffer(FillRandom{7 + width, -3, 3, true}, type, op.input().buffer_elements(), in);
        const Result expected = run(reference, op, in);
        for (testing::FastVariant& v : testing::fast_variants()) {
          const Result r = run(*v.backend, op, in);
          const std::string what = v.name + " " + std::string(to_string(type)) + " width " + std::to_string(width) +
                                   " dilation " + std::to_string(dilation) + " indices " +
                                   (index_type ? std::string(to_string(*index_type)) : std::string("none"));
          EXPECT_EQ(r.values, expected.values) << what;
          EXPECT_EQ(r.indices, expected.indices) << what;
        }
      }
    }
  }
}

}  // namespace
}  // namespace stridescope::adjacent_taps
