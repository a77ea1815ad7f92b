// Bit-for-bit comparison of two backends' results over the elements the
// output tensor addresses (gaps are not compared).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tensor_desc.h"

namespace stridescope {

struct ElementMismatch {
  Coord coord;
  uint64_t offset = 0;  // in elements
  friend bool operator==(const ElementMismatch&, const ElementMismatch&) = default;
};

struct Mismatch {
  uint64_t count = 0;        // differing logical elements
  Coord first;               // first in row-major order
  uint64_t first_offset = 0;
  // The first `list_limit` differing elements (compare_tensors' argument),
  // in row-major order: what a view lists without walking the tensor again.
  std::vector<ElementMismatch> listed;
};

// nullopt when every addressed element has the same bits. A buffer shorter
// than desc.buffer_bytes() cannot match: it is reported as a mismatch of
// every element (nothing is read past its end, nothing is listed).
std::optional<Mismatch> compare_tensors(const TensorDesc& desc, std::span<const std::byte> a,
                                        std::span<const std::byte> b, std::size_t list_limit = 0);

}  // namespace stridescope
