// The shaders' texel builds (shaders/source_quads.glsl): a compute pass reads
// its source's 16-byte quads through a uniform texel buffer view of each
// box's input window when every window fits a view (the device has
// R32G32B32A32_UINT texel buffers, the window starts on
// minTexelBufferOffsetAlignment and holds between one and
// maxTexelBufferElements whole quads); otherwise it reads them from the
// storage buffer. The choice is pinned on plans; the results of both builds
// are compared bit for bit with the CPU reference and the independent
// reference, for the four passes that read quads: the layout change (tiled
// transpose), max_pooling2's quad path, a stride-2 slice (two quads per
// output quad) and f16 symmetric padding (forward and reversed quads).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "gpu/run_plan.h"
#include "gpu/vk_faults.h"
#include "gpu_test_support.h"
#include "reference/pooling_shape.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

OpRequest nhwc_to_nchw(DataType type) {
  const U64s sizes{1, 64, 9, 40};
  OpRequest r;
  r.input = TensorRequest{type, sizes, U64s{64 * 9 * 40, 1, 40 * 64, 64}};
  r.params = IdentityRequest{};
  return r;
}

OpRequest pooling_3x3_stride2() {
  return pooling_request({{1, 3, 9, 41}, std::nullopt, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, std::nullopt},
                         DataType::Float32, DataType::UInt32);
}

OpRequest slice_stride2() {
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{1, 3, 10, 72}, std::nullopt};
  r.params = SliceRequest{{0, 0, 0, 1}, {1, 3, 5, 35}, {1, 1, 2, 2}};
  return r;
}

OpRequest symmetric_padding_f16() {
  OpRequest r;
  r.input = TensorRequest{DataType::Float16, U64s{1, 3, 12, 48}, std::nullopt};
  PaddingRequest pad;
  pad.padding_mode = PaddingMode::Symmetric;
  pad.start_padding = {0, 0, 3, 9};
  pad.end_padding = {0, 0, 2, 17};
  r.params = pad;
  return r;
}

std::vector<OpRequest> quad_reading_requests() {
  return {nhwc_to_nchw(DataType::Float32), nhwc_to_nchw(DataType::Float64), pooling_3x3_stride2(), slice_stride2(),
          symmetric_padding_f16()};
}

// lavapipe's limits: views of up to 2^27 texels at 16-byte offsets.
gpu::DeviceLimits texel_limits() {
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{128} << 20;
  limits.storage_offset_alignment = 16;
  limits.max_texel_quads = uint64_t{1} << 27;
  limits.texel_offset_alignment = 16;
  return limits;
}

TEST(SourceTexels, EveryQuadReadingPassUsesTexelViewsWhenTheWindowsFit) {
  const std::vector<gpu::ShaderId> shaders{gpu::ShaderId::TiledTranspose, gpu::ShaderId::TiledTranspose,
                                           gpu::ShaderId::MaxPooling2, gpu::ShaderId::Gather, gpu::ShaderId::Gather};
  const std::vector<OpRequest> requests = quad_reading_requests();
  for (std::size_t i = 0; i < requests.size(); ++i) {
    auto pass = planned_pass(requests[i], texel_limits());
    ASSERT_TRUE(pass);
    EXPECT_EQ(pass->key.shader, shaders[i]) << pass->name;
    EXPECT_TRUE(pass->key.source_texels) << pass->name;
  }
  // max_pooling2 pools through its quad path (pooling_quads.glsl).
  EXPECT_NE(planned_pass(pooling_3x3_stride2(), texel_limits())->key.constants[gpu::kPoolingQuads], 0u);
}

TEST(SourceTexels, StorageBufferWhenTheDeviceHasNoTexelViewsOfQuads) {
  gpu::DeviceLimits limits = texel_limits();
  limits.max_texel_quads = 0;
  for (const OpRequest& request : quad_reading_requests()) {
    auto pass = planned_pass(request, limits);
    ASSERT_TRUE(pass);
    EXPECT_FALSE(pass->key.source_texels) << pass->name;
  }
}

TEST(SourceTexels, StorageBufferWhenAWindowHoldsMoreQuadsThanAViewMay) {
  // The slice's input is 1 * 3 * 10 * 72 * 4 = 8640 bytes: 540 quads in one window.
  gpu::DeviceLimits limits = texel_limits();
  limits.max_texel_quads = 540;
  auto fits = planned_pass(slice_stride2(), limits);
  ASSERT_TRUE(fits);
  ASSERT_EQ(fits->boxes.size(), 1u);
  EXPECT_TRUE(fits->key.source_texels);
  limits.max_texel_quads = 539;
  auto too_big = planned_pass(slice_stride2(), limits);
  ASSERT_TRUE(too_big);
  EXPECT_FALSE(too_big->key.source_texels);
}

TEST(SourceTexels, StorageBufferWhenAWindowStartsOffTheViewAlignment) {
  // 1 KiB windows at 16-byte offsets: some box starts off a 4 KiB boundary.
  gpu::DeviceLimits limits = texel_limits();
  limits.max_storage_range = 1024;
  auto aligned = planned_pass(slice_stride2(), limits);
  ASSERT_TRUE(aligned);
  ASSERT_GT(aligned->boxes.size(), 1u);
  EXPECT_TRUE(aligned->key.source_texels);
  limits.texel_offset_alignment = 4096;
  auto pass = planned_pass(slice_stride2(), limits);
  ASSERT_TRUE(pass);
  bool off = false;
  for (const gpu::WorkBox& box : pass->boxes) off |= box.input.offset % 4096 != 0;
  ASSERT_TRUE(off) << "the case must put a window off the alignment";
  EXPECT_FALSE(pass->key.source_texels);
}

TEST(SourceTexels, StorageBufferWhenAWindowIsShorterThanAQuad) {
  // Three f32 elements: 12 bytes, no whole quad to view.
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{1, 1, 1, 3}, std::nullopt};
  r.params = Slice1Request{{0, 0, 0, 0}, {1, 1, 1, 3}, {1, 1, 1, -1}};
  auto pass = planned_pass(r, texel_limits());
  ASSERT_TRUE(pass);
  EXPECT_FALSE(pass->key.source_texels);
}

class VulkanSourceTexels : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }

  void expect_all_match(const VulkanBackend::TestingLimits& limits) {
    backend_->set_testing_limits(limits);
    uint64_t seed = 700;
    for (const OpRequest& request : quad_reading_requests()) {
      auto op = Operation::make(request);
      ASSERT_TRUE(op) << op.error().to_string();
      Rng rng(++seed);
      const std::vector<std::byte> input = random_input(op->input(), rng);
      EXPECT_TRUE(matches_cpu_and_reference(*backend_, *op, input, seed)) << describe(*op);
    }
  }
};

// lavapipe has R32G32B32A32_UINT uniform texel buffers: its runs view their
// input windows (counted at the Vulkan call boundary, gpu/vk_faults.h),
// unless the limits leave no room for a view.
TEST_F(VulkanSourceTexels, RunsOnLavapipeReadThroughTexelViewsWhereTheyFit) {
  auto op = Operation::make(slice_stride2());
  ASSERT_TRUE(op) << op.error().to_string();
  Rng rng(7);
  const std::vector<std::byte> input = random_input(op->input(), rng);
  gpu::ScopedVulkanFaults counting;
  auto made = VulkanBackend::create(VulkanOptions{});
  ASSERT_TRUE(made) << made.error().to_string();
  VulkanBackend& gpu = **made;
  EXPECT_TRUE(matches_cpu(gpu, *op, input, 7));
  const uint64_t views = counting.calls("vkCreateBufferView");
  EXPECT_GT(views, 0u);
  VulkanBackend::TestingLimits limits;
  limits.max_texel_buffer_elements = 16;
  gpu.set_testing_limits(limits);
  EXPECT_TRUE(matches_cpu(gpu, *op, input, 8));
  EXPECT_EQ(counting.calls("vkCreateBufferView"), views);
}

TEST_F(VulkanSourceTexels, TexelViewsGiveTheReferenceBits) { expect_all_match({}); }

TEST_F(VulkanSourceTexels, WindowsTooBigForAViewReadTheStorageBufferAndGiveTheSameBits) {
  VulkanBackend::TestingLimits limits;
  limits.max_texel_buffer_elements = 16;
  expect_all_match(limits);
}

TEST_F(VulkanSourceTexels, NoTexelViewsReadTheStorageBufferAndGiveTheSameBits) {
  VulkanBackend::TestingLimits limits;
  limits.max_texel_buffer_elements = 0;
  expect_all_match(limits);
}

// 4 KiB binding windows: every box binds its own view of its own window.
TEST_F(VulkanSourceTexels, EveryBoxViewsItsOwnWindow) {
  VulkanBackend::TestingLimits limits;
  limits.max_storage_buffer_range = 4096;
  expect_all_match(limits);
}

}  // namespace
}  // namespace stridescope::test
