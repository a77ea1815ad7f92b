// Several short rows per gather invocation: where a box's row (less the
// columns the transfers copy) fits one chunk, an invocation writes
// consecutive rows of the box, a run of rows at constant offsets (one
// segment of the axis next to the row) at a time, and decodes a row again
// only where that axis wraps. Results are compared bit for bit with the CPU
// reference and the independent reference for every padding mode and
// element size, pads wider than half the row, one-row and one-column
// inputs, odd widths, and slices whose rows cross the outer axes' ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "gpu/run_plan.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

// The most that DirectML lets `mode` pad an axis of `size` by: reflection
// never repeats the edge, so at most size - 1; symmetric at most size.
uint64_t allowed_pad(PaddingMode mode, uint64_t size, uint64_t want) {
  if (mode == PaddingMode::Reflection) return std::min(want, size - 1);
  if (mode == PaddingMode::Symmetric) return std::min(want, size);
  return want;
}

// NCHW padding of H and W by (h_lo, h_hi) and (w_lo, w_hi), as far as `mode` allows.
OpRequest hw_padding(DataType type, PaddingMode mode, U64s sizes, U64s pads) {
  OpRequest r;
  r.input = TensorRequest{type, sizes, std::nullopt};
  PaddingRequest p;
  p.padding_mode = mode;
  p.padding_value = 2.5;
  p.start_padding = {0, 0, allowed_pad(mode, sizes[2], pads[0]), allowed_pad(mode, sizes[3], pads[2])};
  p.end_padding = {0, 0, allowed_pad(mode, sizes[2], pads[1]), allowed_pad(mode, sizes[3], pads[3])};
  r.params = p;
  return r;
}

std::vector<OpRequest> short_row_requests() {
  std::vector<OpRequest> requests;
  for (DataType type : {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Float64}) {
    for (PaddingMode mode :
         {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection, PaddingMode::Symmetric}) {
      // Pads wider than half the row and than half the column.
      requests.push_back(hw_padding(type, mode, {1, 3, 5, 7}, {3, 4, 4, 5}));
      // One row, one column.
      requests.push_back(hw_padding(type, mode, {1, 2, 1, 9}, {1, 1, 2, 3}));
      requests.push_back(hw_padding(type, mode, {1, 2, 6, 1}, {2, 1, 1, 1}));
      // Odd rows long enough for the transfers to copy their data columns:
      // the shader writes the sides of many rows per invocation, across
      // H's padded and data segments and across channels.
      requests.push_back(hw_padding(type, mode, {2, 3, 9, 301}, {5, 2, 3, 6}));
    }
    // A slice of short rows: the rows of an invocation cross the ends of H and C.
    OpRequest slice;
    slice.input = TensorRequest{type, U64s{2, 3, 7, 11}, std::nullopt};
    slice.params = SliceRequest{{0, 1, 1, 2}, {2, 2, 5, 3}, {1, 1, 1, 3}};
    requests.push_back(slice);
  }
  return requests;
}

// As lavapipe's limits, with no floor on invocations per box.
std::optional<gpu::RunPlan> planned(const OpRequest& request) {
  gpu::DeviceLimits limits = roomy_limits();
  limits.max_rows_per_item = 64;
  return planned_compute(request, limits);
}

TEST(GatherRowRuns, PaddedRowSidesAreWrittenSeveralRowsPerInvocation) {
  // 200 f16 elements a row: the transfers copy the 168 data columns, the
  // shader writes 32 a row, and a chunk (sized from the whole work) is
  // longer than a row, so it holds several rows' sides.
  auto plan = planned(hw_padding(DataType::Float16, PaddingMode::Symmetric, {1, 8, 130, 168}, {16, 16, 16, 16}));
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->compute->boxes.size(), 1u);
  const gpu::WorkBox& box = plan->compute->boxes[0];
  const uint64_t rows = 8 * 162;
  const uint64_t chunk = plan->compute->header[SS_CHUNK];
  EXPECT_EQ(box.chunks_per_row, 1u);
  EXPECT_EQ(box.rows_per_item, std::min<uint64_t>(chunk / 32, rows));
  EXPECT_GT(box.rows_per_item, 1u);
  EXPECT_EQ(box.items, (rows + box.rows_per_item - 1) / box.rows_per_item);
}

TEST(GatherRowRuns, RowsLongerThanAChunkAreWrittenOneChunkPerInvocation) {
  // 3 x 4000 f32 elements read with step 2: no copies, rows beyond a chunk.
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{3, 8000}, std::nullopt};
  r.params = SliceRequest{{0, 0}, {3, 4000}, {1, 2}};
  auto plan = planned(r);
  ASSERT_TRUE(plan);
  for (const gpu::WorkBox& box : plan->compute->boxes) {
    EXPECT_GT(box.chunks_per_row, 1u);
    EXPECT_EQ(box.rows_per_item, 1u);
  }
}

class VulkanRowRuns : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }
};

TEST_F(VulkanRowRuns, ShortRowsGiveTheReferenceBitsForEveryModeAndType) {
  // These small shapes would keep one row per invocation under the device's
  // floor on invocations per box.
  VulkanBackend::TestingLimits limits;
  limits.max_rows_per_item = 64;
  limits.min_items_per_box = 1;
  backend_->set_testing_limits(limits);
  expect_each_matches_cpu_and_reference(*backend_, short_row_requests(), 4100);
}

}  // namespace
}  // namespace stridescope::test
