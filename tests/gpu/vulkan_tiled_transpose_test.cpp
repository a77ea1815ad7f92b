// Layout changes through the tiled transpose shader (gpu/tiled_transpose.h,
// shaders/tiled_transpose.comp) against the CPU reference, bit for bit, for
// every data type: sizes that are not multiples of the tile (partial tiles
// on both sides), batched outer axes, sliced and reversed layouts whose
// runs start at every offset within a 16-byte quad, outputs with gaps
// between rows (partial words merged, gaps kept), and work cut into many
// binding windows and dispatches.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/run_plan.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

// NHWC strides of a logical NCHW tensor of `sizes`.
U64s nhwc_strides(const U64s& sizes) {
  return {sizes[1] * sizes[2] * sizes[3], 1, sizes[3] * sizes[1], sizes[1]};
}

OpRequest nhwc_request(DataType type, const U64s& sizes, ParamsRequest params) {
  OpRequest r;
  r.input = TensorRequest{type, sizes, nhwc_strides(sizes)};
  r.params = std::move(params);
  return r;
}

std::optional<gpu::ShaderId> planned_shader(const OpRequest& request) {
  auto op = Operation::make(request);
  EXPECT_TRUE(op) << op.error().to_string();
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{128} << 20;
  limits.storage_offset_alignment = 16;
  auto plan = gpu::plan_run(*op, limits);
  EXPECT_TRUE(plan) << plan.error().to_string();
  if (!plan || !plan->compute) return std::nullopt;
  return plan->compute->key.shader;
}

TEST(TiledTransposeChoice, WholeTilesMoveInRegistersOnlyWhereTheDeviceAsks) {
  auto op = Operation::make(nhwc_request(DataType::Float32, {2, 37, 5, 41}, IdentityRequest{}));
  ASSERT_TRUE(op) << op.error().to_string();
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{128} << 20;
  for (bool in_registers : {false, true}) {
    limits.tiles_in_registers = in_registers;
    auto plan = gpu::plan_run(*op, limits);
    ASSERT_TRUE(plan && plan->compute);
    EXPECT_EQ(plan->compute->key.constants[gpu::kTilesInRegisters], in_registers ? 1u : 0u);
  }
}

TEST(TiledTransposeChoice, NhwcToNchwGoesThroughTiles) {
  EXPECT_EQ(planned_shader(nhwc_request(DataType::Float32, {2, 37, 5, 41}, IdentityRequest{})),
            gpu::ShaderId::TiledTranspose);
}

TEST(TiledTransposeChoice, PackedCopiesPaddingAndFewChannelsDoNot) {
  OpRequest packed;
  packed.input = TensorRequest{DataType::Float32, U64s{1, 64, 32, 32}, std::nullopt};
  packed.params = IdentityRequest{};
  EXPECT_NE(planned_shader(packed), gpu::ShaderId::TiledTranspose);
  // Three channels: tiles of 3 x 32 would move mostly nothing.
  EXPECT_EQ(planned_shader(nhwc_request(DataType::Float32, {1, 3, 32, 32}, IdentityRequest{})),
            gpu::ShaderId::Gather);
  PaddingRequest pad;
  pad.padding_mode = PaddingMode::Constant;
  pad.start_padding = {0, 0, 1, 1};
  pad.end_padding = {0, 0, 1, 1};
  EXPECT_EQ(planned_shader(nhwc_request(DataType::Float32, {1, 64, 32, 32}, pad)), gpu::ShaderId::Gather);
}

// Every case runs both ways of moving whole tiles: through shared memory
// (GPUs) and in registers (CPU devices such as lavapipe).
class TiledTranspose : public VulkanTest, public ::testing::WithParamInterface<DataType> {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }

  void expect_matches(const OpRequest& request, uint64_t seed, bool tiled = true) {
    auto op = Operation::make(request);
    ASSERT_TRUE(op) << op.error().to_string();
    if (tiled) {
      ASSERT_EQ(planned_shader(request), gpu::ShaderId::TiledTranspose) << describe(*op);
    }
    Rng rng(seed);
    const std::vector<std::byte> input = random_input(op->input(), rng);
    for (bool in_registers : {false, true}) {
      VulkanBackend::TestingLimits limits = limits_;
      limits.tiles_in_registers = in_registers;
      backend_->set_testing_limits(limits);
      EXPECT_TRUE(matches_cpu(*backend_, *op, input, seed))
          << describe(*op) << (in_registers ? " tiles in registers" : " tiles in shared memory");
    }
  }

  VulkanBackend::TestingLimits limits_;  // besides tiles_in_registers
};

// Channels and pixels that are not multiples of the 32 x 32 tile, one tile
// exactly, one past it, a batch of 3 (an outer axis of the tiles), and
// enough tiles that a workgroup walks a strip of several along the row,
// the last strip cut short; 144 channels of 272 pixels give whole tiles
// whose runs start on 16-byte boundaries (the quad-only path) for every
// element size, next to cut ones.
TEST_P(TiledTranspose, NhwcToNchwOfOddSizesMatchesCpu) {
  uint64_t seed = 10;
  for (const U64s& sizes : {U64s{1, 8, 1, 8}, U64s{1, 32, 4, 8}, U64s{1, 33, 3, 11}, U64s{3, 37, 5, 41},
                            U64s{2, 64, 7, 65}, U64s{1, 9, 31, 33}, U64s{2, 40, 33, 257}, U64s{1, 144, 2, 136}}) {
    expect_matches(nhwc_request(GetParam(), sizes, IdentityRequest{}), ++seed);
  }
}

// Slices of an NHWC tensor: channel and pixel offsets put the runs at every
// offset within a quad on both sides; stride 2 along H keeps T contiguous.
TEST_P(TiledTranspose, SlicedNhwcMatchesCpu) {
  for (uint64_t offset = 0; offset < 5; ++offset) {
    const U64s sizes{2, 45, 6, 47};
    SliceRequest s{{0, offset, 1, offset}, {2, 40 - offset, 2, 40 - offset}, {1, 1, 2, 1}};
    expect_matches(nhwc_request(GetParam(), sizes, s), 100 + offset);
  }
}

// The row read backwards (slice1 with stride -1 along W): the row's input
// step is negative, T still contiguous.
TEST_P(TiledTranspose, ReversedRowsMatchCpu) {
  const U64s sizes{1, 40, 3, 35};
  expect_matches(nhwc_request(GetParam(), sizes, Slice1Request{{0, 0, 0, 1}, {1, 40, 3, 34}, {1, 1, 1, -1}}), 200);
}

// Output rows 3 elements apart more than their length: the gaps keep their
// bytes, and sub-word elements at row ends share words with gaps.
TEST_P(TiledTranspose, GappedOutputKeepsItsGaps) {
  const U64s sizes{2, 35, 3, 37};
  OpRequest r = nhwc_request(GetParam(), sizes, IdentityRequest{});
  const uint64_t pitch = 37 + 3;
  r.output.strides = U64s{35 * 3 * pitch, 3 * pitch, pitch, 1};
  expect_matches(r, 300);
}

// Binding windows of 4 KiB and one workgroup per dispatch: the work is cut
// into boxes along every axis, T and the row included.
TEST_P(TiledTranspose, WorkCutIntoWindowsAndDispatchesMatchesCpu) {
  limits_.max_storage_buffer_range = 4096;
  limits_.max_workgroup_count = 1;
  expect_matches(nhwc_request(GetParam(), {2, 70, 3, 45}, IdentityRequest{}), 400);
}

INSTANTIATE_TEST_SUITE_P(AllTypes, TiledTranspose, ::testing::ValuesIn(kAllDataTypes), data_type_name);

}  // namespace
}  // namespace stridescope::test
