// The fast CPU kernels for SimdLevel::Baseline (flags set in CMakeLists.txt).
#define STRIDESCOPE_KERNEL_NS isa_baseline
#define STRIDESCOPE_KERNEL_LEVEL ::stridescope::fast::SimdLevel::Baseline
#define STRIDESCOPE_VECTOR_BYTES 16
#include "core/fast/kernels.inc"
