// The fast CPU kernels for SimdLevel::Avx512 (flags set in CMakeLists.txt).
#define STRIDESCOPE_KERNEL_NS isa_avx512
#define STRIDESCOPE_KERNEL_LEVEL ::stridescope::fast::SimdLevel::Avx512
#define STRIDESCOPE_VECTOR_BYTES 64
#include "core/fast/kernels.inc"
