// The Vulkan entry points StrideScope uses, loaded at run time. The loader
// library (libvulkan.so.1) is opened with dlopen rather than linked, so that
// a machine without Vulkan gets ErrorCode::BackendUnavailable with a clear
// message instead of a program that cannot start.
//
// Every call StrideScope makes into Vulkan goes through these tables, which
// makes them the seam where tests inject faults (gpu/vk_faults.h).
#pragma once

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

#include <memory>
#include <string>

#include "core/error.h"

namespace stridescope::gpu {

#define STRIDESCOPE_VK_GLOBAL_FUNCTIONS(X) \
  X(vkCreateInstance)                      \
  X(vkEnumerateInstanceLayerProperties)    \
  X(vkEnumerateInstanceExtensionProperties)

#define STRIDESCOPE_VK_INSTANCE_FUNCTIONS(X)   \
  X(vkDestroyInstance)                         \
  X(vkEnumeratePhysicalDevices)                \
  X(vkGetPhysicalDeviceProperties)             \
  X(vkGetPhysicalDeviceFeatures)               \
  X(vkGetPhysicalDeviceQueueFamilyProperties)  \
  X(vkGetPhysicalDeviceMemoryProperties)       \
  X(vkGetPhysicalDeviceFormatProperties)       \
  X(vkGetPhysicalDeviceImageFormatProperties)  \
  X(vkCreateDevice)                            \
  X(vkGetDeviceProcAddr)

// Present only when VK_EXT_debug_utils is enabled (validation runs).
#define STRIDESCOPE_VK_DEBUG_FUNCTIONS(X) \
  X(vkCreateDebugUtilsMessengerEXT)       \
  X(vkDestroyDebugUtilsMessengerEXT)

#define STRIDESCOPE_VK_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                       \
  X(vkGetDeviceQueue)                      \
  X(vkCreateBuffer)                        \
  X(vkCreateBufferView)                    \
  X(vkDestroyBufferView)                   \
  X(vkDestroyBuffer)                       \
  X(vkGetBufferMemoryRequirements)         \
  X(vkAllocateMemory)                      \
  X(vkFreeMemory)                          \
  X(vkBindBufferMemory)                    \
  X(vkCreateImage)                         \
  X(vkDestroyImage)                        \
  X(vkGetImageMemoryRequirements)          \
  X(vkGetImageSubresourceLayout)           \
  X(vkBindImageMemory)                     \
  X(vkMapMemory)                           \
  X(vkUnmapMemory)                         \
  X(vkFlushMappedMemoryRanges)             \
  X(vkInvalidateMappedMemoryRanges)        \
  X(vkCreateShaderModule)                  \
  X(vkDestroyShaderModule)                 \
  X(vkCreateDescriptorSetLayout)           \
  X(vkDestroyDescriptorSetLayout)          \
  X(vkCreatePipelineLayout)                \
  X(vkDestroyPipelineLayout)               \
  X(vkCreateComputePipelines)              \
  X(vkDestroyPipeline)                     \
  X(vkCreateDescriptorPool)                \
  X(vkDestroyDescriptorPool)               \
  X(vkResetDescriptorPool)                 \
  X(vkAllocateDescriptorSets)              \
  X(vkUpdateDescriptorSets)                \
  X(vkCreateCommandPool)                   \
  X(vkDestroyCommandPool)                  \
  X(vkAllocateCommandBuffers)              \
  X(vkResetCommandPool)                    \
  X(vkBeginCommandBuffer)                  \
  X(vkEndCommandBuffer)                    \
  X(vkCmdBindPipeline)                     \
  X(vkCmdBindDescriptorSets)               \
  X(vkCmdPushConstants)                    \
  X(vkCmdDispatch)                         \
  X(vkCmdCopyBuffer)                       \
  X(vkCmdCopyBufferToImage)                \
  X(vkCmdCopyImageToBuffer)                \
  X(vkCmdFillBuffer)                       \
  X(vkCmdPipelineBarrier)                  \
  X(vkCmdWriteTimestamp)                   \
  X(vkCmdResetQueryPool)                   \
  X(vkCreateQueryPool)                     \
  X(vkDestroyQueryPool)                    \
  X(vkGetQueryPoolResults)                 \
  X(vkCreateFence)                         \
  X(vkDestroyFence)                        \
  X(vkResetFences)                         \
  X(vkWaitForFences)                       \
  X(vkQueueSubmit)                         \
  X(vkDeviceWaitIdle)

#define STRIDESCOPE_VK_DECLARE(name) PFN_##name name = nullptr;

// The opened loader library and its global-level functions. Move-only; the
// library stays open while any Vulkan object made through it lives.
class VulkanLibrary {
 public:
  // Opens `path`, or the usual names ("libvulkan.so.1", "libvulkan.so") when empty.
  static Expected<std::shared_ptr<const VulkanLibrary>> open(const std::string& path = {});

  ~VulkanLibrary();
  VulkanLibrary(const VulkanLibrary&) = delete;
  VulkanLibrary& operator=(const VulkanLibrary&) = delete;

  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_DECLARE)

 private:
  VulkanLibrary() = default;
  void* handle_ = nullptr;
};

struct InstanceFunctions {
  STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_DECLARE)
  STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_DECLARE)

  // Error when a core function is missing; debug functions may stay null.
  static Expected<InstanceFunctions> load(const VulkanLibrary& library, VkInstance instance);
};

struct DeviceFunctions {
  STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_DECLARE)

  static Expected<DeviceFunctions> load(const InstanceFunctions& instance, VkDevice device);
};

}  // namespace stridescope::gpu
