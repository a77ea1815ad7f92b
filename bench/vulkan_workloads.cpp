// Vulkan workloads: each op on the Vulkan backend beside vkCmdCopyBuffer of
// the same bytes (the op's output buffer) on the same device, measured in the
// same run, alternating op and copy within each iteration. Times are device
// times from timestamp queries (manual time); the counter x_copybuffer is
// op time / copy time. Target on lavapipe: slice and padding <= 2. The
// counter transfer_ms is the op's transfer pass (copies and fills); the rest
// of op_ms is the compute pass.
//
// STRIDESCOPE_BENCH_PASSES=1 prints each workload's passes (which copies
// went through images, how many rows, fills, dispatches) with their times.
// To compare plans on a new device in one run: STRIDESCOPE_BENCH_GATHER=cpu
// or gpu plans the transfer pass as for CPU devices or GPUs (DeviceLimits::
// gather), STRIDESCOPE_BENCH_POOLING_CHUNK=n gives max_pooling2 n outputs an
// invocation, STRIDESCOPE_BENCH_STORE_PAIRS=0 or 1 stores quads whole or as
// 64-bit pairs (DeviceLimits::store_pairs; pairs need shaderInt64).
//
// Names: VK_<op>_<type>_<shape>[_<variant>].
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gpu/vulkan_backend.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;

// A value these variables do not take stops the run: a typo would otherwise
// time the default plan under another plan's name.
[[noreturn]] void bad_environment(const char* name, const char* value, const char* expected) {
  std::fprintf(stderr, "error: %s=%s: expected %s\n", name, value, expected);
  std::exit(2);
}

VulkanBackend::TestingLimits limits_from_environment() {
  VulkanBackend::TestingLimits limits;
  if (const char* gather = std::getenv("STRIDESCOPE_BENCH_GATHER")) {
    if (std::strcmp(gather, "cpu") == 0) limits.gather_tuning = gpu::GatherTuning{};
    else if (std::strcmp(gather, "gpu") == 0) limits.gather_tuning = gpu::kGpuGatherTuning;
    else bad_environment("STRIDESCOPE_BENCH_GATHER", gather, "cpu or gpu");
  }
  if (const char* chunk = std::getenv("STRIDESCOPE_BENCH_POOLING_CHUNK")) {
    char* end = nullptr;
    const unsigned long long outputs = std::strtoull(chunk, &end, 10);
    if (*chunk == '\0' || *end != '\0' || outputs == 0 || outputs > 4096) {
      bad_environment("STRIDESCOPE_BENCH_POOLING_CHUNK", chunk, "a whole number of outputs from 1 to 4096");
    }
    limits.pooling_chunk = outputs;
  }
  if (const char* pairs = std::getenv("STRIDESCOPE_BENCH_STORE_PAIRS")) {
    if (std::strcmp(pairs, "0") == 0) limits.store_pairs = false;
    else if (std::strcmp(pairs, "1") == 0) limits.store_pairs = true;
    else bad_environment("STRIDESCOPE_BENCH_STORE_PAIRS", pairs, "0 or 1");
  }
  return limits;
}

// One backend for all workloads (no validation: it would be timed too).
VulkanBackend* backend(std::string* why) {
  static std::string error;
  static std::unique_ptr<VulkanBackend> made = [] {
    auto b = VulkanBackend::create(VulkanOptions{});
    if (!b) {
      error = b.error().to_string();
      return std::unique_ptr<VulkanBackend>();
    }
    (*b)->set_testing_limits(limits_from_environment());
    return std::move(*b);
  }();
  *why = error;
  return made.get();
}

std::vector<std::byte> pattern(uint64_t bytes) {
  std::vector<std::byte> data(bytes);
  for (uint64_t i = 0; i < bytes / 4; ++i) {
    const uint32_t v = static_cast<uint32_t>(i * 2654435761u) & 0x3F7FFFFFu;  // finite floats
    std::memcpy(data.data() + 4 * i, &v, 4);
  }
  return data;
}

void run_workload(benchmark::State& state, const OpRequest& request) {
  std::string why;
  VulkanBackend* gpu = backend(&why);
  if (gpu == nullptr) {
    state.SkipWithError(("no Vulkan backend: " + why).c_str());
    return;
  }
  auto op = Operation::make(request);
  if (!op) {
    state.SkipWithError(op.error().to_string().c_str());
    return;
  }
  const std::vector<std::byte> input = pattern(op->input().buffer_bytes());
  std::vector<std::byte> output(op->output().buffer_bytes());
  std::vector<std::byte> indices(op->output_indices() ? op->output_indices()->buffer_bytes() : 0);
  const uint64_t copy_bytes = op->output().buffer_bytes();
  // Warm-up: pipelines compile on first use, buffers are allocated.
  if (auto warm = gpu->run(*op, input, output, indices); !warm) {
    state.SkipWithError(warm.error().to_string().c_str());
    return;
  }
  if (std::getenv("STRIDESCOPE_BENCH_PASSES") != nullptr) {
    for (const DispatchTiming& t : gpu->last_timings()) std::fprintf(stderr, "  %s: %.3f ms\n", t.label.c_str(), t.milliseconds);
  }
  if (auto warm = gpu->time_copy_buffer(copy_bytes); !warm) {
    state.SkipWithError(warm.error().to_string().c_str());
    return;
  }
  double op_ms = 0;
  double copy_ms = 0;
  double transfer_ms = 0;  // the op's transfer pass (copies, fills), the rest is compute
  for (auto _ : state) {
    auto stats = gpu->run(*op, input, output, indices);
    for (const DispatchTiming& t : gpu->last_timings()) {
      if (t.label.rfind("transfer", 0) == 0) transfer_ms += t.milliseconds;
    }
    auto copy = gpu->time_copy_buffer(copy_bytes);
    if (!stats || !stats->gpu_milliseconds || !copy) {
      state.SkipWithError("run failed or reported no device time");
      return;
    }
    op_ms += *stats->gpu_milliseconds;
    copy_ms += *copy;
    state.SetIterationTime(*stats->gpu_milliseconds / 1e3);
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["x_copybuffer"] = op_ms / copy_ms;
  state.counters["op_ms"] = op_ms / n;
  state.counters["copy_ms"] = copy_ms / n;
  state.counters["transfer_ms"] = transfer_ms / n;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(copy_bytes));
  state.SetLabel(gpu->device_name());
}

OpRequest request(DataType type, U64s sizes, ParamsRequest params, std::optional<U64s> in_strides = std::nullopt) {
  OpRequest r;
  r.input = TensorRequest{type, std::move(sizes), std::move(in_strides)};
  r.params = std::move(params);
  return r;
}

PaddingRequest padding(PaddingMode mode, uint64_t pad) {
  PaddingRequest p;
  p.padding_mode = mode;
  p.padding_value = 1.5;
  p.start_padding = {0, 0, pad, pad};
  p.end_padding = {0, 0, pad, pad};
  return p;
}

// A 64-channel 512x512 float32 image: 64 MiB.
const U64s kImage = {1, 64, 512, 512};
const U64s kInner = {1, 64, 480, 480};

void VK_identity_f32_1x64x512x512_packed(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kImage, IdentityRequest{}));
}
void VK_identity_f32_1x64x512x512_nhwc_to_nchw(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kImage, IdentityRequest{}, U64s{512 * 512 * 64, 1, 512 * 64, 64}));
}
void VK_slice_f32_1x64x512x512_interior(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kImage, SliceRequest{{0, 0, 16, 16}, {1, 64, 480, 480}, {1, 1, 1, 1}}));
}
void VK_slice_u8_1x64x512x512_interior(benchmark::State& state) {
  run_workload(state, request(DataType::UInt8, kImage, SliceRequest{{0, 0, 16, 16}, {1, 64, 480, 480}, {1, 1, 1, 1}}));
}
void VK_slice_f32_1x64x512x512_stride2(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kImage, SliceRequest{{0, 0, 0, 0}, {1, 64, 256, 256}, {1, 1, 2, 2}}));
}
void VK_slice_f16_1x64x512x512_stride2(benchmark::State& state) {
  run_workload(state, request(DataType::Float16, kImage, SliceRequest{{0, 0, 0, 0}, {1, 64, 256, 256}, {1, 1, 2, 2}}));
}
void VK_slice1_f32_1x64x512x512_reversed(benchmark::State& state) {
  OpRequest r = request(DataType::Float32, kImage, Slice1Request{{0, 0, 0, 0}, {1, 64, 512, 512}, {1, 1, -1, -1}});
  run_workload(state, r);
}
void VK_padding_f32_1x64x480x480_constant(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kInner, padding(PaddingMode::Constant, 16)));
}
void VK_padding_f32_1x64x480x480_edge(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kInner, padding(PaddingMode::Edge, 16)));
}
void VK_padding_f32_1x64x480x480_reflection(benchmark::State& state) {
  run_workload(state, request(DataType::Float32, kInner, padding(PaddingMode::Reflection, 16)));
}
void VK_padding_f16_1x64x480x480_symmetric(benchmark::State& state) {
  run_workload(state, request(DataType::Float16, kInner, padding(PaddingMode::Symmetric, 16)));
}
void VK_padding_u8_1x64x480x480_constant(benchmark::State& state) {
  run_workload(state, request(DataType::UInt8, kInner, padding(PaddingMode::Constant, 16)));
}
void VK_max_pooling2_f32_1x64x256x256_3x3s2(benchmark::State& state) {
  MaxPooling2Request p;
  p.window_size = {3, 3};
  p.strides = U64s{2, 2};
  p.start_padding = U64s{1, 1};
  p.end_padding = U64s{1, 1};
  OpRequest r = request(DataType::Float32, {1, 64, 256, 256}, p);
  r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  run_workload(state, r);
}

// max_pooling2's traffic above without its compares: every input element read
// once (16 MiB), 8 MiB written (its values and indices), through the
// gather shader's step-2 path. What pooling could approach on this device.
void VK_slice_f32_1x64x256x256_pooling_traffic(benchmark::State& state) {
  run_workload(state,
               request(DataType::Float32, {1, 64, 256, 256}, SliceRequest{{0, 0, 0, 0}, {1, 64, 256, 128}, {1, 1, 1, 2}}));
}

// A fixed number of iterations: Google Benchmark would run until 0.5 s of
// manual (device) time, but each iteration also moves the 64 MiB input and
// output through the host. On lavapipe that is about 30 iterations; on a real
// GPU, whose op takes tens of microseconds, it was over 10,000, minutes of
// host copies for each workload.
constexpr benchmark::IterationCount kIterations = 30;
#define STRIDESCOPE_VK_BENCH(name) \
  BENCHMARK(name)->UseManualTime()->Iterations(kIterations)->Unit(benchmark::kMillisecond)
STRIDESCOPE_VK_BENCH(VK_identity_f32_1x64x512x512_packed);
STRIDESCOPE_VK_BENCH(VK_identity_f32_1x64x512x512_nhwc_to_nchw);
STRIDESCOPE_VK_BENCH(VK_slice_f32_1x64x512x512_interior);
STRIDESCOPE_VK_BENCH(VK_slice_u8_1x64x512x512_interior);
STRIDESCOPE_VK_BENCH(VK_slice_f32_1x64x512x512_stride2);
STRIDESCOPE_VK_BENCH(VK_slice_f16_1x64x512x512_stride2);
STRIDESCOPE_VK_BENCH(VK_slice1_f32_1x64x512x512_reversed);
STRIDESCOPE_VK_BENCH(VK_padding_f32_1x64x480x480_constant);
STRIDESCOPE_VK_BENCH(VK_padding_f32_1x64x480x480_edge);
STRIDESCOPE_VK_BENCH(VK_padding_f32_1x64x480x480_reflection);
STRIDESCOPE_VK_BENCH(VK_padding_f16_1x64x480x480_symmetric);
STRIDESCOPE_VK_BENCH(VK_padding_u8_1x64x480x480_constant);
STRIDESCOPE_VK_BENCH(VK_max_pooling2_f32_1x64x256x256_3x3s2);
STRIDESCOPE_VK_BENCH(VK_slice_f32_1x64x256x256_pooling_traffic);

}  // namespace
}  // namespace stridescope
