#include "gpu/vk_buffer.h"

#include <algorithm>
#include <string>

#include "gpu/vk_error.h"

namespace stridescope::gpu {

std::optional<uint32_t> choose_memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed,
                                           MemoryUse use) {
  std::optional<uint32_t> best;
  int best_score = -1;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if ((allowed & (1u << i)) == 0) continue;
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    const bool device_local = (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
    const bool visible = (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0;
    const bool coherent = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    const bool cached = (flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0;
    int score = -1;
    switch (use) {
      case MemoryUse::DeviceMapped:
        if (visible) score = (device_local ? 4 : 0) + (coherent ? 2 : 0) + (cached ? 1 : 0);
        break;
      case MemoryUse::DeviceOnly:
        if (device_local) score = visible ? 0 : 2;
        break;
      case MemoryUse::Staging:
        if (visible) score = (cached ? 2 : 0) + (coherent ? 1 : 0);
        break;
    }
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

Expected<Buffer> Buffer::create(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
                                std::string_view what) {
  const DeviceFunctions& vk = context.vk();
  const std::string name(what);
  Buffer buffer;
  buffer.size_ = size;

  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer handle = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkCreateBuffer(context.device(), &info, nullptr, &handle), "creating " + name));
  buffer.buffer_ = BufferHandle(vk, context.device(), handle);

  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(context.device(), handle, &requirements);
  const auto type = choose_memory_type(context.memory(), requirements.memoryTypeBits, use);
  if (!type) {
    return Error{ErrorCode::BackendFailure, "", "no suitable memory type for " + name + " on this device"};
  }
  // Drivers may accept more than their heap and fail later (lavapipe takes
  // 3 GB from a 2 GiB heap): refuse it here with a clear message instead.
  const VkDeviceSize heap = context.memory().memoryHeaps[context.memory().memoryTypes[*type].heapIndex].size;
  if (requirements.size > heap) {
    return Error{ErrorCode::BackendFailure, "",
                 "out of device memory: " + name + " needs " + std::to_string(size) +
                     " bytes but the device's memory heap holds " + std::to_string(heap)};
  }
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkAllocateMemory(context.device(), &allocate, nullptr, &memory),
                              "allocating " + std::to_string(size) + " bytes for " + name));
  buffer.memory_ = DeviceMemory(vk, context.device(), memory);
  buffer.allocation_size_ = requirements.size;
  buffer.memory_type_ = *type;
  SS_RETURN_IF_ERROR(vk_check(vk.vkBindBufferMemory(context.device(), handle, memory, 0), "binding memory to " + name));
  const VkMemoryPropertyFlags flags = context.memory().memoryTypes[*type].propertyFlags;
  buffer.coherent_ = (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  if ((flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0) {
    void* mapped = nullptr;
    SS_RETURN_IF_ERROR(vk_check(vk.vkMapMemory(context.device(), memory, 0, VK_WHOLE_SIZE, 0, &mapped), "mapping " + name));
    buffer.mapped_ = static_cast<std::byte*>(mapped);
  }
  return buffer;
}

VkMappedMemoryRange Buffer::atom_range(const Context& context, VkDeviceSize offset, VkDeviceSize size) const {
  // Ranges must start and end on nonCoherentAtomSize, or end at the allocation's end.
  const VkDeviceSize atom = std::max<VkDeviceSize>(context.limits().nonCoherentAtomSize, 1);
  const VkDeviceSize begin = offset / atom * atom;
  const VkDeviceSize end = std::min(allocation_size_, (offset + size + atom - 1) / atom * atom);
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory_.get();
  range.offset = begin;
  range.size = end - begin;
  return range;
}

Status Buffer::flush(const Context& context, VkDeviceSize offset, VkDeviceSize size) const {
  if (coherent_ || size == 0) return {};
  const VkMappedMemoryRange range = atom_range(context, offset, size);
  return vk_check(context.vk().vkFlushMappedMemoryRanges(context.device(), 1, &range), "flushing host writes");
}

Status Buffer::invalidate(const Context& context, VkDeviceSize offset, VkDeviceSize size) const {
  if (coherent_ || size == 0) return {};
  const VkMappedMemoryRange range = atom_range(context, offset, size);
  return vk_check(context.vk().vkInvalidateMappedMemoryRanges(context.device(), 1, &range),
                  "invalidating device writes");
}

}  // namespace stridescope::gpu
