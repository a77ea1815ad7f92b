// The fast CPU backend tests' draws, from core's one random spec generator
// (core/io/random_request.h): every op, all eleven data types, ranks 1-8
// (4-5 for pooling), packed, gapped, permuted, broadcast and overlapping
// inputs, gapped and permuted outputs, negative slice1 strides, paddings
// beyond the input size, pooling with dilation, asymmetric padding and
// UINT32/UINT64 indices; `big` draws long rows for the threaded, vector and
// streaming paths. Draws may be invalid; Operation::make decides. Input
// buffers lean on ties, NaNs with payloads, signed zeros, infinities,
// denormals and type extremes (core/io/random_values.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/op_request.h"
#include "core/tensor_desc.h"
#include "reference/rng.h"

namespace stridescope::testing {

using Rng = reference::Rng;

struct DrawOptions {
  bool big = false;  // large enough for the threaded, vector and streaming paths
  std::optional<OpKind> kind;
};

// Output elements beyond which a draw is not worth the reference's time.
inline constexpr uint64_t kMaxSmallOutput = 20000;
inline constexpr uint64_t kMaxBigOutput = 400000;

OpRequest random_request(Rng& rng, const DrawOptions& options);

// Fills the input buffer of `desc` with the generator's troublesome values.
void fill_random(Rng& rng, const TensorDesc& desc, std::span<std::byte> buffer);

// "padding FLOAT16 in[2,3]/[3,1] out[..]/[..] start[..] ..." for failure messages.
std::string describe(const OpRequest& request);

}  // namespace stridescope::testing
