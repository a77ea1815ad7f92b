// max_pooling2's quad path (shaders/pooling_quads.glsl): 4-byte elements
// whose W taps step affinely pool groups of four outputs from 16-byte input
// quads, realigned per invocation, and write quads where the output allows.
// The geometry (gpu::quad_path) is pinned by hand; the shader is compared
// bit for bit with the CPU reference and the independent reference on
// shapes that put groups at every input word alignment, end rows with a
// partial group, keep the box smaller than one workgroup, pad both sides,
// end the input window off a quad boundary (the last groups fall back),
// and scatter or offset the outputs and indices so that quad stores are
// not allowed. random_input's palette makes ties and NaNs common.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "gpu/pooling_program.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu/run_plan.h"
#include "gpu/vk_pipelines.h"
#include "gpu_test_support.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

uint32_t quad_geometry(const PoolingShape& shape, DataType type) {
  auto op = Operation::make(pooling_request(shape, type, std::nullopt));
  EXPECT_TRUE(op) << op.error().to_string();
  return op ? gpu::quad_path(gpu::make_pooling_program(*op)) : 0;
}

// rows, planes: the H and D window sizes, 0 above SS_PQ_MAX_ROWS.
constexpr uint32_t packed(uint32_t window, uint32_t step_o, uint32_t step_k, uint32_t rows, uint32_t planes = 1) {
  return window | step_o << 8 | step_k << 16 | rows << 24 | planes << 28;
}

const PoolingShape k3x3Stride2Padded{{1, 1, 5, 37}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt};

TEST(PoolingQuadPath, ThreeByThreeStrideTwoStepsTwoOutputsOneTap) {
  EXPECT_EQ(quad_geometry(k3x3Stride2Padded, DataType::Float32), packed(3, 2, 1, 3));
  EXPECT_EQ(quad_geometry(k3x3Stride2Padded, DataType::Int32), packed(3, 2, 1, 3));
}

TEST(PoolingQuadPath, DilationStepsTheTaps) {
  const PoolingShape dilated{{1, 2, 6, 40}, std::nullopt, {2, 3}, {1, 2}, {1, 2}, {0, 0}, {0, 0}, std::nullopt};
  EXPECT_EQ(quad_geometry(dilated, DataType::UInt32), packed(3, 2, 2, 2));  // span 3 * 2 + 2 * 2 + 1 = 11
}

// Window rows and planes up to 15 are the shader's constants (its loops
// unroll); more rows are read from the header.
TEST(PoolingQuadPath, WindowRowsAndPlanesUpToFifteenAreConstants) {
  const PoolingShape volume{{1, 2, 3, 4, 29}, std::nullopt, {2, 2, 3}, {1, 2, 2}, {1, 1, 1}, {0, 1, 1}, {1, 0, 1},
                            std::nullopt};
  EXPECT_EQ(quad_geometry(volume, DataType::Float32), packed(3, 2, 1, 2, 2));
  const PoolingShape fifteen{{1, 1, 18, 40}, std::nullopt, {15, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 1}, std::nullopt};
  EXPECT_EQ(quad_geometry(fifteen, DataType::Float32), packed(3, 2, 1, 15));
  const PoolingShape sixteen{{1, 1, 18, 40}, std::nullopt, {16, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 1}, std::nullopt};
  EXPECT_EQ(quad_geometry(sixteen, DataType::Float32), packed(3, 2, 1, 0));
}

TEST(PoolingQuadPath, OnlyFourByteElements) {
  EXPECT_EQ(quad_geometry(k3x3Stride2Padded, DataType::Float16), 0u);
  EXPECT_EQ(quad_geometry(k3x3Stride2Padded, DataType::Float64), 0u);
  EXPECT_EQ(quad_geometry(k3x3Stride2Padded, DataType::UInt8), 0u);
}

TEST(PoolingQuadPath, NotWhenTheInputWidthIsStrided) {
  PoolingShape shape = k3x3Stride2Padded;
  shape.in_strides = U64s{370, 370, 74, 2};
  EXPECT_EQ(quad_geometry(shape, DataType::Float32), 0u);
}

TEST(PoolingQuadPath, NotWhenAGroupSpansMoreThanTwelveWords) {
  // Window 5, stride 3: four outputs read 3 * 3 + 4 + 1 = 14 words.
  const PoolingShape wide{{1, 1, 5, 40}, std::nullopt, {1, 5}, {1, 3}, {1, 1}, {0, 0}, {0, 0}, std::nullopt};
  EXPECT_EQ(quad_geometry(wide, DataType::Float32), 0u);
}

TEST(PoolingQuadPath, NotWhenTheWidthRunIsShorterThanAGroup) {
  // Width 7, window 3, stride 2, padding 1: outputs 1 and 2 only are unpadded.
  const PoolingShape narrow{{1, 1, 4, 7}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt};
  EXPECT_EQ(quad_geometry(narrow, DataType::Float32), 0u);
}

TEST(PoolingQuadPath, ThePipelineKeyCarriesTheGeometry) {
  auto op = Operation::make(pooling_request(k3x3Stride2Padded, DataType::Float32, DataType::UInt32));
  ASSERT_TRUE(op) << op.error().to_string();
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{1} << 27;
  auto plan = gpu::plan_run(*op, limits);
  ASSERT_TRUE(plan) << plan.error().to_string();
  ASSERT_TRUE(plan->compute);
  EXPECT_EQ(plan->compute->key.constants[gpu::kPoolingQuads], packed(3, 2, 1, 3));
}

// The pairs build (64-bit stores, shaders/quad_stores.glsl) is the limits' choice.
TEST(PoolingQuadPath, StoresPairsWhereTheLimitsSay) {
  expect_pairs_build_where_limits_say(pooling_request(k3x3Stride2Padded, DataType::Float32, DataType::UInt32),
                                      gpu::ShaderId::MaxPooling2);
}

// Outputs per invocation are the limits' choice too.
TEST(PoolingQuadPath, ChunksWhereTheLimitsSay) {
  const OpRequest request = pooling_request(k3x3Stride2Padded, DataType::Float32, DataType::UInt32);
  gpu::DeviceLimits limits = roomy_limits();
  limits.pooling_chunk = 64;
  auto pass = planned_pass(request, limits);
  ASSERT_TRUE(pass);
  EXPECT_EQ(pass->header[SS_CHUNK], 64u);
}

class VulkanPoolingQuads : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }

  // Every 4-byte type without indices and with both index types, against
  // both references, in three plans: the one a GPU gets (plan_as_gpu: quads
  // stored whole, one group an invocation), quads stored whole with 16
  // outputs an invocation (chunks end inside rows, groups hand quads on),
  // and a CPU device's (64-bit pairs where the device has shaderInt64, long
  // chunks); the shape must take the quad path.
  // `few`: FLOAT32 with UINT32 indices and INT32 with UINT64 ones only.
  void expect_quad_path_matches(const PoolingShape& shape, bool few = false) {
    ASSERT_NE(quad_geometry(shape, DataType::Float32), 0u) << "the shape must take the quad path";
    std::vector<OpRequest> requests;
    for (DataType type : {DataType::Float32, DataType::Int32, DataType::UInt32}) {
      for (std::optional<DataType> index_type : {std::optional<DataType>{}, std::optional<DataType>{DataType::UInt32},
                                                 std::optional<DataType>{DataType::UInt64}}) {
        requests.push_back(pooling_request(shape, type, index_type));
      }
    }
    if (few) requests = {requests[1], requests[5]};
    {
      SCOPED_TRACE("as planned for a GPU");
      VulkanBackend::TestingLimits limits;
      limits.plan_as_gpu = true;
      backend_->set_testing_limits(limits);
      expect_each_matches_in_store_build(*backend_, requests, 100, false);
    }
    for (bool pairs : {false, true}) {
      SCOPED_TRACE(pairs ? "64-bit pairs, long chunks" : "whole quads, 16 outputs an invocation");
      VulkanBackend::TestingLimits limits;
      limits.store_pairs = pairs;
      limits.pooling_chunk = pairs ? 64 : 16;
      backend_->set_testing_limits(limits);
      expect_each_matches_in_store_build(*backend_, requests, 100, pairs);
    }
  }
};

TEST_F(VulkanPoolingQuads, PaddedBothSidesWithAPartialGroupAtEachRowEnd) {
  // 19 outputs a row, run [1, 18): four groups, the last of one output.
  expect_quad_path_matches(k3x3Stride2Padded);
}

TEST_F(VulkanPoolingQuads, OddWidthsStartGroupsAtEveryWordAlignment) {
  // Rows of 33 words: each row and channel starts at another alignment.
  expect_quad_path_matches({{2, 3, 7, 33}, std::nullopt, {3, 3}, {1, 2}, {1, 1}, {1, 1}, {0, 2}, std::nullopt});
}

TEST_F(VulkanPoolingQuads, AnInputEndingOffAQuadBoundaryFallsBackForTheLastGroups) {
  // 1 * 1 * 3 * 13 = 39 words: the last group's quads would pass the window's end.
  expect_quad_path_matches({{1, 1, 3, 13}, std::nullopt, {2, 2}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, std::nullopt});
}

TEST_F(VulkanPoolingQuads, BoxSmallerThanOneWorkgroup) {
  expect_quad_path_matches({{1, 1, 2, 10}, std::nullopt, {2, 3}, {1, 1}, {1, 1}, {0, 1}, {0, 1}, std::nullopt});
}

TEST_F(VulkanPoolingQuads, DilatedStrideThreeSpansTwelveWords) {
  // Window 2 dilated 2 along W, stride 3: four outputs read 3 * 3 + 2 + 1 = 12 words.
  expect_quad_path_matches({{1, 2, 5, 50}, std::nullopt, {2, 2}, {2, 3}, {1, 2}, {1, 2}, {0, 1}, std::nullopt});
}

TEST_F(VulkanPoolingQuads, StrideOneWindowFive) {
  expect_quad_path_matches({{1, 1, 6, 45}, std::nullopt, {2, 5}, {1, 1}, {1, 1}, {0, 2}, {1, 2}, std::nullopt});
}

TEST_F(VulkanPoolingQuads, StridedInputRowsAndChannels) {
  // W stride 1, H and C strides with gaps.
  expect_quad_path_matches({{1, 2, 4, 21}, U64s{200, 100, 23, 1}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt});
}

TEST_F(VulkanPoolingQuads, OutputsOffQuadBoundariesAndScatteredStoreElementWise) {
  // Output rows of 19 elements 21 apart: groups start at every alignment.
  expect_quad_path_matches(
      {{1, 1, 9, 37}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, U64s{200, 200, 21, 1}});
  // Output W stride 2: no quad stores at all.
  expect_quad_path_matches(
      {{1, 1, 5, 37}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, U64s{200, 200, 40, 2}});
}

TEST_F(VulkanPoolingQuads, SixteenWindowRowsCountedFromTheHeader) {
  expect_quad_path_matches({{1, 2, 18, 40}, std::nullopt, {16, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 1}, std::nullopt});
}

// The interior pipeline (gpu/pooling_interior.h) takes the boxes whose
// outputs all pool in whole groups stored as quads, repeating a real tap in
// place of padded D and H taps; the general one the rest. These shapes give
// it boxes under 16-output chunks and under a GPU's one group an
// invocation (their plans are pinned by hand in pooling_interior_test).
bool has_interior_box(const PoolingShape& shape, uint64_t chunk = 16) {
  gpu::DeviceLimits limits = roomy_limits();
  limits.pooling_chunk = chunk;
  auto pass = planned_pass(pooling_request(shape, DataType::Float32, DataType::UInt32), limits);
  return pass && std::any_of(pass->boxes.begin(), pass->boxes.end(), [](const gpu::WorkBox& b) { return b.variant != SS_GENERAL; });
}

TEST_F(VulkanPoolingQuads, InteriorBoxesTakePaddedRowsAndPlanes) {
  const std::vector<PoolingShape> shapes = {
      {{2, 3, 16, 16}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt},
      {{1, 2, 6, 6, 15}, std::nullopt, {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, std::nullopt},
  };
  for (const PoolingShape& shape : shapes) {
    ASSERT_TRUE(has_interior_box(shape));
    ASSERT_TRUE(has_interior_box(shape, SS_PQ_GROUP));  // a GPU's chunk
    expect_quad_path_matches(shape);
  }
}

TEST_F(VulkanPoolingQuads, InteriorSpansStartingAtEachWordOfAQuad) {
  // Input rows of 16 words: every span of a box starts at the same word of a
  // quad, -p mod 4 for left padding p (the edge group's first span word is
  // input column -p), and the pipeline is specialized to it. Output rows of
  // 12 + 2p elements, 20 apart: quads stay aligned.
  for (uint64_t p : {0u, 1u, 2u, 3u}) {
    SCOPED_TRACE(p);
    const PoolingShape shape{{1, 2, 5, 16}, std::nullopt, {3, 5}, {1, 1}, {1, 1}, {1, p}, {1, p},
                             U64s{200, 100, 20, 1}};
    gpu::DeviceLimits limits = roomy_limits();
    limits.pooling_chunk = 16;
    auto pass = planned_pass(pooling_request(shape, DataType::Float32, DataType::UInt32), limits);
    ASSERT_TRUE(pass);
    ASSERT_EQ(pass->boxes.size(), p == 0 ? 1u : 2u);  // the padded right edge beside the interior
    EXPECT_EQ(pass->boxes.back().variant, SS_INTERIOR_AT + (4 - p) % 4);
    expect_quad_path_matches(shape, /*few=*/true);
  }
}

TEST_F(VulkanPoolingQuads, InteriorLastGroupsLoadPastTheWindow) {
  // Its last group's third quad lies past the input: the shader clamps it
  // (the batch stride is off whole quads, so spans may start anywhere).
  const PoolingShape shape{{1, 2, 2, 16}, U64s{70, 32, 16, 1}, {2, 2}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, std::nullopt};
  ASSERT_TRUE(has_interior_box(shape));
  expect_quad_path_matches(shape);
}

TEST_F(VulkanPoolingQuads, InteriorEdgeGroupStartingBeforeTheInputWindow) {
  // Input row 0's edge group starts at word -1: the shader reads the
  // window's first quad in place of the one before it.
  const PoolingShape shape{{1, 1, 8, 16}, std::nullopt, {2, 3}, {1, 2}, {1, 1}, {0, 1}, {0, 0}, std::nullopt};
  ASSERT_TRUE(has_interior_box(shape));
  expect_quad_path_matches(shape);
}

TEST_F(VulkanPoolingQuads, FiveDimensionalWindows) {
  expect_quad_path_matches({{1, 2, 3, 4, 29}, std::nullopt, {2, 2, 3}, {1, 2, 2}, {1, 1, 1}, {0, 1, 1}, {1, 0, 1},
                            std::nullopt});
}

}  // namespace
}  // namespace stridescope::test
