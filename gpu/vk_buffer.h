// A VkBuffer with its own memory, mapped for its whole life when the memory
// is host-visible. Where the memory is not host-coherent, writes must be
// flushed and reads invalidated (both no-ops on coherent memory).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "core/error.h"
#include "gpu/vk_context.h"
#include "gpu/vk_objects.h"

namespace stridescope::gpu {

enum class MemoryUse {
  DeviceMapped,  // what shaders use, written and read by the host directly: host-visible, device-local preferred
  DeviceOnly,    // what shaders use behind staging copies: device-local, not host-visible preferred
  Staging,       // host-visible, host-cached preferred; source or target of copies only
};

class Buffer {
 public:
  Buffer() = default;
  // `what` names the buffer in errors ("the input buffer").
  static Expected<Buffer> create(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
                                 std::string_view what);

  VkBuffer get() const { return buffer_.get(); }
  VkDeviceSize size() const { return size_; }
  std::byte* mapped() const { return mapped_; }  // nullptr unless host-visible
  bool host_visible() const { return mapped_ != nullptr; }
  // The memory behind the buffer (at offset 0), for images that alias it.
  VkDeviceMemory memory() const { return memory_.get(); }
  uint32_t memory_type() const { return memory_type_; }
  VkDeviceSize allocation_size() const { return allocation_size_; }

  // Make host writes of [offset, offset + size) visible to the device.
  Status flush(const Context& context, VkDeviceSize offset, VkDeviceSize size) const;
  // Make device writes of [offset, offset + size) visible to the host.
  Status invalidate(const Context& context, VkDeviceSize offset, VkDeviceSize size) const;

 private:
  VkMappedMemoryRange atom_range(const Context& context, VkDeviceSize offset, VkDeviceSize size) const;

  DeviceMemory memory_;  // declared first: freed after the buffer is destroyed
  BufferHandle buffer_;
  std::byte* mapped_ = nullptr;
  VkDeviceSize size_ = 0;
  VkDeviceSize allocation_size_ = 0;
  uint32_t memory_type_ = 0;
  bool coherent_ = true;
};

// The memory type for `use` among `allowed` (a memoryTypeBits mask), or none.
std::optional<uint32_t> choose_memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed,
                                           MemoryUse use);

}  // namespace stridescope::gpu
