// What the host makes of an op before any Vulkan call (run_plan.h: the plan,
// the meta buffer's layout and bytes), kept for the next run of the same op
// under the same limits: the app and the benchmarks run one op again and
// again, and planning walks every copied row.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/operation.h"
#include "gpu/run_plan.h"
#include "gpu/work_split.h"

namespace stridescope::gpu {

struct PreparedRun {
  Operation op;
  DeviceLimits limits;
  RunPlan plan;
  MetaLayout layout;
  std::vector<std::byte> meta_bytes;  // one box block per box, then the tables (meta_layout.h)
};

class RunPlanCache {
 public:
  // The prepared run of `op` under `limits` on a device with `device`'s
  // limits: the kept one when op and limits are the same, else a new one
  // (replacing it). BackendFailure when the index tables exceed the device.
  Expected<const PreparedRun*> prepare(const Operation& op, const DeviceLimits& limits,
                                       const VkPhysicalDeviceLimits& device);

 private:
  std::optional<PreparedRun> prepared_;
};

}  // namespace stridescope::gpu
