// The device half of transfer_lowering.h: the device's linear-image caps,
// and linear images bound to a buffer's memory, made for one run.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/error.h"
#include "gpu/transfer_lowering.h"
#include "gpu/vk_buffer.h"
#include "gpu/vk_context.h"
#include "gpu/vk_objects.h"

namespace stridescope::gpu {

// The image's copies as Vulkan regions (texels, rows, the buffer's row length).
std::vector<VkBufferImageCopy> buffer_image_copies(const AliasedImage& image);

// The barrier taking a just-bound image from PREINITIALIZED to GENERAL, which
// keeps the bytes the buffer holds; after host writes and earlier transfers.
VkImageMemoryBarrier preinitialized_to_general(VkImage image);

class LinearImages {
 public:
  explicit LinearImages(const Context& context);
  LinearImages(const LinearImages&) = delete;  // caps() refers to this object
  LinearImages& operator=(const LinearImages&) = delete;

  // nullopt when the device has no linear image usable for transfers.
  std::optional<LinearImageCaps> caps() const;
  // Tests: images of at most `rows` rows (nullopt: the device's limit).
  void set_testing_max_height(std::optional<uint32_t> rows) { testing_max_height_ = rows; }

  // `image` as a VkImage bound at image.offset of `owner`'s memory, in
  // VK_IMAGE_LAYOUT_PREINITIALIZED (its bytes are the buffer's). An error
  // when the device lays the image out otherwise than planned, or it would
  // reach past the buffer's memory: the caller then copies row by row.
  Expected<ImageHandle> bind(const AliasedImage& image, const Buffer& owner) const;

 private:
  std::optional<uint64_t> row_pitch(uint32_t texel_bytes, uint32_t width) const;
  Expected<ImageHandle> create(uint32_t texel_bytes, uint32_t width, uint32_t height) const;

  const Context& context_;
  std::optional<LinearImageCaps> caps_;
  std::optional<uint32_t> testing_max_height_;
  mutable std::map<std::pair<uint32_t, uint32_t>, std::optional<uint64_t>> pitches_;  // (texel, width) -> pitch
};

}  // namespace stridescope::gpu
