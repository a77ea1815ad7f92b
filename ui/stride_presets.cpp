#include "ui/stride_presets.h"

#include <algorithm>
#include <numeric>

#include "core/tensor_desc.h"

namespace stridescope::ui {
namespace {

// Packed strides of the sizes taken in `order` (outermost first), mapped back
// to the dimensions they belong to.
// Packed strides (core's) of the dimensions taken in `order`, outermost first,
// put back in the tensor's own dimension order.
std::vector<uint64_t> strides_in_order(const std::vector<uint64_t>& sizes, const std::vector<std::size_t>& order) {
  Sizes permuted(order.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) permuted[i] = sizes[order[i]];
  const Strides packed = TensorDesc::packed_strides(permuted);
  std::vector<uint64_t> strides(sizes.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) strides[order[i]] = packed[i];
  return strides;
}

std::vector<std::size_t> identity_order(std::size_t rank) {
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

}  // namespace

std::vector<uint64_t> packed_strides(const std::vector<uint64_t>& sizes) {
  return strides_in_order(sizes, identity_order(sizes.size()));
}

std::vector<uint64_t> column_major_strides(const std::vector<uint64_t>& sizes) {
  std::vector<std::size_t> order = identity_order(sizes.size());
  std::reverse(order.begin(), order.end());
  return strides_in_order(sizes, order);
}

std::vector<uint64_t> channels_last_strides(const std::vector<uint64_t>& sizes) {
  const std::size_t rank = sizes.size();
  if (rank < 3) return packed_strides(sizes);
  // Memory order {N, spatial..., C}.
  std::vector<std::size_t> order{0};
  for (std::size_t d = 2; d < rank; ++d) order.push_back(d);
  order.push_back(1);
  return strides_in_order(sizes, order);
}

std::vector<uint64_t> transposed_strides(const std::vector<uint64_t>& sizes, std::size_t a, std::size_t b) {
  std::vector<std::size_t> order = identity_order(sizes.size());
  if (a < order.size() && b < order.size()) std::swap(order[a], order[b]);
  return strides_in_order(sizes, order);
}

bool follows_sizes(StridePreset preset) {
  return preset == StridePreset::ColumnMajor || preset == StridePreset::ChannelsLast ||
         preset == StridePreset::Transpose;
}

bool choice_fits_rank(const StrideChoice& choice, std::size_t rank) {
  switch (choice.preset) {
    case StridePreset::ChannelsLast: return rank >= 3;
    case StridePreset::Transpose: return choice.first < choice.second && choice.second < rank;
    default: return true;
  }
}

std::optional<std::vector<uint64_t>> choice_strides(const StrideChoice& choice, const std::vector<uint64_t>& sizes,
                                                    const std::optional<std::vector<uint64_t>>& current) {
  switch (choice.preset) {
    case StridePreset::Packed: return std::nullopt;
    case StridePreset::ColumnMajor: return column_major_strides(sizes);
    case StridePreset::ChannelsLast: return channels_last_strides(sizes);
    case StridePreset::Transpose: return transposed_strides(sizes, choice.first, choice.second);
    case StridePreset::Custom:
      if (current && current->size() == sizes.size()) return current;
      return packed_strides(sizes);
  }
  return std::nullopt;
}

std::optional<std::vector<uint64_t>> preset_strides(StridePreset preset, const std::vector<uint64_t>& sizes,
                                                    const std::optional<std::vector<uint64_t>>& current) {
  return choice_strides(StrideChoice{preset}, sizes, current);
}

StrideChoice detect_stride_choice(const TensorRequest& tensor) {
  if (!tensor.strides) return {StridePreset::Packed};
  if (!tensor.sizes || tensor.sizes->size() != tensor.strides->size()) return {StridePreset::Custom};
  const std::vector<uint64_t>& sizes = *tensor.sizes;
  const std::vector<uint64_t>& strides = *tensor.strides;
  if (strides == packed_strides(sizes)) return {StridePreset::Custom};
  if (strides == column_major_strides(sizes)) return {StridePreset::ColumnMajor};
  if (sizes.size() >= 3 && strides == channels_last_strides(sizes)) return {StridePreset::ChannelsLast};
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    for (std::size_t b = a + 1; b < sizes.size(); ++b) {
      if (strides == transposed_strides(sizes, a, b)) return {StridePreset::Transpose, a, b};
    }
  }
  return {StridePreset::Custom};
}

StridePreset detect_preset(const TensorRequest& tensor) { return detect_stride_choice(tensor).preset; }

}  // namespace stridescope::ui
