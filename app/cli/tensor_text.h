// Tensors as text for people: a tensor's logical values (read through its
// strides) as right-aligned grids, rows along the last dimension, one block
// per index of the leading dimensions.
//
//   [0,0,*,*]          (block header, only when a leading dimension is > 1)
//      1  2  3  4
//      5  6  7  8
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/tensor_desc.h"

namespace stridescope::cli {

// One element as run's result document writes it: integers exactly, floats
// as the shortest text that reads back to the same value of their own type
// (FLOAT32 0.1 is "0.1", not 0.10000000149011612), "-0.0", "NaN", "Infinity".
std::string format_element(DataType type, const std::byte* bytes);

// "input  FLOAT32 sizes [1,1,4,4] strides [16,16,4,1] (16 buffer elements)"
std::string tensor_line(const char* name, const TensorDesc& desc);

// The physical buffer in buffer order (at most `max_elements`, then "...").
std::string buffer_text(const TensorDesc& desc, std::span<const std::byte> buffer, uint64_t max_elements);

// At most `max_elements` values; the rest is summarised in a final line.
std::string format_grid(const TensorDesc& desc, std::span<const std::byte> buffer, std::string_view indent,
                        uint64_t max_elements = 1024);

// Any per-coordinate text (offsets, values) laid out the same way.
template <class CellText>
std::string format_cells(const Sizes& sizes, std::string_view indent, uint64_t max_elements, CellText cell_text);

// "[1,1,4,4]"
std::string format_list(std::span<const uint64_t> values);

}  // namespace stridescope::cli

#include "app/cli/tensor_text_impl.h"
