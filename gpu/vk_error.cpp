#include "gpu/vk_error.h"

#include <string>

namespace stridescope::gpu {

std::string_view vk_result_name(VkResult result) {
  switch (result) {
#define STRIDESCOPE_VK_RESULT(name) \
  case name: return #name;
    STRIDESCOPE_VK_RESULT(VK_SUCCESS)
    STRIDESCOPE_VK_RESULT(VK_NOT_READY)
    STRIDESCOPE_VK_RESULT(VK_TIMEOUT)
    STRIDESCOPE_VK_RESULT(VK_EVENT_SET)
    STRIDESCOPE_VK_RESULT(VK_EVENT_RESET)
    STRIDESCOPE_VK_RESULT(VK_INCOMPLETE)
    STRIDESCOPE_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    STRIDESCOPE_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    STRIDESCOPE_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    STRIDESCOPE_VK_RESULT(VK_ERROR_DEVICE_LOST)
    STRIDESCOPE_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    STRIDESCOPE_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    STRIDESCOPE_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    STRIDESCOPE_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    STRIDESCOPE_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    STRIDESCOPE_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    STRIDESCOPE_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    STRIDESCOPE_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    STRIDESCOPE_VK_RESULT(VK_ERROR_UNKNOWN)
    STRIDESCOPE_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    STRIDESCOPE_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    STRIDESCOPE_VK_RESULT(VK_ERROR_FRAGMENTATION)
    STRIDESCOPE_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef STRIDESCOPE_VK_RESULT
    default: return "VK_ERROR (unrecognised)";
  }
}

Error vk_error(VkResult result, std::string_view action) {
  const std::string suffix = " (" + std::string(vk_result_name(result)) + ")";
  const std::string doing(action);
  switch (result) {
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return Error{ErrorCode::BackendUnavailable, "",
                   "no usable Vulkan driver while " + doing + suffix +
                       "; install one, e.g. Debian's mesa-vulkan-drivers"};
    case VK_ERROR_LAYER_NOT_PRESENT:
      return Error{ErrorCode::BackendUnavailable, "",
                   "a requested Vulkan layer is not installed while " + doing + suffix};
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return Error{ErrorCode::BackendUnavailable, "",
                   "the Vulkan implementation lacks something needed while " + doing + suffix};
    case VK_ERROR_DEVICE_LOST:
      return Error{ErrorCode::BackendFailure, "", "the Vulkan device was lost while " + doing + suffix};
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return Error{ErrorCode::BackendFailure, "", "out of device memory while " + doing + suffix};
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return Error{ErrorCode::BackendFailure, "", "out of host memory while " + doing + suffix};
    case VK_TIMEOUT:
      return Error{ErrorCode::BackendFailure, "", "the device timed out while " + doing + suffix};
    default:
      return Error{ErrorCode::BackendFailure, "", "Vulkan failed while " + doing + suffix};
  }
}

bool leaves_device_unusable(VkResult result) { return result == VK_ERROR_DEVICE_LOST || result == VK_TIMEOUT; }

}  // namespace stridescope::gpu
