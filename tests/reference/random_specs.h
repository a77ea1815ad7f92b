// Seeded random operator specs for differential tests, with the DirectML /
// spec format's validity rules (resources/docs/) restated independently of
// core's validator. Shared by every backend's tests (core's CPU backend, the
// fast CPU backend, the Vulkan backend): draw a spec, validate it with
// Operation::make, check the verdict against expected_validity, run, and
// compare bit for bit with reference::run.
//
// The draws are core's one random spec generator (core/io/random_request.h,
// also behind `stridescope-cli generate`), asked for every op over every
// data type with overlapping inputs and a few invalid draws: ranks 1 to 8
// (4-D and 5-D for max_pooling2), packed, gapped, permuted (NHWC-like),
// broadcast (stride 0) and overlapping inputs; packed, gapped and permuted
// outputs, plus a few invalid draws (overlapping outputs, wrong sizes or
// types, zero strides, windows outside the input, paddings whose windows
// miss the input) so validators are exercised too. Element values
// (core/io/random_values.h) favour what breaks backends: ties, NaN (quiet
// and signalling, with payloads), +-0, +-inf, denormals, type extremes and
// 64-bit integers above 2^53. What stays here is what must not come from
// core: the rules, the sentinel, and the messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/io/random_layout.h"
#include "core/io/random_values.h"
#include "core/operation.h"
#include "reference/rng.h"

namespace stridescope::reference {

using U64s = std::vector<uint64_t>;

// The generator's shapes, layouts and values, under the names the tests use.
using random::fill_special;
using random::Layout;
using random::random_sizes;
using random::random_strides;
using random::special_bits;

// A byte pattern for output buffers, which must survive in a gapped output's gaps.
void fill_sentinel(std::span<std::byte> buffer, uint8_t seed);

// Random requests of one op, each `type` throughout; a few are invalid on purpose.
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
