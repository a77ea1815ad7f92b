// The instruction sets the fast CPU backend's kernels are compiled for, and
// the run-time choice among them. One binary runs everywhere: the kernels are
// built three times on x86-64 (SSE2, AVX2, AVX-512) and the best one this
// CPU (and its operating system) supports is picked when a backend is made.
#pragma once

#include <cstdint>
#include <string_view>

namespace stridescope::fast {

enum class SimdLevel : uint8_t {
  Baseline,  // SSE2 on x86-64; portable code elsewhere
  Avx2,      // AVX2 + FMA + BMI2 (x86-64-v3)
  Avx512,    // AVX-512 F/BW/VL/DQ (x86-64-v4)
};

// The best level compiled into this binary that this CPU runs.
SimdLevel best_simd_level();
// Whether kernels for `level` are compiled in and this CPU runs them.
bool simd_level_supported(SimdLevel level);
// "SSE2", "AVX2", "AVX-512" ("portable" for Baseline off x86).
std::string_view to_string(SimdLevel level);

}  // namespace stridescope::fast
