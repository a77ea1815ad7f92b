#include "gpu/box_descriptors.h"

#include <algorithm>

#include "gpu/shaders/meta_layout.h"
#include "gpu/vk_error.h"

namespace stridescope::gpu {

Status BoxDescriptors::ensure(uint32_t sets) {
  const DeviceFunctions& vk = context_.vk();
  if (sets <= capacity_) {
    if (sets == 0) return {};
    return vk_check(vk.vkResetDescriptorPool(context_.device(), pool_.get(), 0), "resetting the descriptor pool");
  }
  pool_.reset();
  capacity_ = 0;
  const uint32_t capacity = std::max<uint32_t>(sets, 16);
  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, capacity * 2},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, capacity * 4}};
  VkDescriptorPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  info.maxSets = capacity;
  info.poolSizeCount = 2;
  info.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  if (auto s = vk_check(vk.vkCreateDescriptorPool(context_.device(), &info, nullptr, &pool),
                        "creating a descriptor pool");
      !s) {
    return s;
  }
  pool_ = DescriptorPool(vk, context_.device(), pool);
  capacity_ = capacity;
  return {};
}

Expected<std::vector<VkDescriptorSet>> BoxDescriptors::bind(const ComputePass& pass, const MetaLayout& layout,
                                                            VkDescriptorSetLayout set_layout,
                                                            const PassBuffers& buffers) {
  const DeviceFunctions& vk = context_.vk();
  const uint32_t count = static_cast<uint32_t>(pass.boxes.size());
  SS_RETURN_IF_ERROR(ensure(count));
  std::vector<VkDescriptorSetLayout> layouts(count, set_layout);
  VkDescriptorSetAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  alloc.descriptorPool = pool_.get();
  alloc.descriptorSetCount = count;
  alloc.pSetLayouts = layouts.data();
  std::vector<VkDescriptorSet> sets(count);
  SS_RETURN_IF_ERROR(vk_check(vk.vkAllocateDescriptorSets(context_.device(), &alloc, sets.data()),
                              "allocating descriptor sets"));
  const uint32_t bindings = binding_count(pass.key.shader);
  std::vector<VkDescriptorBufferInfo> infos;
  infos.reserve(static_cast<std::size_t>(count) * bindings);
  std::vector<VkWriteDescriptorSet> writes;
  // A small valid range standing in for bindings the shader does not use.
  const VkDescriptorBufferInfo unused{buffers.meta, layout.tables_offset, 16};
  for (uint32_t b = 0; b < count; ++b) {
    const WorkBox& box = pass.boxes[b];
    infos.push_back({buffers.meta, b * layout.block_stride, SS_BOX_WORDS * sizeof(uint32_t)});
    infos.push_back({buffers.meta, layout.tables_offset, layout.table_quads * VkDeviceSize{16}});
    infos.push_back(layout.tables_in_storage
                        ? VkDescriptorBufferInfo{buffers.meta, layout.tables_offset, layout.table_bytes}
                        : unused);
    infos.push_back({buffers.input, box.input.offset, box.input.range});
    infos.push_back({buffers.output, box.output.offset, box.output.range});
    if (bindings == 6) {
      infos.push_back(buffers.indices != VK_NULL_HANDLE
                          ? VkDescriptorBufferInfo{buffers.indices, box.indices.offset, box.indices.range}
                          : unused);
    }
    for (uint32_t i = 0; i < bindings; ++i) {
      VkWriteDescriptorSet w{};
      w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      w.dstSet = sets[b];
      w.dstBinding = i;
      w.descriptorCount = 1;
      w.descriptorType = binding_type(i);
      w.pBufferInfo = &infos[static_cast<std::size_t>(b) * bindings + i];
      writes.push_back(w);
    }
  }
  vk.vkUpdateDescriptorSets(context_.device(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return sets;
}

}  // namespace stridescope::gpu
