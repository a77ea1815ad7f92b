// A test seam at the Vulkan call boundary: make any Vulkan function that
// returns a VkResult fail, as a driver would, so that faults lavapipe never
// has (a lost device, device memory running out, no loader, no driver) can
// be made to happen in tests.
//
//   ScopedVulkanFaults faults;              // backends made from now on are wrapped
//   auto backend = VulkanBackend::create({});
//   faults.inject({"vkQueueSubmit", VK_ERROR_DEVICE_LOST});
//   backend->run(...)                       // -> "the Vulkan device was lost while submitting work"
//
// While a ScopedVulkanFaults lives, the function tables of gpu/vk_functions.h
// that are loaded point at wrappers that count calls, return an injected
// error instead of calling the driver, and otherwise call the driver. Tables
// loaded outside that scope are the driver's own (nothing changes, nothing is
// slower). Each wrapped table has its own wrappers (up to 16 sets of driver
// functions per scope), so backends with and without validation, or made
// again after the driver was unloaded, may share a scope. Backends made in a
// scope must be destroyed before the next scope begins.
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "core/error.h"
#include "gpu/vk_functions.h"

namespace stridescope::gpu {

struct VulkanFault {
  std::string function;  // "vkQueueSubmit", any function of vk_functions.h returning VkResult
  VkResult result = VK_ERROR_DEVICE_LOST;
  uint64_t skip = 0;  // calls that still reach the driver before the first failing one
  uint64_t times = std::numeric_limits<uint64_t>::max();  // failing calls, then it passes again
};

class ScopedVulkanFaults {
 public:
  ScopedVulkanFaults();  // at most one at a time
  ~ScopedVulkanFaults();
  ScopedVulkanFaults(const ScopedVulkanFaults&) = delete;
  ScopedVulkanFaults& operator=(const ScopedVulkanFaults&) = delete;

  // Adds a fault; several may be armed for different functions.
  void inject(VulkanFault fault);
  // Disarms every fault (calls go to the driver again); counts are kept.
  void clear();
  // The loader cannot be opened, as on a machine without libvulkan.so.1.
  void set_missing_loader(bool missing);
  // Calls made to `function` through wrapped tables since the scope began
  // (failed ones included).
  uint64_t calls(std::string_view function) const;
};

namespace faults {

// For vk_functions.cpp: whether a ScopedVulkanFaults lives, whether it
// pretends there is no loader, and the wrapping of a freshly loaded table
// (BackendUnavailable when it would mix two Vulkan configurations).
bool enabled();
bool missing_loader();
Status wrap(VulkanLibrary& library);
Status wrap(InstanceFunctions& functions);
Status wrap(DeviceFunctions& functions);

}  // namespace faults
}  // namespace stridescope::gpu
