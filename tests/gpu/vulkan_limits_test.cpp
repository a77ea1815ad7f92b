// Work too big for one binding or one dispatch, and the staging path.
//   - Bindings never exceed maxStorageBufferRange (128 MiB on lavapipe): real
//     tensors beyond 128 MiB, and random small specs with the limit lowered
//     to 128 bytes so that every op is cut into many windows.
//   - Dispatches never exceed maxComputeWorkGroupCount[0] (65,535): a real
//     case one past it, and random specs with the limit lowered to 1 (and 3).
//   - force_staging: device-local buffers behind staging copies, checked on
//     lavapipe, whose memory is all host-visible.
#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>

#include "gpu_test_support.h"
#include "shared_spec_draws.h"
#include "gpu/run_plan.h"

namespace stridescope::test {
namespace {

using U64s = std::vector<uint64_t>;

// A buffer filled quickly with a pattern no element repeats nearby.
std::vector<std::byte> pattern(uint64_t bytes) {
  std::vector<std::byte> data(bytes);
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    const uint32_t v = static_cast<uint32_t>(i * 2654435761u);
    std::memcpy(data.data() + 4 * i, &v, 4);
  }
  return data;
}

// Shared random specs (tests/reference/random_specs.h) of every op and type
// on `gpu`; returns how many ran.
// `split_runs` counts runs cut into several boxes. With tiny testing limits a
// pooling window can span more than one binding; such a spec is refused with
// a clear error and not counted.
int random_specs_match(VulkanBackend& gpu, uint64_t seed, int per_op, int* split_runs) {
  reference::Rng rng(seed);
  int ran = 0;
  for (OpKind kind : {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding, OpKind::MaxPooling2}) {
    for (int i = 0; i < per_op; ++i) {
      const DataType type = kAllDataTypes[static_cast<std::size_t>(i) % kAllDataTypes.size()];
      OpRequest request;
      auto op = draw_for_gpu(kind, type, rng, &request);
      if (!op) continue;
      const std::vector<std::byte> input = special_input(op->input(), rng);
      if (kind == OpKind::MaxPooling2) {
        auto probe = run_to_new_buffers(gpu, *op, input);
        if (!probe && probe.error().message.find("one output element reads input spread") != std::string::npos) {
          continue;
        }
      }
      EXPECT_TRUE(matches_cpu_and_reference(gpu, *op, input, seed + static_cast<uint64_t>(i)))
          << "seed " << seed << " " << reference::json_spec(request);
      if (::testing::Test::HasFailure()) return ran;
      ++ran;
      if (split_runs == nullptr) continue;
      for (const DispatchTiming& t : gpu.last_timings()) {
        if (t.label.find(" box 1 ") != std::string::npos) {
          ++*split_runs;
          break;
        }
      }
    }
  }
  return ran;
}

class VulkanLimits : public VulkanTest {
 protected:
  void TearDown() override {
    if (backend_ != nullptr) backend_->set_testing_limits({});
    VulkanTest::TearDown();
  }

  // maxStorageBufferRange as lavapipe has it; GPUs bind up to 4 GiB, where
  // the tensors below would fit one binding.
  void limit_bindings_to_128_mib() {
    VulkanBackend::TestingLimits limits;
    limits.max_storage_buffer_range = uint64_t{128} << 20;
    backend_->set_testing_limits(limits);
  }

  int count_dispatches(const std::string& shader) {
    int n = 0;
    for (const DispatchTiming& t : backend_->last_timings()) n += t.label.find(shader) != std::string::npos;
    return n;
  }
};

TEST_F(VulkanLimits, TinyBindingWindowsAndDispatchesGiveTheSameBits) {
  // 128 bytes: the shared specs are small (most fit 256 bytes whole).
  backend_->set_testing_limits({uint64_t{128}, uint32_t{1}});
  int split = 0;
  EXPECT_GE(random_specs_match(*backend_, 91, 40, &split), 140);
  EXPECT_GT(split, 60);  // many runs really were cut up (tiny tensors fit whole)
}

// The backend keeps the last op's plan: the same op under other limits must
// be planned again (split into windows), and the plan then kept must not
// serve a different op.
TEST_F(VulkanLimits, KeptPlanServesOnlyTheSameOpUnderTheSameLimits) {
  OpRequest r;
  r.input = TensorRequest{DataType::Int16, U64s{6, 50}, std::nullopt};
  r.params = SliceRequest{{1, 3}, {4, 40}, {1, 1}};
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  const std::vector<std::byte> input = pattern(op->input().buffer_bytes());
  ASSERT_TRUE(matches_cpu(*backend_, *op, input, 1));
  EXPECT_EQ(count_dispatches("gather"), 1);
  backend_->set_testing_limits({uint64_t{64}, std::nullopt});
  ASSERT_TRUE(matches_cpu(*backend_, *op, input, 2));
  EXPECT_GE(count_dispatches("gather"), 2);
  r.params = SliceRequest{{0, 1}, {5, 40}, {1, 1}};
  auto other = Operation::make(r);
  ASSERT_TRUE(other) << other.error().to_string();
  EXPECT_TRUE(matches_cpu(*backend_, *other, input, 3));
  EXPECT_TRUE(matches_cpu(*backend_, *op, input, 4));
}

// Every planning choice a GPU gets (vulkan_backend.cpp's limits for devices
// other than CPUs: rows to the shader rather than the transfer pass, one row
// an invocation, shared-memory transpose tiles, whole-quad stores, short
// pooling chunks), made on this device: CI has no GPU, and this is how those
// plans are checked bit for bit there.
TEST_F(VulkanLimits, GpuPlanningGivesTheSameBits) {
  VulkanBackend::TestingLimits gpu_like;
  gpu_like.plan_as_gpu = true;
  backend_->set_testing_limits(gpu_like);
  EXPECT_GE(random_specs_match(*backend_, 93, 24, nullptr), 100);
}

// A 1x1 max pooling over 520 x 8200 bytes, one output per invocation: 520
// rows of 8,200 invocations make 66,625 workgroups of 64, more than
// maxComputeWorkGroupCount allows in one dispatch. (Outputs per invocation
// are a testing limit here so that the input stays small, 4 MiB; the same
// split with GPUs' 16 outputs an invocation needs 64 MiB. The gather shader
// writes several short rows per invocation, so it reaches this count only
// with tensors of many GiB; tiny testing limits split its dispatches above.)
TEST_F(VulkanLimits, MoreThan65535WorkgroupsAreSplitIntoDispatches) {
  VulkanBackend::TestingLimits limits;
  limits.pooling_chunk = 1;
  limits.max_workgroup_count = 65535;  // lavapipe's and Vulkan's least; GPUs allow far more
  backend_->set_testing_limits(limits);
  OpRequest r;
  r.input = TensorRequest{DataType::UInt8, U64s{1, 1, 520, 8200}, std::nullopt};
  MaxPooling2Request p;
  p.window_size = {1, 1};
  r.params = p;
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  EXPECT_TRUE(matches_cpu(*backend_, *op, pattern(op->input().buffer_bytes()), 1));
  EXPECT_GE(count_dispatches("max_pooling2"), 2);
}

// 132 MiB of float32 input, read every 64th element: the input is bound in
// windows of at most 128 MiB.
TEST_F(VulkanLimits, InputBeyond128MiBIsBoundInWindows) {
  limit_bindings_to_128_mib();
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, U64s{33, 1048576}, std::nullopt};
  r.params = SliceRequest{{0, 5}, {33, 16384}, {1, 64}};
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  ASSERT_GT(op->input().buffer_bytes(), uint64_t{128} << 20);
  EXPECT_TRUE(matches_cpu(*backend_, *op, pattern(op->input().buffer_bytes()), 2));
  EXPECT_GE(count_dispatches("gather"), 2);
}

// A one-byte output spread over 136 MiB (every 64th byte): written in
// windows, with the bytes between elements kept.
TEST_F(VulkanLimits, GappedOutputBeyond128MiBKeepsItsGaps) {
  limit_bindings_to_128_mib();
  OpRequest r;
  r.input = TensorRequest{DataType::UInt8, U64s{2176, 1024}, std::nullopt};
  r.output.strides = U64s{65536, 64};
  r.params = IdentityRequest{};
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  ASSERT_GT(op->output().buffer_bytes(), uint64_t{128} << 20);
  EXPECT_TRUE(matches_cpu(*backend_, *op, pattern(op->input().buffer_bytes()), 3));
  EXPECT_GE(count_dispatches("gather"), 2);
}

// Pooling over a 131 MiB uint32 input.
TEST_F(VulkanLimits, PoolingInputBeyond128MiBIsBoundInWindows) {
  limit_bindings_to_128_mib();
  OpRequest r;
  r.input = TensorRequest{DataType::UInt32, U64s{1, 1, 4100, 8192}, std::nullopt};
  r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  MaxPooling2Request p;
  p.window_size = {2, 2};
  p.strides = U64s{8, 8};
  r.params = p;
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  ASSERT_GT(op->input().buffer_bytes(), uint64_t{128} << 20);
  EXPECT_TRUE(matches_cpu(*backend_, *op, pattern(op->input().buffer_bytes()), 4));
  EXPECT_GE(count_dispatches("max_pooling2"), 2);
}

// Index tables beyond maxUniformBufferRange (64 KiB on lavapipe) are read
// from a storage buffer instead: 3 taps x 19,998 outputs, and a reflection
// folding a 2-element dimension 10,000 times (about 20,000 segments).
// True when the op's tables exceed a 64 KiB uniform block (the most the
// shaders declare), so the run must read them from a storage buffer.
bool tables_go_to_storage(const Operation& op) {
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{128} << 20;
  limits.storage_offset_alignment = 16;
  auto plan = gpu::plan_run(op, limits);
  if (!plan || !plan->compute) return false;
  VkPhysicalDeviceLimits device{};
  device.maxUniformBufferRange = 65536;
  device.minUniformBufferOffsetAlignment = 16;
  device.minStorageBufferOffsetAlignment = 16;
  return gpu::layout_meta(*plan->compute, device).tables_in_storage;
}

TEST_F(VulkanLimits, PoolingTablesBeyondTheUniformLimitAreReadFromStorage) {
  OpRequest r;
  r.input = TensorRequest{DataType::Float16, U64s{1, 2, 1, 20000}, std::nullopt};
  r.output_indices = TensorRequest{DataType::UInt64, std::nullopt, std::nullopt};
  MaxPooling2Request p;
  p.window_size = {1, 3};
  r.params = p;
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  EXPECT_TRUE(tables_go_to_storage(*op));
  Rng rng(6);
  EXPECT_TRUE(matches_cpu(*backend_, *op, random_input(op->input(), rng), 6));
}

TEST_F(VulkanLimits, PaddingTablesBeyondTheUniformLimitAreReadFromStorage) {
  OpRequest r;
  r.input = TensorRequest{DataType::Int16, U64s{3, 2}, std::nullopt};
  PaddingRequest p;
  p.padding_mode = PaddingMode::Reflection;
  p.start_padding = {1, 20001};
  p.end_padding = {2, 19999};
  r.params = p;
  auto op = Operation::make(r);
  ASSERT_TRUE(op) << op.error().to_string();
  EXPECT_TRUE(tables_go_to_storage(*op));
  Rng rng(7);
  EXPECT_TRUE(matches_cpu(*backend_, *op, random_input(op->input(), rng), 7));
}

class VulkanStaging : public VulkanTest {};

TEST_F(VulkanStaging, ForcedStagingGivesTheSameBits) {
  VulkanOptions options;
  options.force_staging = true;
  options.enable_validation = vulkan_validation_wanted();
  auto staged = VulkanBackend::create(options);
  ASSERT_TRUE(staged) << staged.error().to_string();
  ASSERT_TRUE((*staged)->uses_staging());
  EXPECT_GE(random_specs_match(**staged, 17, 24, nullptr), 100);
  (*staged)->set_testing_limits({uint64_t{512}, uint32_t{3}});
  EXPECT_GE(random_specs_match(**staged, 18, 8, nullptr), 30);
  const std::vector<std::string> messages = (*staged)->validation_messages();
  EXPECT_TRUE(messages.empty()) << messages.front();
}

class VulkanErrors : public VulkanTest {};

// A 1 TiB output buffer is more than any device's heap: a clear error before
// anything is copied. The caller's buffer is reserved address space only.
TEST_F(VulkanErrors, OutputTooBigForTheDeviceIsAnErrorNotACrash) {
  Limits limits;
  limits.max_bytes = uint64_t{1} << 41;
  OpRequest r;
  r.input = TensorRequest{DataType::UInt8, U64s{256, 2}, std::nullopt};
  r.output.strides = U64s{4294967295u, 1};
  r.params = IdentityRequest{};
  auto op = Operation::make(r, limits);
  ASSERT_TRUE(op) << op.error().to_string();
  const std::size_t bytes = op->output().buffer_bytes();
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  auto plain = VulkanBackend::create(VulkanOptions{});  // no validation: the point is the driver's answer
  ASSERT_TRUE(plain) << plain.error().to_string();
  std::vector<std::byte> input(512);
  auto stats = (*plain)->run(*op, input, std::span(static_cast<std::byte*>(memory), bytes), {});
  ::munmap(memory, bytes);
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().code, ErrorCode::BackendFailure);
  EXPECT_NE(stats.error().message.find("memory"), std::string::npos) << stats.error().message;
}

}  // namespace
}  // namespace stridescope::test
