// The shader's wide paths against the CPU reference, bit for bit, for every
// data type: rows long enough that runs move a 16-byte quad at a time
// (forward, backward, every other element, repeated), with source and
// destination starting at every offset within a quad, and paddings whose
// rows are copied by the transfer pass in the middle while the shader writes
// both sides. The random specs of the differential test are mostly too
// small to reach these paths.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

class WideRows : public VulkanTest, public ::testing::WithParamInterface<DataType> {
 protected:
  void expect_matches(const OpRequest& request, uint64_t seed) {
    auto op = Operation::make(request);
    ASSERT_TRUE(op) << op.error().to_string();
    Rng rng(seed);
    const std::vector<std::byte> input = random_input(op->input(), rng);
    EXPECT_TRUE(matches_cpu(*backend_, *op, input, seed)) << describe(*op);
  }

  OpRequest request(U64s sizes, ParamsRequest params) const {
    OpRequest r;
    r.input = TensorRequest{GetParam(), std::move(sizes), std::nullopt};
    r.params = std::move(params);
    return r;
  }
};

// Backward runs of every length and quad offset: slice1 with stride -1 on
// the row (and on the outer axis, which merges them into one long row).
TEST_P(WideRows, ReversedRowsMatchCpu) {
  for (uint64_t offset = 0; offset < 5; ++offset) {
    for (uint64_t length : {1u, 17u, 40u, 161u}) {
      expect_matches(request({3, 170}, Slice1Request{{0, offset}, {3, length}, {1, -1}}), 100 + offset * 7 + length);
      expect_matches(request({3, 170}, Slice1Request{{0, offset}, {3, length}, {-1, -1}}), 200 + offset * 7 + length);
    }
  }
}

// Every other element (and every third), from each quad offset.
TEST_P(WideRows, StridedRowsMatchCpu) {
  for (uint64_t offset = 0; offset < 5; ++offset) {
    for (uint64_t stride : {2u, 3u}) {
      for (uint64_t length : {9u, 64u, 97u}) {
        expect_matches(request({2, 3, 300}, SliceRequest{{0, 1, offset}, {2, 2, length}, {1, 1, stride}}),
                       300 + offset * 11 + stride * 5 + length);
      }
    }
  }
}

// Rows of 300 elements padded on both sides (the middle copied by the
// transfer pass where it is long enough), and on the outer axes.
TEST_P(WideRows, PaddedRowsMatchCpu) {
  for (PaddingMode mode : {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection, PaddingMode::Symmetric}) {
    for (uint64_t pad : {1u, 5u, 16u}) {
      PaddingRequest p;
      p.padding_mode = mode;
      p.padding_value = int64_t{3};
      p.start_padding = {1, 2, pad};
      p.end_padding = {0, 1, pad + 3};
      expect_matches(request({2, 4, 300}, p), 400 + static_cast<uint64_t>(mode) * 13 + pad);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, WideRows, ::testing::ValuesIn(kAllDataTypes), data_type_name);

}  // namespace
}  // namespace stridescope::test
