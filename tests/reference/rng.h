// The tests' one random generator: SplitMix64, the same stream on every
// platform and standard library (std:: distributions are not), so a seed
// names the same specs and data everywhere.
#pragma once

#include <cstdint>

namespace stridescope::reference {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }  // [0, n); 0 when n == 0
  uint64_t range(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }  // [lo, hi]
  int64_t between(int64_t lo, int64_t hi) {  // [lo, hi]
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1p-53 < p; }

 private:
  uint64_t state_;
};

}  // namespace stridescope::reference
