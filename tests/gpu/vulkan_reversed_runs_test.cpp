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

class VulkanReversedRuns : public VulkanTest {};

TEST_F(VulkanReversedRuns, ReflectedAndSymmetricRowsGiveTheReferenceBits) {
  expect_each_matches_cpu_and_reference(*backend_, reversed_run_requests(), 900);
}

}  // namespace
}  // namespace stridescope::test
