// VkResult -> Error, in this one place. Every Vulkan call's result goes
// through vk_check, so an error reaches the user as a sentence saying what
// StrideScope was doing and what Vulkan answered:
//   "out of device memory while allocating the output buffer (VK_ERROR_OUT_OF_DEVICE_MEMORY)"
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "gpu/vk_functions.h"

namespace stridescope::gpu {

// Vulkan cannot run here (no loader, no driver, no device, a missing layer):
// the app and the CLI then offer the CPU backends only.
inline Error backend_unavailable(std::string message) {
  return Error{ErrorCode::BackendUnavailable, "", std::move(message)};
}

// "VK_ERROR_DEVICE_LOST", ...
std::string_view vk_result_name(VkResult result);

// The Error for a failed call; `action` says what was being done ("creating
// the device"). No Vulkan loader/driver/device or a missing layer map to
// BackendUnavailable; everything else (device lost, out of memory, timeout)
// to BackendFailure.
Error vk_error(VkResult result, std::string_view action);

inline Status vk_check(VkResult result, std::string_view action) {
  if (result == VK_SUCCESS) return {};
  return vk_error(result, action);
}

// Device lost, or a wait that timed out (the device may still be running
// the work): the backend refuses further runs.
bool leaves_device_unusable(VkResult result);

}  // namespace stridescope::gpu
