// Another implementation's result for an op, read from its file: a result
// document (result_document.h), or .npy files as `stridescope-cli run --out
// X.npy` writes them (X.npy holds the output buffer, X.indices.npy the
// indices). `stridescope-cli check` and the app's File > Compare with Result
// both read results here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/io/npy.h"
#include "core/io/result_document.h"

namespace stridescope {

// Whether `path` names a .npy file (case-insensitive: "X.NPY" is one too).
bool is_npy_file(std::string_view path);
// X.indices.npy beside X.npy: where run --out X.npy writes the indices and check reads them.
std::filesystem::path indices_npy_path(const std::filesystem::path& out);

// One .npy's array as the buffer of `desc`: the tensor's sizes when it is
// packed row-major, else its 1-D buffer; either way the buffer's elements, of
// its data type. Errors name `file`: "r.npy: holds INT32; the spec's tensor is FLOAT32".
Expected<std::vector<std::byte>> npy_as_buffer(NpyArray array, const TensorDesc& desc, const std::string& file);

// A result document for tensors of these sizes needs a few dozen characters
// per value at most: a longer file is refused before it is parsed.
uint64_t longest_result_document(const TensorDesc& output, const TensorDesc* indices);

// The result for tensors `output` and `indices` (null when there are none),
// from a result document or from .npy files (then the indices from
// X.indices.npy). Errors name the file and the field.
Expected<ResultDocument> read_result_file(const std::filesystem::path& file, const TensorDesc& output,
                                          const TensorDesc* indices, uint64_t max_bytes);

// A result document writes every NaN as "NaN", so its payload is lost: there,
// a NaN matches any NaN. Copies `ours` into `theirs` wherever both hold a NaN,
// so a bit-for-bit comparison then sees them equal; returns how many.
// (.npy keeps the bits, and is compared bit for bit.)
uint64_t match_nan_to_nan(const TensorDesc& desc, std::span<const std::byte> ours, std::span<std::byte> theirs);

}  // namespace stridescope
