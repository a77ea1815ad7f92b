#include "gpu/vk_faults.h"

#include <array>
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

// Each wrapped table gets a slot: a wrapper per entry point (Tag) and slot,
// holding the driver function it calls. Tables with the same driver
// functions share a slot; others (validation on, or the driver loaded again
// at another address after the last instance was destroyed) take a new one.
constexpr std::size_t kSlots = 16;

template <class Tag, std::size_t Slot, class Fn>
struct Hook;

template <class Tag, std::size_t Slot, class R, class... A>
struct Hook<Tag, Slot, R(VKAPI_PTR*)(A...)> {
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

#define STRIDESCOPE_VK_TAG(name) \
  struct name##_tag {            \
    static constexpr const char* label = #name; \
  };
STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_TAG)
STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_TAG)
STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_TAG)
STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_TAG)
#undef STRIDESCOPE_VK_TAG

#define STRIDESCOPE_VK_HOOK(name) Hook<name##_tag, Slot, PFN_##name>
#define STRIDESCOPE_VK_SAME(name) \
  same = same && (table.name == nullptr || STRIDESCOPE_VK_HOOK(name)::driver == table.name);
#define STRIDESCOPE_VK_ASSIGN(name)                \
  STRIDESCOPE_VK_HOOK(name)::driver = table.name;  \
  if (table.name != nullptr) table.name = &STRIDESCOPE_VK_HOOK(name)::call;

template <std::size_t Slot>
struct SlotOps {
  static bool matches(const VulkanLibrary& table) {
    bool same = true;
    STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_SAME)
    return same;
  }
  static bool matches(const InstanceFunctions& table) {
    bool same = true;
    STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_SAME)
    STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_SAME)
    return same;
  }
  static bool matches(const DeviceFunctions& table) {
    bool same = true;
    STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_SAME)
    return same;
  }
  static void assign(VulkanLibrary& table) { STRIDESCOPE_VK_GLOBAL_FUNCTIONS(STRIDESCOPE_VK_ASSIGN) }
  static void assign(InstanceFunctions& table) {
    STRIDESCOPE_VK_INSTANCE_FUNCTIONS(STRIDESCOPE_VK_ASSIGN)
    STRIDESCOPE_VK_DEBUG_FUNCTIONS(STRIDESCOPE_VK_ASSIGN)
  }
  static void assign(DeviceFunctions& table) { STRIDESCOPE_VK_DEVICE_FUNCTIONS(STRIDESCOPE_VK_ASSIGN) }
};

#undef STRIDESCOPE_VK_HOOK
#undef STRIDESCOPE_VK_SAME
#undef STRIDESCOPE_VK_ASSIGN

template <class Table, std::size_t... I>
auto slot_matchers(std::index_sequence<I...>) {
  return std::array<bool (*)(const Table&), kSlots>{static_cast<bool (*)(const Table&)>(&SlotOps<I>::matches)...};
}

template <class Table, std::size_t... I>
auto slot_assigners(std::index_sequence<I...>) {
  return std::array<void (*)(Table&), kSlots>{static_cast<void (*)(Table&)>(&SlotOps<I>::assign)...};
}

// Which slots hold a table of type Table in this scope.
template <class Table>
std::array<bool, kSlots>& slots_in_use() {
  static std::array<bool, kSlots> used{};
  return used;
}

template <class Table>
Status wrap_table(Table& table) {
  static const auto matchers = slot_matchers<Table>(std::make_index_sequence<kSlots>());
  static const auto assigners = slot_assigners<Table>(std::make_index_sequence<kSlots>());
  std::lock_guard lock(state().mutex);
  std::array<bool, kSlots>& used = slots_in_use<Table>();
  std::size_t slot = kSlots;
  for (std::size_t i = 0; i < kSlots && slot == kSlots; ++i) {
    if (used[i] && matchers[i](table)) slot = i;
  }
  for (std::size_t i = 0; i < kSlots && slot == kSlots; ++i) {
    if (!used[i]) slot = i;
  }
  if (slot == kSlots) {
    return Error{ErrorCode::BackendUnavailable, "",
                 "Vulkan fault injection has no room for another set of driver functions in this scope"};
  }
  used[slot] = true;
  assigners[slot](table);
  return {};
}

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

Status wrap(VulkanLibrary& table) { return wrap_table(table); }
Status wrap(InstanceFunctions& table) { return wrap_table(table); }
Status wrap(DeviceFunctions& table) { return wrap_table(table); }

}  // namespace faults

ScopedVulkanFaults::ScopedVulkanFaults() {
  std::lock_guard lock(state().mutex);
  state().active = true;
  state().missing_loader = false;
  state().faults.clear();
  state().calls.clear();
  // The tables of the last scope are gone with the backends made in it.
  slots_in_use<VulkanLibrary>().fill(false);
  slots_in_use<InstanceFunctions>().fill(false);
  slots_in_use<DeviceFunctions>().fill(false);
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
