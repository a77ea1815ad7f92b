// Hand-worked max_pooling2 results over 4-byte words, checked on the Vulkan
// backend: the pooling tests that pin one shader path by hand (quad keys,
// the quad path's left edge) state what each output and index must be.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/operation.h"
#include "gpu/vulkan_backend.h"

namespace stridescope::test {

struct PooledWords {
  std::vector<uint32_t> output;   // bits
  std::vector<uint64_t> indices;  // flat input positions
};

// Runs `op` on `gpu` over `input` (the words' bits) and checks every output
// word and, where the op writes indices (UInt32 or UInt64), every index.
void expect_pooled_words(VulkanBackend& gpu, const Operation& op, const std::vector<uint32_t>& input,
                         const PooledWords& expected);

}  // namespace stridescope::test
