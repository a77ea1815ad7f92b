// Short texts the app shows about tensors: dimension names, shapes, and the
// layout words of DirectML's "sizes and strides" page.
#pragma once

#include <QString>

#include "core/tensor_desc.h"

namespace stridescope::ui {

// "N", "C", "H", "W" for 4-D; "N", "C", "D", "H", "W" for 5-D; else "".
QString dimension_letter(std::size_t rank, std::size_t dim);
// "2 (H)" or "2".
QString dimension_name(std::size_t rank, std::size_t dim);
// "1\u00d71\u00d74\u00d74".
QString shape_text(const Sizes& sizes);
// "[16,16,4,1]".
QString strides_text(const Strides& strides);
// "packed, row-major" / "NHWC-like (permuted), gapped" / "broadcast" ...
QString layout_words(const LayoutTraits& traits);
// "16 elements in a 16-element buffer (64 bytes)".
QString buffer_summary(const TensorDesc& desc);
// The page's offset formula with the numbers in, one term per dimension:
// "0·16 + 0·16 + 1·4 + 1·1" (index · stride).
QString offset_terms(const TensorDesc& desc, const Coord& coord);

}  // namespace stridescope::ui
