#include "gpu/vk_pipelines.h"

#include <string>
#include <vector>

#include "gpu/shader_table.h"
#include "gpu/vk_error.h"

namespace stridescope::gpu {

namespace {

std::string_view shader_name(ShaderId id) {
  switch (id) {
    case ShaderId::Gather: return "gather";
    case ShaderId::MaxPooling2: return "max_pooling2";
    case ShaderId::TiledTranspose: return "tiled_transpose";
  }
  return "";
}

}  // namespace

Expected<const PipelineCache::ShaderObjects*> PipelineCache::shader(ShaderBuild build) {
  if (auto found = shaders_.find(build); found != shaders_.end()) return &found->second;
  const DeviceFunctions& vk = context_->vk();
  const VkDevice device = context_->device();
  const auto [id, texels, pairs] = build;
  const std::string name = std::string(shader_name(id)) + (texels ? "_texels" : "") + (pairs ? "_pairs" : "");

  std::span<const uint32_t> spirv;
  for (const EmbeddedShader& embedded : embedded_shaders()) {
    if (embedded.name == name) spirv = embedded.spirv;
  }
  if (spirv.empty()) return Error{ErrorCode::BackendFailure, "", "shader " + name + " is not embedded in this build"};

  ShaderObjects objects;
  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = spirv.size_bytes();
  module_info.pCode = spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkCreateShaderModule(device, &module_info, nullptr, &module), "creating shader " + name));
  objects.module = ShaderModule(vk, device, module);

  std::vector<uint32_t> numbers(binding_count(id));
  for (uint32_t b = 0; b < numbers.size(); ++b) numbers[b] = b;
  if (texels) numbers.push_back(kSourceTexelsBinding);
  std::vector<VkDescriptorSetLayoutBinding> bindings(numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    bindings[i].binding = numbers[i];
    bindings[i].descriptorType = binding_type(numbers[i]);
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = static_cast<uint32_t>(bindings.size());
  set_info.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout),
                              "creating the descriptor set layout of " + name));
  objects.set_layout = DescriptorSetLayout(vk, device, set_layout);

  VkPushConstantRange push{};
  push.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  push.offset = 0;
  push.size = sizeof(PushConstants);
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(vk.vkCreatePipelineLayout(device, &layout_info, nullptr, &layout),
                              "creating the pipeline layout of " + name));
  objects.layout = PipelineLayout(vk, device, layout);
  return &shaders_.emplace(build, std::move(objects)).first->second;
}

Expected<VkPipeline> PipelineCache::pipeline(const PipelineKey& key) {
  if (auto found = pipelines_.find(key); found != pipelines_.end()) return found->second.get();
  SS_ASSIGN_OR_RETURN(const ShaderObjects* objects, shader(build_of(key)));

  std::array<VkSpecializationMapEntry, std::tuple_size_v<decltype(key.constants)>> entries{};
  for (uint32_t i = 0; i < entries.size(); ++i) {
    entries[i].constantID = i;
    entries[i].offset = i * static_cast<uint32_t>(sizeof(uint32_t));
    entries[i].size = sizeof(uint32_t);
  }
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = static_cast<uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = specialization.mapEntryCount * sizeof(uint32_t);
  specialization.pData = key.constants.data();

  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = objects->module.get();
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = objects->layout.get();
  VkPipeline pipeline = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(context_->vk().vkCreateComputePipelines(context_->device(), VK_NULL_HANDLE, 1, &info,
                                                                      nullptr, &pipeline),
                              "creating a compute pipeline for " + std::string(shader_name(key.shader))));
  return pipelines_.emplace(key, Pipeline(context_->vk(), context_->device(), pipeline)).first->second.get();
}

}  // namespace stridescope::gpu
