#include "gpu/run_plan_cache.h"

#include <string>
#include <utility>

#include "gpu/vk_pipelines.h"

namespace stridescope::gpu {

Expected<const PreparedRun*> RunPlanCache::prepare(const Operation& op, const DeviceLimits& limits,
                                                   const VkPhysicalDeviceLimits& device) {
  if (prepared_ && prepared_->limits == limits && prepared_->op == op) return &*prepared_;
  prepared_.reset();
  SS_ASSIGN_OR_RETURN(RunPlan plan, plan_run(op, limits));
  MetaLayout layout;
  std::vector<std::byte> meta_bytes;
  if (plan.compute) {
    ComputePass& pass = *plan.compute;
    layout = layout_meta(pass, device);
    if (layout.tables_in_storage && layout.table_bytes > device.maxStorageBufferRange) {
      return Error{ErrorCode::BackendFailure, "",
                   "the op's index tables (" + std::to_string(layout.table_bytes) +
                       " bytes) exceed this device's maxStorageBufferRange"};
    }
    pass.key.constants[kTableQuads] = layout.table_quads;
    pass.key.constants[kTablesInStorage] = layout.tables_in_storage ? 1 : 0;
    meta_bytes = meta_buffer_bytes(pass, layout);
  }
  prepared_ = PreparedRun{op, limits, std::move(plan), layout, std::move(meta_bytes)};
  return &*prepared_;
}

}  // namespace stridescope::gpu
