#include "gpu/command_recorder.h"

#include <algorithm>
#include <string>

#include "gpu/shaders/meta_layout.h"
#include "gpu/vk_error.h"
#include "gpu/vk_pipelines.h"

namespace stridescope::gpu {

namespace {

constexpr uint64_t kFenceTimeoutNs = 300ull * 1000 * 1000 * 1000;  // a hung device becomes an error

}  // namespace

BoundTransfers bind_transfers(const RunPlan& plan, const LinearImages* images, const Buffer& input,
                              const Buffer& output) {
  TransferCommands commands = lower_copies(plan.copies, images != nullptr ? images->caps() : std::nullopt);
  BoundTransfers bound;
  bound.buffer_rows = std::move(commands.buffer_rows);
  for (AliasedImage& image : commands.images) {
    auto made = images->bind(image, image.side == ImageSide::Output ? output : input);
    if (!made) {
      append_rows(image.copies, bound.buffer_rows);
      continue;
    }
    bound.images.push_back({std::move(image), std::move(*made)});
  }
  return bound;
}

Status CommandRecorder::init() {
  const DeviceFunctions& vk = context_.vk();
  const VkDevice device = context_.device();
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.queueFamilyIndex = context_.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkCreateCommandPool(device, &pool_info, nullptr, &pool), "creating a command pool"));
  command_pool_ = CommandPool(vk, device, pool);
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  SS_RETURN_IF_ERROR(vk_check(vk.vkAllocateCommandBuffers(device, &alloc, &cmd_), "allocating a command buffer"));
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence handle = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkCreateFence(device, &fence_info, nullptr, &handle), "creating a fence"));
  fence_ = Fence(vk, device, handle);
  return {};
}

Status CommandRecorder::begin() {
  const DeviceFunctions& vk = context_.vk();
  SS_RETURN_IF_ERROR(vk_check(vk.vkResetCommandPool(context_.device(), command_pool_.get(), 0), "resetting the command pool"));
  VkCommandBufferBeginInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  return vk_check(vk.vkBeginCommandBuffer(cmd_, &info), "recording commands");
}

Status CommandRecorder::submit_and_wait() {
  const DeviceFunctions& vk = context_.vk();
  SS_RETURN_IF_ERROR(vk_check(vk.vkEndCommandBuffer(cmd_), "recording commands"));
  VkFence handle = fence_.get();
  SS_RETURN_IF_ERROR(vk_check(vk.vkResetFences(context_.device(), 1, &handle), "resetting a fence"));
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  // A lost device refuses every later run; so does any failed wait, since
  // the device may still be running the work the next run would reuse.
  const VkResult submitted = vk.vkQueueSubmit(context_.queue(), 1, &submit, fence_.get());
  device_unusable_ = device_unusable_ || leaves_device_unusable(submitted);
  SS_RETURN_IF_ERROR(vk_check(submitted, "submitting work"));
  const VkResult waited = vk.vkWaitForFences(context_.device(), 1, &handle, VK_TRUE, kFenceTimeoutNs);
  device_unusable_ = device_unusable_ || waited != VK_SUCCESS;
  return vk_check(waited, "waiting for the device");
}

void CommandRecorder::barrier(VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                              VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier memory{};
  memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  memory.srcAccessMask = src_access;
  memory.dstAccessMask = dst_access;
  context_.vk().vkCmdPipelineBarrier(cmd_, src_stage, dst_stage, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

void CommandRecorder::copy_whole(const Buffer& from, const Buffer& to, VkDeviceSize bytes) {
  VkBufferCopy region{0, 0, bytes};
  context_.vk().vkCmdCopyBuffer(cmd_, from.get(), to.get(), 1, &region);
}

// Each image's pitched copies as one buffer-image copy; returns the number
// of regions.
std::size_t CommandRecorder::record_image_copies(const std::vector<BoundImage>& images, const Buffer& input,
                                                 const Buffer& output) {
  if (images.empty()) return 0;
  const DeviceFunctions& vk = context_.vk();
  std::vector<VkImageMemoryBarrier> layouts;
  for (const BoundImage& bound : images) layouts.push_back(preinitialized_to_general(bound.image.get()));
  vk.vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                          static_cast<uint32_t>(layouts.size()), layouts.data());
  std::size_t count = 0;
  for (const BoundImage& bound : images) {
    const std::vector<VkBufferImageCopy> regions = buffer_image_copies(bound.plan);
    const auto n = static_cast<uint32_t>(regions.size());
    if (bound.plan.side == ImageSide::Output) {
      vk.vkCmdCopyBufferToImage(cmd_, input.get(), bound.image.get(), VK_IMAGE_LAYOUT_GENERAL, n, regions.data());
    } else {
      vk.vkCmdCopyImageToBuffer(cmd_, bound.image.get(), VK_IMAGE_LAYOUT_GENERAL, output.get(), n, regions.data());
    }
    count += n;
  }
  return count;
}

void CommandRecorder::record_transfers(const BoundTransfers& commands, const RunPlan& plan, const Buffer& input,
                                       const Buffer& output, PassTimer& timer) {
  const DeviceFunctions& vk = context_.vk();
  // Fills first: copies may overwrite them (gather_dispatch.h).
  for (const ByteFill& f : plan.fills) vk.vkCmdFillBuffer(cmd_, output.get(), f.offset, f.size, f.pattern);
  if (!plan.fills.empty() && !plan.copies.empty()) {
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT);
  }
  const std::size_t pitched = record_image_copies(commands.images, input, output);
  if (!commands.buffer_rows.empty()) {
    std::vector<VkBufferCopy> regions;
    regions.reserve(commands.buffer_rows.size());
    for (const ByteCopy& c : commands.buffer_rows) regions.push_back({c.src, c.dst, c.size});
    vk.vkCmdCopyBuffer(cmd_, input.get(), output.get(), static_cast<uint32_t>(regions.size()), regions.data());
  }
  timer.pass_done("transfer: copy " + std::to_string(pitched) + " pitched runs through " +
                  std::to_string(commands.images.size()) + " images, " + std::to_string(commands.buffer_rows.size()) +
                  " runs, after filling " + std::to_string(plan.fills.size()) + " padding runs");
}

void CommandRecorder::record_compute(const ComputePass& pass, const std::vector<VkPipeline>& pipelines,
                                     VkPipelineLayout layout, const std::vector<VkDescriptorSet>& sets,
                                     uint64_t max_groups, PassTimer& timer) {
  const DeviceFunctions& vk = context_.vk();
  VkPipeline bound = VK_NULL_HANDLE;
  for (std::size_t b = 0; b < pass.boxes.size(); ++b) {
    if (pipelines[b] != bound) {
      bound = pipelines[b];
      vk.vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, bound);
    }
    vk.vkCmdBindDescriptorSets(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[b], 0, nullptr);
    const uint64_t groups = (pass.boxes[b].items + SS_LOCAL_SIZE - 1) / SS_LOCAL_SIZE;
    for (uint64_t first = 0; first < groups; first += max_groups) {
      const uint64_t count = std::min(max_groups, groups - first);
      const PushConstants push{static_cast<uint32_t>(first * SS_LOCAL_SIZE)};
      vk.vkCmdPushConstants(cmd_, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
      vk.vkCmdDispatch(cmd_, static_cast<uint32_t>(count), 1, 1);
      timer.pass_done(pass.name + (pass.boxes[b].variant != 0 ? " interior" : "") + " box " + std::to_string(b) +
                      " workgroups [" + std::to_string(first) + ", " +
                      std::to_string(first + count) + ")");
    }
  }
}

}  // namespace stridescope::gpu
