#include "gpu/vk_functions.h"

#include <dlfcn.h>

#include "gpu/vk_error.h"
#include "gpu/vk_faults.h"

namespace stridescope::gpu {

VulkanLibrary::~VulkanLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

Expected<std::shared_ptr<const VulkanLibrary>> VulkanLibrary::open(const std::string& path) {
  std::shared_ptr<VulkanLibrary> library(new VulkanLibrary());
  const std::string tried = path.empty() ? "libvulkan.so.1" : path;
  // Fault injection (vk_faults.h) can pretend the machine has no loader.
  const bool pretend_missing = faults::missing_loader();
  if (!pretend_missing) library->handle_ = dlopen(tried.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library->handle_ == nullptr && path.empty() && !pretend_missing) {
    library->handle_ = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
  }
  if (library->handle_ == nullptr) {
    return backend_unavailable("no Vulkan loader: cannot open " + tried + " (install the Vulkan loader, " +
                               "e.g. Debian's libvulkan1, and a driver such as mesa-vulkan-drivers)");
  }
  library->vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library->handle_, "vkGetInstanceProcAddr"));
  if (library->vkGetInstanceProcAddr == nullptr) {
    return backend_unavailable(tried + " has no vkGetInstanceProcAddr; it is not a Vulkan loader");
  }
#define STRIDESCOPE_VK_LOAD_GLOBAL(name)                                                               \
  library->name = reinterpret_cast<PFN_##name>(library->vkGetInstanceProcAddr(VK_NULL_HANDLE, #name)); \
  if (library->name == nullptr) return backend_unavailable("the Vulkan loader lacks " #name);
  STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_LOAD_GLOBAL)
#undef STRIDESCOPE_VK_LOAD_GLOBAL
  if (faults::enabled()) {
    SS_RETURN_IF_ERROR(faults::wrap(*library));
  }
  return std::shared_ptr<const VulkanLibrary>(std::move(library));
}

Expected<InstanceFunctions> InstanceFunctions::load(const VulkanLibrary& library, VkInstance instance) {
  InstanceFunctions f;
#define STRIDESCOPE_VK_LOAD_INSTANCE(name)                                               \
  f.name = reinterpret_cast<PFN_##name>(library.vkGetInstanceProcAddr(instance, #name)); \
  if (f.name == nullptr) return backend_unavailable("the Vulkan instance lacks " #name);
  STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_LOAD_INSTANCE)
#undef STRIDESCOPE_VK_LOAD_INSTANCE
#define STRIDESCOPE_VK_LOAD_OPTIONAL(name) \
  f.name = reinterpret_cast<PFN_##name>(library.vkGetInstanceProcAddr(instance, #name));
  STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_LOAD_OPTIONAL)
#undef STRIDESCOPE_VK_LOAD_OPTIONAL
  if (faults::enabled()) {
    SS_RETURN_IF_ERROR(faults::wrap(f));
  }
  return f;
}

Expected<DeviceFunctions> DeviceFunctions::load(const InstanceFunctions& instance, VkDevice device) {
  DeviceFunctions f;
#define STRIDESCOPE_VK_LOAD_DEVICE(name)                                              \
  f.name = reinterpret_cast<PFN_##name>(instance.vkGetDeviceProcAddr(device, #name)); \
  if (f.name == nullptr) return backend_unavailable("the Vulkan device lacks " #name);
  STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_LOAD_DEVICE)
#undef STRIDESCOPE_VK_LOAD_DEVICE
  if (faults::enabled()) {
    SS_RETURN_IF_ERROR(faults::wrap(f));
  }
  return f;
}

}  // namespace stridescope::gpu
