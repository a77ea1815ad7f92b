#include "gpu/staged_buffers.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace stridescope::gpu {

namespace {

constexpr VkDeviceSize kMinAllocation = 64 * 1024;
constexpr VkDeviceSize kAllocationGranularity = 1024 * 1024;

}  // namespace

Status StagedBuffers::ensure(Slot& slot, VkDeviceSize bytes, const char* what) const {
  if (slot.device.get() != VK_NULL_HANDLE && slot.device.size() >= bytes) return {};
  const VkDeviceSize size =
      std::max(kMinAllocation, (bytes + kAllocationGranularity - 1) / kAllocationGranularity * kAllocationGranularity);
  slot = Slot{};  // the old buffers go first: the new ones may need their memory
  // Uniform texel buffer: the texel builds view the input through one (shaders/source_quads.glsl).
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                   VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  // The slot is filled only once both buffers exist: a device buffer left
  // without its staging buffer would pass the size check above on the next
  // run, which would then write through a staging buffer that is not there.
  Slot made;
  SS_ASSIGN_OR_RETURN(made.device, Buffer::create(context_, size, usage,
                                                  staging_ ? MemoryUse::DeviceOnly : MemoryUse::DeviceMapped, what));
  if (staging_) {
    SS_ASSIGN_OR_RETURN(made.staging,
                        Buffer::create(context_, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                       MemoryUse::Staging, std::string(what) + " (staging)"));
  }
  slot = std::move(made);
  return {};
}

Status StagedBuffers::write(const Slot& slot, std::span<const std::byte> bytes) const {
  const Buffer& host = host_side(slot);
  std::memcpy(host.mapped(), bytes.data(), bytes.size());
  return host.flush(context_, 0, bytes.size());
}

Status StagedBuffers::read(const Slot& slot, std::span<std::byte> bytes) const {
  const Buffer& host = host_side(slot);
  SS_RETURN_IF_ERROR(host.invalidate(context_, 0, bytes.size()));
  std::memcpy(bytes.data(), host.mapped(), bytes.size());
  return {};
}

}  // namespace stridescope::gpu
