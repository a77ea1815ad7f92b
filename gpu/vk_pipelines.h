// Compute pipelines, made on first use and kept for the backend's life, keyed
// by shader and specialization constants (element size, compare kind, index
// size). Start-up makes none: lavapipe compiles a pipeline in 12-55 ms, and a
// run needs one or two.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

#include "core/error.h"
#include "gpu/vk_context.h"
#include "gpu/vk_objects.h"

namespace stridescope::gpu {

enum class ShaderId { Gather, MaxPooling2, TiledTranspose };

// Bindings (shaders/meta_layout.h): box block and tables (uniform), tables
// (storage), source, destination, and for max_pooling2 the indices; the
// texel builds (shaders/source_quads.glsl) add the source's quads as a
// uniform texel buffer at kSourceTexelsBinding.
constexpr uint32_t binding_count(ShaderId shader) { return shader == ShaderId::MaxPooling2 ? 6 : 5; }
constexpr uint32_t kSourceTexelsBinding = 6;
constexpr VkDescriptorType binding_type(uint32_t binding) {
  if (binding == kSourceTexelsBinding) return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  return binding <= 1 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}
// The source's texel view has texels of raw_texel_format(kSourceTexelBytes).
constexpr uint32_t kSourceTexelBytes = 16;

// Specialization constant ids of the shaders.
enum SpecConstant : uint32_t {
  kElementSize = 0,
  kCompareKind = 1,
  kIndexBytes = 2,
  kTableQuads = 3,
  kTablesInStorage = 4,
  kGatherPaths = 5,  // SS_PATH_* bits (shaders/meta_layout.h)
  kPoolingQuads = 6,  // max_pooling2's quad path: SS_PQ_* packed (shaders/meta_layout.h), 0: none
  kTilesInRegisters = 7,  // tiled_transpose: whole tiles without shared memory (DeviceLimits)
  kPoolingPipeline = 8,   // max_pooling2's pipeline per box: SS_GENERAL, SS_INTERIOR... (gpu/pooling_interior.h)
};

struct PipelineKey {
  ShaderId shader = ShaderId::Gather;
  std::array<uint32_t, 9> constants{};  // by SpecConstant
  bool source_texels = false;           // the shader's texel build reads the source's quads
  bool store_pairs = false;             // the gather and pooling shaders' pairs builds (shaders/quad_stores.glsl)

  friend auto operator<=>(const PipelineKey&, const PipelineKey&) = default;
};

struct PushConstants {
  uint32_t item_base = 0;  // first item of this dispatch within the box
};

class PipelineCache {
 public:
  explicit PipelineCache(const Context& context) : context_(&context) {}

  Expected<VkPipeline> pipeline(const PipelineKey& key);
  // Valid after pipeline() succeeded once for the key's shader build.
  VkPipelineLayout layout(const PipelineKey& key) const { return shaders_.at(build_of(key)).layout.get(); }
  VkDescriptorSetLayout set_layout(const PipelineKey& key) const {
    return shaders_.at(build_of(key)).set_layout.get();
  }

 private:
  struct ShaderObjects {
    ShaderModule module;
    DescriptorSetLayout set_layout;
    PipelineLayout layout;
  };
  // A shader, whether it is the texel build and whether the pairs build.
  using ShaderBuild = std::tuple<ShaderId, bool, bool>;
  static ShaderBuild build_of(const PipelineKey& key) { return {key.shader, key.source_texels, key.store_pairs}; }
  Expected<const ShaderObjects*> shader(ShaderBuild build);

  const Context* context_;
  std::map<ShaderBuild, ShaderObjects> shaders_;
  std::map<PipelineKey, Pipeline> pipelines_;
};

}  // namespace stridescope::gpu
