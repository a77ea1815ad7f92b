// StrideScope's one random spec generator: the draws behind
// `stridescope-cli generate` and `selftest` (random_spec.h) and behind every
// randomized test (core's validator and CPU backend, the fast CPU backend,
// the Vulkan backend). SplitMix64 alone, no std:: distributions, so a seed
// names the same request on every platform and standard library.
//
// A draw covers every op over every data type: ranks 1 to 8 (4-D and 5-D for
// max_pooling2); packed, gapped, permuted (NHWC-like), broadcast (stride 0)
// and, when asked, overlapping inputs; packed, gapped and permuted outputs;
// slice windows with strides, slice1 windows with negative strides and
// output sizes below what the window supplies; every padding mode with
// paddings beyond the input size (folding several times); pooling with
// dilation, asymmetric padding, omitted defaults and UINT32/UINT64 indices.
// With `spoil`, a few draws are invalid on purpose (overlapping or broadcast
// outputs, wrong output sizes or types, zero strides, windows outside the
// input, windows wholly in padding, paddingValues outside the type), so
// validators are exercised too.
#pragma once

#include <cstdint>
#include <optional>

#include "core/data_type.h"
#include "core/op_request.h"
#include "core/split_mix64.h"

namespace stridescope::random {

enum class SizeClass {
  Small,  // tens of elements: many cases per second, every corner reached
  Big,    // tens of thousands: long rows for threaded, vector and streaming paths
};

struct DrawOptions {
  std::optional<OpKind> op;        // any op when empty
  std::optional<DataType> type;    // any type when empty
  SizeClass size_class = SizeClass::Small;
  uint64_t max_elements = 0;         // the input's elements; 0: the op's own (48 to 384; big 20000 to 150000)
  uint64_t max_output_elements = 0;  // what padding may grow to; 0: 16 x max_elements (big 400000)
  bool spoil = false;                // a few draws invalid on purpose, for validator tests
  bool overlapping_inputs = false;   // inputs whose elements share offsets (valid, but not for every consumer)
};

// One request; valid unless `spoil` spoiled it (Operation::make decides).
OpRequest random_request(SplitMix64& rng, const DrawOptions& options);

}  // namespace stridescope::random
