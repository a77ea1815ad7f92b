#include "gpu/vulkan_backend.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "gpu/box_descriptors.h"  // descriptors
#include "gpu/command_recorder.h"  // recording and submitting
#include "gpu/linear_images.h"
#include "gpu/pass_timer.h"  // timing
#include "gpu/run_plan.h"
#include "gpu/run_plan_cache.h"  // plan cache
#include "gpu/shaders/meta_layout.h"
#include "gpu/staged_buffers.h"  // buffers and staging
#include "gpu/vk_context.h"
#include "gpu/vk_pipelines.h"
#include "gpu/work_split.h"

namespace stridescope {

using namespace gpu;

namespace {

Error failure(std::string message) { return Error{ErrorCode::BackendFailure, "", std::move(message)}; }

// On CPU devices (lavapipe) an invocation's set-up costs far more than
// writing a short row's few quads, so a gather invocation writes up to this
// many short rows (a padded row's two sides, a narrow slice)...
constexpr uint64_t kCpuDeviceRowsPerItem = 64;

// ...while each box keeps four workgroups per host core (lavapipe runs a
// thread per core), so that every core has work.
uint64_t cpu_device_min_items() {
  return 4 * uint64_t{SS_LOCAL_SIZE} * std::max(1u, std::thread::hardware_concurrency());
}

// Outputs per max_pooling2 invocation on CPU devices (DeviceLimits::pooling_chunk).
// The 1x64x256x256 3x3 stride-2 bench (128 outputs a row) on lavapipe, with
// the interior pipeline (gpu/pooling_interior.h), 16 / 32 / 64: shader
// instructions 1962M / - / 1698M over 30 runs (callgrind, one thread), op
// time 4.5-4.8 / 4.3-4.4 / 4.0-4.1 ms (2-vCPU Xeon VM, three rounds). Chunks
// used to shrink to a row's share of an 8-lane batch, so that the lanes
// read adjacent input; that was 3-9% faster on an AMD EPYC VM before the
// interior pipeline, and is not re-measured there.
constexpr uint64_t kCpuDevicePoolingChunk = 64;

// Outputs per max_pooling2 invocation on GPUs: one group of four. On an
// NVIDIA H200 (the VK_max_pooling2 bench) chunks of 4, 8, 32 and 64 outputs
// took 1.8x, 2.2x, 4.6x and 7.7x a vkCmdCopyBuffer of the output in one run;
// in slower runs 16 took 4.2-6.6x and 4 3.8x. A GPU wants many invocations
// in flight.
constexpr uint64_t kGpuPoolingChunk = SS_PQ_GROUP;

// Whether a CPU device's gather and pooling shaders store quads as 64-bit
// pairs (DeviceLimits::store_pairs): only where the host lacks AVX-512.
// llvmpipe stores a buffer component lane by lane, reading each lane's word
// back from a stack copy of the whole vector. Pairs halve those stores
// (callgrind: f16 stride-2 slice 54M -> 36M instructions), but with
// AVX-512 LLVM keeps 8 lanes of 64-bit words in one 512-bit register, and
// reading a word back from its 64-byte copy stalls. On a 2-vCPU AVX-512
// Xeon, same binary, pairs off: f32 stride-2 slice 4.8-5.0 -> 3.1 ms,
// slice1 reversed 15 -> 9.5 ms, max_pooling2 6.9-7.1 -> 5.6-5.8 ms, no
// workload slower beyond noise. 32-bit components stay in 256-bit vectors.
bool cpu_device_store_pairs() {
#if defined(__x86_64__) || defined(__i386__)
  return !__builtin_cpu_supports("avx512f");
#else
  return true;
#endif
}

bool env_is_one(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string(value) == "1";
}

// Whether every byte of [0, buffer_bytes) is an element the op writes; if not,
// the device buffer starts as a copy of the caller's, so gaps keep its bytes.
bool fully_written(const TensorDesc& desc) {
  return desc.layout().packed && desc.buffer_elements() * desc.element_size() == desc.buffer_bytes();
}

// The bytes of one run's tensors and what the device needs of them.
struct RunTensors {
  VkDeviceSize in_size = 0, out_size = 0, idx_size = 0;
  bool preload_output = false;   // gaps in the output keep the caller's bytes
  bool preload_indices = false;  // likewise for the indices
};

RunTensors run_tensors(const Operation& op) {
  RunTensors t;
  t.in_size = op.input().buffer_bytes();
  t.out_size = op.output().buffer_bytes();
  t.idx_size = op.output_indices() ? op.output_indices()->buffer_bytes() : 0;
  t.preload_output = !fully_written(op.output());
  t.preload_indices = op.output_indices() && !fully_written(*op.output_indices());
  return t;
}

}  // namespace

// The device objects of one backend, each part with its own job (the files
// named in the includes above). Runs are serialized by `mutex`. Members are
// destroyed in reverse order: the context last, the in-flight images first.
struct VulkanBackend::Impl {
  std::unique_ptr<Context> context;
  LinearImages linear_images;
  PipelineCache pipelines;
  CommandRecorder recorder;
  TimestampQueries timestamps;
  BoxDescriptors descriptors;
  StagedBuffers buffers;
  RunPlanCache plans;
  BoundTransfers transfers_in_flight;  // images stay until the next run: the device may hold them
  std::vector<DispatchTiming> timings;
  VulkanBackend::TestingLimits testing_limits;
  mutable std::mutex mutex;

  Impl(std::unique_ptr<Context> c, bool staging)
      : context(std::move(c)),
        linear_images(*context),
        pipelines(*context),
        recorder(*context),
        timestamps(*context),
        descriptors(*context),
        buffers(*context, staging) {}
  // After a wait that failed (timed out, device lost) the device may still
  // use the buffers and commands destroyed below: let it finish first.
  ~Impl() {
    if (context) vk().vkDeviceWaitIdle(context->device());
  }

  const DeviceFunctions& vk() const { return context->vk(); }

  DeviceLimits limits() const {
    DeviceLimits limits;
    limits.max_storage_range = context->limits().maxStorageBufferRange;
    limits.storage_offset_alignment = context->limits().minStorageBufferOffsetAlignment;
    if (testing_limits.max_storage_buffer_range) {
      limits.max_storage_range = std::min(limits.max_storage_range, *testing_limits.max_storage_buffer_range);
    }
    if (context->uniform_texel_quads()) {
      // The shaders index texels with a signed 32-bit int.
      uint64_t texels = std::min<uint64_t>(context->limits().maxTexelBufferElements, INT32_MAX);
      if (testing_limits.max_texel_buffer_elements) {
        texels = std::min<uint64_t>(texels, *testing_limits.max_texel_buffer_elements);
      }
      limits.max_texel_quads = texels;
      limits.texel_offset_alignment = std::max<uint64_t>(1, context->limits().minTexelBufferOffsetAlignment);
    }
    const bool cpu_device = context->info().type == "cpu" && !testing_limits.plan_as_gpu;
    limits.tiles_in_registers = testing_limits.tiles_in_registers.value_or(cpu_device);
    limits.max_rows_per_item = testing_limits.max_rows_per_item.value_or(cpu_device ? kCpuDeviceRowsPerItem : 1);
    limits.min_items_per_box = testing_limits.min_items_per_box.value_or(cpu_device ? cpu_device_min_items() : 1);
    limits.store_pairs = context->shader_int64() && testing_limits.store_pairs.value_or(cpu_device && cpu_device_store_pairs());
    limits.pooling_chunk = testing_limits.pooling_chunk.value_or(cpu_device ? kCpuDevicePoolingChunk : kGpuPoolingChunk);
    limits.gather = testing_limits.gather_tuning.value_or(cpu_device ? gpu::GatherTuning{} : gpu::kGpuGatherTuning);
    return limits;
  }

  uint64_t max_workgroups() const {
    const uint64_t real = context->limits().maxComputeWorkGroupCount[0];
    return testing_limits.max_workgroup_count ? std::min<uint64_t>(real, *testing_limits.max_workgroup_count) : real;
  }

  // Passes: the transfer pass, then one per dispatch.
  uint32_t count_passes(const RunPlan& plan) const {
    const uint64_t max_groups = max_workgroups();
    uint32_t passes = !plan.copies.empty() || !plan.fills.empty() ? 1 : 0;
    if (plan.compute) {
      for (const WorkBox& box : plan.compute->boxes) {
        passes += static_cast<uint32_t>(dispatch_count(box.items, SS_LOCAL_SIZE, max_groups));
      }
    }
    return passes;
  }

  Status upload(const RunTensors& t, const PreparedRun& prepared, std::span<const std::byte> input_bytes,
                std::span<std::byte> output_bytes, std::span<std::byte> index_bytes);
  Expected<std::vector<VkDescriptorSet>> bind_compute(const PreparedRun& prepared, bool has_indices,
                                                      std::vector<VkPipeline>& box_pipelines);
  void record_run(const RunTensors& t, const PreparedRun& prepared, const std::vector<VkPipeline>& box_pipelines,
                  const std::vector<VkDescriptorSet>& sets, PassTimer& timer);
  RunStats collect_timings(const PassTimer& timer);
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input_bytes, std::span<std::byte> output_bytes,
                         std::span<std::byte> index_bytes);
  Expected<double> time_copy(uint64_t bytes);
};

// Buffers made or grown, host bytes written to their host sides.
Status VulkanBackend::Impl::upload(const RunTensors& t, const PreparedRun& prepared,
                                   std::span<const std::byte> input_bytes, std::span<std::byte> output_bytes,
                                   std::span<std::byte> index_bytes) {
  SS_RETURN_IF_ERROR(buffers.ensure(buffers.input, t.in_size, "the input buffer"));
  SS_RETURN_IF_ERROR(buffers.ensure(buffers.output, t.out_size, "the output buffer"));
  if (t.idx_size > 0) {
    SS_RETURN_IF_ERROR(buffers.ensure(buffers.indices, t.idx_size, "the indices buffer"));
  }
  if (!prepared.meta_bytes.empty()) {
    SS_RETURN_IF_ERROR(buffers.ensure(buffers.meta, prepared.layout.buffer_bytes, "the index-table buffer"));
  }
  SS_RETURN_IF_ERROR(buffers.write(buffers.input, input_bytes.first(t.in_size)));
  if (t.preload_output) {
    SS_RETURN_IF_ERROR(buffers.write(buffers.output, output_bytes.first(t.out_size)));
  }
  if (t.preload_indices) {
    SS_RETURN_IF_ERROR(buffers.write(buffers.indices, index_bytes.first(t.idx_size)));
  }
  if (!prepared.meta_bytes.empty()) {
    SS_RETURN_IF_ERROR(buffers.write(buffers.meta, prepared.meta_bytes));
  }
  return {};
}

// The compute pass's pipeline and descriptor set for each box.
Expected<std::vector<VkDescriptorSet>> VulkanBackend::Impl::bind_compute(const PreparedRun& prepared,
                                                                         bool has_indices,
                                                                         std::vector<VkPipeline>& box_pipelines) {
  const ComputePass& pass = *prepared.plan.compute;
  box_pipelines.clear();
  for (const WorkBox& box : pass.boxes) {
    SS_ASSIGN_OR_RETURN(VkPipeline pipeline, pipelines.pipeline(pass.key_for(box)));
    box_pipelines.push_back(pipeline);
  }
  const PassBuffers windows{buffers.meta.device.get(), buffers.input.device.get(), buffers.output.device.get(),
                            has_indices ? buffers.indices.device.get() : VK_NULL_HANDLE};
  return descriptors.bind(pass, prepared.layout, pipelines.set_layout(pass.key), windows);
}

void VulkanBackend::Impl::record_run(const RunTensors& t, const PreparedRun& prepared,
                                     const std::vector<VkPipeline>& box_pipelines,
                                     const std::vector<VkDescriptorSet>& sets, PassTimer& timer) {
  const RunPlan& plan = prepared.plan;
  constexpr VkAccessFlags kAll = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  const Slot& input = buffers.input;
  const Slot& output = buffers.output;
  const Slot& indices = buffers.indices;
  if (buffers.staging()) {
    recorder.copy_whole(input.staging, input.device, t.in_size);
    if (t.preload_output) recorder.copy_whole(output.staging, output.device, t.out_size);
    if (t.preload_indices) recorder.copy_whole(indices.staging, indices.device, t.idx_size);
    if (!prepared.meta_bytes.empty()) {
      recorder.copy_whole(buffers.meta.staging, buffers.meta.device, prepared.meta_bytes.size());
    }
    recorder.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, kWork, kAll);
  }
  timer.start();
  if (!plan.copies.empty() || !plan.fills.empty()) {
    recorder.record_transfers(transfers_in_flight, plan, input.device, output.device, timer);
    if (plan.compute) {
      recorder.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
  }
  if (plan.compute) {
    recorder.record_compute(*plan.compute, box_pipelines, pipelines.layout(plan.compute->key), sets,
                            max_workgroups(), timer);
  }
  recorder.barrier(kWork, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT);
  if (buffers.staging()) {
    recorder.copy_whole(output.device, output.staging, t.out_size);
    if (t.idx_size > 0) recorder.copy_whole(indices.device, indices.staging, t.idx_size);
    recorder.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                     VK_ACCESS_HOST_READ_BIT);
  }
}

RunStats VulkanBackend::Impl::collect_timings(const PassTimer& timer) {
  RunStats stats;
  timings.clear();
  const std::vector<double> ms = timestamps.read_milliseconds(static_cast<uint32_t>(timer.labels().size()) + 1);
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

Expected<RunStats> VulkanBackend::Impl::run(const Operation& op, std::span<const std::byte> input_bytes,
                                            std::span<std::byte> output_bytes, std::span<std::byte> index_bytes) {
  if (recorder.device_unusable()) return failure("the Vulkan device was lost earlier; create a new backend");
  SS_RETURN_IF_ERROR(check_buffer_sizes(op, input_bytes, output_bytes, index_bytes));
  SS_ASSIGN_OR_RETURN(const PreparedRun* ready, plans.prepare(op, limits(), context->limits()));
  const PreparedRun& prepared = *ready;
  const RunTensors t = run_tensors(op);

  SS_RETURN_IF_ERROR(upload(t, prepared, input_bytes, output_bytes, index_bytes));
  const uint32_t passes = count_passes(prepared.plan);
  SS_RETURN_IF_ERROR(timestamps.ensure(PassTimer::queries_for(passes)));
  std::vector<VkPipeline> box_pipelines;
  std::vector<VkDescriptorSet> sets;
  if (prepared.plan.compute) {
    SS_ASSIGN_OR_RETURN(sets, bind_compute(prepared, t.idx_size > 0, box_pipelines));
  }
  transfers_in_flight = bind_transfers(prepared.plan, testing_limits.no_linear_images ? nullptr : &linear_images,
                                       buffers.input.device, buffers.output.device);

  SS_RETURN_IF_ERROR(recorder.begin());
  PassTimer timer(vk(), recorder.cmd(), timestamps.pool(), passes);
  record_run(t, prepared, box_pipelines, sets, timer);
  SS_RETURN_IF_ERROR(recorder.submit_and_wait());  // images stay until the next run: the device may hold them
  transfers_in_flight = {};

  // Device -> host.
  SS_RETURN_IF_ERROR(buffers.read(buffers.output, output_bytes.first(t.out_size)));
  if (t.idx_size > 0) {
    SS_RETURN_IF_ERROR(buffers.read(buffers.indices, index_bytes.first(t.idx_size)));
  }
  return collect_timings(timer);
}

Expected<double> VulkanBackend::Impl::time_copy(uint64_t bytes) {
  if (recorder.device_unusable()) return failure("the Vulkan device was lost earlier; create a new backend");
  if (bytes == 0) return 0.0;
  Slot& source = buffers.copy_source;
  const bool fresh = source.device.get() == VK_NULL_HANDLE || source.device.size() < bytes;
  SS_RETURN_IF_ERROR(buffers.ensure(source, bytes, "the copy benchmark source"));
  SS_RETURN_IF_ERROR(buffers.ensure(buffers.copy_target, bytes, "the copy benchmark target"));
  SS_RETURN_IF_ERROR(timestamps.ensure(2));
  if (timestamps.pool() == VK_NULL_HANDLE) return failure("this device's queue has no timestamps");
  SS_RETURN_IF_ERROR(recorder.begin());
  if (fresh) {
    // Real data: never-written memory can be backed by the kernel's shared
    // zero page, which copies far faster than any real buffer.
    const Buffer& host = buffers.host_side(source);
    std::memset(host.mapped(), 0x5A, source.device.size());
    SS_RETURN_IF_ERROR(host.flush(*context, 0, source.device.size()));
    if (buffers.staging()) {
      recorder.copy_whole(source.staging, source.device, source.device.size());
      recorder.barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_TRANSFER_READ_BIT);
    }
  }
  PassTimer timer(vk(), recorder.cmd(), timestamps.pool(), 1);
  timer.start();
  recorder.copy_whole(source.device, buffers.copy_target.device, bytes);
  timer.pass_done("vkCmdCopyBuffer");
  SS_RETURN_IF_ERROR(recorder.submit_and_wait());
  const std::vector<double> ms = timestamps.read_milliseconds(2);
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
  SS_ASSIGN_OR_RETURN(auto context, Context::create(context_options));

  // Map device memory directly where it is host-visible, except on discrete
  // GPUs, whose host-visible device memory is a small window: stage there.
  bool mappable_device_memory = false;
  const VkPhysicalDeviceMemoryProperties& memory = context->memory();
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags f = memory.memoryTypes[i].propertyFlags;
    if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
      mappable_device_memory = true;
    }
  }
  const bool staging = options.force_staging || env_is_one("STRIDESCOPE_VULKAN_FORCE_STAGING") ||
                       !mappable_device_memory || context->info().type == "discrete";

  auto impl = std::make_unique<Impl>(std::move(context), staging);
  SS_RETURN_IF_ERROR(impl->recorder.init());
  return std::unique_ptr<VulkanBackend>(new VulkanBackend(std::move(impl)));
}

std::string VulkanBackend::device_name() const { return impl_->context->info().name; }

Expected<RunStats> VulkanBackend::run(const Operation& op, std::span<const std::byte> input,
                                      std::span<std::byte> output, std::span<std::byte> indices) {
  std::lock_guard lock(impl_->mutex);
  return impl_->run(op, input, output, indices);
}

const VulkanDeviceInfo& VulkanBackend::device_info() const { return impl_->context->info(); }
bool VulkanBackend::uses_staging() const { return impl_->buffers.staging(); }

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
  impl_->linear_images.set_testing_max_height(limits.max_image_rows);
}

Expected<double> VulkanBackend::time_copy_buffer(uint64_t bytes) {
  std::lock_guard lock(impl_->mutex);
  return impl_->time_copy(bytes);
}

Expected<std::unique_ptr<Backend>> make_vulkan_backend(const VulkanOptions& options) {
  SS_ASSIGN_OR_RETURN(auto backend, VulkanBackend::create(options));
  return std::unique_ptr<Backend>(std::move(backend));
}

Expected<std::vector<VulkanDeviceInfo>> list_vulkan_devices() { return Context::list_devices(); }

}  // namespace stridescope
