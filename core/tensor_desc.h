// A tensor description as DirectML's DML_BUFFER_TENSOR_DESC sees it: a data
// type, 1 to 8 logical sizes and a stride per dimension, in elements.
//
//   offset(coord)  = sum(coord[i] * strides[i])           (elements)
//   buffer size    = DMLCalcBufferTensorSize:
//                    (offset of the last element + 1) * element size,
//                    rounded up to a multiple of 4 bytes
//
// Omitted strides mean packed row-major (the last dimension has stride 1).
// A TensorDesc is valid by construction: it is made only by TensorDesc::make,
// which checks every rule and every product for overflow.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "data_type.h"
#include "dim_vector.h"
#include "error.h"

namespace stridescope {

// What a teacher says about a layout (DirectML's "sizes and strides" page).
struct LayoutTraits {
  bool row_major = false;    // strides equal packed row-major (size-1 dims ignored)
  bool packed = false;       // every buffer element used exactly once
  bool broadcast = false;    // some dimension of size > 1 has stride 0
  bool gapped = false;       // some buffer elements are never addressed
  bool overlapping = false;  // coordinates share an offset, beyond what broadcast explains
  bool permuted = false;     // strides not in descending order (e.g. NHWC)
  uint64_t distinct_offsets = 0;  // buffer elements actually addressed
  // False only for interleaved strides over more than 2^28 buffer elements,
  // too many to enumerate: `overlapping` then means "may overlap" (and such
  // a tensor is refused as an output), `distinct_offsets` is an upper bound.
  bool exact = true;

  friend bool operator==(const LayoutTraits&, const LayoutTraits&) = default;
};

// Limits that keep hostile input from allocating without bound.
struct Limits {
  uint64_t max_bytes = uint64_t{1} << 30;  // --max-bytes: largest buffer a tensor may need
};

class TensorDesc {
 public:
  // Validates and builds. `path` is the spec path of the tensor ("input",
  // "output", ...); errors name "<path>.sizes[i]" or "<path>.strides[i]".
  static Expected<TensorDesc> make(DataType type, const Sizes& sizes,
                                   const std::optional<Strides>& strides,
                                   const std::string& path, const Limits& limits = {});

  static Strides packed_strides(const Sizes& sizes);

  DataType data_type() const { return type_; }
  std::size_t rank() const { return sizes_.size(); }
  const Sizes& sizes() const { return sizes_; }
  const Strides& strides() const { return strides_; }
  std::size_t element_size() const { return stridescope::element_size(type_); }

  // Logical element count: the product of the sizes.
  uint64_t element_count() const { return element_count_; }
  // Elements from offset 0 through the last element's offset.
  uint64_t buffer_elements() const { return buffer_elements_; }
  // DMLCalcBufferTensorSize: buffer_elements * element size, rounded up to 4.
  uint64_t buffer_bytes() const { return buffer_bytes_; }

  uint64_t offset_of(const Coord& coord) const;
  // Row-major position of `coord` among all logical elements (what pooling
  // indices report), whatever the strides.
  uint64_t flat_index_of(const Coord& coord) const;
  Coord coord_of_flat_index(uint64_t flat) const;

  // Classifies the layout. Exact: when the cheap nesting test cannot prove the
  // offsets unique, offsets are enumerated (bounded by Limits::max_bytes).
  const LayoutTraits& layout() const { return layout_; }

  friend bool operator==(const TensorDesc&, const TensorDesc&) = default;

 private:
  TensorDesc() = default;

  DataType type_ = DataType::Float32;
  Sizes sizes_;
  Strides strides_;
  uint64_t element_count_ = 0;
  uint64_t buffer_elements_ = 0;
  uint64_t buffer_bytes_ = 0;
  LayoutTraits layout_;
};

// Advances `coord` through `sizes` in row-major order; false after the last.
bool next_coord(Coord& coord, const Sizes& sizes);


}  // namespace stridescope
