#include "core/fast/simd_level.h"

#include "core/fast/kernels.h"

// Which kernel copies this build has (set by CMakeLists.txt).
#if defined(STRIDESCOPE_FAST_HAS_AVX512)
namespace stridescope::fast::isa_avx512 { extern const KernelTable kKernels; }
#endif
#if defined(STRIDESCOPE_FAST_HAS_AVX2)
namespace stridescope::fast::isa_avx2 { extern const KernelTable kKernels; }
#endif
namespace stridescope::fast::isa_baseline { extern const KernelTable kKernels; }

namespace stridescope::fast {
namespace {

#if defined(STRIDESCOPE_FAST_HAS_AVX2)
// The features the AVX2 copy is compiled with (-mavx2 -mfma -mbmi -mbmi2).
// libgcc's and compiler-rt's checks include the operating system's support
// for the wider registers (XGETBV).
bool cpu_runs_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
         __builtin_cpu_supports("bmi2");
}
#endif

#if defined(STRIDESCOPE_FAST_HAS_AVX512)
bool cpu_runs_avx512() {
  return cpu_runs_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}
#endif

}  // namespace

bool simd_level_supported(SimdLevel level) {
  switch (level) {
    case SimdLevel::Baseline: return true;
    case SimdLevel::Avx2:
#if defined(STRIDESCOPE_FAST_HAS_AVX2)
      return cpu_runs_avx2();
#else
      return false;
#endif
    case SimdLevel::Avx512:
#if defined(STRIDESCOPE_FAST_HAS_AVX512)
      return cpu_runs_avx512();
#else
      return false;
#endif
  }
  return false;
}

SimdLevel best_simd_level() {
  for (SimdLevel level : {SimdLevel::Avx512, SimdLevel::Avx2}) {
    if (simd_level_supported(level)) return level;
  }
  return SimdLevel::Baseline;
}

std::string_view to_string(SimdLevel level) {
  switch (level) {
    case SimdLevel::Baseline:
#if defined(__x86_64__) || defined(__i386__)
      return "SSE2";
#else
      return "portable";
#endif
    case SimdLevel::Avx2: return "AVX2";
    case SimdLevel::Avx512: return "AVX-512";
  }
  return "?";
}

const KernelTable& kernels_for(SimdLevel level) {
  switch (level) {
#if defined(STRIDESCOPE_FAST_HAS_AVX512)
    case SimdLevel::Avx512: return isa_avx512::kKernels;
#endif
#if defined(STRIDESCOPE_FAST_HAS_AVX2)
    case SimdLevel::Avx2: return isa_avx2::kKernels;
#endif
    default: return isa_baseline::kKernels;
  }
}

}  // namespace stridescope::fast
