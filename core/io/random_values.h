// Element values for the random spec generator: biased towards what breaks
// implementations of these operators (ties, quiet and signalling NaN with
// payloads, +-0, +-inf, denormals, each type's extremes, 64-bit integers
// above 2^53 that a double cannot tell apart). SplitMix64 alone, so a seed
// names the same values everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/data_type.h"
#include "core/scalar.h"
#include "core/split_mix64.h"

namespace stridescope::random {

// One element's bits (zero-extended to 64).
uint64_t special_bits(SplitMix64& rng, DataType type);
// Fills every whole element of `buffer` with special_bits.
void fill_special(SplitMix64& rng, DataType type, std::span<std::byte> buffer);
// special_bits as the value a spec file holds (a NaN's payload is not kept).
Scalar random_value(SplitMix64& rng, DataType type);
// A paddingValue for `type`: the type's ends, signed zero, infinities, NaN,
// denormals, fractions an integer type truncates, integers a float rounds;
// with `out_of_range`, now and then one past the type's range (invalid).
Scalar random_padding_value(SplitMix64& rng, DataType type, bool out_of_range);

}  // namespace stridescope::random
