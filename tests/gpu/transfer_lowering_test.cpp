// gpu/transfer_lowering.h: pitched copies become buffer-image regions that
// move exactly the bytes the copies name, and rows where no image fits.
// Host-only: the device is a model with lavapipe's linear layout (row pitch
// aligned to 64 bytes, offsets to 16), so regions are checked by replaying
// them byte by byte, against the copies replayed row by row.
#include "gpu/transfer_lowering.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gpu/gather_dispatch.h"
#include "reference/random_specs.h"

namespace stridescope::gpu {
namespace {

LinearImageCaps lavapipe_like() {
  LinearImageCaps caps;
  caps.texel_sizes = 1 | 2 | 4 | 8 | 16;
  caps.max_width = 16384;
  caps.max_height = 16384;
  caps.alignment = 16;
  caps.row_pitch = [](uint32_t texel, uint32_t width) -> std::optional<uint64_t> {
    return (uint64_t{texel} * width + 63) / 64 * 64;
  };
  return caps;
}

using Bytes = std::vector<uint8_t>;

Bytes numbered(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(i * 7 + 1);
  return b;
}

// What the copies do, row by row.
void replay_rows(const std::vector<ByteCopy>& copies, const Bytes& in, Bytes& out) {
  for (const ByteCopy& c : copies) {
    for (uint64_t r = 0; r < c.rows; ++r) {
      const ByteCopy row = c.row(r);
      for (uint64_t b = 0; b < row.size; ++b) out[row.dst + b] = in[row.src + b];
    }
  }
}

// What the commands do, following Vulkan's buffer-image copy addressing:
// texel (x, y) of the image lies at offset + y * row_pitch + x * texel; the
// buffer's texel for it at buffer_offset + ((y - r.y) * row_texels + (x - r.x)) * texel.
void replay_commands(const TransferCommands& commands, const Bytes& in, Bytes& out) {
  replay_rows(commands.buffer_rows, in, out);
  for (const AliasedImage& image : commands.images) {
    for (const ByteCopy& copy : image.copies) {
      const ImageRegion r = image.region(copy);
      ASSERT_LE(r.x + r.width, image.width);
      ASSERT_LE(r.y + r.height, image.height);
      ASSERT_GE(r.buffer_row_texels, r.width);
      for (uint32_t y = r.y; y < r.y + r.height; ++y) {
        for (uint32_t x = r.x; x < r.x + r.width; ++x) {
          const uint64_t at_image = image.offset + y * image.row_pitch + uint64_t{x} * image.texel_bytes;
          const uint64_t at_buffer =
              r.buffer_offset + ((uint64_t{y} - r.y) * r.buffer_row_texels + (x - r.x)) * image.texel_bytes;
          for (uint32_t b = 0; b < image.texel_bytes; ++b) {
            if (image.side == ImageSide::Output) {
              out[at_image + b] = in[at_buffer + b];
            } else {
              out[at_buffer + b] = in[at_image + b];
            }
          }
        }
      }
    }
  }
}

uint64_t regions(const TransferCommands& commands) {
  uint64_t n = commands.buffer_rows.size();
  for (const AliasedImage& image : commands.images) n += image.copies.size();
  return n;
}

// The benchmark's interior slice: 64 planes of 480 rows of 1,920 bytes out
// of 512-float rows. The output's pitch (1,920) is a linear pitch, so the
// output is the image: 64 regions in 2 images (16,384 rows at most each).
TEST(TransferLowering, SlicePlanesBecomeOneRegionEach) {
  std::vector<ByteCopy> copies;
  for (uint64_t c = 0; c < 64; ++c) {
    copies.push_back({((c * 512 + 16) * 512 + 16) * 4, c * 480 * 480 * 4, 1920, 480, 2048, 1920});
  }
  const TransferCommands commands = lower_copies(copies, lavapipe_like());
  EXPECT_TRUE(commands.buffer_rows.empty());
  ASSERT_EQ(commands.images.size(), 2u);
  EXPECT_EQ(regions(commands), 64u);
  const AliasedImage& first = commands.images[0];
  EXPECT_EQ(first.side, ImageSide::Output);
  EXPECT_EQ(first.texel_bytes, 16u);
  EXPECT_EQ(first.width, 120u);
  EXPECT_EQ(first.height, 34u * 480u);  // 34 planes fit under 16,384 rows
  EXPECT_EQ(first.region(copies[1]), (ImageRegion{copies[1].src, 128, 0, 480, 120, 480}));
}

// u8 rows of 480 bytes are no linear pitch (lavapipe rounds to 512), but the
// input's 512-byte rows are: the input becomes the image. With images
// aligned to 64 bytes, it starts 16 bytes before the copy.
TEST(TransferLowering, InputIsTheImageWhenOnlyItsPitchIsLinear) {
  const std::vector<ByteCopy> copies = {{16 * 512 + 16, 0, 480, 480, 512, 480}};
  LinearImageCaps caps = lavapipe_like();
  caps.alignment = 64;
  const TransferCommands commands = lower_copies(copies, caps);
  ASSERT_EQ(commands.images.size(), 1u);
  EXPECT_EQ(commands.images[0].side, ImageSide::Input);
  EXPECT_EQ(commands.images[0].offset, 16u * 512u);
  EXPECT_EQ(commands.images[0].region(copies[0]).x, 1u);  // one 16-byte texel in
}

TEST(TransferLowering, WithoutImagesEveryRowIsABufferCopy) {
  const std::vector<ByteCopy> copies = {{0, 0, 100, 3, 200, 100}, {1000, 400, 64}};
  const TransferCommands commands = lower_copies(copies, std::nullopt);
  EXPECT_TRUE(commands.images.empty());
  EXPECT_EQ(commands.buffer_rows,
            (std::vector<ByteCopy>{{0, 0, 100}, {200, 100, 100}, {400, 200, 100}, {1000, 400, 64}}));
}

// Input rows closer than their length (a window sliding by 2 over 8 bytes)
// cannot be image or buffer rows of a region.
TEST(TransferLowering, OverlappingInputRowsStayRowCopies) {
  const std::vector<ByteCopy> copies = {{0, 0, 256, 4, 128, 256}};
  const TransferCommands commands = lower_copies(copies, lavapipe_like());
  EXPECT_TRUE(commands.images.empty());
  EXPECT_EQ(commands.buffer_rows.size(), 4u);
}

TEST(TransferLowering, CopiesTallerThanAnImageAreSplit) {
  LinearImageCaps caps = lavapipe_like();
  caps.max_height = 100;
  const std::vector<ByteCopy> copies = {{0, 0, 256, 250, 512, 256}};
  const TransferCommands commands = lower_copies(copies, caps);
  EXPECT_EQ(regions(commands), 3u);
  for (const AliasedImage& image : commands.images) EXPECT_LE(image.height, 100u);
  Bytes in = numbered(512 * 250), expected(256 * 250, 0), actual(256 * 250, 0);
  replay_rows(copies, in, expected);
  replay_commands(commands, in, actual);
  EXPECT_EQ(actual, expected);
}

// Random pitched copies (odd offsets, pitches and sizes included) move the
// same bytes through the commands as row by row, and untouched bytes stay.
TEST(TransferLowering, RegionsMoveExactlyTheCopiedBytes) {
  reference::Rng rng(11);
  int with_images = 0;
  for (int i = 0; i < 300; ++i) {
    const uint64_t texel = uint64_t{1} << rng.below(5);
    const uint64_t size = texel * (1 + rng.below(40));
    const uint64_t src_pitch = size + texel * rng.below(3) * (rng.below(2) == 0 ? 1 : 16);
    const uint64_t dst_pitch = rng.below(2) == 0 ? (size + 63) / 64 * 64 : size + texel * rng.below(20);
    std::vector<ByteCopy> copies;
    uint64_t src = texel * rng.below(50);
    uint64_t dst = texel * rng.below(50);
    const int count = 1 + static_cast<int>(rng.below(4));
    for (int c = 0; c < count; ++c) {
      const uint64_t rows = 1 + rng.below(12);
      copies.push_back({src, dst, size, rows, src_pitch, dst_pitch});
      src += rows * src_pitch + texel * rng.below(3);
      dst += rows * dst_pitch + (rng.below(2) == 0 ? 0 : dst_pitch * rng.below(3));
    }
    const TransferCommands commands = lower_copies(copies, lavapipe_like());
    if (!commands.images.empty()) ++with_images;
    Bytes in = numbered(src + 64), expected(dst + 64, 0xEE), actual(dst + 64, 0xEE);
    replay_rows(copies, in, expected);
    replay_commands(commands, in, actual);
    ASSERT_EQ(actual, expected) << "draw " << i;
  }
  EXPECT_GT(with_images, 50);
}

}  // namespace
}  // namespace stridescope::gpu
