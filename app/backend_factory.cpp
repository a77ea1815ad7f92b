#include "app/backend_factory.h"

#include "core/cpu_backend.h"
#ifdef STRIDESCOPE_HAS_CPU_FAST
#include "core/fast/cpu_fast_backend.h"
#endif
#ifdef STRIDESCOPE_HAS_VULKAN
#include "gpu/vulkan_backend.h"
#endif

namespace stridescope {

std::vector<std::string> compiled_backends() {
  std::vector<std::string> names{"cpu"};
#ifdef STRIDESCOPE_HAS_CPU_FAST
  names.push_back("cpu-reference");  // the oracle "cpu" is tested against; else "cpu" is the reference itself
#endif
#ifdef STRIDESCOPE_HAS_VULKAN
  names.push_back("vulkan");
#endif
  return names;
}

Expected<std::unique_ptr<Backend>> make_backend(std::string_view name, const BackendOptions& options) {
  if (name == "cpu") {
#ifdef STRIDESCOPE_HAS_CPU_FAST
    return std::unique_ptr<Backend>(std::make_unique<CpuFastBackend>());
#else
    return std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>());
#endif
  }
  // The plain loop the fast backend is tested against, for checking it by hand.
  if (name == "cpu-reference") return std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>());
  if (name == "vulkan") {
#ifdef STRIDESCOPE_HAS_VULKAN
    VulkanOptions vulkan;
    vulkan.device = options.vulkan_device;
    vulkan.force_staging = options.vulkan_force_staging;
    vulkan.enable_validation = options.vulkan_validation;
    return make_vulkan_backend(vulkan);
#else
    (void)options;
    return Error{ErrorCode::BackendUnavailable, "--backend", "this build has no Vulkan backend"};
#endif
  }
  return Error{ErrorCode::InvalidSpec, "--backend",
               "unknown backend '" + std::string(name) + "' (expected cpu, cpu-reference or vulkan)"};
}

}  // namespace stridescope
