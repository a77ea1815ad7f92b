// Descriptor sets of a compute pass: one per box (its box block, the index
// tables and its windows of the tensors, and for a texel build a view of its
// input window), from a pool that grows on demand and is reset for every run.
#pragma once

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "gpu/run_plan.h"
#include "gpu/vk_context.h"
#include "gpu/vk_objects.h"
#include "gpu/vk_pipelines.h"

namespace stridescope::gpu {

// The device buffers a pass's boxes are windows of.
struct PassBuffers {
  VkBuffer meta = VK_NULL_HANDLE;     // box blocks, then the tables (MetaLayout)
  VkBuffer input = VK_NULL_HANDLE;
  VkBuffer output = VK_NULL_HANDLE;
  VkBuffer indices = VK_NULL_HANDLE;  // none when the op writes no indices
};

class BoxDescriptors {
 public:
  explicit BoxDescriptors(const Context& context) : context_(context) {}

  // One descriptor set per box of `pass`, in box order. The sets and views of
  // the previous call become invalid.
  Expected<std::vector<VkDescriptorSet>> bind(const ComputePass& pass, const MetaLayout& layout,
                                              VkDescriptorSetLayout set_layout, const PassBuffers& buffers);

 private:
  Status ensure(uint32_t sets);
  // The texel view of each box's input window (shaders/source_quads.glsl).
  Status make_source_views(const ComputePass& pass, VkBuffer input);

  const Context& context_;
  DescriptorPool pool_;
  std::vector<BufferView> source_views_;  // one per box of a texel build's pass
  uint32_t capacity_ = 0;
};

}  // namespace stridescope::gpu
