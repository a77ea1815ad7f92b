// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose stream is the
// same on every platform and standard library (the std:: distributions are
// not), so a seed names the same random fill or random spec everywhere.
#pragma once

#include <cstdint>

namespace stridescope {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double next_unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }                 // [0, n); 0 when n is 0
  uint64_t between(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }  // [lo, hi]
  bool chance(double p) { return next_unit() < p; }

 private:
  uint64_t state_;
};

}  // namespace stridescope
