// Pieces the Python programs (NumPy, PyTorch) share: exact literals for
// element values, tuples and wrapped lists, and the comments that describe a
// tensor and where the input's values come from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/data_type.h"
#include "core/io/spec_file.h"
#include "core/operation.h"
#include "core/padding.h"
#include "core/tensor_desc.h"

namespace stridescope::codegen {

// A Python literal that reads back as exactly this element once converted to
// its type: integers in decimal, floats as the shortest text whose conversion
// gives the same bits ("-0.0", "math.inf", "math.nan"). nullopt for a NaN
// other than the canonical quiet NaN (a payload or a sign a literal cannot
// carry): write the bits instead. `exact`: a float32 is written as its exact
// double, for PyTorch, which refuses a double just past FLT_MAX before rounding
// ("3.4028235e+38" cannot be converted to float without overflow).
std::optional<std::string> python_element(DataType type, uint64_t bits, bool exact = false);

// The first `count` elements of `buffer` as literals, or, when some element
// has no literal (a NaN payload), every element's bit pattern as an integer
// (for PyTorch, which lacks the unsigned types, as the same-width signed
// integer). `as_bits` says which.
struct PythonValues {
  std::vector<std::string> items;
  bool as_bits = false;
};
// `for_torch`: float32 literals exact, bits as signed integers.
PythonValues python_values(DataType type, std::span<const std::byte> buffer, uint64_t count, bool for_torch);

// "[a, b, c]" wrapped at about 100 columns, continuation lines indented by `indent`.
std::string python_list(const std::vector<std::string>& items, std::size_t indent);

// "(1, 2, 3)", "(4,)" for any range of integers.
template <class Range>
std::string python_tuple(const Range& values) {
  std::string text = "(";
  std::size_t n = 0;
  for (const auto value : values) text += (n++ > 0 ? ", " : "") + std::to_string(value);
  return text + (n == 1 ? ",)" : ")");
}

// "[1,2,3]" as the spec and JSON write arrays.
template <class Range>
std::string bracket_list(const Range& values) {
  std::string text = "[";
  std::size_t n = 0;
  for (const auto value : values) text += (n++ > 0 ? "," : "") + std::to_string(value);
  return text + "]";
}

// A comment block (each line starting "# ") describing `desc`: type, sizes,
// strides in elements, buffer size and what its layout is.
std::string tensor_comment(const std::string& name, const TensorDesc& desc);

// "iota: 1, 2, 3, ... in buffer order", "random: seed 7 in [0, 1]", ... .
std::string input_source_comment(const InputSource& source);

// The input index each output index reads along `dim` (core's fold).
std::vector<int64_t> padding_sources(const PaddingParams& params, const Sizes& input_sizes, std::size_t dim,
                                     uint64_t output_size);

}  // namespace stridescope::codegen

namespace stridescope::codegen {

// A Python string literal for `text` (UTF-8 kept, quotes, backslashes and
// control characters escaped).
std::string python_string(const std::string& text);

// "start:stop:step" selecting `count` elements from `start` by `step` (> 0),
// or by a negative step (NumPy), stop left out where it would pass index 0.
std::string python_slice(int64_t start, int64_t step, uint64_t count);

// The slice op as indexing of `x` into `result`, with the rule as a comment:
// the same in NumPy and PyTorch, since slice's steps are positive.
std::string python_slice_code(const Operation& op);

// The program's first lines: shebang, a docstring naming the op and the
// framework, the contract (`output`, `indices`, --print).
std::string python_header(const std::string& framework, const Operation& op);

}  // namespace stridescope::codegen
