// The host half of a run: an Operation turned into what the device executes,
// before any Vulkan call. A RunPlan holds the transfer pass (byte copies and
// fills) and the compute pass (pipeline key, header, index tables, boxes).
// The meta buffer then carries one box block (header + box record) per box,
// followed by the tables (shaders/meta_layout.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/operation.h"
#include "gpu/gather_dispatch.h"
#include "gpu/vk_functions.h"
#include "gpu/vk_pipelines.h"
#include "gpu/work_split.h"

namespace stridescope::gpu {

// A compute pass: which pipeline, the header and tables it reads, the boxes
// it runs (one descriptor set and one box block each).
struct ComputePass {
  PipelineKey key;  // kTableQuads and kTablesInStorage are set by layout_meta's caller
  std::string name;
  std::vector<uint32_t> header;
  std::vector<uint32_t> tables;
  std::vector<WorkBox> boxes;

  // The pipeline `box` runs: `key` specialized to the box's variant
  // (max_pooling2's interior pipelines, gpu/pooling_interior.h). All share
  // the shader build, so the layouts and descriptor sets are the same.
  PipelineKey key_for(const WorkBox& box) const;
};

struct RunPlan {
  std::vector<ByteCopy> copies;  // transfer pass: input -> output
  std::vector<ByteFill> fills;   // transfer pass: CONSTANT padding rows
  std::optional<ComputePass> compute;
};

// identity, slice, slice1 and padding (gather_dispatch.h), max_pooling2
// (pooling_program.h). BackendFailure when the work cannot be split to fit
// the limits.
Expected<RunPlan> plan_run(const Operation& op, const DeviceLimits& limits);

// Where the box blocks and the tables go in the meta buffer.
struct MetaLayout {
  VkDeviceSize block_stride = 0;   // box blocks at k * block_stride
  VkDeviceSize tables_offset = 0;
  VkDeviceSize table_bytes = 0;    // rounded up to 16
  uint32_t table_quads = 0;        // uvec4s the uniform tables block declares
  bool tables_in_storage = false;  // too big for a uniform buffer
  VkDeviceSize used_bytes = 0;     // what the host writes
  VkDeviceSize buffer_bytes = 0;   // what the bindings may cover
};
MetaLayout layout_meta(const ComputePass& pass, const VkPhysicalDeviceLimits& limits);

// The meta buffer's contents (used_bytes of them).
std::vector<std::byte> meta_buffer_bytes(const ComputePass& pass, const MetaLayout& layout);

}  // namespace stridescope::gpu
