#include "gpu/driver_pins.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRIDESCOPE_GPU_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define STRIDESCOPE_GPU_UNDER_ASAN 1
#endif

#if defined(STRIDESCOPE_GPU_UNDER_ASAN)
#include <dlfcn.h>
#include <link.h>

#include <string>
#include <vector>
#endif

namespace stridescope::gpu {

#if defined(STRIDESCOPE_GPU_UNDER_ASAN)
namespace {

bool is_vulkan_driver_or_layer(const std::string& path) {
  const std::string file = path.substr(path.find_last_of('/') + 1);
  return file.rfind("libvulkan_", 0) == 0 || file.rfind("libVkLayer_", 0) == 0;
}

}  // namespace

void keep_vulkan_drivers_loaded() {
  std::vector<std::string> paths;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        if (info->dlpi_name != nullptr && is_vulkan_driver_or_layer(info->dlpi_name)) {
          static_cast<std::vector<std::string>*>(out)->push_back(info->dlpi_name);
        }
        return 0;
      },
      &paths);
  // RTLD_NOLOAD: only what is loaded already; the reference this takes is
  // never closed, and RTLD_NODELETE keeps the library past the loader's dlclose.
  for (const std::string& path : paths) dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}
#else
void keep_vulkan_drivers_loaded() {}
#endif

}  // namespace stridescope::gpu
