#include "backend.h"

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
  auto stats = backend.run(op, input, result.output, result.indices);
  if (!stats) return stats.error();
  result.stats = *stats;
  return result;
}

}  // namespace stridescope
