// The backends this build has, made by name. The only place that knows both
// the CPU and the Vulkan backend exist; the CLI and the app ask it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend.h"

namespace stridescope {

struct BackendOptions {
  // Vulkan device by index or by a part of its name; default: the environment
  // variable STRIDESCOPE_VULKAN_DEVICE, else discrete > integrated > CPU.
  std::optional<std::string> vulkan_device;
  bool vulkan_force_staging = false;  // use staging buffers even for host-visible memory
  bool vulkan_validation = false;     // enable VK_LAYER_KHRONOS_validation
};

// Names compiled into this build, in preference order: "cpu" (the fast CPU
// backend where built), "cpu-reference" (the simple CPU loop the fast one is
// tested against, listed where the fast one is built), then "vulkan".
// `compare` runs every one of them.
std::vector<std::string> compiled_backends();

// BackendUnavailable when the name is compiled in but cannot run here (no
// Vulkan loader or device), InvalidSpec when the name is unknown.
Expected<std::unique_ptr<Backend>> make_backend(std::string_view name, const BackendOptions& options = {});

}  // namespace stridescope
