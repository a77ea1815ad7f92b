#include "gpu/vulkan_backend.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "gpu/linear_images.h"
#include "gpu/run_plan.h"
#include "gpu/transfer_lowering.h"
#include "gpu/shaders/meta_layout.h"
#include "gpu/vk_buffer.h"
#include "gpu/vk_context.h"
#include "gpu/vk_error.h"
#include "gpu/vk_pipelines.h"
#include "gpu/work_split.h"

namespace stridescope {

using namespace gpu;

namespace {

constexpr VkDeviceSize kMinAllocation = 64 * 1024;
constexpr VkDeviceSize kAllocationGranularity = 1024 * 1024;
constexpr uint32_t kMaxTimedPasses = 64;                      // timestamps per run, beyond: grouped
constexpr uint64_t kFenceTimeoutNs = 300ull * 1000 * 1000 * 1000;  // a hung device becomes an error

Error failure(std::string message) { return Error{ErrorCode::BackendFailure, "", std::move(message)}; }

bool env_is_one(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "1";
}

// Whether every byte of [0, buffer_bytes) is an element the op writes; if not,
// the device buffer starts as a copy of the caller's, so gaps keep its bytes.
bool fully_written(const TensorDesc& desc) {
  return desc.layout().packed && desc.buffer_elements() * desc.element_size() == desc.buffer_bytes();
}

// Timestamps: one before the work, one after each pass; past kMaxTimedPasses
// the remaining passes share one.
class PassTimer {
 public:
  PassTimer(const DeviceFunctions& vk, VkCommandBuffer cmd, VkQueryPool pool, uint32_t passes)
      : vk_(vk), cmd_(cmd), pool_(pool), passes_(passes) {}

  static uint32_t queries_for(uint32_t passes) { return std::min(passes, kMaxTimedPasses) + 1; }

  void start() {
    if (pool_ == VK_NULL_HANDLE) return;
    vk_.vkCmdResetQueryPool(cmd_, pool_, 0, queries_for(passes_));
    vk_.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
  }

  void pass_done(std::string label) {
    ++done_;
    if (pool_ == VK_NULL_HANDLE) return;
    const bool grouped = passes_ > kMaxTimedPasses && done_ >= kMaxTimedPasses;
    if (!grouped) {
      labels_.push_back(std::move(label));
      vk_.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, done_);
    } else if (done_ == passes_) {
      labels_.push_back("passes " + std::to_string(kMaxTimedPasses) + " to " + std::to_string(passes_));
      vk_.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, kMaxTimedPasses);
    }
  }

  const std::vector<std::string>& labels() const { return labels_; }

 private:
  const DeviceFunctions& vk_;
  VkCommandBuffer cmd_;
  VkQueryPool pool_;
  uint32_t passes_;
  uint32_t done_ = 0;
  std::vector<std::string> labels_;
};

void barrier(const DeviceFunctions& vk, VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
             VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
  VkMemoryBarrier memory{};
  memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  memory.srcAccessMask = src_access;
  memory.dstAccessMask = dst_access;
  vk.vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

}  // namespace

// The device objects of one backend. Runs are serialized by `mutex`.
struct VulkanBackend::Impl {
  // A tensor's device buffer and, on the staging path, its host-side twin.
  struct Slot {
    Buffer device;
    Buffer staging;
  };

  std::unique_ptr<Context> context;  // first: destroyed last
  LinearImages linear_images;
  bool staging = false;
  PipelineCache pipelines;
  CommandPool command_pool;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  Fence fence;
  QueryPool queries;
  uint32_t query_capacity = 0;
  DescriptorPool descriptors;
  uint32_t descriptor_capacity = 0;
  Slot input, output, indices, meta, copy_source, copy_target;
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
  BoundTransfers transfers_in_flight;
  std::vector<DispatchTiming> timings;
  bool lost = false;
  VulkanBackend::TestingLimits testing_limits;
  mutable std::mutex mutex;

  explicit Impl(std::unique_ptr<Context> c) : context(std::move(c)), linear_images(*context), pipelines(*context) {}
  // After a wait that failed (timed out, device lost) the device may still
  // use the buffers and commands destroyed below: let it finish first.
  ~Impl() {
    if (context) vk().vkDeviceWaitIdle(device());
  }

  const DeviceFunctions& vk() const { return context->vk(); }

  DeviceLimits limits() const {
    DeviceLimits limits;
    limits.max_storage_range = context->limits().maxStorageBufferRange;
    limits.storage_offset_alignment = context->limits().minStorageBufferOffsetAlignment;
    if (testing_limits.max_storage_buffer_range) {
      limits.max_storage_range = std::min(limits.max_storage_range, *testing_limits.max_storage_buffer_range);
    }
    return limits;
  }

  uint64_t max_workgroups() const {
    const uint64_t real = context->limits().maxComputeWorkGroupCount[0];
    return testing_limits.max_workgroup_count ? std::min<uint64_t>(real, *testing_limits.max_workgroup_count) : real;
  }
  VkDevice device() const { return context->device(); }

  Status init() {
    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.queueFamilyIndex = context->queue_family();
    VkCommandPool pool = VK_NULL_HANDLE;
    if (auto s = vk_check(vk().vkCreateCommandPool(device(), &pool_info, nullptr, &pool), "creating a command pool");
        !s) {
      return s;
    }
    command_pool = CommandPool(vk(), device(), pool);
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    if (auto s = vk_check(vk().vkAllocateCommandBuffers(device(), &alloc, &cmd), "allocating a command buffer"); !s) {
      return s;
    }
    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    VkFence handle = VK_NULL_HANDLE;
    if (auto s = vk_check(vk().vkCreateFence(device(), &fence_info, nullptr, &handle), "creating a fence"); !s) {
      return s;
    }
    fence = Fence(vk(), device(), handle);
    return {};
  }


  Status ensure_queries(uint32_t count) {
    if (context->timestamp_valid_bits() == 0 || count <= query_capacity) return {};
    queries.reset();
    query_capacity = 0;
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = std::max<uint32_t>(count, kMaxTimedPasses + 1);
    VkQueryPool pool = VK_NULL_HANDLE;
    if (auto s = vk_check(vk().vkCreateQueryPool(device(), &info, nullptr, &pool), "creating a timestamp query pool");
        !s) {
      return s;
    }
    queries = QueryPool(vk(), device(), pool);
    query_capacity = info.queryCount;
    return {};
  }

  Status ensure_descriptors(uint32_t sets) {
    if (sets <= descriptor_capacity) {
      if (sets == 0) return {};
      return vk_check(vk().vkResetDescriptorPool(device(), descriptors.get(), 0), "resetting the descriptor pool");
    }
    descriptors.reset();
    descriptor_capacity = 0;
    const uint32_t capacity = std::max<uint32_t>(sets, 16);
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, capacity * 2},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, capacity * 4}};
    VkDescriptorPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = capacity;
    info.poolSizeCount = 2;
    info.pPoolSizes = sizes;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    if (auto s = vk_check(vk().vkCreateDescriptorPool(device(), &info, nullptr, &pool), "creating a descriptor pool");
        !s) {
      return s;
    }
    descriptors = DescriptorPool(vk(), device(), pool);
    descriptor_capacity = capacity;
    return {};
  }

  // Makes `slot` hold at least `bytes` (grows only, in whole MiB).
  Status ensure(Slot& slot, VkDeviceSize bytes, const char* what) {
    if (slot.device.get() != VK_NULL_HANDLE && slot.device.size() >= bytes) return {};
    const VkDeviceSize size =
        std::max(kMinAllocation, (bytes + kAllocationGranularity - 1) / kAllocationGranularity * kAllocationGranularity);
    slot = Slot{};
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    auto device_buffer =
        Buffer::create(*context, size, usage, staging ? MemoryUse::DeviceOnly : MemoryUse::DeviceMapped, what);
    if (!device_buffer) return device_buffer.error();
    slot.device = std::move(*device_buffer);
    if (staging) {
      auto host = Buffer::create(*context, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 MemoryUse::Staging, std::string(what) + " (staging)");
      if (!host) return host.error();
      slot.staging = std::move(*host);
    }
    return {};
  }

  // Host-visible memory standing for the slot's device buffer.
  const Buffer& host_side(const Slot& slot) const { return staging ? slot.staging : slot.device; }

  Status write(const Slot& slot, std::span<const std::byte> bytes) {
    const Buffer& host = host_side(slot);
    std::memcpy(host.mapped(), bytes.data(), bytes.size());
    return host.flush(*context, 0, bytes.size());
  }

  Status read(const Slot& slot, std::span<std::byte> bytes) {
    const Buffer& host = host_side(slot);
    if (auto s = host.invalidate(*context, 0, bytes.size()); !s) return s;
    std::memcpy(bytes.data(), host.mapped(), bytes.size());
    return {};
  }

  void copy_whole(const Buffer& from, const Buffer& to, VkDeviceSize bytes) {
    VkBufferCopy region{0, 0, bytes};
    vk().vkCmdCopyBuffer(cmd, from.get(), to.get(), 1, &region);
  }

  Status begin() {
    if (auto s = vk_check(vk().vkResetCommandPool(device(), command_pool.get(), 0), "resetting the command pool"); !s) {
      return s;
    }
    VkCommandBufferBeginInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    return vk_check(vk().vkBeginCommandBuffer(cmd, &info), "recording commands");
  }

  Status submit_and_wait() {
    if (auto s = vk_check(vk().vkEndCommandBuffer(cmd), "recording commands"); !s) return s;
    VkFence handle = fence.get();
    if (auto s = vk_check(vk().vkResetFences(device(), 1, &handle), "resetting a fence"); !s) return s;
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    // A lost device refuses every later run; so does any failed wait, since
    // the device may still be running the work the next run would reuse.
    const VkResult submitted = vk().vkQueueSubmit(context->queue(), 1, &submit, fence.get());
    lost = lost || leaves_device_unusable(submitted);
    if (auto s = vk_check(submitted, "submitting work"); !s) return s;
    const VkResult waited = vk().vkWaitForFences(device(), 1, &handle, VK_TRUE, kFenceTimeoutNs);
    lost = lost || waited != VK_SUCCESS;
    return vk_check(waited, "waiting for the device");
  }

  std::vector<double> read_timestamps(uint32_t count) {
    std::vector<double> ms;
    if (queries.get() == VK_NULL_HANDLE || count < 2) return ms;
    std::vector<uint64_t> ticks(count);
    if (vk().vkGetQueryPoolResults(device(), queries.get(), 0, count, count * sizeof(uint64_t), ticks.data(),
                                   sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS) {
      return ms;
    }
    const uint32_t bits = context->timestamp_valid_bits();
    const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const double period_ns = context->limits().timestampPeriod;
    for (uint32_t i = 1; i < count; ++i) {
      const uint64_t delta = ((ticks[i] & mask) - (ticks[i - 1] & mask)) & mask;
      ms.push_back(static_cast<double>(delta) * period_ns / 1e6);
    }
    return ms;
  }

  // One descriptor set per box: its box block, the tables, its windows.
  Expected<std::vector<VkDescriptorSet>> bind_boxes(const ComputePass& pass, const MetaLayout& layout,
                                                    bool has_indices) {
    const uint32_t count = static_cast<uint32_t>(pass.boxes.size());
    if (auto s = ensure_descriptors(count); !s) return s.error();
    std::vector<VkDescriptorSetLayout> layouts(count, pipelines.set_layout(pass.key.shader));
    VkDescriptorSetAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    alloc.descriptorPool = descriptors.get();
    alloc.descriptorSetCount = count;
    alloc.pSetLayouts = layouts.data();
    std::vector<VkDescriptorSet> sets(count);
    if (auto s = vk_check(vk().vkAllocateDescriptorSets(device(), &alloc, sets.data()), "allocating descriptor sets");
        !s) {
      return s.error();
    }
    const uint32_t bindings = binding_count(pass.key.shader);
    std::vector<VkDescriptorBufferInfo> infos;
    infos.reserve(static_cast<std::size_t>(count) * bindings);
    std::vector<VkWriteDescriptorSet> writes;
    const VkBuffer meta_buffer = meta.device.get();
    // A small valid range standing in for bindings the shader does not use.
    const VkDescriptorBufferInfo unused{meta_buffer, layout.tables_offset, 16};
    for (uint32_t b = 0; b < count; ++b) {
      const WorkBox& box = pass.boxes[b];
      infos.push_back({meta_buffer, b * layout.block_stride, SS_BOX_WORDS * sizeof(uint32_t)});
      infos.push_back({meta_buffer, layout.tables_offset, layout.table_quads * VkDeviceSize{16}});
      infos.push_back(layout.tables_in_storage
                          ? VkDescriptorBufferInfo{meta_buffer, layout.tables_offset, layout.table_bytes}
                          : unused);
      infos.push_back({input.device.get(), box.input.offset, box.input.range});
      infos.push_back({output.device.get(), box.output.offset, box.output.range});
      if (bindings == 6) {
        infos.push_back(has_indices ? VkDescriptorBufferInfo{indices.device.get(), box.indices.offset,
                                                             box.indices.range}
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
    vk().vkUpdateDescriptorSets(device(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
    return sets;
  }

  // The transfer pass's copies as commands: pitched copies through linear
  // images over the tensors' memory where the device allows, the rest row by
  // row. Call after the buffers are made (images bind to their memory).
  BoundTransfers bind_transfers(const RunPlan& plan) const {
    const bool images = !testing_limits.no_linear_images;
    TransferCommands commands = lower_copies(plan.copies, images ? linear_images.caps() : std::nullopt);
    BoundTransfers bound;
    bound.buffer_rows = std::move(commands.buffer_rows);
    for (AliasedImage& image : commands.images) {
      auto made = linear_images.bind(image, image.side == ImageSide::Output ? output.device : input.device);
      if (!made) {
        append_rows(image.copies, bound.buffer_rows);
        continue;
      }
      bound.images.push_back({std::move(image), std::move(*made)});
    }
    return bound;
  }

  // Each image's pitched copies as one buffer-image copy; returns the number
  // of regions.
  std::size_t record_image_copies(const std::vector<BoundImage>& images) {
    if (images.empty()) return 0;
    std::vector<VkImageMemoryBarrier> layouts;
    for (const BoundImage& bound : images) layouts.push_back(preinitialized_to_general(bound.image.get()));
    vk().vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                              static_cast<uint32_t>(layouts.size()), layouts.data());
    std::size_t count = 0;
    for (const BoundImage& bound : images) {
      const std::vector<VkBufferImageCopy> regions = buffer_image_copies(bound.plan);
      const auto n = static_cast<uint32_t>(regions.size());
      if (bound.plan.side == ImageSide::Output) {
        vk().vkCmdCopyBufferToImage(cmd, input.device.get(), bound.image.get(), VK_IMAGE_LAYOUT_GENERAL, n,
                                    regions.data());
      } else {
        vk().vkCmdCopyImageToBuffer(cmd, bound.image.get(), VK_IMAGE_LAYOUT_GENERAL, output.device.get(), n,
                                    regions.data());
      }
      count += n;
    }
    return count;
  }

  // The transfer pass: contiguous runs copied, CONSTANT padding rows filled.
  void record_transfers(const BoundTransfers& commands, const RunPlan& plan, PassTimer& timer) {
    // Fills first: copies may overwrite them (gather_program.h).
    for (const ByteFill& f : plan.fills) vk().vkCmdFillBuffer(cmd, output.device.get(), f.offset, f.size, f.pattern);
    if (!plan.fills.empty() && !plan.copies.empty()) {
      barrier(vk(), cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_ACCESS_TRANSFER_WRITE_BIT);
    }
    const std::size_t pitched = record_image_copies(commands.images);
    if (!commands.buffer_rows.empty()) {
      std::vector<VkBufferCopy> regions;
      regions.reserve(commands.buffer_rows.size());
      for (const ByteCopy& c : commands.buffer_rows) regions.push_back({c.src, c.dst, c.size});
      vk().vkCmdCopyBuffer(cmd, input.device.get(), output.device.get(), static_cast<uint32_t>(regions.size()),
                           regions.data());
    }
    timer.pass_done("transfer: copy " + std::to_string(pitched) + " pitched runs through " +
                    std::to_string(commands.images.size()) + " images, " + std::to_string(commands.buffer_rows.size()) +
                    " runs, after filling " + std::to_string(plan.fills.size()) + " padding runs");
  }

  // The compute pass: per box, dispatches of at most maxComputeWorkGroupCount[0]
  // workgroups (the push constant says where each starts).
  void record_compute(const ComputePass& pass, VkPipeline pipeline, const std::vector<VkDescriptorSet>& sets,
                      PassTimer& timer) {
    const uint64_t max_groups = max_workgroups();
    const VkPipelineLayout pipeline_layout = pipelines.layout(pass.key.shader);
    vk().vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    for (std::size_t b = 0; b < pass.boxes.size(); ++b) {
      vk().vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &sets[b], 0,
                                   nullptr);
      const uint64_t groups = (pass.boxes[b].items + SS_LOCAL_SIZE - 1) / SS_LOCAL_SIZE;
      for (uint64_t first = 0; first < groups; first += max_groups) {
        const uint64_t count = std::min(max_groups, groups - first);
        const PushConstants push{static_cast<uint32_t>(first * SS_LOCAL_SIZE)};
        vk().vkCmdPushConstants(cmd, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vk().vkCmdDispatch(cmd, static_cast<uint32_t>(count), 1, 1);
        timer.pass_done(pass.name + " box " + std::to_string(b) + " workgroups [" + std::to_string(first) + ", " +
                        std::to_string(first + count) + ")");
      }
    }
  }

  // What the host makes of an op before any Vulkan call, kept for the next
  // run of the same op under the same limits (the app and the benchmarks
  // run one op again and again; planning walks every copied row).
  struct Prepared {
    Operation op;
    DeviceLimits limits;
    RunPlan plan;
    MetaLayout layout;
    std::vector<std::byte> meta_bytes;  // one box block per box, then the tables (meta_layout.h)
  };
  std::optional<Prepared> prepared;

  Expected<const Prepared*> prepare(const Operation& op) {
    const DeviceLimits now = limits();
    if (prepared && prepared->limits == now && prepared->op == op) return &*prepared;
    prepared.reset();
    auto planned = plan_run(op, now);
    if (!planned) return planned.error();
    RunPlan& plan = *planned;
    MetaLayout layout;
    std::vector<std::byte> meta_bytes;
    if (plan.compute) {
      ComputePass& pass = *plan.compute;
      layout = layout_meta(pass, context->limits());
      if (layout.tables_in_storage && layout.table_bytes > context->limits().maxStorageBufferRange) {
        return failure("the op's index tables (" + std::to_string(layout.table_bytes) +
                       " bytes) exceed this device's maxStorageBufferRange");
      }
      pass.key.constants[kTableQuads] = layout.table_quads;
      pass.key.constants[kTablesInStorage] = layout.tables_in_storage ? 1 : 0;
      meta_bytes = meta_buffer_bytes(pass, layout);
    }
    prepared = Prepared{op, now, std::move(plan), layout, std::move(meta_bytes)};
    return &*prepared;
  }

  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input_bytes, std::span<std::byte> output_bytes,
                         std::span<std::byte> index_bytes);
  Expected<double> time_copy(uint64_t bytes);
};

Expected<RunStats> VulkanBackend::Impl::run(const Operation& op, std::span<const std::byte> input_bytes,
                                            std::span<std::byte> output_bytes, std::span<std::byte> index_bytes) {
  if (lost) return failure("the Vulkan device was lost earlier; create a new backend");
  if (auto s = check_buffer_sizes(op, input_bytes, output_bytes, index_bytes); !s) return s.error();
  auto ready = prepare(op);
  if (!ready) return ready.error();
  const RunPlan& plan = (*ready)->plan;
  const MetaLayout& layout = (*ready)->layout;
  const std::vector<std::byte>& meta_bytes = (*ready)->meta_bytes;

  const TensorDesc& out = op.output();
  const VkDeviceSize in_size = op.input().buffer_bytes();
  const VkDeviceSize out_size = out.buffer_bytes();
  const VkDeviceSize idx_size = op.output_indices() ? op.output_indices()->buffer_bytes() : 0;
  const bool preload_output = !fully_written(out);
  const bool preload_indices = op.output_indices() && !fully_written(*op.output_indices());

  if (auto s = ensure(input, in_size, "the input buffer"); !s) return s.error();
  if (auto s = ensure(output, out_size, "the output buffer"); !s) return s.error();
  if (idx_size > 0) {
    if (auto s = ensure(indices, idx_size, "the indices buffer"); !s) return s.error();
  }
  if (!meta_bytes.empty()) {
    if (auto s = ensure(meta, layout.buffer_bytes, "the index-table buffer"); !s) return s.error();
  }

  // Host -> device.
  if (auto s = write(input, input_bytes.first(in_size)); !s) return s.error();
  if (preload_output) {
    if (auto s = write(output, output_bytes.first(out_size)); !s) return s.error();
  }
  if (preload_indices) {
    if (auto s = write(indices, index_bytes.first(idx_size)); !s) return s.error();
  }
  if (!meta_bytes.empty()) {
    if (auto s = write(meta, meta_bytes); !s) return s.error();
  }

  // Passes: the transfer pass, then one per dispatch.
  const uint64_t max_groups = max_workgroups();
  const bool transfers = !plan.copies.empty() || !plan.fills.empty();
  uint32_t passes = transfers ? 1 : 0;
  if (plan.compute) {
    for (const WorkBox& box : plan.compute->boxes) {
      passes += static_cast<uint32_t>(dispatch_count(box.items, SS_LOCAL_SIZE, max_groups));
    }
  }
  if (auto s = ensure_queries(PassTimer::queries_for(passes)); !s) return s.error();

  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
  if (plan.compute) {
    auto made = pipelines.pipeline(plan.compute->key);
    if (!made) return made.error();
    pipeline = *made;
    auto bound = bind_boxes(*plan.compute, layout, idx_size > 0);
    if (!bound) return bound.error();
    sets = std::move(*bound);
  }

  transfers_in_flight = bind_transfers(plan);

  if (auto s = begin(); !s) return s.error();
  constexpr VkAccessFlags kAll = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  if (staging) {
    copy_whole(input.staging, input.device, in_size);
    if (preload_output) copy_whole(output.staging, output.device, out_size);
    if (preload_indices) copy_whole(indices.staging, indices.device, idx_size);
    if (!meta_bytes.empty()) copy_whole(meta.staging, meta.device, meta_bytes.size());
    barrier(vk(), cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, kWork, kAll);
  }
  PassTimer timer(vk(), cmd, queries.get(), passes);
  timer.start();
  if (transfers) {
    record_transfers(transfers_in_flight, plan, timer);
    if (plan.compute) {
      barrier(vk(), cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
  }
  if (plan.compute) record_compute(*plan.compute, pipeline, sets, timer);
  barrier(vk(), cmd, kWork, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);
  if (staging) {
    copy_whole(output.device, output.staging, out_size);
    if (idx_size > 0) copy_whole(indices.device, indices.staging, idx_size);
    barrier(vk(), cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
            VK_ACCESS_HOST_READ_BIT);
  }
  if (auto s = submit_and_wait(); !s) return s.error();  // images stay until the next run: the device may hold them
  transfers_in_flight = {};

  // Device -> host.
  if (auto s = read(output, output_bytes.first(out_size)); !s) return s.error();
  if (idx_size > 0) {
    if (auto s = read(indices, index_bytes.first(idx_size)); !s) return s.error();
  }
  RunStats stats;
  timings.clear();
  const std::vector<double> ms = read_timestamps(static_cast<uint32_t>(timer.labels().size()) + 1);
  if (!ms.empty()) {
    double total = 0;
    for (std::size_t i = 0; i < ms.size(); ++i) {
      timings.push_back({timer.labels()[i], ms[i]});
      total += ms[i];
    }
    stats.gpu_milliseconds = total;
    stats.passes = timings;
  }
  return stats;
}

Expected<double> VulkanBackend::Impl::time_copy(uint64_t bytes) {
  if (lost) return failure("the Vulkan device was lost earlier; create a new backend");
  if (bytes == 0) return 0.0;
  const bool fresh = copy_source.device.get() == VK_NULL_HANDLE || copy_source.device.size() < bytes;
  if (auto s = ensure(copy_source, bytes, "the copy benchmark source"); !s) return s.error();
  if (auto s = ensure(copy_target, bytes, "the copy benchmark target"); !s) return s.error();
  if (auto s = ensure_queries(2); !s) return s.error();
  if (queries.get() == VK_NULL_HANDLE) return failure("this device's queue has no timestamps");
  if (auto s = begin(); !s) return s.error();
  if (fresh) {
    // Real data: never-written memory can be backed by the kernel's shared
    // zero page, which copies far faster than any real buffer.
    const Buffer& host = host_side(copy_source);
    std::memset(host.mapped(), 0x5A, copy_source.device.size());
    if (auto s = host.flush(*context, 0, copy_source.device.size()); !s) return s.error();
    if (staging) {
      copy_whole(copy_source.staging, copy_source.device, copy_source.device.size());
      barrier(vk(), cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_ACCESS_TRANSFER_READ_BIT);
    }
  }
  PassTimer timer(vk(), cmd, queries.get(), 1);
  timer.start();
  copy_whole(copy_source.device, copy_target.device, bytes);
  timer.pass_done("vkCmdCopyBuffer");
  if (auto s = submit_and_wait(); !s) return s.error();
  const std::vector<double> ms = read_timestamps(2);
  if (ms.empty()) return failure("timestamps could not be read");
  return ms[0];
}

VulkanBackend::VulkanBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
VulkanBackend::~VulkanBackend() = default;

Expected<std::unique_ptr<VulkanBackend>> VulkanBackend::create(const VulkanOptions& options,
                                                                const std::string& loader_library) {
  ContextOptions context_options;
  context_options.device = options.device;
  if (!context_options.device) {
    if (const char* env = std::getenv("STRIDESCOPE_VULKAN_DEVICE"); env != nullptr && *env != '\0') {
      context_options.device = std::string(env);
    }
  }
  context_options.enable_validation = options.enable_validation;
  context_options.loader_library = loader_library;
  auto context = Context::create(context_options);
  if (!context) return context.error();

  // Map device memory directly where it is host-visible, except on discrete
  // GPUs, whose host-visible device memory is a small window: stage there.
  bool mappable_device_memory = false;
  const VkPhysicalDeviceMemoryProperties& memory = (*context)->memory();
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags f = memory.memoryTypes[i].propertyFlags;
    if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
      mappable_device_memory = true;
    }
  }
  const bool staging = options.force_staging || env_is_one("STRIDESCOPE_VULKAN_FORCE_STAGING") ||
                       !mappable_device_memory || (*context)->info().type == "discrete";

  auto impl = std::make_unique<Impl>(std::move(*context));
  impl->staging = staging;
  if (auto s = impl->init(); !s) return s.error();
  return std::unique_ptr<VulkanBackend>(new VulkanBackend(std::move(impl)));
}

std::string VulkanBackend::device_name() const { return impl_->context->info().name; }

Expected<RunStats> VulkanBackend::run(const Operation& op, std::span<const std::byte> input,
                                      std::span<std::byte> output, std::span<std::byte> indices) {
  std::lock_guard lock(impl_->mutex);
  return impl_->run(op, input, output, indices);
}

const VulkanDeviceInfo& VulkanBackend::device_info() const { return impl_->context->info(); }
bool VulkanBackend::uses_staging() const { return impl_->staging; }

std::vector<DispatchTiming> VulkanBackend::last_timings() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->timings;
}

std::vector<std::string> VulkanBackend::validation_messages() const {
  return impl_->context->validation_log().messages();
}

void VulkanBackend::clear_validation_messages() { impl_->context->validation_log().clear(); }

void VulkanBackend::set_testing_limits(const TestingLimits& limits) {
  std::lock_guard lock(impl_->mutex);
  impl_->testing_limits = limits;
}

Expected<double> VulkanBackend::time_copy_buffer(uint64_t bytes) {
  std::lock_guard lock(impl_->mutex);
  return impl_->time_copy(bytes);
}

Expected<std::unique_ptr<Backend>> make_vulkan_backend(const VulkanOptions& options) {
  auto backend = VulkanBackend::create(options);
  if (!backend) return backend.error();
  return std::unique_ptr<Backend>(std::move(*backend));
}

Expected<std::vector<VulkanDeviceInfo>> list_vulkan_devices() { return Context::list_devices(); }

}  // namespace stridescope
