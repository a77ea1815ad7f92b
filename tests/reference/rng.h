// The tests' one random generator: SplitMix64, the same stream on every
// platform and standard library (std:: distributions are not), so a seed
// names the same specs and data everywhere.
#pragma once

#include <cstdint>

#include "core/split_mix64.h"

namespace stridescope::reference {

// core's SplitMix64 with the ranges the generators ask for.
class Rng : public SplitMix64 {
 public:
  explicit Rng(uint64_t seed) : SplitMix64(seed) {}
  uint64_t range(uint64_t lo, uint64_t hi) { return SplitMix64::between(lo, hi); }  // [lo, hi]
  int64_t between(int64_t lo, int64_t hi) {  // [lo, hi]
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
};

}  // namespace stridescope::reference
