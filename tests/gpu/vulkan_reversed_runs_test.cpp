// Reflection and symmetric padding along the row: the transfers copy the row's
// data columns and the gather shader writes the reversed runs on both sides of
// them, one invocation per row chunk walking the runs left and right of the
// copied columns in one loop. The pass compiles in only the paths of the
// columns the shader writes (no forward copy when the transfers wrote it).
// Results are compared bit for bit with the CPU reference and the independent
// reference for every element size, odd widths, odd pads and rows that start
// off a quad, with chunks that start inside the copied columns.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "gpu/run_plan.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

OpRequest row_padding(DataType type, PaddingMode mode, U64s sizes, U64s start, U64s end) {
  OpRequest r;
  r.input = TensorRequest{type, std::move(sizes), std::nullopt};
  PaddingRequest pad;
  pad.padding_mode = mode;
  pad.start_padding = std::move(start);
  pad.end_padding = std::move(end);
  r.params = pad;
  return r;
}

// Rows of 301 elements (odd: each row starts at another offset within a
// quad) are long enough for the transfers to copy their data columns for
// every element size (at least 256 bytes); the pads are odd, uneven and
// longer than a quad on one side.
std::vector<OpRequest> reversed_run_requests() {
  std::vector<OpRequest> requests;
  for (DataType type : {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Float64}) {
    for (PaddingMode mode : {PaddingMode::Reflection, PaddingMode::Symmetric}) {
      requests.push_back(row_padding(type, mode, {1, 2, 5, 301}, {0, 0, 2, 19}, {0, 0, 1, 3}));
      requests.push_back(row_padding(type, mode, {1, 1, 3, 301}, {0, 0, 0, 1}, {0, 0, 0, 36}));
      requests.push_back(row_padding(type, mode, {2, 3, 301}, {0, 1, 17}, {1, 0, 17}));
    }
  }
  return requests;
}

// Sides of one and two 32-byte pairs of quads on 32-byte boundaries, rows
// of 320 bytes, enough rows (1,024) that an invocation's chunk holds a whole
// padded row and so several rows per invocation: symmetric padding's sources
// start on quads (each side mirrors a row end), so one loop moves all of an
// invocation's sides; reflection's lowest source element is a row's second
// (start side) or lies one element before a quad (end side), so its sides go
// run by run.
std::vector<OpRequest> aligned_side_requests() {
  std::vector<OpRequest> requests;
  for (DataType type : {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Float64}) {
    const uint64_t es = element_size(type);
    for (PaddingMode mode : {PaddingMode::Symmetric, PaddingMode::Reflection}) {
      for (uint64_t side_bytes : {32u, 64u}) {
        const uint64_t pad = side_bytes / es;
        requests.push_back(row_padding(type, mode, {1, 4, 256, 320 / es}, {0, 0, 1, pad}, {0, 0, 2, pad}));
      }
    }
  }
  return requests;
}

TEST(ReversedRunPaths, ShaderBesideCopiedColumnsCompilesOnlyTheReversedRuns) {
  // 200 f16 elements a row: the transfers copy the data columns.
  auto plan = planned_compute(row_padding(DataType::Float16, PaddingMode::Symmetric, {1, 4, 6, 200}, {0, 0, 0, 16},
                                  {0, 0, 0, 16}));
  ASSERT_TRUE(plan);
  EXPECT_FALSE(plan->copies.empty());
  EXPECT_EQ(plan->compute->key.constants[gpu::kGatherPaths], SS_PATH_REVERSE);
}

TEST(ReversedRunPaths, ShaderWritingForwardColumnsCompilesTheCopyPath) {
  // 100 f16 elements a row, 200 bytes: too short to copy, the shader writes
  // the data columns as well.
  auto plan = planned_compute(row_padding(DataType::Float16, PaddingMode::Symmetric, {1, 4, 6, 100}, {0, 0, 0, 16},
                                  {0, 0, 0, 16}));
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan->copies.empty());
  EXPECT_EQ(plan->compute->key.constants[gpu::kGatherPaths], SS_PATH_REVERSE | SS_PATH_COPY);
}

class VulkanReversedRuns : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }
};

TEST_F(VulkanReversedRuns, ReflectedAndSymmetricRowsGiveTheReferenceBits) {
  expect_each_matches_cpu_and_reference(*backend_, reversed_run_requests(), 900);
}

// Up to 64 rows per invocation (CPU devices' default, pinned here), each box
// spread over as few invocations as its rows allow; quads stored whole and
// as 64-bit pairs.
TEST_F(VulkanReversedRuns, AlignedSidesOfManyRowsGiveTheReferenceBits) {
  VulkanBackend::TestingLimits limits;
  limits.max_rows_per_item = 64;
  limits.min_items_per_box = 1;
  expect_each_matches_with_both_stores(*backend_, limits, aligned_side_requests(), 1000);
}

}  // namespace
}  // namespace stridescope::test
