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
  slot = Slot{};
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  auto device_buffer =
      Buffer::create(context_, size, usage, staging_ ? MemoryUse::DeviceOnly : MemoryUse::DeviceMapped, what);
  if (!device_buffer) return device_buffer.error();
  slot.device = std::move(*device_buffer);
  if (staging_) {
    auto host = Buffer::create(context_, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               MemoryUse::Staging, std::string(what) + " (staging)");
    if (!host) return host.error();
    slot.staging = std::move(*host);
  }
  return {};
}

Status StagedBuffers::write(const Slot& slot, std::span<const std::byte> bytes) const {
  const Buffer& host = host_side(slot);
  std::memcpy(host.mapped(), bytes.data(), bytes.size());
  return host.flush(context_, 0, bytes.size());
}

Status StagedBuffers::read(const Slot& slot, std::span<std::byte> bytes) const {
  const Buffer& host = host_side(slot);
  if (auto s = host.invalidate(context_, 0, bytes.size()); !s) return s;
  std::memcpy(bytes.data(), host.mapped(), bytes.size());
  return {};
}

}  // namespace stridescope::gpu
