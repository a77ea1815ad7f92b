// Seeded random specs that pass validation, with their input data written
// out: the cases of a test corpus (stridescope-cli generate) that another
// implementation of these operators can run and check bit for bit against
// StrideScope's result documents. A seed names the same spec on every
// platform (SplitMix64, no std:: distributions).
//
// The draws are random_request's (random_request.h), the generator the
// tests draw from too: every op (or the one asked for) over every data type,
// ranks 1 to 8, inputs packed, gapped, permuted like NHWC or broadcast
// (stride 0), outputs packed, gapped or permuted, negative slice1 strides,
// every padding mode, pooling with padding, dilation and indices. A draw
// Operation::make refuses is drawn again, so every spec is valid. Values
// favour what breaks implementations: ties, signed zeros, infinities, NaN,
// denormals and the type's extremes (random_values.h).
#pragma once

#include <cstdint>
#include <optional>

#include "core/error.h"
#include "core/io/spec_file.h"
#include "core/op_request.h"

namespace stridescope {

struct RandomSpecOptions {
  std::optional<OpKind> op;   // any op when empty
  uint64_t max_elements = 64;  // per tensor (input and output), at least 1
};

// Errors only for options no spec can meet (max_elements 0).
Expected<Spec> random_spec(uint64_t seed, const RandomSpecOptions& options = {});

}  // namespace stridescope
