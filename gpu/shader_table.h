// The compute shaders, compiled from gpu/shaders/*.comp at build time and
// embedded in the binary (the table is generated into the build folder), so
// nothing is looked up on disk at run time and no SPIR-V lives in git.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace stridescope::gpu {

struct EmbeddedShader {
  std::string_view name;           // the .comp file's stem: "gather", "max_pooling2"
  std::span<const uint32_t> spirv;  // validated by spirv-val when built
};

std::span<const EmbeddedShader> embedded_shaders();

}  // namespace stridescope::gpu
