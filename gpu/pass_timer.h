// Device timing of a run's passes: a timestamp query pool that grows on
// demand, and the timer that writes one timestamp before the work and one
// after each pass (past kMaxTimedPasses the remaining passes share one, so a
// run of many dispatches needs no huge pool).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "gpu/vk_context.h"
#include "gpu/vk_objects.h"

namespace stridescope::gpu {

inline constexpr uint32_t kMaxTimedPasses = 64;

// The timestamp query pool; none when the queue has no timestamps.
class TimestampQueries {
 public:
  explicit TimestampQueries(const Context& context) : context_(context) {}

  // A pool of at least `count` queries (grows only).
  Status ensure(uint32_t count);
  VkQueryPool pool() const { return queries_.get(); }
  // Milliseconds between consecutive timestamps of the first `count`
  // queries; empty when there are none or they cannot be read.
  std::vector<double> read_milliseconds(uint32_t count) const;

 private:
  const Context& context_;
  QueryPool queries_;
  uint32_t capacity_ = 0;
};

class PassTimer {
 public:
  PassTimer(const DeviceFunctions& vk, VkCommandBuffer cmd, VkQueryPool pool, uint32_t passes)
      : vk_(vk), cmd_(cmd), pool_(pool), passes_(passes) {}

  static uint32_t queries_for(uint32_t passes) { return std::min(passes, kMaxTimedPasses) + 1; }

  void start();
  void pass_done(std::string label);
  // One label per timestamp after the first, in order.
  const std::vector<std::string>& labels() const { return labels_; }

 private:
  const DeviceFunctions& vk_;
  VkCommandBuffer cmd_;
  VkQueryPool pool_;
  uint32_t passes_;
  uint32_t done_ = 0;
  std::vector<std::string> labels_;
};

}  // namespace stridescope::gpu
