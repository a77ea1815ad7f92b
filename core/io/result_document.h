// The result document of `stridescope-cli run` (resources/docs/result-document.md):
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
#include <vector>

#include "core/error.h"
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

// A result document read back (stridescope-cli check), for the spec's `op`:
// each tensor's dataType and sizes (and strides, when given) must be the
// op's, and `data` must hold one value per buffer element, each within its
// type. `output` and `indices` are the buffers those values make (indices
// empty when the op has none). Errors are InvalidSpec naming the field:
// "output.data[3]: 300 is out of range for UINT8", "output.sizes: ...".
struct ResultDocument {
  std::string backend;  // empty when the document names none
  std::vector<std::byte> output;
  std::vector<std::byte> indices;
};
Expected<ResultDocument> read_result_document(std::string_view text, const Operation& op);
// The same for tensors other than an op's (check --diagnose reads a result
// shaped as a mistaken variant's): `indices` null when there are none.
Expected<ResultDocument> read_result_document(std::string_view text, const TensorDesc& output,
                                              const TensorDesc* indices);

}  // namespace stridescope
