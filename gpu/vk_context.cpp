#include "gpu/vk_context.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "gpu/driver_pins.h"
#include "gpu/vk_error.h"

namespace stridescope::gpu {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

int preference(const std::string& type) {
  if (type == "discrete") return 0;
  if (type == "integrated") return 1;
  if (type == "virtual") return 2;
  if (type == "cpu") return 3;
  return 4;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string describe(std::span<const VulkanDeviceInfo> devices) {
  if (devices.empty()) return "the loader reports no Vulkan device";
  std::string text = "devices:";
  for (const VulkanDeviceInfo& d : devices) {
    text += " " + std::to_string(d.index) + ": " + d.name + " [" + d.type + (d.has_compute ? "" : ", no compute") + "];";
  }
  text.pop_back();
  return text;
}

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                     void* user) {
  const char* level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
  std::string text = std::string(level) + ": " + (data->pMessage != nullptr ? data->pMessage : "(no text)");
  static_cast<ValidationLog*>(user)->add(std::move(text));
  return VK_FALSE;  // never abort the call
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(ValidationLog& log) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = on_validation_message;
  info.pUserData = &log;
  return info;
}

bool has_layer(const VulkanLibrary& library, const char* name) {
  uint32_t count = 0;
  if (library.vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (library.vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

// A bare instance, with the validation layer and debug utils when asked.
Expected<Instance> create_instance(std::shared_ptr<const VulkanLibrary> library, ValidationLog* log) {
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "StrideScope";
  app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
  app.pEngineName = "StrideScope";
  app.apiVersion = VK_API_VERSION_1_0;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  VkDebugUtilsMessengerCreateInfoEXT debug{};
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  if (log != nullptr) {
    if (!has_layer(*library, kValidationLayer)) {
      return backend_unavailable(std::string("validation was requested but ") + kValidationLayer +
                                 " is not installed (Debian: vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    debug = messenger_info(*log);
    info.pNext = &debug;  // also catches messages from vkCreateInstance/vkDestroyInstance
  }
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();

  VkInstance handle = VK_NULL_HANDLE;
  const VkResult result = library->vkCreateInstance(&info, nullptr, &handle);
  SS_RETURN_IF_ERROR(vk_check(result, "creating the Vulkan instance"));
  keep_vulkan_drivers_loaded();  // the loader has opened the drivers and layers
  auto functions = InstanceFunctions::load(*library, handle);
  if (!functions) {
    // Destroy through the loader directly: the table is incomplete.
    auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(library->vkGetInstanceProcAddr(handle, "vkDestroyInstance"));
    if (destroy != nullptr) destroy(handle, nullptr);
    return functions.error();
  }
  return Instance(std::move(library), *functions, handle);
}

struct PhysicalDevice {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  VulkanDeviceInfo info;
  std::optional<uint32_t> compute_family;
  uint32_t timestamp_bits = 0;
};

Expected<std::vector<PhysicalDevice>> physical_devices(const Instance& instance) {
  const InstanceFunctions& vk = instance.functions();
  uint32_t count = 0;
  SS_RETURN_IF_ERROR(vk_check(vk.vkEnumeratePhysicalDevices(instance.get(), &count, nullptr), "listing Vulkan devices"));
  std::vector<VkPhysicalDevice> handles(count);
  SS_RETURN_IF_ERROR(
      vk_check(vk.vkEnumeratePhysicalDevices(instance.get(), &count, handles.data()), "listing Vulkan devices"));
  handles.resize(count);
  std::vector<PhysicalDevice> devices;
  for (uint32_t i = 0; i < count; ++i) {
    PhysicalDevice d;
    d.handle = handles[i];
    VkPhysicalDeviceProperties properties{};
    vk.vkGetPhysicalDeviceProperties(handles[i], &properties);
    d.info.index = i;
    d.info.name = properties.deviceName;
    d.info.type = type_name(properties.deviceType);
    d.info.api_version = properties.apiVersion;
    uint32_t family_count = 0;
    vk.vkGetPhysicalDeviceQueueFamilyProperties(handles[i], &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vk.vkGetPhysicalDeviceQueueFamilyProperties(handles[i], &family_count, families.data());
    // A compute family with timestamps if there is one, else any compute family.
    for (uint32_t f = 0; f < family_count; ++f) {
      if ((families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) == 0 || families[f].queueCount == 0) continue;
      if (!d.compute_family || (d.timestamp_bits == 0 && families[f].timestampValidBits != 0)) {
        d.compute_family = f;
        d.timestamp_bits = families[f].timestampValidBits;
      }
    }
    d.info.has_compute = d.compute_family.has_value();
    devices.push_back(std::move(d));
  }
  return devices;
}

std::vector<VulkanDeviceInfo> infos_of(const std::vector<PhysicalDevice>& devices) {
  std::vector<VulkanDeviceInfo> infos;
  for (const PhysicalDevice& d : devices) infos.push_back(d.info);
  return infos;
}

// Linear images of raw texels that transfers may read and write.
std::optional<VkImageFormatProperties> linear_transfer_image_properties(const InstanceFunctions& ivk,
                                                                        VkPhysicalDevice device,
                                                                        uint32_t texel_bytes) {
  const VkFormat format = raw_texel_format(texel_bytes);
  VkFormatProperties features{};
  ivk.vkGetPhysicalDeviceFormatProperties(device, format, &features);
  constexpr VkFormatFeatureFlags kTransfers = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if ((features.linearTilingFeatures & kTransfers) != kTransfers) return std::nullopt;
  VkImageFormatProperties properties{};
  if (ivk.vkGetPhysicalDeviceImageFormatProperties(device, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_LINEAR,
                                                   VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                   0, &properties) != VK_SUCCESS) {
    return std::nullopt;
  }
  return properties;
}

}  // namespace

void ValidationLog::add(std::string message) {
  std::lock_guard lock(mutex_);
  if (messages_.size() < kMaxMessages) messages_.push_back(std::move(message));
}

std::vector<std::string> ValidationLog::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

void ValidationLog::clear() {
  std::lock_guard lock(mutex_);
  messages_.clear();
}

Expected<std::size_t> choose_device(std::span<const VulkanDeviceInfo> devices,
                                    const std::optional<std::string>& request) {
  if (devices.empty()) return backend_unavailable("no Vulkan device found: " + describe(devices));
  if (request && !request->empty()) {
    const bool is_index = std::all_of(request->begin(), request->end(),
                                      [](unsigned char c) { return std::isdigit(c) != 0; });
    std::optional<std::size_t> chosen;
    if (is_index) {
      const unsigned long long index = request->size() <= 9 ? std::stoull(*request) : devices.size();
      if (index < devices.size()) chosen = static_cast<std::size_t>(index);
    } else {
      const std::string needle = lowercase(*request);
      for (std::size_t i = 0; i < devices.size() && !chosen; ++i) {
        if (lowercase(devices[i].name).find(needle) != std::string::npos) chosen = i;
      }
    }
    // The device was asked for (--device or STRIDESCOPE_VULKAN_DEVICE): the
    // error names that field, so callers tell it from "no GPU here".
    if (!chosen) {
      return Error{ErrorCode::BackendUnavailable, "--device",
                   "no Vulkan device matches '" + *request + "'; " + describe(devices)};
    }
    if (!devices[*chosen].has_compute) {
      return Error{ErrorCode::BackendUnavailable, "--device",
                   "Vulkan device '" + devices[*chosen].name + "' has no compute queue; " + describe(devices)};
    }
    return *chosen;
  }
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i].has_compute) continue;
    if (!best || preference(devices[i].type) < preference(devices[*best].type)) best = i;
  }
  if (!best) return backend_unavailable("no Vulkan device with a compute queue; " + describe(devices));
  return *best;
}

Expected<std::vector<VulkanDeviceInfo>> Context::list_devices(const std::string& loader_library) {
  SS_ASSIGN_OR_RETURN(auto library, VulkanLibrary::open(loader_library));
  SS_ASSIGN_OR_RETURN(const Instance instance, create_instance(library, nullptr));
  SS_ASSIGN_OR_RETURN(const auto devices, physical_devices(instance));
  return infos_of(devices);
}

Context::~Context() = default;

Expected<std::unique_ptr<Context>> Context::create(const ContextOptions& options) {
  SS_ASSIGN_OR_RETURN(auto library, VulkanLibrary::open(options.loader_library));
  std::unique_ptr<Context> context(new Context());
  SS_ASSIGN_OR_RETURN(context->instance_,
                      create_instance(library, options.enable_validation ? &context->log_ : nullptr));
  const InstanceFunctions& ivk = context->instance_.functions();

  if (options.enable_validation) {
    if (ivk.vkCreateDebugUtilsMessengerEXT == nullptr || ivk.vkDestroyDebugUtilsMessengerEXT == nullptr) {
      return backend_unavailable("validation was requested but VK_EXT_debug_utils is missing");
    }
    VkDebugUtilsMessengerCreateInfoEXT info = messenger_info(context->log_);
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    SS_RETURN_IF_ERROR(vk_check(ivk.vkCreateDebugUtilsMessengerEXT(context->instance_.get(), &info, nullptr, &messenger),
                                "creating the validation messenger"));
    context->messenger_ = DebugMessenger(context->instance_, messenger);
  }

  SS_ASSIGN_OR_RETURN(const auto devices, physical_devices(context->instance_));
  const std::vector<VulkanDeviceInfo> infos = infos_of(devices);
  SS_ASSIGN_OR_RETURN(const std::size_t chosen, choose_device(infos, options.device));
  const PhysicalDevice& physical = devices[chosen];
  context->physical_ = physical.handle;
  context->info_ = physical.info;
  context->queue_family_ = *physical.compute_family;
  context->timestamp_valid_bits_ = physical.timestamp_bits;
  ivk.vkGetPhysicalDeviceProperties(physical.handle, &context->properties_);
  ivk.vkGetPhysicalDeviceMemoryProperties(physical.handle, &context->memory_);
  for (uint32_t k = 0; k < context->linear_transfer_images_.size(); ++k) {
    context->linear_transfer_images_[k] = linear_transfer_image_properties(ivk, physical.handle, 1u << k);
  }
  VkFormatProperties quads{};
  ivk.vkGetPhysicalDeviceFormatProperties(physical.handle, raw_texel_format(16), &quads);
  context->uniform_texel_quads_ = (quads.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) != 0;

  // The one optional feature enabled, where the device has it: shaderInt64,
  // which only the gather and pooling shaders' pairs builds use (DeviceLimits::store_pairs).
  VkPhysicalDeviceFeatures supported{};
  ivk.vkGetPhysicalDeviceFeatures(physical.handle, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.shaderInt64 = supported.shaderInt64;
  context->shader_int64_ = supported.shaderInt64 == VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = context->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &enabled;
  VkDevice device = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(ivk.vkCreateDevice(physical.handle, &device_info, nullptr, &device),
                              "creating the logical device on " + physical.info.name));
  auto functions = DeviceFunctions::load(ivk, device);
  if (!functions) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDevice>(ivk.vkGetDeviceProcAddr(device, "vkDestroyDevice"));
    if (destroy != nullptr) destroy(device, nullptr);
    return functions.error();
  }
  context->device_ = Device(std::make_unique<DeviceFunctions>(*functions), device);
  context->vk().vkGetDeviceQueue(device, context->queue_family_, 0, &context->queue_);
  return context;
}

VkFormat raw_texel_format(uint32_t texel_bytes) {
  switch (texel_bytes) {
    case 1: return VK_FORMAT_R8_UINT;
    case 2: return VK_FORMAT_R16_UINT;
    case 4: return VK_FORMAT_R32_UINT;
    case 8: return VK_FORMAT_R32G32_UINT;
    case 16: return VK_FORMAT_R32G32B32A32_UINT;
    default: return VK_FORMAT_UNDEFINED;
  }
}

const std::optional<VkImageFormatProperties>& Context::linear_transfer_image(uint32_t texel_bytes) const {
  static const std::optional<VkImageFormatProperties> none;
  for (uint32_t k = 0; k < linear_transfer_images_.size(); ++k) {
    if (texel_bytes == (1u << k)) return linear_transfer_images_[k];
  }
  return none;
}

}  // namespace stridescope::gpu
