// The fast CPU backend on the README's workloads (W1-W5), each judged against memcpy of
// the same bytes measured in the same iterations.
//
// "The same bytes": an op that reads R bytes and writes W bytes is compared
// with memcpy of (R + W) / 2 bytes, which also reads and writes R + W bytes
// in all. R counts the input elements the op reads (each once: a broadcast
// input's distinct elements, a slice's selected elements); W counts the
// output and indices elements it writes (CpuFastPlan::traffic_bytes()).
//
// Every iteration times one memcpy and one run of the prepared plan, back to
// back, into buffers allocated and touched beforehand (first touch of a fresh
// 35 MB output costs more than the copy). The reported time is the op's
// (manual time); the counters give the medians:
//   op_ms      median time of the op
//   memcpy_ms  median time of memcpy of the same bytes (one thread, glibc)
//   x_memcpy   op_ms / memcpy_ms, the number the targets below are about
//   x_best     fastest op / fastest memcpy: the ratio when no other process
//              took the cores (on a shared machine the medians include time
//              slices lost to other work, the minimums much less)
// Interleaving keeps the ratios honest on a machine whose load changes.
//
// Targets (the README's table): W1 <= 1.3, W2 <= 1.5, W3 <= 1.5, W4 <= 1.5, W5 <= 1.5, FLOAT16 /
// INT8 / INT64 variants <= 2; small tensors: no thread start-up, no
// allocation per call.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/fill.h"
#include "core/operation.h"

namespace stridescope {
namespace {

using Clock = std::chrono::steady_clock;
using Sizes64 = std::vector<uint64_t>;

// STRIDESCOPE_SIMD=baseline|avx2|avx512 measures an older instruction set's
// kernels on a newer CPU (the CPU must run it; otherwise the best level).
CpuFastOptions bench_options() {
  CpuFastOptions options;
  const char* simd = std::getenv("STRIDESCOPE_SIMD");
  const std::string level = simd != nullptr ? simd : "";
  if (level == "baseline") options.simd = fast::SimdLevel::Baseline;
  if (level == "avx2") options.simd = fast::SimdLevel::Avx2;
  if (level == "avx512") options.simd = fast::SimdLevel::Avx512;
  // STRIDESCOPE_THREADS=n shares large work among n threads (the calling one
  // included); 1 measures a kernel's own time, without the thread split.
  if (const char* threads = std::getenv("STRIDESCOPE_THREADS")) {
    options.threads = static_cast<unsigned>(std::strtoul(threads, nullptr, 10));
  }
  return options;
}

CpuFastBackend& fast_backend() {
  static CpuFastBackend backend(bench_options());  // made once: its thread pool lives for the process
  return backend;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A buffer whose pages are touched before timing starts.
std::vector<std::byte> touched(uint64_t bytes, std::byte value = std::byte{0}) {
  return std::vector<std::byte>(bytes, value);
}

Operation make_op(const OpRequest& request) {
  auto op = Operation::make(request);
  if (!op) {
    std::fprintf(stderr, "bench: invalid workload: %s\n", op.error().to_string().c_str());
    std::abort();
  }
  return std::move(*op);
}

// One workload on the fast CPU backend: the op against memcpy of the same
// bytes, interleaved.
void run_fast_workload(benchmark::State& state, const OpRequest& request) {
  const Operation op = make_op(request);
  CpuFastBackend& backend = fast_backend();
  CpuFastPlan plan = backend.prepare(op);

  std::vector<std::byte> input = touched(op.input().buffer_bytes());
  fill_buffer(FillRandom{42, -100, 100}, op.input().data_type(), op.input().buffer_elements(), input);
  std::vector<std::byte> output = touched(op.output().buffer_bytes());
  std::vector<std::byte> indices;
  if (op.output_indices()) indices = touched(op.output_indices()->buffer_bytes());

  const uint64_t copy_bytes = plan.traffic_bytes() / 2;
  std::vector<std::byte> copy_from = touched(copy_bytes, std::byte{1});
  std::vector<std::byte> copy_to = touched(copy_bytes);

  for (int warm = 0; warm < 2; ++warm) {  // caches, page tables, thread wake-ups
    std::memcpy(copy_to.data(), copy_from.data(), copy_bytes);
    if (!backend.run(plan, input, output, indices).ok()) state.SkipWithError("run failed");
  }

  std::vector<double> op_times, copy_times;
  for (auto _ : state) {
    const auto copy_start = Clock::now();
    std::memcpy(copy_to.data(), copy_from.data(), copy_bytes);
    benchmark::ClobberMemory();
    copy_times.push_back(seconds_since(copy_start));

    const auto op_start = Clock::now();
    const Status status = backend.run(plan, input, output, indices);
    benchmark::ClobberMemory();
    const double op_time = seconds_since(op_start);
    if (!status.ok()) state.SkipWithError(status.error().to_string().c_str());
    op_times.push_back(op_time);
    state.SetIterationTime(op_time);
  }
  benchmark::DoNotOptimize(output.data());
  benchmark::DoNotOptimize(copy_to.data());

  const double op_median = median(op_times);
  const double copy_median = median(copy_times);
  const double op_best = op_times.empty() ? 0 : *std::min_element(op_times.begin(), op_times.end());
  const double copy_best = copy_times.empty() ? 0 : *std::min_element(copy_times.begin(), copy_times.end());
  state.counters["op_ms"] = op_median * 1e3;
  state.counters["memcpy_ms"] = copy_median * 1e3;
  state.counters["x_memcpy"] = copy_median > 0 ? op_median / copy_median : 0;
  state.counters["x_best"] = copy_best > 0 ? op_best / copy_best : 0;
  state.counters["MB"] = static_cast<double>(plan.traffic_bytes()) / 1e6;
  state.SetLabel(plan.summary());
}

// The reference backend on the same small case, for contrast (it plans and
// allocates its tables on every call).
void run_reference(benchmark::State& state, const OpRequest& request) {
  const Operation op = make_op(request);
  CpuReferenceBackend backend;
  std::vector<std::byte> input = touched(op.input().buffer_bytes());
  fill_buffer(FillRandom{42, -100, 100}, op.input().data_type(), op.input().buffer_elements(), input);
  std::vector<std::byte> output = touched(op.output().buffer_bytes());
  std::vector<std::byte> indices;
  if (op.output_indices()) indices = touched(op.output_indices()->buffer_bytes());
  for (auto _ : state) {
    auto result = backend.run(op, input, output, indices);
    benchmark::DoNotOptimize(result);
  }
}

// Backend::run(op, ...) as the app calls it: the backend keeps the last plan.
void run_fast_unprepared(benchmark::State& state, const OpRequest& request) {
  const Operation op = make_op(request);
  CpuFastBackend& backend = fast_backend();
  std::vector<std::byte> input = touched(op.input().buffer_bytes());
  fill_buffer(FillRandom{42, -100, 100}, op.input().data_type(), op.input().buffer_elements(), input);
  std::vector<std::byte> output = touched(op.output().buffer_bytes());
  for (auto _ : state) {
    auto result = backend.run(op, input, output, {});
    benchmark::DoNotOptimize(result);
  }
}

// --- The workloads -----------------------------------------------------------

OpRequest padding(DataType type, PaddingMode mode, Sizes64 sizes, std::optional<Sizes64> strides = std::nullopt) {
  OpRequest r;
  r.input.data_type = type;
  r.input.sizes = std::move(sizes);
  r.input.strides = std::move(strides);
  r.params = PaddingRequest{mode, int64_t{0}, {0, 0, 3, 5}, {0, 0, 7, 2}};
  return r;
}

OpRequest pooling(DataType type, Sizes64 sizes, uint64_t window, uint64_t stride, uint64_t pad, uint64_t dilation) {
  OpRequest r;
  r.input.data_type = type;
  r.input.sizes = std::move(sizes);
  r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  MaxPooling2Request p;
  p.window_size = {window, window};
  p.strides = Sizes64{stride, stride};
  p.start_padding = Sizes64{pad, pad};
  p.end_padding = Sizes64{pad, pad};
  p.dilations = Sizes64{dilation, dilation};
  r.params = p;
  return r;
}

OpRequest slice1_w3(DataType type) {
  OpRequest r;
  r.input.data_type = type;
  r.input.sizes = Sizes64{1, 1, 4096, 4096};
  r.params = Slice1Request{{0, 0, 0, 0}, {1, 1, 4096, 4096}, {1, 1, -2, 2}};
  return r;
}

// W5: an identity that changes the layout: `logical` sizes read through
// `input_strides` (a permuted view of a packed buffer), written packed.
OpRequest layout_change(DataType type, Sizes64 logical, Sizes64 input_strides) {
  OpRequest r;
  r.input.data_type = type;
  r.input.sizes = std::move(logical);
  r.input.strides = std::move(input_strides);
  r.params = IdentityRequest{};
  return r;
}

const char* suffix(DataType type) {
  switch (type) {
    case DataType::Float16: return "f16";
    case DataType::Float32: return "f32";
    case DataType::Int8: return "i8";
    case DataType::Int64: return "i64";
    default: return "other";
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void add(const std::string& name, OpRequest request) {
  benchmark::RegisterBenchmark(name.c_str(), [request](benchmark::State& state) { run_fast_workload(state, request); })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->MinTime(0.4);
}

int register_all() {
  const Sizes64 w1{1, 32, 512, 512};
  for (PaddingMode mode : {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection, PaddingMode::Symmetric}) {
    add("W1_padding_" + lower(to_string(mode)) + "_f32", padding(DataType::Float32, mode, w1));
  }
  add("W2_max_pooling_3x3_s2_p1_f32", pooling(DataType::Float32, {1, 64, 224, 224}, 3, 2, 1, 1));
  add("W2_max_pooling_2x2_s2_f32", pooling(DataType::Float32, {1, 64, 112, 112}, 2, 2, 0, 1));
  add("W2_max_pooling_3x3_s2_p2_d2_f32", pooling(DataType::Float32, {1, 64, 224, 224}, 3, 2, 2, 2));
  add("W3_slice1_rows_-2_cols_2_f32", slice1_w3(DataType::Float32));
  // W4: a broadcast input, the channel dimension read with stride 0.
  add("W4_padding_reflection_broadcast_f32",
      padding(DataType::Float32, PaddingMode::Reflection, w1, Sizes64{0, 0, 512, 1}));
  // W5: layout changes (a transposed copy). NCHW sizes {1,64,512,512}; an
  // NHWC buffer has strides {C*H*W, 1, W*C, C}, an NCHW one is packed.
  add("W5_layout_nhwc_to_nchw_f32",
      layout_change(DataType::Float32, {1, 64, 512, 512}, Sizes64{64 * 512 * 512, 1, 512 * 64, 64}));
  // NCHW -> NHWC: the logical NHWC sizes {1,512,512,64} read from an NCHW buffer.
  add("W5_layout_nchw_to_nhwc_f32",
      layout_change(DataType::Float32, {1, 512, 512, 64}, Sizes64{64 * 512 * 512, 512, 1, 512 * 512}));
  // An RGB image stored channels-last {1,1080,1920,3}, made planar {1,3,1080,1920}.
  add("W5_layout_rgb_nhwc_to_planar_u8",
      layout_change(DataType::UInt8, {1, 3, 1080, 1920}, Sizes64{3 * 1080 * 1920, 1, 1920 * 3, 3}));
  add("W5_layout_transpose_4096_f32", layout_change(DataType::Float32, {4096, 4096}, Sizes64{1, 4096}));
  for (DataType type : {DataType::Float16, DataType::Int8, DataType::Int64}) {
    add(std::string("W1_padding_reflection_") + suffix(type), padding(type, PaddingMode::Reflection, w1));
    add(std::string("W1_padding_constant_") + suffix(type), padding(type, PaddingMode::Constant, w1));
    add(std::string("W2_max_pooling_3x3_s2_p1_") + suffix(type), pooling(type, {1, 64, 224, 224}, 3, 2, 1, 1));
    add(std::string("W3_slice1_rows_-2_cols_2_") + suffix(type), slice1_w3(type));
  }

  // Small tensors: time per call on the calling thread.
  const OpRequest small_pad = padding(DataType::Float32, PaddingMode::Reflection, {1, 1, 8, 8});
  const OpRequest small_pool = pooling(DataType::Float32, {1, 1, 8, 8}, 3, 2, 1, 1);
  add("S_padding_reflection_1x1x8x8_f32", small_pad);
  add("S_max_pooling_3x3_s2_p1_1x1x8x8_f32", small_pool);
  benchmark::RegisterBenchmark("S_padding_reflection_1x1x8x8_f32_backend_run",
                               [small_pad](benchmark::State& state) { run_fast_unprepared(state, small_pad); })
      ->MinTime(0.2);
  benchmark::RegisterBenchmark("S_padding_reflection_1x1x8x8_f32_reference",
                               [small_pad](benchmark::State& state) { run_reference(state, small_pad); })
      ->MinTime(0.2);
  benchmark::RegisterBenchmark("S_max_pooling_3x3_s2_p1_1x1x8x8_f32_reference",
                               [small_pool](benchmark::State& state) { run_reference(state, small_pool); })
      ->MinTime(0.2);

  benchmark::AddCustomContext("cpu_fast_backend", fast_backend().device_name());
  return 0;
}

const int registered = register_all();

}  // namespace
}  // namespace stridescope
