#include "core/io/random_layout.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace stridescope::random {

uint64_t product(const U64s& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), uint64_t{1}, std::multiplies<>());
}

U64s random_sizes(SplitMix64& rng, std::size_t rank, uint64_t max_elements) {
  U64s sizes(rank);
  for (auto& s : sizes) s = rng.chance(0.3) ? 1 : rng.between(1, 4);
  if (rng.chance(0.25)) sizes[rng.below(rank)] = rng.between(5, 9);
  // One long axis, where a row crosses a workgroup or a vector's width.
  if (rank <= 2 && max_elements >= 10 && rng.chance(0.15)) sizes[rng.below(rank)] = rng.between(10, max_elements);
  while (product(sizes) > max_elements) *std::max_element(sizes.begin(), sizes.end()) -= 1;
  return sizes;
}

U64s random_big_sizes(SplitMix64& rng, std::size_t rank, uint64_t max_elements) {
  U64s sizes(rank);
  for (auto& s : sizes) s = 1 + rng.below(3);
  sizes[rank - 1] = 40 + rng.below(560);
  if (rank >= 2) sizes[rank - 2] = 2 + rng.below(60);
  while (product(sizes) > max_elements) {
    uint64_t& largest = *std::max_element(sizes.begin(), sizes.end());
    largest = (largest + 1) / 2;
  }
  return sizes;
}

Layout random_input_layout(SplitMix64& rng, bool overlapping) {
  const uint64_t r = rng.below(overlapping ? 100 : 87);
  if (r < 20) return Layout::Omitted;
  if (r < 28) return Layout::Packed;
  if (r < 43) return Layout::Gapped;
  if (r < 55) return Layout::Permuted;
  if (r < 67) return Layout::PermutedGapped;
  if (r < 87) return Layout::Broadcast;
  return Layout::Overlapping;
}

Layout random_output_layout(SplitMix64& rng, bool invalid) {
  const uint64_t r = rng.below(invalid ? 100 : 95);
  if (r < 30) return Layout::Omitted;
  if (r < 40) return Layout::Packed;
  if (r < 60) return Layout::Gapped;
  if (r < 75) return Layout::Permuted;
  if (r < 95) return Layout::PermutedGapped;
  return r < 97 ? Layout::Broadcast : Layout::Overlapping;  // an output may not share offsets
}

namespace {

// Packed strides in the order `inner_to_outer`, with a gap after each run
// when `gaps`; then for a broadcast some dimensions' strides zeroed.
U64s ordered_strides(SplitMix64& rng, const U64s& sizes, const std::vector<std::size_t>& inner_to_outer, bool gaps) {
  U64s strides(sizes.size());
  uint64_t next = gaps ? rng.between(1, 2) : 1;
  for (std::size_t d : inner_to_outer) {
    strides[d] = next;
    next = next * sizes[d] + (gaps ? rng.between(0, 3) : 0);
  }
  return strides;
}

void broadcast(SplitMix64& rng, const U64s& sizes, U64s& strides) {
  bool any = false;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1 && rng.chance(0.5)) strides[d] = 0, any = true;
  }
  if (!any) strides[rng.below(sizes.size())] = 0;
}

}  // namespace

std::optional<U64s> random_strides(SplitMix64& rng, const U64s& sizes, Layout layout) {
  if (layout == Layout::Omitted) return std::nullopt;
  const std::size_t rank = sizes.size();
  if (layout == Layout::Overlapping) {
    U64s strides(rank);
    for (auto& s : strides) s = rng.between(0, 3);
    return strides;
  }
  std::vector<std::size_t> inner_to_outer(rank);
  for (std::size_t d = 0; d < rank; ++d) inner_to_outer[d] = rank - 1 - d;
  const bool permute = layout == Layout::Permuted || layout == Layout::PermutedGapped ||
                       (layout == Layout::Broadcast && rng.chance(0.3));
  if (permute) {
    for (std::size_t i = rank; i > 1; --i) std::swap(inner_to_outer[i - 1], inner_to_outer[rng.below(i)]);
  }
  const bool gaps = layout == Layout::Gapped || layout == Layout::PermutedGapped ||
                    (layout == Layout::Broadcast && rng.chance(0.3));
  U64s strides = ordered_strides(rng, sizes, inner_to_outer, gaps);
  if (layout == Layout::Broadcast) broadcast(rng, sizes, strides);
  return strides;
}

}  // namespace stridescope::random
