// Under AddressSanitizer, Vulkan drivers and layers stay loaded until exit.
//
// The Vulkan loader unloads its drivers and layers when the last instance is
// destroyed. LeakSanitizer looks at exit, so memory a driver keeps for the
// life of the process then has nothing left pointing at it, in an
// "<unknown module>" that no suppression (tests/sanitizers/lsan.supp) can
// name: lavapipe on an AVX2-only CPU keeps 128 bytes that way, and every
// process that starts Vulkan failed the asan build's tests. Kept loaded, the
// driver's globals still reach its memory, and a real leak in a driver
// would be named by its library.
#pragma once

namespace stridescope::gpu {

// Marks every Vulkan driver (libvulkan_*) and layer (libVkLayer_*) now
// loaded as never to be unloaded (RTLD_NODELETE). Does nothing in builds
// without AddressSanitizer.
void keep_vulkan_drivers_loaded();

}  // namespace stridescope::gpu
