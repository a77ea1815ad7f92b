// The Vulkan tests' use of the suite's shared random specs
// (tests/reference/random_specs.h): draws that core accepts, and their input
// buffers. The shared generators choose every spec; the one GPU-specific
// addition is widen(), below. What else is GPU-specific (work split over
// tiny binding windows, one workgroup per dispatch, forced staging) is set on
// the backend by the tests, not in the specs.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/operation.h"
#include "reference/random_specs.h"

namespace stridescope::test {

// The shared generator of `kind`'s requests.
reference::Generator generator_for(OpKind kind);

// Draws from `generate` until Operation::make accepts (the shared generators
// spoil a few draws on purpose; core's validator is checked on those by the
// core tests), up to `attempts`. `request`, when given, receives the draw.
std::optional<Operation> draw_valid(reference::Generator generate, DataType type, reference::Rng& rng,
                                    OpRequest* request = nullptr, int attempts = 50);

// The shared generators keep identity outputs within 64 elements and
// max_pooling2 outputs within a few hundred, mostly under 64: one workgroup
// of the shaders (64 invocations). widen() grows the request's outermost
// output dimension (identity: any; max_pooling2: batch or channel, which map
// to themselves) on input and output alike, so the output needs several
// workgroups (and, under tiny binding windows, several boxes), keeping the
// draw's layouts, strides and params. nullopt where core refuses the result
// (a permuted output whose outermost dimension cannot grow without overlap).
std::optional<OpRequest> widen(const OpRequest& request, const Operation& op, reference::Rng& rng);

// draw_valid, then for identity and max_pooling2 one draw in three widened
// (when core accepts the widened request). What the Vulkan tests draw.
std::optional<Operation> draw_for_gpu(OpKind kind, DataType type, reference::Rng& rng, OpRequest* request = nullptr);

// The input buffer of `desc`, its elements from reference::fill_special
// (ties, NaN payloads, +-0, +-inf, denormals, integers above 2^53).
std::vector<std::byte> special_input(const TensorDesc& desc, reference::Rng& rng);

}  // namespace stridescope::test
