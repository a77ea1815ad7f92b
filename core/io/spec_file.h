// Spec files (resources/docs/spec-format.md): one operator invocation as JSON, with the
// DirectML struct fields in camelCase.
//
//   {
//     "op": "slice1",
//     "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,4], "fill": "iota" },
//     "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2] },
//     "params": { "inputWindowOffsets": [0,0,0,1], "inputWindowSizes": [1,1,4,3],
//                 "inputWindowStrides": [1,1,-2,2] }
//   }
//
// The parser checks the JSON's shape: every field known (unknown fields are
// errors, not ignored), of the right JSON type, integers where integers are
// due, no negative value where the field is unsigned, at most 8 entries per
// array, required fields present, no key twice. Every error is
// ErrorCode::InvalidSpec naming the field by its JSON path, e.g.
// "params.inputWindowStrides[2]". What the numbers mean (window inside the
// input, sizes agreeing, ...) is Operation::make's job, which names fields
// the same way.
//
// Defaults and extensions, beyond the published contract (all in spec-format.md):
//   - `output` may be left out (same as {}); `params` may be left out for identity.
//   - An input with none of `data`, `fill`, `npy` is filled with iota.
//   - `paddingValue` and `data` entries may also be the strings "NaN",
//     "Infinity", "-Infinity" (what result documents write).
//   - A JSON integer that fits int64 is read as int64_t, a larger one as uint64_t,
//     anything with a fraction or exponent as double (so 64-bit values stay exact).
//   - Integer fields accept integral numbers written as floats (2.0, 1e2).
//   - Spec text is limited to kMaxSpecBytes; larger inputs belong in a .npy file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.h"
#include "core/fill.h"
#include "core/op_request.h"
#include "core/scalar.h"
#include "core/tensor_desc.h"

namespace stridescope {

// Where the input buffer's values come from: `fill`, `data` (the physical
// buffer, element by element), or `npy` (a file path, already resolved against
// the spec file's folder).
using InputSource = std::variant<Fill, std::vector<Scalar>, std::filesystem::path>;

struct Spec {
  OpRequest request;
  InputSource input_source = FillIota{};
  // `description`: one line on what the spec shows (the examples carry one;
  // the app shows it). Empty: none.
  std::string description;

  friend bool operator==(const Spec&, const Spec&) = default;
};

inline constexpr std::size_t kMaxSpecBytes = 16 * 1024 * 1024;
inline constexpr std::size_t kMaxDescriptionBytes = 300;

// `base_dir` resolves a relative `npy` path (the spec file's folder; may be empty).
Expected<Spec> parse_spec(std::string_view json_text, const std::filesystem::path& base_dir);

// Reads and parses `file`. I/O errors (ErrorCode::Io) and JSON syntax errors
// name the file; field errors name the field.
Expected<Spec> load_spec_file(const std::filesystem::path& file);

// Pretty JSON following spec-format.md that parse_spec reads back to the same Spec
// (an `npy` path is written as held).
std::string write_spec(const Spec& spec);

// Writes write_spec's text atomically (atomic_file.h); an `npy` path is
// rewritten relative to the destination's folder so the file stays loadable.
Status save_spec_file(const Spec& spec, const std::filesystem::path& file);

// The input buffer, input.buffer_bytes() long, from the spec's source:
//   fill: fill_buffer over input.buffer_elements();
//   data: at least buffer_elements() values, each converted by encode_scalar
//         (errors at "input.data[i]"); extra values are ignored;
//   npy:  the file's dtype must be the input's data type and it must hold at
//         least buffer_elements() elements (its shape is not otherwise used:
//         the buffer is flat); files over limits.max_bytes are refused.
// Bytes past buffer_elements() (DMLCalcBufferTensorSize's rounding to 4) are zero.
Expected<std::vector<std::byte>> make_input_buffer(const Spec& spec, const TensorDesc& input,
                                                   const Limits& limits = {});

}  // namespace stridescope
