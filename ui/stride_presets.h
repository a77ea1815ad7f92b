// The stride layouts a person picks from the tensor form's menu instead of
// typing strides: packed (row-major), column-major, channels-last, one pair of
// dimensions transposed, or custom. Each layout is the packed strides of the
// sizes taken in another memory order, so every preset is dense (no gaps, no
// overlap) and only the order in which dimensions advance through memory
// differs. Pure functions, testable without a window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/op_request.h"

namespace stridescope::ui {

enum class StridePreset { Packed, ColumnMajor, ChannelsLast, Transpose, Custom };

// A preset and, for Transpose, the two dimensions it swaps (first < second).
struct StrideChoice {
  StridePreset preset = StridePreset::Packed;
  std::size_t first = 0;
  std::size_t second = 1;
  friend bool operator==(const StrideChoice&, const StrideChoice&) = default;
};

// Row-major: the last dimension innermost. [2,3,4] -> [12,4,1].
std::vector<uint64_t> packed_strides(const std::vector<uint64_t>& sizes);
// The reversed order: the first dimension innermost. [2,3,4] -> [1,2,6].
std::vector<uint64_t> column_major_strides(const std::vector<uint64_t>& sizes);
// NHWC / NDHWC: dimension 1 (channels) innermost, then the spatial ones in
// order, then N. [1,3,4,5] -> [60,1,15,3]. Fewer than 3 dimensions: packed.
std::vector<uint64_t> channels_last_strides(const std::vector<uint64_t>& sizes);
// Row-major with dimensions `a` and `b` swapped in memory order: [2,3,4]
// transposing 1 and 2 -> [12,1,3]. Packed when either is past the rank.
std::vector<uint64_t> transposed_strides(const std::vector<uint64_t>& sizes, std::size_t a, std::size_t b);

// Which preset `tensor`'s strides are. Omitted strides are Packed; strides
// written out that equal packed ones are Custom (a person who chose Custom
// keeps editable strides). Otherwise the first preset, in menu order
// (column-major, channels-last, then transposes by pair), whose strides
// they equal; any others are Custom.
StrideChoice detect_stride_choice(const TensorRequest& tensor);
StridePreset detect_preset(const TensorRequest& tensor);

// The strides of `choice` for `sizes`; nullopt for Packed (strides omitted).
// For Custom the current strides are kept when they fit the rank (or packed
// ones given).
std::optional<std::vector<uint64_t>> choice_strides(const StrideChoice& choice, const std::vector<uint64_t>& sizes,
                                                    const std::optional<std::vector<uint64_t>>& current);
// The same for a preset that needs no dimensions (Transpose swaps 0 and 1).
std::optional<std::vector<uint64_t>> preset_strides(StridePreset preset, const std::vector<uint64_t>& sizes,
                                                    const std::optional<std::vector<uint64_t>>& current);

// Whether `preset` names a layout that follows the sizes (column-major,
// channels-last, a transpose): a size edit recomputes its strides, where
// Packed leaves them omitted and Custom keeps what was typed.
bool follows_sizes(StridePreset preset);

// Whether `choice` applies to a tensor of `rank` dimensions: channels-last
// needs 3 or more, a transpose two distinct dimensions below the rank.
bool choice_fits_rank(const StrideChoice& choice, std::size_t rank);

}  // namespace stridescope::ui
