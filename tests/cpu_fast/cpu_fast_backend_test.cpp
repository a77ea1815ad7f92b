// core/fast/cpu_fast_backend.h: "the same results as CpuReferenceBackend,
// bit for bit" — values, indices, and the bytes of a gapped output's gaps,
// which neither backend may touch.
//
// Most checks are differential: random operations (random_ops.h) run on the
// reference backend and on the fast backend in several configurations (every
// instruction set this CPU runs, one thread, forced threading on small work,
// forced non-temporal stores). A few cases are computed by hand from the
// DirectML pages and max_pooling.h's rules.
#include "core/fast/cpu_fast_backend.h"

#include <gtest/gtest.h>

#include <bit>
#include <iostream>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "core/cpu_backend.h"
#include "core/operation.h"
#include "fast_variants.h"
#include "random_ops.h"

namespace stridescope {
namespace {

using testing::Rng;

constexpr std::byte kOutputFill{0xA5};
constexpr std::byte kIndicesFill{0x5A};

using Variant = testing::FastVariant;
using testing::make_op;

CpuFastOptions with_threads(unsigned threads) {
  CpuFastOptions options;
  options.threads = threads;
  return options;
}

struct Buffers {
  std::vector<std::byte> output;
  std::vector<std::byte> indices;
};

Buffers run_on(Backend& backend, const Operation& op, std::span<const std::byte> input) {
  Buffers b;
  b.output.assign(op.output().buffer_bytes(), kOutputFill);
  if (op.output_indices()) b.indices.assign(op.output_indices()->buffer_bytes(), kIndicesFill);
  auto result = backend.run(op, input, b.output, b.indices);
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().to_string());
  return b;
}

// Where two buffers first differ, in elements of `element_size`.
std::string first_difference(const std::vector<std::byte>& a, const std::vector<std::byte>& b,
                             std::size_t element_size) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return "first at buffer element " + std::to_string(i / element_size);
  }
  return "sizes differ";
}

// Runs `op` on the reference and every variant; true when all agree.
bool expect_all_match(const Operation& op, std::span<const std::byte> input, std::vector<Variant>& variants,
                      const std::string& what) {
  CpuReferenceBackend reference;
  const Buffers expected = run_on(reference, op, input);
  bool ok = true;
  for (Variant& v : variants) {
    const Buffers got = run_on(*v.backend, op, input);
    if (got.output != expected.output) {
      ADD_FAILURE() << v.name << ": output differs (" << first_difference(got.output, expected.output,
                                                                         op.output().element_size())
                    << ") for " << what;
      ok = false;
    }
    if (got.indices != expected.indices) {
      ADD_FAILURE() << v.name << ": indices differ ("
                    << first_difference(got.indices, expected.indices, op.output_indices()->element_size())
                    << ") for " << what;
      ok = false;
    }
  }
  return ok;
}

struct Tally {
  int drawn = 0;
  int valid = 0;
  int failures = 0;
  int too_big = 0;        // valid but skipped for time
  int vectorized = 0;     // pooling draws that took a vector path
  int narrow = 0;         //   of which with 8/16-bit keys
  int direct = 0;         //   of which loading straight from the input
  uint64_t elements = 0;  // output elements compared
  std::array<int, 5> valid_per_kind{};

  ~Tally() {
    std::cout << "  " << valid << " valid of " << drawn << " drawn (" << too_big << " too big to compare), "
              << vectorized << " pooled with vectors (" << narrow << " narrow, " << direct << " from the input), "
              << elements
              << " output elements\n";
  }
};

void run_random(uint64_t seed, int draws, const testing::DrawOptions& options, Tally& tally) {
  Rng rng(seed);
  std::vector<Variant> variants = testing::fast_variants();
  for (int i = 0; i < draws && tally.failures < 5; ++i) {
    const OpRequest request = random_request(rng, options);
    ++tally.drawn;
    auto op = Operation::make(request);
    if (!op) continue;
    if (op->output().element_count() > (options.big ? testing::kMaxBigOutput : testing::kMaxSmallOutput)) {
      ++tally.too_big;
      continue;
    }
    ++tally.valid;
    ++tally.valid_per_kind[static_cast<std::size_t>(op->kind())];
    tally.elements += op->output().element_count();
    if (op->kind() == OpKind::MaxPooling2) {
      const std::string summary = variants.front().backend->prepare(*op).summary();
      if (summary.find("vectors") != std::string::npos) ++tally.vectorized;
      if (summary.find("narrow") != std::string::npos) ++tally.narrow;
      if (summary.find("from the input") != std::string::npos) ++tally.direct;
    }
    std::vector<std::byte> input(op->input().buffer_bytes());
    testing::fill_random(rng, op->input(), input);
    if (!expect_all_match(*op, input, variants, "draw " + std::to_string(i) + ": " + testing::describe(request))) {
      ++tally.failures;
    }
  }
}

TEST(CpuFastBackend, RandomSmallOperationsMatchReferenceBitForBit) {
  Tally tally;
  run_random(0x5eed0001, 3000, {}, tally);
  EXPECT_GE(tally.valid - tally.too_big, tally.drawn * 4 / 10) << "too few valid draws to mean much";
  for (int count : tally.valid_per_kind) EXPECT_GE(count, 60);
}

TEST(CpuFastBackend, RandomLargeGathersMatchReferenceBitForBit) {
  Tally tally;
  for (OpKind kind : {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding}) {
    run_random(0x5eed0100 + static_cast<uint64_t>(kind), 50, {.big = true, .kind = kind}, tally);
  }
  EXPECT_GE(tally.valid - tally.too_big, tally.drawn / 2);
}

TEST(CpuFastBackend, RandomLargePoolingMatchesReferenceBitForBit) {
  Tally tally;
  run_random(0x5eed0200, 500, {.big = true, .kind = OpKind::MaxPooling2}, tally);
  EXPECT_GE(tally.valid, tally.drawn * 3 / 10);
  EXPECT_GE(tally.vectorized, tally.valid / 3);
  EXPECT_GE(tally.narrow, tally.valid / 10);
  EXPECT_GE(tally.direct, tally.valid / 10);
  EXPECT_GE(tally.vectorized - tally.direct, tally.valid / 10) << "too few draws for the split rows";
}

// --- Cases computed by hand -------------------------------------------------

// The values' bytes, rounded up to whole 4 bytes as DMLCalcBufferTensorSize does.
template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> b((values.size() * sizeof(T) + 3) / 4 * 4);
  std::memcpy(b.data(), values.data(), values.size() * sizeof(T));
  return b;
}

template <class T>
std::vector<T> values_of(const std::vector<std::byte>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(T));
  return v;
}

OpRequest pooling_row(DataType type, uint64_t width, uint64_t window, std::optional<DataType> indices) {
  OpRequest r;
  r.input.data_type = type;
  r.input.sizes = std::vector<uint64_t>{1, 1, 1, width};
  MaxPooling2Request p;
  p.window_size = {1, window};
  r.params = p;
  if (indices) r.output_indices = TensorRequest{indices, std::nullopt, std::nullopt};
  return r;
}

// Every configuration, including the vector path (rows of 64 outputs).
std::vector<Variant>& all_variants() {
  static std::vector<Variant> variants = testing::fast_variants();
  return variants;
}

TEST(CpuFastBackend, MaxPoolingFirstNaNWinsWithItsOwnBits) {
  // max_pooling.h: "a NaN beats every number; the first NaN met wins (its index)".
  // Row of 66 floats, window 3: outputs 0..63. Input[10] and [11] are NaNs
  // with different payloads; input[40] is +inf.
  std::vector<uint32_t> in(66, std::bit_cast<uint32_t>(1.0f));
  in[10] = 0x7fc00001;
  in[11] = 0xffc00002;
  in[40] = 0x7f800000;
  const Operation op = make_op(pooling_row(DataType::Float32, 66, 3, DataType::UInt32));
  for (Variant& v : all_variants()) {
    auto result = run_to_new_buffers(*v.backend, op, bytes_of(in));
    ASSERT_TRUE(result.has_value());
    const auto out = values_of<uint32_t>(result->output);
    const auto idx = values_of<uint32_t>(result->indices);
    EXPECT_EQ(out[8], 0x7fc00001u) << v.name;   // window 8..10
    EXPECT_EQ(idx[8], 10u) << v.name;
    EXPECT_EQ(out[9], 0x7fc00001u) << v.name;   // window 9..11: the first NaN
    EXPECT_EQ(idx[9], 10u) << v.name;
    EXPECT_EQ(out[11], 0xffc00002u) << v.name;  // window 11..13
    EXPECT_EQ(idx[11], 11u) << v.name;
    EXPECT_EQ(out[38], 0x7f800000u) << v.name;  // window 38..40: infinity
    EXPECT_EQ(idx[38], 40u) << v.name;
    EXPECT_EQ(out[0], std::bit_cast<uint32_t>(1.0f)) << v.name;  // all equal: the first
    EXPECT_EQ(idx[0], 0u) << v.name;
    EXPECT_EQ(idx[63], 63u) << v.name;
  }
}

// Packed rows with column step 1 or 2 load their keys straight from the
// input (PoolKernel::direct). Every type, with and without padding and
// dilation, odd and even widths (the last vector overlaps, the last tap reads
// the row's last element), inputs full of ties, NaNs and signed zeros, and
// both index widths: the reference backend's values and indices, bit for bit.
TEST(CpuFastBackend, MaxPoolingFromTheInputMatchesReferenceForEveryTypeAndWindow) {
  struct Window {
    uint64_t size, stride, pad, dilation;
  };
  const Window windows[] = {{3, 2, 1, 1}, {2, 2, 0, 1}, {3, 2, 2, 2}, {3, 1, 1, 1}, {4, 1, 0, 2}, {1, 2, 0, 1}};
  const std::optional<DataType> index_types[] = {std::nullopt, DataType::UInt32, DataType::UInt64};
  Rng rng(0x5eed0300);
  int direct = 0, vectorized = 0, draw = 0;
  for (DataType type : kAllDataTypes) {
    for (const Window& w : windows) {
      for (uint64_t width : {137u, 290u}) {
        OpRequest r;
        r.input.data_type = type;
        r.input.sizes = std::vector<uint64_t>{1, 2, 9, width};
        MaxPooling2Request p;
        p.window_size = {w.size, w.size};
        p.strides = std::vector<uint64_t>{w.stride, w.stride};
        p.start_padding = std::vector<uint64_t>{w.pad, w.pad};
        p.end_padding = std::vector<uint64_t>{w.pad, w.pad};
        p.dilations = std::vector<uint64_t>{w.dilation, w.dilation};
        r.params = p;
        const std::optional<DataType> indices = index_types[draw++ % 3];
        if (indices) r.output_indices = TensorRequest{indices, std::nullopt, std::nullopt};
        const Operation op = make_op(r);
        const std::string summary = all_variants().front().backend->prepare(op).summary();
        if (summary.find("vectors") != std::string::npos) ++vectorized;
        if (summary.find("from the input") != std::string::npos) ++direct;
        std::vector<std::byte> input(op.input().buffer_bytes());
        testing::fill_random(rng, op.input(), input);
        expect_all_match(op, input, all_variants(), testing::describe(r));
      }
    }
  }
  EXPECT_GT(vectorized, 0);
  EXPECT_EQ(direct, vectorized) << "every vector path here has packed rows and a step of 1 or 2";
}

TEST(CpuFastBackend, MaxPoolingOfAHugeBroadcastInputRunsInBoundedMemory) {
  // 4294967295 x 4294967295 logical elements over one float (all strides 0):
  // per-input-row tables would need 34 GB, so the plan hands the op to the
  // reference backend. Every element is 5, so the one output is 5 from the
  // first tap, flat index 0.
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, std::vector<uint64_t>{1, 1, 4294967295, 4294967295},
                          std::vector<uint64_t>{0, 0, 0, 0}};
  MaxPooling2Request p;
  p.window_size = {2, 2};
  p.strides = std::vector<uint64_t>{4294967295, 4294967295};
  r.params = p;
  r.output_indices = TensorRequest{DataType::UInt64, std::nullopt, std::nullopt};
  const Operation op = make_op(r);
  ASSERT_EQ(op.output().element_count(), 1u);
  for (Variant& v : all_variants()) {
    EXPECT_NE(v.backend->prepare(op).summary().find("reference"), std::string::npos) << v.name;
    auto result = run_to_new_buffers(*v.backend, op, bytes_of(std::vector<float>{5.0f}));
    ASSERT_TRUE(result.has_value()) << v.name;
    EXPECT_EQ(values_of<float>(result->output).at(0), 5.0f) << v.name;
    EXPECT_EQ(values_of<uint64_t>(result->indices).at(0), 0u) << v.name;
  }
}

TEST(CpuFastBackend, MaxPoolingSignedZeroTieKeepsTheFirst) {
  // -0 and +0 compare equal, so the first in window order wins, bits and all.
  std::vector<uint16_t> in(68, 0x8000);  // FLOAT16 -0
  for (std::size_t i = 1; i < in.size(); i += 2) in[i] = 0x0000;  // +0 at odd positions
  const Operation op = make_op(pooling_row(DataType::Float16, 68, 4, DataType::UInt64));
  for (Variant& v : all_variants()) {
    auto result = run_to_new_buffers(*v.backend, op, bytes_of(in));
    ASSERT_TRUE(result.has_value());
    const auto out = values_of<uint16_t>(result->output);
    const auto idx = values_of<uint64_t>(result->indices);
    ASSERT_GE(out.size(), 65u);  // the buffer rounds up to 4 bytes
    for (std::size_t x = 0; x < 65; ++x) {
      EXPECT_EQ(out[x], in[x]) << v.name << " output " << x;
      EXPECT_EQ(idx[x], x) << v.name << " output " << x;
    }
  }
}

TEST(CpuFastBackend, MaxPoolingUnsignedMaximumIsLargestBitPattern) {
  // UINT32 compares as unsigned: 0xFFFFFFFF beats 0x7FFFFFFF.
  std::vector<uint32_t> in(40, 0x7fffffff);
  in[21] = 0xffffffff;
  const Operation op = make_op(pooling_row(DataType::UInt32, 40, 5, DataType::UInt32));
  for (Variant& v : all_variants()) {
    auto result = run_to_new_buffers(*v.backend, op, bytes_of(in));
    ASSERT_TRUE(result.has_value());
    const auto out = values_of<uint32_t>(result->output);
    const auto idx = values_of<uint32_t>(result->indices);
    for (std::size_t x = 0; x < out.size(); ++x) {
      const bool covers = x <= 21 && 21 < x + 5;
      EXPECT_EQ(out[x], covers ? 0xffffffffu : 0x7fffffffu) << v.name << " output " << x;
      EXPECT_EQ(idx[x], covers ? 21u : x) << v.name << " output " << x;
    }
  }
}

TEST(CpuFastBackend, Slice1NegativeStrideMatchesTheSpecExample) {
  // resources/docs/spec-format.md: iota 1x1x4x4, offsets [0,0,0,1], sizes [1,1,4,3], strides
  // [1,1,-2,2] gives [14,16,6,8].
  OpRequest r;
  r.input.data_type = DataType::Float32;
  r.input.sizes = std::vector<uint64_t>{1, 1, 4, 4};
  r.output.sizes = std::vector<uint64_t>{1, 1, 2, 2};
  r.params = Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}};
  const Operation op = make_op(r);
  std::vector<float> in(16);
  for (int i = 0; i < 16; ++i) in[i] = static_cast<float>(i + 1);
  for (Variant& v : all_variants()) {
    auto result = run_to_new_buffers(*v.backend, op, bytes_of(in));
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(values_of<float>(result->output), (std::vector<float>{14, 16, 6, 8})) << v.name;
  }
}

TEST(CpuFastBackend, PaddingReflectionFoldsPaddingsLargerThanTheInput) {
  // padding.h: REFLECTION m = i mod (2n-2); m < n ? m : 2n-2-m. n = 3, start
  // 5, end 6: output index o reads fold(o - 5).
  OpRequest r;
  r.input.data_type = DataType::Int8;
  r.input.sizes = std::vector<uint64_t>{3};
  r.params = PaddingRequest{PaddingMode::Reflection, int64_t{0}, {5}, {6}};
  const Operation op = make_op(r);
  const std::vector<int8_t> in{10, 20, 30};
  const std::vector<int8_t> expected{20, 10, 20, 30, 20, 10, 20, 30, 20, 10, 20, 30, 20, 10};
  for (Variant& v : all_variants()) {
    auto result = run_to_new_buffers(*v.backend, op, bytes_of(in));
    ASSERT_TRUE(result.has_value());
    auto got = values_of<int8_t>(result->output);
    got.resize(expected.size());  // the buffer rounds up to 4 bytes
    EXPECT_EQ(got, expected) << v.name;
  }
}

TEST(CpuFastBackend, GappedOutputKeepsItsGapBytes) {
  // backend.h: "the bytes of a gapped output's gaps keep what the caller put there".
  OpRequest r;
  r.input.data_type = DataType::UInt16;
  r.input.sizes = std::vector<uint64_t>{3, 700};
  r.output.strides = std::vector<uint64_t>{1500, 2};  // every other element, and a gap after each row
  r.params = PaddingRequest{PaddingMode::Constant, int64_t{7}, {0, 50}, {0, 0}};
  const Operation op = make_op(r);
  std::vector<uint16_t> in(2100);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint16_t>(i);
  for (Variant& v : all_variants()) {
    std::vector<std::byte> out(op.output().buffer_bytes(), std::byte{0xEE});
    ASSERT_TRUE(v.backend->run(op, bytes_of(in), out, {}).has_value());
    const auto got = values_of<uint16_t>(out);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const uint64_t row = i / 1500, col = i % 1500;
      uint16_t want = 0xEEEE;
      if (col % 2 == 0 && col / 2 < 750) want = col / 2 < 50 ? 7 : static_cast<uint16_t>(row * 700 + col / 2 - 50);
      ASSERT_EQ(got[i], want) << v.name << " buffer element " << i;
    }
  }
}

// --- Plans and threads --------------------------------------------------------

OpRequest w1_like(uint64_t channels, uint64_t height, uint64_t width) {
  OpRequest r;
  r.input.data_type = DataType::Float32;
  r.input.sizes = std::vector<uint64_t>{1, channels, height, width};
  r.params = PaddingRequest{PaddingMode::Reflection, int64_t{0}, {0, 0, 3, 5}, {0, 0, 7, 2}};
  return r;
}

TEST(CpuFastBackend, SmallWorkStaysOnTheCallingThread) {
  CpuFastBackend backend(with_threads(2));
  EXPECT_FALSE(backend.prepare(make_op(w1_like(1, 8, 8))).parallel());
  EXPECT_TRUE(backend.prepare(make_op(w1_like(4, 256, 256))).parallel());
}

TEST(CpuFastBackend, PreparedPlanRunsAgainWithTheSameResult) {
  CpuFastBackend backend;
  const Operation op = make_op(w1_like(3, 100, 90));
  CpuFastPlan plan = backend.prepare(op);
  std::vector<std::byte> in(op.input().buffer_bytes());
  Rng rng(7);
  testing::fill_random(rng, op.input(), in);
  std::vector<std::byte> first(op.output().buffer_bytes()), second(op.output().buffer_bytes());
  ASSERT_TRUE(backend.run(plan, in, first, {}).ok());
  ASSERT_TRUE(backend.run(plan, in, second, {}).ok());
  EXPECT_EQ(first, second);
  CpuReferenceBackend reference;
  auto expected = run_to_new_buffers(reference, op, in);
  ASSERT_TRUE(expected.has_value());
  EXPECT_EQ(first, expected->output);
}

TEST(CpuFastBackend, RunRefusesBuffersSmallerThanTheTensors) {
  CpuFastBackend backend;
  const Operation op = make_op(w1_like(1, 8, 8));
  std::vector<std::byte> in(op.input().buffer_bytes()), out(op.output().buffer_bytes() - 4);
  auto result = backend.run(op, in, out, {});
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().path, "output");
}

TEST(CpuFastBackend, DeviceNameStatesThreadsAndInstructionSet) {
  CpuFastOptions options = with_threads(2);
  options.simd = fast::SimdLevel::Baseline;
  CpuFastBackend backend(options);
  EXPECT_EQ(backend.name(), "cpu");
  EXPECT_EQ(backend.device_name(), "CPU (2 threads, " + std::string(fast::to_string(fast::SimdLevel::Baseline)) + ")");
  EXPECT_EQ(CpuFastBackend(with_threads(1)).device_name().find("CPU (1 thread, "), 0u);
}

TEST(CpuFastBackend, LongRowsAreSharedAcrossThreads) {
  // A packed identity merges into one row; threads take pieces of it. Reversed
  // too (slice1 with a negative stride), which reads backward.
  std::vector<Variant>& variants = all_variants();
  for (int64_t stride : {1, -1, 2, -2, 3}) {
    OpRequest r;
    r.input.data_type = DataType::UInt8;
    r.input.sizes = std::vector<uint64_t>{1, 300007};
    r.params = Slice1Request{{0, 0}, {1, 300007}, {1, stride}};
    const Operation op = make_op(r);
    CpuFastOptions threaded;
    threaded.threads = 2;
    threaded.parallel_min_bytes = 0;
    // Copies, reversals and stride-2 gathers split a row into pieces; a
    // stride-3 row is one table run and stays on one thread (still checked).
    if (std::abs(stride) <= 2) {
      EXPECT_TRUE(CpuFastBackend(threaded).prepare(op).parallel()) << "slice1 stride " << stride;
    }
    std::vector<std::byte> in(op.input().buffer_bytes());
    Rng rng(static_cast<uint64_t>(stride + 10));
    testing::fill_random(rng, op.input(), in);
    expect_all_match(op, in, variants, "slice1 stride " + std::to_string(stride));
  }
}

}  // namespace
}  // namespace stridescope
