// Writes a validated spec as code for another framework: a self-contained
// NumPy or PyTorch program, an ONNX model builder, DirectML C++ or a
// DxDispatch model, so a person can see the exact equivalent of a spec where
// they work, and run it.
//
// Exact, or honest: where a framework cannot express the spec directly, the
// code says so in a comment and uses an exact workaround (flip then slice for
// negative steps, an index array for periodic reflection, a tap-by-tap gather
// for max pooling's NaN and tie rules), never an approximation. Where the
// framework lacks the data type, the code says so and fails when run, and a
// note says so too.
//
// The Python programs (numpy, torch) follow one contract: run by python3 from
// any folder, they build the input buffer as the spec says (fill, data, or
// the .npy file by absolute path), view it with the spec's strides, compute
// the op, write the result through a strided view of an output buffer, and
// leave the logical result in `output` (and `indices` for max_pooling2 with
// indices); they print only when run with --print.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/io/spec_file.h"
#include "core/operation.h"

namespace stridescope {

enum class CodeLanguage { NumPy, Torch, Onnx, Dml, DxDispatch };

// "numpy", "torch", "onnx", "dml", "dxdispatch": the CLI's --lang.
std::string_view to_string(CodeLanguage language);
std::optional<CodeLanguage> parse_code_language(std::string_view name);

// What the code is written from: the spec as written (where the input comes
// from), its validated Operation, and the input buffer make_input_buffer built
// (the random fill's actual values, inline data already converted).
struct CodeSource {
  const Spec& spec;
  const Operation& op;
  std::span<const std::byte> input_buffer;
};

struct GeneratedCode {
  std::string text;
  // Where this framework differs from DirectML for this spec, one sentence
  // each (also written as comments in `text`): what the app lists beside the
  // code and the CLI prints on stderr.
  std::vector<std::string> notes;
  // False when the framework cannot run this spec at all (a data type it
  // lacks): the code says so and raises.
  bool runnable = true;
};

GeneratedCode write_code(CodeLanguage language, const CodeSource& source);

}  // namespace stridescope
