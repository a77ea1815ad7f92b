// The fast CPU kernels for SimdLevel::Avx512 (flags set in CMakeLists.txt).
#define STRIDESCOPE_KERNEL_NS isa_avx512
#define STRIDESCOPE_KERNEL_LEVEL ::stridescope::fast::SimdLevel::Avx512
#define STRIDESCOPE_VECTOR_BYTES 64
// GCC 12's own AVX-512 headers trip -Wmaybe-uninitialized: the widening
// intrinsics (_mm512_cvtepu8_epi64 and kin) pass an undefined vector as the
// unused merge source of their masked builtin (a GCC 12 header issue).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "core/fast/kernels.inc"
