// The fast CPU kernels for SimdLevel::Avx2 (flags set in CMakeLists.txt).
#define STRIDESCOPE_KERNEL_NS isa_avx2
#define STRIDESCOPE_KERNEL_LEVEL ::stridescope::fast::SimdLevel::Avx2
#define STRIDESCOPE_VECTOR_BYTES 32
#include "core/fast/kernels.inc"
