// One small move-only owner per Vulkan object. Each destroys its handle
// exactly once; copies are deleted. Objects are made by the factories in
// vk_context.h, vk_buffer.h and vk_pipelines.h, which return the object or an
// Error, never a half-made one.
#pragma once

#include <utility>

#include "gpu/vk_functions.h"

namespace stridescope::gpu {

// A handle owned by a VkDevice and destroyed by `vkDestroyXxx(device, handle,
// nullptr)`; `Destroy` names that function in DeviceFunctions. The
// DeviceFunctions must outlive the object (the Context owns them).
template <class Handle, auto Destroy>
class DeviceObject {
 public:
  DeviceObject() = default;
  DeviceObject(const DeviceFunctions& functions, VkDevice device, Handle handle)
      : functions_(&functions), device_(device), handle_(handle) {}
  ~DeviceObject() { reset(); }

  DeviceObject(const DeviceObject&) = delete;
  DeviceObject& operator=(const DeviceObject&) = delete;
  DeviceObject(DeviceObject&& other) noexcept
      : functions_(other.functions_), device_(other.device_), handle_(std::exchange(other.handle_, Handle{})) {}
  DeviceObject& operator=(DeviceObject&& other) noexcept {
    if (this != &other) {
      reset();
      functions_ = other.functions_;
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, Handle{});
    }
    return *this;
  }

  Handle get() const { return handle_; }
  explicit operator bool() const { return handle_ != Handle{}; }

  void reset() {
    if (handle_ != Handle{}) (functions_->*Destroy)(device_, handle_, nullptr);
    handle_ = Handle{};
  }

 private:
  const DeviceFunctions* functions_ = nullptr;
  VkDevice device_ = VK_NULL_HANDLE;
  Handle handle_{};
};

using DeviceMemory = DeviceObject<VkDeviceMemory, &DeviceFunctions::vkFreeMemory>;
using BufferHandle = DeviceObject<VkBuffer, &DeviceFunctions::vkDestroyBuffer>;
using BufferView = DeviceObject<VkBufferView, &DeviceFunctions::vkDestroyBufferView>;
using ImageHandle = DeviceObject<VkImage, &DeviceFunctions::vkDestroyImage>;
using ShaderModule = DeviceObject<VkShaderModule, &DeviceFunctions::vkDestroyShaderModule>;
using DescriptorSetLayout = DeviceObject<VkDescriptorSetLayout, &DeviceFunctions::vkDestroyDescriptorSetLayout>;
using PipelineLayout = DeviceObject<VkPipelineLayout, &DeviceFunctions::vkDestroyPipelineLayout>;
using Pipeline = DeviceObject<VkPipeline, &DeviceFunctions::vkDestroyPipeline>;
using DescriptorPool = DeviceObject<VkDescriptorPool, &DeviceFunctions::vkDestroyDescriptorPool>;
using CommandPool = DeviceObject<VkCommandPool, &DeviceFunctions::vkDestroyCommandPool>;
using QueryPool = DeviceObject<VkQueryPool, &DeviceFunctions::vkDestroyQueryPool>;
using Fence = DeviceObject<VkFence, &DeviceFunctions::vkDestroyFence>;

// The instance, with the functions loaded for it.
class Instance {
 public:
  Instance() = default;
  Instance(std::shared_ptr<const VulkanLibrary> library, InstanceFunctions functions, VkInstance handle)
      : library_(std::move(library)), functions_(functions), handle_(handle) {}
  ~Instance() { reset(); }

  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
  Instance(Instance&& other) noexcept
      : library_(std::move(other.library_)), functions_(other.functions_),
        handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  Instance& operator=(Instance&& other) noexcept {
    if (this != &other) {
      reset();
      library_ = std::move(other.library_);
      functions_ = other.functions_;
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }

  VkInstance get() const { return handle_; }
  const InstanceFunctions& functions() const { return functions_; }

  void reset() {
    if (handle_ != VK_NULL_HANDLE) functions_.vkDestroyInstance(handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }

 private:
  std::shared_ptr<const VulkanLibrary> library_;  // keeps the loader open
  InstanceFunctions functions_{};
  VkInstance handle_ = VK_NULL_HANDLE;
};

// The VK_EXT_debug_utils messenger of a validation run.
class DebugMessenger {
 public:
  DebugMessenger() = default;
  DebugMessenger(const Instance& instance, VkDebugUtilsMessengerEXT handle)
      : instance_(&instance), handle_(handle) {}
  ~DebugMessenger() { reset(); }

  DebugMessenger(const DebugMessenger&) = delete;
  DebugMessenger& operator=(const DebugMessenger&) = delete;
  DebugMessenger(DebugMessenger&& other) noexcept
      : instance_(other.instance_), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  DebugMessenger& operator=(DebugMessenger&& other) noexcept {
    if (this != &other) {
      reset();
      instance_ = other.instance_;
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }

  void reset() {
    if (handle_ != VK_NULL_HANDLE) {
      instance_->functions().vkDestroyDebugUtilsMessengerEXT(instance_->get(), handle_, nullptr);
    }
    handle_ = VK_NULL_HANDLE;
  }

 private:
  const Instance* instance_ = nullptr;
  VkDebugUtilsMessengerEXT handle_ = VK_NULL_HANDLE;
};

// The logical device with its functions; they live on the heap so that the
// DeviceObjects pointing at them survive a move of the Device.
class Device {
 public:
  Device() = default;
  Device(std::unique_ptr<DeviceFunctions> functions, VkDevice handle)
      : functions_(std::move(functions)), handle_(handle) {}
  ~Device() { reset(); }

  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  Device(Device&& other) noexcept
      : functions_(std::move(other.functions_)), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
  Device& operator=(Device&& other) noexcept {
    if (this != &other) {
      reset();
      functions_ = std::move(other.functions_);
      handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
    }
    return *this;
  }

  VkDevice get() const { return handle_; }
  const DeviceFunctions& functions() const { return *functions_; }

  void reset() {
    if (handle_ != VK_NULL_HANDLE) {
      functions_->vkDeviceWaitIdle(handle_);
      functions_->vkDestroyDevice(handle_, nullptr);
    }
    handle_ = VK_NULL_HANDLE;
  }

 private:
  std::unique_ptr<DeviceFunctions> functions_;
  VkDevice handle_ = VK_NULL_HANDLE;
};

}  // namespace stridescope::gpu
