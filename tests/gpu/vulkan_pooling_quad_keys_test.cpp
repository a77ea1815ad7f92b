// The quad path's order keys (shaders/pooling_quads.glsl), by hand: a key
// per loaded word, compared as a signed integer, must keep the rules of
// core/max_pooling.h for 4-byte types. Windows of 1 x 3 taps at stride 3
// over rows of 16 words: four outputs a row take the quad path, each window
// holding one case; the fifth output falls back. Random palettes rarely make
// a zero or a NaN the largest of a window, hence these.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/pooling_program.h"
#include "gpu_test_support.h"
#include "pooled_words.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

const PoolingShape kThreeWideWindows{{1, 1, 2, 16}, std::nullopt, {1, 3}, {1, 3}, {1, 1}, {0, 0}, {0, 0}};

class VulkanPoolingQuadKeys : public VulkanTest {
 protected:
  // Pools `input` (bits of `type`, one row of 16 per output row) with both
  // index types and checks every output and index.
  void expect_pooled(DataType type, const std::vector<uint32_t>& input, const PooledWords& expected) {
    for (DataType index_type : {DataType::UInt32, DataType::UInt64}) {
      auto op = Operation::make(pooling_request(kThreeWideWindows, type, index_type));
      ASSERT_TRUE(op) << op.error().to_string();
      ASSERT_NE(gpu::quad_path(gpu::make_pooling_program(*op)), 0u) << "the shape must take the quad path";
      expect_pooled_words(*backend_, *op, input, expected);
    }
  }
};

TEST_F(VulkanPoolingQuadKeys, FloatZerosTieNaNsWinAndTheFirstNaNStays) {
  const std::vector<uint32_t> input = {
      0x80000000, 0x00000000, 0x80000001,  // -0 ties with +0: the first, -0
      0x00000000, 0x80000000, 0xBF800000,  // +0 ties with -0: the first, +0
      0xFF800000, 0xFFC00000, 0x7FC00001,  // a negative NaN beats -inf and stays
      0x80000002, 0x80000001, 0xFF7FFFFF,  // of negatives, the nearest zero
      0x7FC00001, 0x7FFFFFFF, 0x7F800000,  // (falls back)
      0x3F800000,                          //
      0x7F800000, 0x7FC00001, 0x7FFFFFFF,  // the first NaN stays, whatever its payload
      0x00000001, 0x00000002, 0x00000001,  // denormals
      0xFF800000, 0xFF800000, 0xFF7FFFFF,  // the lowest finite beats -inf
      0x7F7FFFFF, 0x7F800000, 0x7F800000,  // +inf beats the largest finite; the first +inf
      0x3F800000, 0x3F800000, 0x3F800000,  // (falls back)
      0x3F800000};
  expect_pooled(DataType::Float32, input,
                {{0x80000000, 0x00000000, 0xFFC00000, 0x80000001, 0x7FC00001, 0x7FC00001, 0x00000002,
                  0xFF7FFFFF, 0x7F800000, 0x3F800000},
                 {0, 3, 7, 10, 12, 17, 20, 24, 26, 28}});
}

// Bits for both integer types: the keys must order them signed and unsigned.
const std::vector<uint32_t> kIntegerBits = {
    0x80000000, 0x80000000, 0x80000000,  // the lowest Int32 everywhere: the first
    0xFFFFFFFF, 0x00000001, 0x00000000,  // Int32: 1; UInt32: 0xFFFFFFFF
    0x7FFFFFFF, 0x80000000, 0x7FFFFFFF,  // Int32: the first 0x7FFFFFFF; UInt32: 0x80000000
    0x00000000, 0x00000000, 0x00000000,  // the lowest UInt32 everywhere: the first
    0x00000005, 0x00000005, 0x00000006,  // (falls back)
    0x00000000,                          //
    0xFFFFFFFB, 0xFFFFFFFD, 0xFFFFFFFC,  // -3 of negatives; 0xFFFFFFFD unsigned too
    0x00000001, 0x80000001, 0x00000002,  // Int32: 2; UInt32: 0x80000001
    0x00000003, 0x00000003, 0x00000003,  // ties: the first
    0x7FFFFFFE, 0x7FFFFFFF, 0x7FFFFFFF,  // the first largest
    0x00000000, 0x00000000, 0x00000000,  // (falls back)
    0x00000000};

TEST_F(VulkanPoolingQuadKeys, SignedIntegersCompareSigned) {
  expect_pooled(DataType::Int32, kIntegerBits,
                {{0x80000000, 0x00000001, 0x7FFFFFFF, 0x00000000, 0x00000006, 0xFFFFFFFD, 0x00000002, 0x00000003,
                  0x7FFFFFFF, 0x00000000},
                 {0, 4, 6, 9, 14, 17, 21, 22, 26, 28}});
}

TEST_F(VulkanPoolingQuadKeys, UnsignedIntegersCompareUnsigned) {
  expect_pooled(DataType::UInt32, kIntegerBits,
                {{0x80000000, 0xFFFFFFFF, 0x80000000, 0x00000000, 0x00000006, 0xFFFFFFFD, 0x80000001, 0x00000003,
                  0x7FFFFFFF, 0x00000000},
                 {0, 3, 7, 9, 14, 17, 20, 22, 26, 28}});
}

}  // namespace
}  // namespace stridescope::test
