// How the transfer pass's pitched copies (gather_dispatch.h's ByteCopy) become
// Vulkan transfer commands, before any Vulkan call.
//
// vkCmdCopyBuffer takes one region per row, and drivers pay per region: on
// lavapipe about 0.3 us, so a 1x64x480x480 float slice (30,720 rows of
// 1,920 bytes) costs twice a plain copy of its bytes. Buffer-image copies
// walk rows at any pitch on the buffer side (bufferRowLength), so one region
// moves a whole pitched copy. The image side is a linear image bound to the
// memory of the other buffer, which Vulkan allows (linear images and buffers
// are host-accessible subresources and may alias); it works where the
// device's row pitch for a linear image of that width equals that tensor's
// row pitch. Everything else stays one vkCmdCopyBuffer region per row.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "gpu/gather_dispatch.h"

namespace stridescope::gpu {

// What the device's linear 2-D images allow, as far as aliasing a buffer goes.
struct LinearImageCaps {
  // Texel sizes with a usable format (bit k set: 2^k bytes, k = 0..4).
  uint32_t texel_sizes = 0;
  uint32_t max_width = 0;   // texels
  uint32_t max_height = 0;  // rows
  uint64_t alignment = 1;   // of the image's memory offset
  // The row pitch in bytes of a linear image `width` texels wide; nullopt
  // when the device makes no such image.
  std::function<std::optional<uint64_t>(uint32_t texel_bytes, uint32_t width)> row_pitch;
};

enum class ImageSide {
  Output,  // vkCmdCopyBufferToImage: input buffer -> image on the output's memory
  Input,   // vkCmdCopyImageToBuffer: image on the input's memory -> output buffer
};

// One region of a buffer-image copy, in texels; the buffer side's rows are
// `buffer_row_texels` apart.
struct ImageRegion {
  uint64_t buffer_offset = 0;  // bytes
  uint32_t buffer_row_texels = 0;
  uint32_t x = 0;
  uint32_t y = 0;
  uint32_t width = 0;
  uint32_t height = 0;
  friend bool operator==(const ImageRegion&, const ImageRegion&) = default;
};

// A linear image over bytes [offset, offset + height * row_pitch) of one
// buffer, and the pitched copies it carries (all rows of each).
struct AliasedImage {
  ImageSide side = ImageSide::Output;
  uint32_t texel_bytes = 0;
  uint64_t offset = 0;     // in the aliased buffer
  uint64_t row_pitch = 0;  // bytes, as the device lays the image out
  uint32_t width = 0;      // texels
  uint32_t height = 0;     // rows
  std::vector<ByteCopy> copies;

  ImageRegion region(const ByteCopy& copy) const;
};

struct TransferCommands {
  std::vector<ByteCopy> buffer_rows;  // vkCmdCopyBuffer regions (rows == 1)
  std::vector<AliasedImage> images;
};

// `caps` nullopt: no image copies, every row a buffer copy.
TransferCommands lower_copies(std::span<const ByteCopy> copies, const std::optional<LinearImageCaps>& caps);

// The rows of `copies` as single-row copies (what an image falls back to).
void append_rows(std::span<const ByteCopy> copies, std::vector<ByteCopy>& rows);

}  // namespace stridescope::gpu
