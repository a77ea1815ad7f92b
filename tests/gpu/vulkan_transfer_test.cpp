// The transfer pass on a real device: pitched copies through linear images
// aliasing the tensors' buffers (gpu/transfer_lowering.h), row copies where
// images do not fit, and CONSTANT-padded rows filled under their copies.
// Each case runs with images and without (TestingLimits::no_linear_images),
// through the direct and the staging path, and must match the CPU reference
// bit for bit, gaps included; the pass labels tell which path ran. The
// transfer pass is planned as on CPU devices, with lavapipe's image height,
// on every device: a GPU copies only runs of 1 MiB or more (kGpuGatherTuning).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

OpRequest request(DataType type, U64s sizes, ParamsRequest params, std::optional<U64s> out_strides = std::nullopt) {
  OpRequest r;
  r.input = TensorRequest{type, std::move(sizes), std::nullopt};
  r.output.strides = std::move(out_strides);
  r.params = std::move(params);
  return r;
}

// "through N images" of the last run's transfer pass; -1 without one.
int images_used(const VulkanBackend& gpu) {
  for (const DispatchTiming& t : gpu.last_timings()) {
    const auto at = t.label.find(" through ");
    if (t.label.rfind("transfer", 0) == 0 && at != std::string::npos) return std::stoi(t.label.substr(at + 9));
  }
  return -1;
}

// The CPU devices' transfer planning, and images of at most 16,384 rows.
VulkanBackend::TestingLimits transfer_limits() {
  VulkanBackend::TestingLimits limits;
  limits.gather_tuning = gpu::GatherTuning{};
  limits.max_image_rows = 16384;
  return limits;
}

class VulkanTransfers : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }

  // Runs `r` with images (expecting `images` of them, -1: any) and, unless
  // `images_only`, without.
  void expect_both_paths(VulkanBackend& gpu, const OpRequest& r, int images, uint64_t seed, bool images_only = false) {
    auto op = Operation::make(r);
    ASSERT_TRUE(op) << op.error().to_string();
    Rng rng(seed);
    const std::vector<std::byte> input = random_input(op->input(), rng);
    gpu.set_testing_limits(transfer_limits());
    EXPECT_TRUE(matches_cpu(gpu, *op, input, seed)) << describe(*op);
    if (images >= 0) {
      EXPECT_EQ(images_used(gpu), images) << describe(*op);
    }
    if (images_only) return;
    VulkanBackend::TestingLimits no_images = transfer_limits();
    no_images.no_linear_images = true;
    gpu.set_testing_limits(no_images);
    EXPECT_TRUE(matches_cpu(gpu, *op, input, seed + 1)) << describe(*op) << " (row copies)";
    EXPECT_LE(images_used(gpu), 0) << describe(*op);
    gpu.set_testing_limits({});
  }

  void run_cases(VulkanBackend& gpu) {
    // 8 planes of 40 rows of 64 floats (256 bytes, a linear pitch): the
    // output is the image, all planes in one.
    expect_both_paths(gpu, request(DataType::Float32, {1, 8, 64, 80}, SliceRequest{{0, 0, 2, 4}, {1, 8, 40, 64}, {1, 1, 1, 1}}),
                      1, 1);
    // u8 rows of 300 bytes from column 3: the output's pitch is no linear
    // pitch (lavapipe: 320), the input's 512 is; the image starts before
    // the copy so that its memory offset is aligned.
    expect_both_paths(gpu, request(DataType::UInt8, {2, 3, 50, 512}, SliceRequest{{0, 0, 5, 3}, {2, 3, 40, 300}, {1, 1, 1, 1}}),
                      -1, 2);
    // A gapped output: rows 96 floats apart, 64 written; the gaps must keep
    // the caller's bytes although the image spans them.
    expect_both_paths(gpu, request(DataType::Float32, {4, 70, 64}, IdentityRequest{}, U64s{70 * 96, 96, 1}), 1, 3);
    // More rows than an image may have (16,384 here): split. (Not as
    // 20,000 row copies: the validation layer checks those pairwise, 30 s.)
    expect_both_paths(gpu, request(DataType::Int32, {20000, 80}, SliceRequest{{0, 8}, {20000, 64}, {1, 1}}), 2, 4, true);
    // 8-byte and 2-byte elements, and a channel slice with whole planes contiguous.
    expect_both_paths(gpu, request(DataType::Int64, {3, 30, 48}, SliceRequest{{1, 2, 8}, {2, 20, 32}, {1, 1, 1}}), -1, 5);
    expect_both_paths(gpu, request(DataType::Float16, {2, 33, 200}, SliceRequest{{0, 1, 0}, {2, 30, 160}, {1, 1, 1}}), -1,
                      6);
    // CONSTANT padding with short rows: filled whole, then copied into.
    PaddingRequest constant;
    constant.padding_value = int64_t{-3};
    constant.start_padding = {0, 2, 3};
    constant.end_padding = {1, 1, 5};
    expect_both_paths(gpu, request(DataType::Int8, {3, 20, 300}, constant), -1, 7);
    expect_both_paths(gpu, request(DataType::Float32, {3, 20, 300}, constant), -1, 8);
    // REFLECTION padding: copies of the middle, the shader on the sides.
    PaddingRequest reflection = constant;
    reflection.padding_mode = PaddingMode::Reflection;
    expect_both_paths(gpu, request(DataType::UInt16, {3, 20, 300}, reflection), -1, 9);
  }
};

TEST_F(VulkanTransfers, PitchedCopiesMatchCpuWithAndWithoutImages) { run_cases(*backend_); }

// The run's statistics carry the time of each pass, summing to the total.
TEST_F(VulkanTransfers, RunStatsListEveryPassWithItsTime) {
  PaddingRequest edge;
  edge.padding_mode = PaddingMode::Edge;
  edge.start_padding = {0, 1};
  edge.end_padding = {0, 2};
  auto op = Operation::make(request(DataType::Float32, {8, 112}, edge));
  ASSERT_TRUE(op) << op.error().to_string();
  backend_->set_testing_limits(transfer_limits());
  auto result = run_to_new_buffers(*backend_, *op, std::vector<std::byte>(op->input().buffer_bytes()));
  ASSERT_TRUE(result) << result.error().to_string();
  const RunStats& stats = result->stats;
  ASSERT_TRUE(stats.gpu_milliseconds.has_value());
  ASSERT_EQ(stats.passes.size(), 2u);  // the copies of the middle, the shader on the sides
  EXPECT_EQ(stats.passes[0].label.rfind("transfer: copy ", 0), 0u) << stats.passes[0].label;
  EXPECT_EQ(stats.passes[1].label.rfind("gather box 0", 0), 0u) << stats.passes[1].label;
  EXPECT_DOUBLE_EQ(stats.passes[0].milliseconds + stats.passes[1].milliseconds, *stats.gpu_milliseconds);
}

TEST_F(VulkanTransfers, PitchedCopiesMatchCpuThroughStaging) {
  VulkanOptions options;
  options.force_staging = true;
  options.enable_validation = vulkan_validation_wanted();
  auto staged = VulkanBackend::create(options);
  ASSERT_TRUE(staged) << staged.error().to_string();
  run_cases(**staged);
  const std::vector<std::string> messages = (*staged)->validation_messages();
  EXPECT_TRUE(messages.empty()) << messages.front();
}

}  // namespace
}  // namespace stridescope::test
