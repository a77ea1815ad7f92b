// The Vulkan instance, the chosen physical device and the logical device with
// its one compute queue: everything the backend needs that does not depend on
// the op. Made once per backend; start-up creates no pipelines or buffers.
#pragma once

#include <cstdint>
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "gpu/vk_objects.h"
#include "gpu/vulkan_device_info.h"

namespace stridescope::gpu {

// Validation messages, filled by the debug messenger from any thread.
class ValidationLog {
 public:
  void add(std::string message);
  std::vector<std::string> messages() const;
  void clear();

 private:
  static constexpr std::size_t kMaxMessages = 1000;
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

struct ContextOptions {
  std::optional<std::string> device;  // index or name part; empty: best device
  bool enable_validation = false;
  std::string loader_library;  // empty: the system loader
};

// Picks a device: by index or case-insensitive name part when `request` is
// set, else discrete > integrated > virtual > CPU among devices with compute.
Expected<std::size_t> choose_device(std::span<const VulkanDeviceInfo> devices,
                                    const std::optional<std::string>& request);

// The unsigned-integer colour format whose texel is `texel_bytes` (1, 2, 4,
// 8 or 16) of raw bits; VK_FORMAT_UNDEFINED for other sizes.
VkFormat raw_texel_format(uint32_t texel_bytes);

class Context {
 public:
  static Expected<std::unique_ptr<Context>> create(const ContextOptions& options);
  static Expected<std::vector<VulkanDeviceInfo>> list_devices(const std::string& loader_library = {});

  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  ~Context();

  const DeviceFunctions& vk() const { return device_.functions(); }
  VkDevice device() const { return device_.get(); }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const VkPhysicalDeviceLimits& limits() const { return properties_.limits; }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
  const VulkanDeviceInfo& info() const { return info_; }
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }
  // What a linear 2-D image of raw_texel_format(texel_bytes) may be, with
  // transfer source and destination usage; nullopt where the device has no
  // such image (transfer_lowering.h aliases buffers with these).
  const std::optional<VkImageFormatProperties>& linear_transfer_image(uint32_t texel_bytes) const;
  // Whether buffers may be viewed as uniform texel buffers of 16-byte raw
  // texels (R32G32B32A32_UINT), as the texel shader builds read their source.
  bool uniform_texel_quads() const { return uniform_texel_quads_; }
  // Whether the device has shaderInt64, then enabled (the gather shader's
  // pairs build stores 64-bit words).
  bool shader_int64() const { return shader_int64_; }
  ValidationLog& validation_log() { return log_; }

 private:
  Context() = default;

  ValidationLog log_;  // declared first: messages may arrive until the instance is gone
  Instance instance_;
  DebugMessenger messenger_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  VulkanDeviceInfo info_;
  uint32_t queue_family_ = 0;
  uint32_t timestamp_valid_bits_ = 0;
  std::array<std::optional<VkImageFormatProperties>, 5> linear_transfer_images_;  // texel 2^k bytes
  bool uniform_texel_quads_ = false;
  bool shader_int64_ = false;
  Device device_;
  VkQueue queue_ = VK_NULL_HANDLE;
};

}  // namespace stridescope::gpu
