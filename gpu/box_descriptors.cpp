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
                                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, capacity * 4},
                                        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, capacity}};
  VkDescriptorPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  info.maxSets = capacity;
  info.poolSizeCount = 3;
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

static_assert(kSourceTexelsBinding == SS_BINDING_SRC_TEXELS);

namespace {

// A write of one descriptor of `binding` in `set`; the caller points it at
// its buffer or texel view.
VkWriteDescriptorSet one_descriptor(VkDescriptorSet set, uint32_t binding) {
  VkWriteDescriptorSet w{};
  w.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
  w.dstSet = set;
  w.dstBinding = binding;
  w.descriptorCount = 1;
  w.descriptorType = binding_type(binding);
  return w;
}

}  // namespace

Status BoxDescriptors::make_source_views(const ComputePass& pass, VkBuffer input) {
  const DeviceFunctions& vk = context_.vk();
  source_views_.clear();
  if (!pass.key.source_texels) return {};
  for (const WorkBox& box : pass.boxes) {
    // The window's whole quads: the shaders read no quad past its end.
    VkBufferViewCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
    info.buffer = input;
    info.format = raw_texel_format(kSourceTexelBytes);
    info.offset = box.input.offset;
    info.range = box.input.range / kSourceTexelBytes * kSourceTexelBytes;
    VkBufferView view = VK_NULL_HANDLE;
    SS_RETURN_IF_ERROR(vk_check(vk.vkCreateBufferView(context_.device(), &info, nullptr, &view),
                                "creating a texel view of the input"));
    source_views_.emplace_back(vk, context_.device(), view);
  }
  return {};
}

Expected<std::vector<VkDescriptorSet>> BoxDescriptors::bind(const ComputePass& pass, const MetaLayout& layout,
                                                            VkDescriptorSetLayout set_layout,
                                                            const PassBuffers& buffers) {
  const DeviceFunctions& vk = context_.vk();
  const uint32_t count = static_cast<uint32_t>(pass.boxes.size());
  SS_RETURN_IF_ERROR(ensure(count));
  SS_RETURN_IF_ERROR(make_source_views(pass, buffers.input));
  std::vector<VkBufferView> views;
  for (const BufferView& view : source_views_) views.push_back(view.get());
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
      VkWriteDescriptorSet w = one_descriptor(sets[b], i);
      w.pBufferInfo = &infos[static_cast<std::size_t>(b) * bindings + i];
      writes.push_back(w);
    }
    if (pass.key.source_texels) {
      VkWriteDescriptorSet w = one_descriptor(sets[b], kSourceTexelsBinding);
      w.pTexelBufferView = &views[b];
      writes.push_back(w);
    }
  }
  vk.vkUpdateDescriptorSets(context_.device(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return sets;
}

}  // namespace stridescope::gpu
