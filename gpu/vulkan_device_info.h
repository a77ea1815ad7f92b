// What the Vulkan loader reports about one physical device: what
// list_vulkan_devices() lists and VulkanBackend::device_info() returns. In a
// header of its own so that the device layer (gpu/vk_context.h) needs
// nothing of the backend above it.
#pragma once

#include <cstdint>
#include <string>

namespace stridescope {

struct VulkanDeviceInfo {
  uint32_t index = 0;        // position in vkEnumeratePhysicalDevices
  std::string name;          // VkPhysicalDeviceProperties::deviceName
  std::string type;          // "discrete", "integrated", "virtual", "cpu" or "other"
  uint32_t api_version = 0;  // VK_MAKE_API_VERSION encoded
  bool has_compute = false;  // has a queue family with compute
};

}  // namespace stridescope
