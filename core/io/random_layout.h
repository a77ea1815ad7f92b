// Sizes and strides for the random spec generator (random_request.h): the
// tensor shapes and memory layouts that break implementations of these
// operators. Seeded by SplitMix64 alone, so a seed names the same draw on
// every platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/split_mix64.h"

namespace stridescope::random {

using U64s = std::vector<uint64_t>;

uint64_t product(const U64s& sizes);

// Sizes of `rank` dimensions (mostly 1 to 4, one longer now and then) whose
// product is at most `max_elements`.
U64s random_sizes(SplitMix64& rng, std::size_t rank, uint64_t max_elements);
// Sizes whose last dimensions carry the bulk (tens of thousands of elements,
// at most `max_elements`): long rows for threaded, vector and streaming paths.
U64s random_big_sizes(SplitMix64& rng, std::size_t rank, uint64_t max_elements);

enum class Layout { Omitted, Packed, Gapped, Permuted, PermutedGapped, Broadcast, Overlapping };

// Which layouts a draw may take. Inputs: any, overlapping ones only when
// `overlapping`. Outputs: packed, gapped or permuted, and with `invalid` a few
// broadcast or overlapping ones, which validation must refuse.
Layout random_input_layout(SplitMix64& rng, bool overlapping);
Layout random_output_layout(SplitMix64& rng, bool invalid);
// Strides for `sizes` in `layout`; nullopt for Layout::Omitted.
std::optional<U64s> random_strides(SplitMix64& rng, const U64s& sizes, Layout layout);

}  // namespace stridescope::random
