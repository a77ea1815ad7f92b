#include "gpu/pass_timer.h"

#include <algorithm>

#include "gpu/vk_error.h"

namespace stridescope::gpu {

Status TimestampQueries::ensure(uint32_t count) {
  if (context_.timestamp_valid_bits() == 0 || count <= capacity_) return {};
  queries_.reset();
  capacity_ = 0;
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = std::max<uint32_t>(count, kMaxTimedPasses + 1);
  VkQueryPool pool = VK_NULL_HANDLE;
  if (auto s = vk_check(context_.vk().vkCreateQueryPool(context_.device(), &info, nullptr, &pool),
                        "creating a timestamp query pool");
      !s) {
    return s;
  }
  queries_ = QueryPool(context_.vk(), context_.device(), pool);
  capacity_ = info.queryCount;
  return {};
}

std::vector<double> TimestampQueries::read_milliseconds(uint32_t count) const {
  std::vector<double> ms;
  if (queries_.get() == VK_NULL_HANDLE || count < 2) return ms;
  std::vector<uint64_t> ticks(count);
  if (context_.vk().vkGetQueryPoolResults(context_.device(), queries_.get(), 0, count, count * sizeof(uint64_t),
                                          ticks.data(), sizeof(uint64_t),
                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS) {
    return ms;
  }
  const uint32_t bits = context_.timestamp_valid_bits();
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const double period_ns = context_.limits().timestampPeriod;
  for (uint32_t i = 1; i < count; ++i) {
    const uint64_t delta = ((ticks[i] & mask) - (ticks[i - 1] & mask)) & mask;
    ms.push_back(static_cast<double>(delta) * period_ns / 1e6);
  }
  return ms;
}

void PassTimer::start() {
  if (pool_ == VK_NULL_HANDLE) return;
  vk_.vkCmdResetQueryPool(cmd_, pool_, 0, queries_for(passes_));
  vk_.vkCmdWriteTimestamp(cmd_, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
}

void PassTimer::pass_done(std::string label) {
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

}  // namespace stridescope::gpu
