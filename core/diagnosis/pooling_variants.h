// The max_pooling2 mistakes of mistaken_variants.h: indices counted another
// way, another winner rule, padding that takes part, undilated output sizes.
#pragma once

#include <span>
#include <vector>

#include "core/diagnosis/mistaken_variants.h"

namespace stridescope {

// As run_mistaken, for indices-per-plane, indices-as-buffer-offsets,
// indices-column-major, last-maximum-wins, padding-takes-part, nan-ignored
// and undilated-output-size; empty for any other mistake or op.
std::vector<VariantResult> run_pooling_mistake(MistakeId id, const Operation& op, std::span<const std::byte> input);

}  // namespace stridescope
