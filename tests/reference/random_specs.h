// Seeded random operator specs for differential tests, with the DirectML /
// The spec format's validity rules (resources/docs/) restated independently of core's validator.
// Shared by every backend's tests (core's CPU backend, the fast CPU backend,
// the Vulkan backend): draw a spec, validate it with Operation::make, check
// the verdict against expected_validity, run, and compare bit for bit with
// reference::run.
//
// The generators draw every op over every data type: ranks 1 to 8 (4-D and
// 5-D for max_pooling2), packed, gapped, permuted (NHWC-like), broadcast
// (stride 0) and overlapping inputs; packed, gapped and permuted outputs,
// plus a few invalid draws (overlapping outputs, wrong sizes or types, zero
// strides, windows outside the input, paddings whose windows miss the input)
// so validators are exercised too. Element values favour what breaks
// backends: ties, NaN (quiet and signalling, with payloads), +-0, +-inf,
// denormals, type extremes and 64-bit integers above 2^53.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/operation.h"
#include "reference/rng.h"

namespace stridescope::reference {

using U64s = std::vector<uint64_t>;

// Sizes of `rank` dimensions (mostly 1 to 4, one longer now and then) whose
// product is at most `max_elements`.
U64s random_sizes(Rng& rng, std::size_t rank, uint64_t max_elements);

enum class Layout { Omitted, Packed, Gapped, Permuted, PermutedGapped, Broadcast, Overlapping };

// Inputs: any layout. Outputs: mostly valid ones, a few broadcast or
// overlapping (which validation must refuse).
Layout random_layout(Rng& rng, bool output);
// Strides for `sizes` in `layout`; nullopt for Layout::Omitted.
std::optional<U64s> random_strides(Rng& rng, const U64s& sizes, Layout layout);

// One element's bits (zero-extended), biased towards troublesome values.
uint64_t special_bits(Rng& rng, DataType type);
// Fills every whole element of `buffer` with special_bits.
void fill_special(Rng& rng, DataType type, std::span<std::byte> buffer);
// A byte pattern for output buffers, which must survive in a gapped output's gaps.
void fill_sentinel(std::span<std::byte> buffer, uint8_t seed);

// Random requests, each `type` throughout; a few are invalid on purpose.
OpRequest random_identity(Rng& rng, DataType type);
OpRequest random_slice(Rng& rng, DataType type);
OpRequest random_slice1(Rng& rng, DataType type);
OpRequest random_padding(Rng& rng, DataType type);
OpRequest random_pooling(Rng& rng, DataType type);
using Generator = OpRequest (*)(Rng&, DataType);
inline constexpr Generator kAllGenerators[] = {random_identity, random_slice, random_slice1, random_padding,
                                               random_pooling};

// What Operation::make must decide for a request the generators above
// produce (tensor sizes and strides present and in range, buffers small),
// from the DirectML pages and resources/docs/ alone.
struct Validity {
  bool valid = true;
  std::string reason;  // the rule that refuses it, when invalid
  U64s output_sizes;   // the op's output sizes, when valid
};
Validity expected_validity(const OpRequest& request);

// True when no two coordinates of `sizes` share an offset (by enumeration).
bool unique_offsets(const U64s& sizes, const U64s& strides);
// Packed row-major strides (the last dimension has stride 1).
U64s packed_strides(const U64s& sizes);

// The request as a spec file (resources/docs/spec-format.md) would write it, for failure messages.
std::string json_spec(const OpRequest& request);
std::string json_array(std::span<const uint64_t> values);
std::string json_array(std::span<const int64_t> values);

}  // namespace stridescope::reference
