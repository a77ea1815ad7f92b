// The edits the app's editor makes to a spec, as pure functions: a form field
// addressed by its spec path ("params.inputWindowStrides[2]"), choosing an
// operator or a rank (the stride presets are in stride_presets.h). Kept apart from the widgets so
// they can be tested without a window, and so an error's path
// (Error::path) leads straight back to the widget that shows that field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/spec_file.h"
#include "ui/stride_presets.h"

namespace stridescope::ui {

// The slice1 worked example with negative strides from the DirectML docs:
// the spec a new document starts with.
Spec default_spec();

// The rank every per-dimension array of the spec follows: input.sizes.
std::size_t spec_rank(const Spec& spec);

// A fresh spec for `kind` on the same input (data type, sizes, strides,
// values), with parameters that show something on that input. max_pooling2
// needs 4 or 5 dimensions: leading 1s are added.
Spec with_op(const Spec& spec, OpKind kind);

// Adds or removes leading dimensions (size 1) and keeps every per-dimension
// array of the spec in step, so the last two dimensions keep their meaning.
Spec with_rank(const Spec& spec, std::size_t rank);

// An integer field by spec path, e.g. "input.sizes[1]", "output.strides[0]",
// "params.inputWindowStrides[2]", "params.windowSize[0]". nullopt when the
// spec has no such field (wrong op, index past the rank).
std::optional<int64_t> int_field(const Spec& spec, std::string_view path);
// Sets it; false when the spec has no such field.
bool set_int_field(Spec& spec, std::string_view path, int64_t value);

// The integer array fields of the spec's op, in form order, e.g. for slice1
// {"params.inputWindowOffsets", "params.inputWindowSizes", "params.inputWindowStrides"}.
std::vector<std::string> param_array_fields(OpKind kind);

// The input buffer as a list of values, for the "typed values" fill: the
// current data when the source is data, else the values `buffer` holds.
std::vector<Scalar> values_from_buffer(DataType type, const std::vector<std::byte>& buffer, uint64_t elements);

// With typed values as the source: grows the list (with zeros) to the input's
// buffer size, so changing sizes or strides keeps the spec runnable.
void fit_values_to_input(Spec& spec);

// "1, 2, 3.5" <-> values. Parsing errors name "input.data[i]".
std::string format_values(const std::vector<Scalar>& values);
Expected<std::vector<Scalar>> parse_values(std::string_view text);

}  // namespace stridescope::ui
