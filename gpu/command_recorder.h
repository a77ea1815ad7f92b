// Recording and submitting a run: the backend's one command buffer and its
// fence, and the commands of the passes a RunPlan describes (the transfer
// pass's fills and copies, the compute pass's dispatches) with the barriers
// between them. Nothing here decides what a pass does; run_plan.h did.
#pragma once

#include <cstddef>
#include <vector>

#include "core/error.h"
#include "gpu/linear_images.h"
#include "gpu/pass_timer.h"
#include "gpu/run_plan.h"
#include "gpu/transfer_lowering.h"
#include "gpu/vk_buffer.h"
#include "gpu/vk_context.h"
#include "gpu/vk_objects.h"

namespace stridescope::gpu {

// The transfer pass of the run being recorded: its images stay until the
// run ends (the device may still use them).
struct BoundImage {
  AliasedImage plan;
  ImageHandle image;  // bound to the memory of plan.side's buffer
};
struct BoundTransfers {
  std::vector<BoundImage> images;
  std::vector<ByteCopy> buffer_rows;  // vkCmdCopyBuffer regions
};

// The transfer pass's copies as commands: pitched copies through linear
// images over the tensors' memory where `images` has caps, the rest row by
// row. Call after the buffers are made (images bind to their memory).
BoundTransfers bind_transfers(const RunPlan& plan, const LinearImages* images, const Buffer& input,
                              const Buffer& output);

class CommandRecorder {
 public:
  explicit CommandRecorder(const Context& context) : context_(context) {}

  // The command pool, its one command buffer and the fence.
  Status init();
  VkCommandBuffer cmd() const { return cmd_; }

  Status begin();
  // Ends recording, submits, and waits (a hung device becomes an error).
  Status submit_and_wait();
  // After a lost device or any failed wait (the device may still be using
  // this command buffer and the run's buffers): no later run may start.
  bool device_unusable() const { return device_unusable_; }

  void barrier(VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
               VkAccessFlags dst_access);
  void copy_whole(const Buffer& from, const Buffer& to, VkDeviceSize bytes);

  // The transfer pass: CONSTANT padding rows filled, contiguous runs copied.
  void record_transfers(const BoundTransfers& commands, const RunPlan& plan, const Buffer& input,
                        const Buffer& output, PassTimer& timer);
  // The compute pass: per box, its pipeline (`pipelines`, one per box) and
  // dispatches of at most `max_groups` workgroups (the push constant says
  // where each starts).
  void record_compute(const ComputePass& pass, const std::vector<VkPipeline>& pipelines, VkPipelineLayout layout,
                      const std::vector<VkDescriptorSet>& sets, uint64_t max_groups, PassTimer& timer);

 private:
  std::size_t record_image_copies(const std::vector<BoundImage>& images, const Buffer& input, const Buffer& output);

  const Context& context_;
  CommandPool command_pool_;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  Fence fence_;
  bool device_unusable_ = false;
};

}  // namespace stridescope::gpu
