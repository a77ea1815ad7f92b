// Slices that step along the row (gather runs, shaders/wide_io.glsl): a run
// of step 2 whose source starts on a 16-byte quad reads two source quads per
// destination quad and keeps their even elements, for every element size;
// its last quad goes element by element only where the source quad after its
// last element lies past the bound window. Where an invocation's rows all
// start on 32-byte boundaries and hold whole 32-byte pairs, one loop moves a
// pair of destination quads at a time across the rows. Other steps (3, -2) and sources
// off a quad go element by element. Results are compared bit for bit with the
// CPU reference and the independent reference, through texel views and
// through the storage buffer, with whole-tensor windows and with 4 KiB
// windows that end inside the tensor, and with the destination quads stored
// whole and as 64-bit pairs (shaders/quad_stores.glsl).
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "gpu/run_plan.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

OpRequest row_slice(DataType type, U64s sizes, U64s offsets, U64s out, U64s strides) {
  OpRequest r;
  r.input = TensorRequest{type, std::move(sizes), std::nullopt};
  r.params = SliceRequest{std::move(offsets), std::move(out), std::move(strides)};
  return r;
}

OpRequest row_slice1(DataType type, U64s sizes, U64s offsets, U64s window, std::vector<int64_t> strides) {
  OpRequest r;
  r.input = TensorRequest{type, std::move(sizes), std::nullopt};
  r.params = Slice1Request{std::move(offsets), std::move(window), std::move(strides)};
  return r;
}

// Per element size: rows of odd widths, so that rows start at every offset
// within a quad; starts 0, 1 and 3 (a source on and off a quad); slices that
// end on the input's last element (the window's end, where the source quad
// past the last output quad is not whole); steps 3 and -2 beside.
std::vector<OpRequest> stepped_requests() {
  std::vector<OpRequest> requests;
  for (DataType type : {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Float64}) {
    for (uint64_t width : {129u, 130u, 131u, 133u, 135u}) {
      const uint64_t full = (width + 1) / 2;
      requests.push_back(row_slice(type, {1, 2, 5, width}, {0, 0, 0, 0}, {1, 2, 3, full}, {1, 1, 2, 2}));
      requests.push_back(row_slice(type, {1, 1, 4, width}, {0, 0, 1, 1}, {1, 1, 3, (width - 1) / 2}, {1, 1, 1, 2}));
      requests.push_back(row_slice(type, {1, 1, 3, width}, {0, 0, 0, 3}, {1, 1, 3, 41}, {1, 1, 1, 2}));
      requests.push_back(row_slice(type, {1, 1, 3, width}, {0, 0, 0, 2}, {1, 1, 3, (width - 2) / 3}, {1, 1, 1, 3}));
      requests.push_back(row_slice1(type, {1, 1, 3, width}, {0, 0, 0, 0}, {1, 1, 3, width}, {1, 1, 1, -2}));
    }
    // Rows on quad boundaries: several rows per invocation go as one loop of
    // 32-byte stores where each output row is a whole number of 32-byte
    // pairs (width 128 for every size; width 144 for 4 and 8 bytes), rows
    // later in memory, every other row, and rows in reverse order; 16-byte
    // rows (width 144, 2 bytes) and 8-byte ones (1 byte) go row by row.
    for (uint64_t width : {128u, 144u}) {
      requests.push_back(row_slice(type, {1, 2, 5, width}, {0, 0, 0, 0}, {1, 2, 5, width / 2}, {1, 1, 1, 2}));
      requests.push_back(row_slice(type, {1, 2, 6, width}, {0, 0, 1, 0}, {1, 2, 3, width / 2}, {1, 1, 2, 2}));
      requests.push_back(row_slice1(type, {1, 2, 5, width}, {0, 0, 0, 0}, {1, 2, 5, width}, {1, 1, -1, 2}));
    }
  }
  return requests;
}

// Short rows on 32-byte boundaries (one and two 32-byte pairs of output
// quads), several rows per invocation: one loop moves all of an
// invocation's rows, whether they follow each other in memory, skip every
// other row or come in reverse order; the invocation holding the window's
// last row, whose last source quad is not whole in the window, goes row by
// row.
std::vector<OpRequest> short_aligned_requests() {
  std::vector<OpRequest> requests;
  for (DataType type : {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Float64}) {
    for (uint64_t row_bytes : {32u, 64u}) {
      const uint64_t width = 2 * row_bytes / element_size(type);
      requests.push_back(row_slice(type, {1, 2, 9, width}, {0, 0, 0, 0}, {1, 2, 9, width / 2}, {1, 1, 1, 2}));
      requests.push_back(row_slice(type, {1, 2, 18, width}, {0, 0, 1, 0}, {1, 2, 9, width / 2}, {1, 1, 2, 2}));
      requests.push_back(row_slice1(type, {1, 2, 9, width}, {0, 0, 0, 0}, {1, 2, 9, width}, {1, 1, -1, 2}));
    }
  }
  return requests;
}

TEST(SteppedRowPaths, StepTwoSlicesCompileOnlyTheGatherPath) {
  for (DataType type : {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Float64}) {
    auto pass = planned_pass(row_slice(type, {1, 2, 5, 131}, {0, 0, 0, 0}, {1, 2, 3, 66}, {1, 1, 2, 2}));
    ASSERT_TRUE(pass);
    EXPECT_EQ(pass->key.shader, gpu::ShaderId::Gather);
    EXPECT_EQ(pass->key.constants[gpu::kGatherPaths], SS_PATH_GATHER);
  }
}

// The pairs build is the limits' choice.
TEST(SteppedRowPaths, GatherStoresPairsWhereTheLimitsSay) {
  expect_pairs_build_where_limits_say(
      row_slice(DataType::Float16, {1, 2, 5, 131}, {0, 0, 0, 0}, {1, 2, 3, 66}, {1, 1, 2, 2}), gpu::ShaderId::Gather);
}

class VulkanSteppedRows : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }

  void expect_all_match(const VulkanBackend::TestingLimits& limits, uint64_t seed) {
    backend_->set_testing_limits(limits);
    expect_each_matches_cpu_and_reference(*backend_, stepped_requests(), seed);
  }

  void expect_both_stores_match(const VulkanBackend::TestingLimits& limits, uint64_t seed) {
    expect_each_matches_with_both_stores(*backend_, limits, stepped_requests(), seed);
  }
};

TEST_F(VulkanSteppedRows, TexelViewsGiveTheReferenceBits) { expect_both_stores_match({}, 1100); }

TEST_F(VulkanSteppedRows, StorageBufferGivesTheReferenceBits) {
  VulkanBackend::TestingLimits limits;
  limits.max_texel_buffer_elements = 0;
  expect_both_stores_match(limits, 1300);
}

// Up to 64 rows per invocation (CPU devices' default, pinned here), each box
// spread over as few invocations as its rows allow.
TEST_F(VulkanSteppedRows, ShortAlignedRowsSharingAnInvocationGiveTheReferenceBits) {
  VulkanBackend::TestingLimits limits;
  limits.max_rows_per_item = 64;
  limits.min_items_per_box = 1;
  expect_each_matches_with_both_stores(*backend_, limits, short_aligned_requests(), 1900);
}

// Windows of 4 KiB end inside the tensor: the last quads of a box's rows
// meet its window's end.
TEST_F(VulkanSteppedRows, SmallWindowsGiveTheReferenceBits) {
  VulkanBackend::TestingLimits limits;
  limits.max_storage_buffer_range = 4096;
  expect_all_match(limits, 1500);
  limits.max_texel_buffer_elements = 0;
  expect_all_match(limits, 1700);
}

}  // namespace
}  // namespace stridescope::test
