#include "backend.h"

#include <chrono>

namespace stridescope {

Status check_buffer_sizes(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                          std::span<std::byte> indices) {
  if (input.size() < op.input().buffer_bytes()) {
    return invalid("input", "buffer has " + std::to_string(input.size()) + " bytes; the tensor needs " +
                                std::to_string(op.input().buffer_bytes()));
  }
  if (output.size() < op.output().buffer_bytes()) {
    return invalid("output", "buffer has " + std::to_string(output.size()) + " bytes; the tensor needs " +
                                 std::to_string(op.output().buffer_bytes()));
  }
  if (op.output_indices() && indices.size() < op.output_indices()->buffer_bytes()) {
    return invalid("outputIndices", "buffer has " + std::to_string(indices.size()) + " bytes; the tensor needs " +
                                        std::to_string(op.output_indices()->buffer_bytes()));
  }
  return {};
}

Expected<RunResult> run_to_new_buffers(Backend& backend, const Operation& op,
                                       std::span<const std::byte> input) {
  RunResult result;
  result.output.assign(op.output().buffer_bytes(), std::byte{0});
  if (op.output_indices()) result.indices.assign(op.output_indices()->buffer_bytes(), std::byte{0});
  const auto start = std::chrono::steady_clock::now();
  auto stats = backend.run(op, input, result.output, result.indices);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  SS_ASSIGN_OR_RETURN(result.stats, std::move(stats));
  result.stats.host_milliseconds = elapsed.count();
  return result;
}

}  // namespace stridescope
