#include "gpu/vk_faults.h"

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace stridescope::gpu {
namespace {

struct State {
  std::mutex mutex;
  bool active = false;
  bool missing_loader = false;
  std::vector<VulkanFault> faults;
  std::map<std::string, uint64_t, std::less<>> calls;
  std::vector<std::function<void()>> forget_drivers;  // resets each wrapper's driver function
};

State& state() {
  static State s;
  return s;
}

// Counts the call; for a function that can fail, the injected result, if any.
std::optional<VkResult> on_call(const char* function, bool can_fail) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  ++s.calls[function];
  if (!can_fail) return std::nullopt;
  for (VulkanFault& fault : s.faults) {
    if (fault.function != function || fault.times == 0) continue;
    if (fault.skip > 0) {
      --fault.skip;
      continue;
    }
    if (fault.times != std::numeric_limits<uint64_t>::max()) --fault.times;
    return fault.result;
  }
  return std::nullopt;
}

// One wrapper per entry point (Tag), with the driver's function it calls.
template <class Tag, class Fn>
struct Hook;

template <class Tag, class R, class... A>
struct Hook<Tag, R(VKAPI_PTR*)(A...)> {
  static inline R(VKAPI_PTR* driver)(A...) = nullptr;

  static R VKAPI_CALL call(A... args) {
    if constexpr (std::is_same_v<R, VkResult>) {
      if (std::optional<VkResult> injected = on_call(Tag::label, true)) return *injected;
    } else {
      on_call(Tag::label, false);
    }
    return driver(args...);
  }
};

template <class Tag, class Fn>
Status wrap_one(Fn& slot) {
  using H = Hook<Tag, Fn>;
  if (slot == nullptr || slot == &H::call) return {};  // an absent optional function; already wrapped
  if (H::driver != nullptr && H::driver != slot) {
    return Error{ErrorCode::BackendUnavailable, "",
                 std::string("Vulkan fault injection wraps one configuration at a time, and ") + Tag::label +
                     " differs from the one already wrapped (make every backend in the scope alike)"};
  }
  if (H::driver == nullptr) {
    std::lock_guard lock(state().mutex);
    state().forget_drivers.push_back([] { H::driver = nullptr; });
  }
  H::driver = slot;
  slot = &H::call;
  return {};
}

#define STRIDESCOPE_VK_TAG(name) \
  struct name##_tag {            \
    static constexpr const char* label = #name; \
  };
STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_TAG)
STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_TAG)
STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_TAG)
STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_TAG)
#undef STRIDESCOPE_VK_TAG

#define STRIDESCOPE_VK_WRAP(name) \
  if (Status s = wrap_one<name##_tag>(table.name); !s) return s;

}  // namespace

namespace faults {

bool enabled() {
  std::lock_guard lock(state().mutex);
  return state().active;
}

bool missing_loader() {
  std::lock_guard lock(state().mutex);
  return state().active && state().missing_loader;
}

Status wrap(VulkanLibrary& table) {
  STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_WRAP)
  return {};
}

Status wrap(InstanceFunctions& table) {
  STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_WRAP)
  STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_WRAP)
  return {};
}

Status wrap(DeviceFunctions& table) {
  STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_WRAP)
  return {};
}

}  // namespace faults

#undef STRIDESCOPE_VK_WRAP

ScopedVulkanFaults::ScopedVulkanFaults() {
  State& s = state();
  std::vector<std::function<void()>> forget;
  {
    std::lock_guard lock(s.mutex);
    s.active = true;
    s.missing_loader = false;
    s.faults.clear();
    s.calls.clear();
    forget = std::exchange(s.forget_drivers, {});
  }
  // A new scope may wrap another configuration (validation on, say): the
  // tables of the last scope are gone with the backends made in it.
  for (const auto& reset : forget) reset();
}

ScopedVulkanFaults::~ScopedVulkanFaults() {
  std::lock_guard lock(state().mutex);
  state().active = false;
  state().missing_loader = false;
  state().faults.clear();
}

void ScopedVulkanFaults::inject(VulkanFault fault) {
  std::lock_guard lock(state().mutex);
  state().faults.push_back(std::move(fault));
}

void ScopedVulkanFaults::clear() {
  std::lock_guard lock(state().mutex);
  state().faults.clear();
}

void ScopedVulkanFaults::set_missing_loader(bool missing) {
  std::lock_guard lock(state().mutex);
  state().missing_loader = missing;
}

uint64_t ScopedVulkanFaults::calls(std::string_view function) const {
  std::lock_guard lock(state().mutex);
  auto found = state().calls.find(function);
  return found == state().calls.end() ? 0 : found->second;
}

}  // namespace stridescope::gpu
