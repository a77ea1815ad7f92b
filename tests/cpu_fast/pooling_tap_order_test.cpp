// The vector path of the fast max_pooling2 combines a window's taps in pairs
// (the later tap against the earlier, then the pair's winner against best),
// and with an even tap count takes the second tap alone first. These cases
// put NaNs, ties and signed zeros on both sides of those pair boundaries and
// check max_pooling.h's rules by hand: the first maximum in row-major window
// order wins, a NaN beats every number and the first NaN stays, -0 ties +0.
// The whole outputs are also compared with the reference backend, for every
// instruction set this CPU runs.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/operation.h"
#include "fast_variants.h"

namespace stridescope {
namespace {

constexpr uint64_t kWidth = 120;
constexpr uint64_t kRows = 4;
constexpr uint64_t kPlane = kRows * kWidth;
constexpr uint32_t kNaNFirst = 0x7fc00001;
constexpr uint32_t kNaNSecond = 0xffc00002;
constexpr uint32_t kNaNRowZero = 0x7fc0000a;
constexpr uint32_t kNaNRowTwo = 0x7fc0000b;
constexpr uint32_t kNaNLastRow = 0x7fc0000c;
constexpr uint32_t kMinusZero = 0x80000000;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// FLOAT32 {1, 2, 4, 120}, every element -1 but the cases below (plane 0; plane
// 1 is plane 0 with one more NaN, which plane 0's outputs must not see).
std::vector<uint32_t> input() {
  std::vector<uint32_t> in(2 * kPlane, bits(-1.0f));
  auto at = [&](uint64_t row, uint64_t col) -> uint32_t& { return in[row * kWidth + col]; };
  at(0, 10) = bits(5.0f);  // a number, then a NaN right after it
  at(0, 11) = kNaNFirst;
  at(1, 30) = kNaNSecond;  // a NaN, then a larger number right after it
  at(1, 31) = bits(7.0f);
  at(0, 50) = kNaNRowZero;  // two NaNs in one column, rows 0 and 2
  at(2, 50) = kNaNRowTwo;
  at(0, 71) = bits(9.0f);  // equal maxima, rows 0 and 1
  at(1, 70) = bits(9.0f);
  at(1, 80) = bits(3.0f);  // equal maxima side by side in row 1
  at(1, 81) = bits(3.0f);
  at(0, 90) = bits(0.0f);  // +0 first, then -0s
  at(0, 91) = kMinusZero;
  at(1, 90) = kMinusZero;
  at(3, 100) = kNaNLastRow;  // read only by the second output row
  for (uint64_t i = 0; i < kPlane; ++i) in[kPlane + i] = in[i];
  in[kPlane + 1 * kWidth + 60] = kNaNFirst;
  return in;
}

Operation pooling(uint64_t window, uint64_t stride) {
  OpRequest r;
  r.input.data_type = DataType::Float32;
  r.input.sizes = std::vector<uint64_t>{1, 2, kRows, kWidth};
  MaxPooling2Request p;
  p.window_size = {window, window};
  p.strides = std::vector<uint64_t>{stride, stride};
  r.params = p;
  r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  return testing::make_op(r);
}

struct Result {
  std::vector<uint32_t> values;
  std::vector<uint32_t> indices;
};

Result run(Backend& backend, const Operation& op, const std::vector<uint32_t>& in) {
  std::vector<std::byte> bytes(in.size() * 4);
  std::memcpy(bytes.data(), in.data(), bytes.size());
  auto result = run_to_new_buffers(backend, op, bytes);
  EXPECT_TRUE(result.has_value());
  Result r;
  if (!result) return r;
  r.values.resize(result->output.size() / 4);
  std::memcpy(r.values.data(), result->output.data(), r.values.size() * 4);
  r.indices.resize(result->indices.size() / 4);
  std::memcpy(r.indices.data(), result->indices.data(), r.indices.size() * 4);
  return r;
}

// Runs `op` on every fast variant, checks it against the reference backend,
// and hands each variant's result to `check` with the variant's name.
template <class Check>
void for_each_variant(const Operation& op, Check check) {
  const std::vector<uint32_t> in = input();
  CpuReferenceBackend reference;
  const Result expected = run(reference, op, in);
  for (testing::FastVariant& v : testing::fast_variants()) {
    EXPECT_NE(v.backend->prepare(op).summary().find("vectors"), std::string::npos) << v.name;
    const Result got = run(*v.backend, op, in);
    EXPECT_EQ(got.values, expected.values) << v.name << ": values differ from the reference";
    EXPECT_EQ(got.indices, expected.indices) << v.name << ": indices differ from the reference";
    check(got, v.name);
  }
}

// 3x3, stride 1: nine taps, the first alone, then pairs (1,2) (3,4) (5,6) (7,8).
// Output row y reads input rows y..y+2; output (y, x) is element y * 118 + x.
TEST(CpuFastPoolingTapOrder, OddTapCountKeepsFirstMaximumAcrossPairs) {
  const Operation op = pooling(3, 1);
  constexpr uint64_t kOut = kWidth - 2;
  for_each_variant(op, [&](const Result& r, const std::string& name) {
    auto expect = [&](uint64_t y, uint64_t x, uint32_t value, uint64_t index) {
      EXPECT_EQ(r.values.at(y * kOut + x), value) << name << " output " << y << "," << x;
      EXPECT_EQ(r.indices.at(y * kOut + x), index) << name << " output " << y << "," << x;
    };
    expect(0, 9, kNaNFirst, 11);   // 5 is tap 1, the NaN tap 2: one pair
    expect(0, 10, kNaNFirst, 11);  // 5 is tap 0 (best), the NaN tap 1 (pair 1,2)
    expect(0, 29, kNaNSecond, kWidth + 30);  // the NaN (tap 4) before 7 (tap 5): other pairs
    expect(0, 30, kNaNSecond, kWidth + 30);  // the NaN is tap 3, 7 tap 4: one pair
    expect(0, 48, kNaNRowZero, 50);  // NaNs at taps 2 and 8: the first stays
    expect(0, 50, kNaNRowZero, 50);  // NaNs at taps 0 and 6
    expect(0, 70, bits(9.0f), 71);   // 9 at taps 1 and 3: the first
    expect(0, 69, bits(9.0f), 71);   // 9 at taps 2 and 4
    expect(0, 80, bits(3.0f), kWidth + 80);  // 3 at taps 3 and 4: one pair
    expect(0, 79, bits(3.0f), kWidth + 80);  // 3 at taps 4 and 5: two pairs
    expect(0, 89, bits(0.0f), 90);   // +0 at tap 1, -0 at taps 2 and 4
    expect(0, 88, bits(0.0f), 90);   // +0 at tap 2, -0 at tap 5
    expect(0, 91, kMinusZero, 91);   // -0 at tap 0, the rest -1
    expect(0, 100, bits(-1.0f), 100);  // all -1: the first tap; row 3's NaN is not read
    expect(1, 98, kNaNLastRow, 3 * kWidth + 100);
    expect(0, 60, bits(-1.0f), 60);  // plane 1's NaN at the same place is another plane
    expect(1, 59, bits(-1.0f), kWidth + 59);
  });
}

// 2x2, stride 2: four taps, the first, then the second alone, then pair (2,3).
TEST(CpuFastPoolingTapOrder, EvenTapCountKeepsFirstMaximumAcrossPairs) {
  const Operation op = pooling(2, 2);
  constexpr uint64_t kOut = kWidth / 2;
  for_each_variant(op, [&](const Result& r, const std::string& name) {
    auto expect = [&](uint64_t y, uint64_t x, uint32_t value, uint64_t index) {
      EXPECT_EQ(r.values.at(y * kOut + x), value) << name << " output " << y << "," << x;
      EXPECT_EQ(r.indices.at(y * kOut + x), index) << name << " output " << y << "," << x;
    };
    expect(0, 5, kNaNFirst, 11);              // 5 is tap 0, the NaN tap 1 (alone)
    expect(0, 15, kNaNSecond, kWidth + 30);   // the NaN is tap 2, 7 tap 3: one pair
    expect(0, 25, kNaNRowZero, 50);           // the NaN at tap 0; row 2 is the next output row
    expect(1, 25, kNaNRowTwo, 2 * kWidth + 50);
    expect(0, 35, bits(9.0f), 71);            // 9 at taps 1 (row 0, col 71) and 2 (row 1, col 70)
    expect(0, 40, bits(3.0f), kWidth + 80);   // 3 at taps 2 and 3: one pair
    expect(0, 45, bits(0.0f), 90);            // +0 tap 0, -0 taps 1 and 2
    expect(1, 50, kNaNLastRow, 3 * kWidth + 100);
    expect(0, 50, bits(-1.0f), 100);
  });
}

}  // namespace
}  // namespace stridescope
