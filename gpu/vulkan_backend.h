// The Vulkan compute backend: runs every operator of core/ on a Vulkan device
// (a GPU, or Mesa's lavapipe on the CPU), headless, with exactly the CPU
// reference's results. Semantics come from core's index plans: the host turns
// an Operation into per-axis tables (gpu/gather_dispatch.h,
// gpu/pooling_program.h) that the compute shaders follow.
//
// Device choice: VulkanOptions::device, else the environment variable
// STRIDESCOPE_VULKAN_DEVICE, else the first discrete GPU, then integrated,
// virtual, CPU. A choice is an index ("0") or a case-insensitive part of the
// device name ("llvmpipe").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/backend.h"
#include "gpu/gather_dispatch.h"
#include "gpu/vulkan_device_info.h"

namespace stridescope {

struct VulkanOptions {
  std::optional<std::string> device;  // index or name part; see above
  // Device-local buffers with staging copies even where device memory is
  // host-visible (lavapipe), so that path can be tested anywhere. Also on
  // when the environment has STRIDESCOPE_VULKAN_FORCE_STAGING=1.
  bool force_staging = false;
  // VK_LAYER_KHRONOS_validation; its messages are collected
  // (VulkanBackend::validation_messages), not printed.
  bool enable_validation = false;
};

// One timed piece of device work of the last run (timestamp queries).
using DispatchTiming = PassTiming;

class VulkanBackend final : public Backend {
 public:
  // `loader_library` replaces the usual "libvulkan.so.1" (tests use it to
  // check the error when no loader exists).
  static Expected<std::unique_ptr<VulkanBackend>> create(const VulkanOptions& options,
                                                          const std::string& loader_library = {});
  ~VulkanBackend() override;

  std::string_view name() const override { return "vulkan"; }
  std::string device_name() const override;
  // RunStats::gpu_milliseconds spans the op's device work (not the staging
  // copies or host copies around it).
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override;

  const VulkanDeviceInfo& device_info() const;
  bool uses_staging() const;  // device-local buffers behind staging copies
  // Per pass timings of the last successful run, in submission order.
  std::vector<DispatchTiming> last_timings() const;
  // Validation-layer messages (warnings and errors) since the last clear.
  std::vector<std::string> validation_messages() const;
  void clear_validation_messages();

  // Tests only: pretend the device allows smaller bindings and dispatches,
  // so that splitting work over binding windows and dispatches can be
  // checked with small tensors. Values above the real limits are ignored.
  struct TestingLimits {
    std::optional<uint64_t> max_storage_buffer_range;
    std::optional<uint32_t> max_workgroup_count;
    // maxTexelBufferElements: runs whose input windows need larger texel
    // views read the source as a storage buffer; 0: never through texels.
    std::optional<uint32_t> max_texel_buffer_elements = std::nullopt;
    // Whether the tiled transpose moves whole tiles in registers (CPU
    // devices) or through shared memory (others).
    std::optional<bool> tiles_in_registers = std::nullopt;
    // Short rows per gather invocation, and the fewest invocations a box
    // keeps (DeviceLimits::max_rows_per_item, min_items_per_box).
    std::optional<uint64_t> max_rows_per_item = std::nullopt;
    std::optional<uint64_t> min_items_per_box = std::nullopt;
    // Whether the gather and pooling shaders store quads as 64-bit pairs
    // (DeviceLimits::store_pairs); ignored where the device lacks shaderInt64.
    std::optional<bool> store_pairs = std::nullopt;
    // Outputs per max_pooling2 invocation (DeviceLimits::pooling_chunk),
    // exactly: a CPU device then keeps it whatever the rows' length.
    std::optional<uint64_t> pooling_chunk = std::nullopt;
    // Pretend the device has no linear images: every copied row is its own
    // vkCmdCopyBuffer region (gpu/transfer_lowering.h).
    bool no_linear_images = false;
    // Rows a linear image may have at most (maxImageDimension2D: 16,384 on
    // lavapipe, 32,768 on NVIDIA GPUs); taller copies are cut into pieces.
    std::optional<uint32_t> max_image_rows = std::nullopt;
    // Which runs the transfer pass moves (DeviceLimits::gather): the CPU
    // devices' GatherTuning{} or kGpuGatherTuning, whatever the device.
    std::optional<gpu::GatherTuning> gather_tuning = std::nullopt;
    // Plan every run as for a GPU (the limits above still override): how
    // CI, which has only lavapipe, checks the plans GPUs get.
    bool plan_as_gpu = false;
  };
  void set_testing_limits(const TestingLimits& limits);

  // Device time of one vkCmdCopyBuffer of `bytes` between two device buffers:
  // the yardstick the benchmarks compare each op with.
  Expected<double> time_copy_buffer(uint64_t bytes);

 private:
  struct Impl;
  explicit VulkanBackend(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// ErrorCode::BackendUnavailable when there is no loader, no device, or the
// chosen device does not exist (the message lists the devices).
Expected<std::unique_ptr<Backend>> make_vulkan_backend(const VulkanOptions& options);

// The devices the loader reports, for `--list-devices` style output.
Expected<std::vector<VulkanDeviceInfo>> list_vulkan_devices();

}  // namespace stridescope
