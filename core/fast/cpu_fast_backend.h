// The fast CPU backend: the same results as CpuReferenceBackend, bit for bit,
// at close to memory speed.
//
// These operators only move data, so the time to beat is memcpy of the same
// bytes. An Operation is first turned into a plan (CpuFastPlan), derived from
// core's per-dimension index tables (core/index_plan.h), never from the
// operators' formulas:
//   - gathers (identity, slice, slice1, padding): dimensions of size 1 are
//     folded away, the rest ordered by output stride and merged where both
//     tables are affine and the output is contiguous; each source table
//     becomes input offsets (entry * input stride); the innermost row is cut
//     into runs: copies (memcpy), constant-step reads (reversed and stride-2
//     runs vectorized), padding fills and short tables. Outputs larger than
//     CpuFastOptions::stream_min_output_bytes are assembled a row at a time
//     in a small buffer and written with non-temporal stores;
//   - layout changes among them (every axis affine, the output's innermost
//     axis strided in the input while another axis reads it with unit step:
//     NHWC <-> NCHW, a matrix transpose, batched or not) run as transposes
//     of blocks a few cache lines wide on both sides, staged in L1, with
//     register tiles for 4- and 8-byte elements; 2 to 4 interleaved channels
//     (RGB to planar) are deinterleaved instead (transpose_plan.h);
//   - max_pooling2: each input row is converted once to integer comparison
//     keys split by column phase, then every vector of outputs takes one
//     contiguous load per window tap and keeps the first maximum and its index
//     (or, for 8/16-bit elements, its tap number) in registers, with the NaN,
//     tie and signed-zero rules of max_pooling.h; border outputs, and the rare
//     outputs whose maximum is a zero or a NaN, go tap by tap.
// Work moving at least CpuFastOptions::parallel_min_bytes is shared with a
// thread pool made once with the backend; smaller work stays on the calling
// thread, and a prepared plan runs it without allocating.
//
// Kernels are compiled for SSE2, AVX2 and AVX-512 and picked at run time
// (simd_level.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/backend.h"
#include "core/fast/simd_level.h"

namespace stridescope {

namespace fast {
class ThreadPool;
}

struct CpuFastOptions {
  // Threads that share large work, the calling thread included; 0: one per
  // hardware thread.
  unsigned threads = 0;
  // Kernels to use; default (and anything this CPU lacks): the best it runs.
  std::optional<fast::SimdLevel> simd;
  // Work that reads and writes fewer bytes than this runs on the calling thread.
  uint64_t parallel_min_bytes = uint64_t{1} << 20;
  // Gathers whose output buffer is at least this large write contiguous runs
  // with non-temporal stores (0: never).
  uint64_t stream_min_output_bytes = uint64_t{16} << 20;
};

// An Operation planned once for repeated runs. Runs of one plan must not
// overlap in time (the plan owns per-thread scratch space); distinct plans
// may run concurrently.
class CpuFastPlan {
 public:
  CpuFastPlan(CpuFastPlan&&) noexcept;
  CpuFastPlan& operator=(CpuFastPlan&&) noexcept;
  ~CpuFastPlan();

  const Operation& operation() const;
  // Whether runs share the work with the thread pool.
  bool parallel() const;
  // Bytes one run reads and writes (input elements read + outputs written).
  uint64_t traffic_bytes() const;
  // How the plan runs, for people and tests: "gather: 16704 rows of 519
  // (3 runs: 1 strided, 0 fills, 2 tables), 2 threads, streaming" or
  // "max_pooling2: 64 planes x 3 bands, vectors over columns [1, 112) ...".
  std::string summary() const;

  struct Impl;

 private:
  friend class CpuFastBackend;
  explicit CpuFastPlan(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class CpuFastBackend final : public Backend {
 public:
  explicit CpuFastBackend(CpuFastOptions options = {});
  ~CpuFastBackend() override;

  std::string_view name() const override { return "cpu"; }
  // "CPU (2 threads, AVX-512)".
  std::string device_name() const override;

  // Plans `op` and runs it. The last plan is kept, so running the same
  // operation again (the app redrawing) does not plan again.
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override;

  // Plans `op` for repeated runs with caller-owned buffers.
  CpuFastPlan prepare(const Operation& op) const;
  // Runs a plan this backend prepared. Buffers as Backend::run.
  Status run(CpuFastPlan& plan, std::span<const std::byte> input, std::span<std::byte> output,
             std::span<std::byte> indices);

  unsigned threads() const { return threads_; }
  fast::SimdLevel simd_level() const { return level_; }

 private:
  CpuFastOptions options_;
  unsigned threads_ = 1;
  fast::SimdLevel level_ = fast::SimdLevel::Baseline;
  std::unique_ptr<fast::ThreadPool> pool_;
  struct Cache;
  std::unique_ptr<Cache> cache_;
};

}  // namespace stridescope
