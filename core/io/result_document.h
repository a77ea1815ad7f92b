// The result document of `stridescope-cli run` (opspec.md, "Result document"):
//
//   {
//     "backend": "cpu",
//     "output":        { "dataType": "FLOAT32", "sizes": [1,1,2,2], "strides": [4,4,2,1], "data": [14,16,6,8] },
//     "outputIndices": { "dataType": "UINT32", ... }      (max_pooling2 with indices only)
//   }
//
// `data` is the physical buffer in buffer order: buffer_elements() values,
// gap elements included (a gapped output's gaps hold whatever the buffer
// holds; run_to_new_buffers leaves them zero). Numbers follow json_number.h:
// 64-bit integers exact, floats shortest round-trip in their own type,
// non-finite values as "NaN", "Infinity", "-Infinity".
#pragma once

#include <cstddef>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "core/operation.h"

namespace stridescope {

// Preconditions: output.size() >= op.output().buffer_elements() * element size;
// indices likewise when op.output_indices() is set (else ignored).
std::string write_result_document(std::string_view backend, const Operation& op,
                                  std::span<const std::byte> output,
                                  std::span<const std::byte> indices);

// The same text, streamed (for outputs too large to hold twice).
void write_result_document(std::ostream& stream, std::string_view backend, const Operation& op,
                           std::span<const std::byte> output, std::span<const std::byte> indices);

// One tensor's object: {"dataType": ..., "sizes": ..., "strides": ..., "data": [...]}.
void write_tensor_json(std::ostream& stream, const TensorDesc& desc, std::span<const std::byte> buffer);

}  // namespace stridescope
