// The interface both backends (CPU in core/, Vulkan in gpu/) implement. The
// app and the CLI see only this.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "operation.h"

namespace stridescope {

// One timed piece of a run's device work: a transfer pass or a dispatch.
struct PassTiming {
  std::string label;  // "transfer: copy 64 pitched runs through 2 images, ...", "gather box 0 workgroups [0, 512)"
  double milliseconds = 0;
};

struct RunStats {
  std::optional<double> gpu_milliseconds;  // device time from timestamp queries, where measured
  std::vector<PassTiming> passes;          // the same time per pass, in submission order
  // Wall-clock time of the whole Backend::run call (transfers and waits
  // included), measured by run_to_new_buffers: the CPU backends' only time.
  std::optional<double> host_milliseconds;
};

class Backend {
 public:
  virtual ~Backend() = default;
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // "cpu", "cpu-reference" or "vulkan", as the CLI's --backend names it.
  virtual std::string_view name() const = 0;
  // What it runs on, for people: "CPU reference", "llvmpipe (LLVM 15.0.6, 256 bits)".
  virtual std::string device_name() const = 0;

  // Runs `op`. Buffers are the physical tensor buffers in bytes:
  //   input.size()   >= op.input().buffer_bytes()
  //   output.size()  >= op.output().buffer_bytes()
  //   indices.size() >= op.output_indices()->buffer_bytes(), or empty when the op has none
  // Only the elements the output tensors address are written: the bytes of a
  // gapped output's gaps keep what the caller put there.
  virtual Expected<RunStats> run(const Operation& op, std::span<const std::byte> input,
                                 std::span<std::byte> output, std::span<std::byte> indices) = 0;
};

struct RunResult {
  std::vector<std::byte> output;   // op.output().buffer_bytes(), gaps zero
  std::vector<std::byte> indices;  // empty when the op has no indices tensor
  RunStats stats;
};

// The buffer-size precondition of Backend::run, for backends to check first.
Status check_buffer_sizes(const Operation& op, std::span<const std::byte> input,
                          std::span<std::byte> output, std::span<std::byte> indices);

// Runs into freshly allocated, zero-filled buffers; times the call
// (RunStats::host_milliseconds).
Expected<RunResult> run_to_new_buffers(Backend& backend, const Operation& op,
                                       std::span<const std::byte> input);

}  // namespace stridescope
