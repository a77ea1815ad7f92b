#include "gpu/transfer_lowering.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace stridescope::gpu {

namespace {

uint64_t image_side_offset(const ByteCopy& c, ImageSide side) { return side == ImageSide::Output ? c.dst : c.src; }
uint64_t image_side_pitch(const ByteCopy& c, ImageSide side) {
  return side == ImageSide::Output ? c.dst_pitch : c.src_pitch;
}
uint64_t buffer_side_offset(const ByteCopy& c, ImageSide side) { return side == ImageSide::Output ? c.src : c.dst; }
uint64_t buffer_side_pitch(const ByteCopy& c, ImageSide side) {
  return side == ImageSide::Output ? c.src_pitch : c.dst_pitch;
}

class Lowering {
 public:
  Lowering(const LinearImageCaps& caps, TransferCommands& out) : caps_(caps), out_(out) {}

  // Places `copy` (at most max_height rows) in an image; false if no image fits.
  bool place(const ByteCopy& copy) {
    const uint64_t common = std::gcd(std::gcd(std::gcd(copy.size, copy.src), std::gcd(copy.dst, copy.src_pitch)),
                                     copy.dst_pitch);
    for (uint32_t texel = 16; texel >= 1; texel /= 2) {
      if ((caps_.texel_sizes & texel) == 0 || common % texel != 0) continue;
      for (ImageSide side : {ImageSide::Output, ImageSide::Input}) {
        if (place(copy, texel, side)) return true;
      }
    }
    return false;
  }

 private:
  bool place(const ByteCopy& copy, uint32_t texel, ImageSide side) {
    const uint64_t pitch = image_side_pitch(copy, side);
    const uint64_t buffer_pitch = buffer_side_pitch(copy, side);
    // Rows that overlap cannot be image rows, nor a buffer side's rows.
    if (copy.size > pitch || copy.size > buffer_pitch) return false;
    if (pitch / texel > caps_.max_width || buffer_pitch / texel > std::numeric_limits<uint32_t>::max()) return false;
    const auto width = static_cast<uint32_t>(pitch / texel);
    if (caps_.row_pitch(texel, width) != pitch) return false;
    return join_last(copy, texel, side) || open_image(copy, texel, side, width);
  }

  // The copy's rows inside the last image, if it has room for them.
  bool join_last(const ByteCopy& copy, uint32_t texel, ImageSide side) {
    if (out_.images.empty()) return false;
    AliasedImage& last = out_.images.back();
    const uint64_t at = image_side_offset(copy, side);
    if (last.side != side || last.texel_bytes != texel || last.row_pitch != image_side_pitch(copy, side) ||
        at < last.offset) {
      return false;
    }
    const uint64_t y = (at - last.offset) / last.row_pitch;
    const uint64_t x_bytes = (at - last.offset) % last.row_pitch;
    if (x_bytes % texel != 0 || x_bytes + copy.size > last.row_pitch || y + copy.rows > caps_.max_height) return false;
    last.height = static_cast<uint32_t>(std::max<uint64_t>(last.height, y + copy.rows));
    last.copies.push_back(copy);
    return true;
  }

  // A new image whose first row holds the copy's first row; the image starts
  // that many bytes earlier in the row as its memory alignment asks.
  bool open_image(const ByteCopy& copy, uint32_t texel, ImageSide side, uint32_t width) {
    const uint64_t at = image_side_offset(copy, side);
    const uint64_t align = std::lcm(std::max<uint64_t>(caps_.alignment, 1), uint64_t{texel});
    const uint64_t x_bytes = at % align;
    if (x_bytes + copy.size > image_side_pitch(copy, side)) return false;
    AliasedImage image;
    image.side = side;
    image.texel_bytes = texel;
    image.offset = at - x_bytes;
    image.row_pitch = image_side_pitch(copy, side);
    image.width = width;
    image.height = static_cast<uint32_t>(copy.rows);
    image.copies.push_back(copy);
    out_.images.push_back(std::move(image));
    return true;
  }

  const LinearImageCaps& caps_;
  TransferCommands& out_;
};

}  // namespace

ImageRegion AliasedImage::region(const ByteCopy& copy) const {
  const uint64_t relative = image_side_offset(copy, side) - offset;
  ImageRegion r;
  r.buffer_offset = buffer_side_offset(copy, side);
  r.buffer_row_texels = static_cast<uint32_t>(buffer_side_pitch(copy, side) / texel_bytes);
  r.x = static_cast<uint32_t>(relative % row_pitch / texel_bytes);
  r.y = static_cast<uint32_t>(relative / row_pitch);
  r.width = static_cast<uint32_t>(copy.size / texel_bytes);
  r.height = static_cast<uint32_t>(copy.rows);
  return r;
}

void append_rows(std::span<const ByteCopy> copies, std::vector<ByteCopy>& rows) {
  for (const ByteCopy& c : copies) {
    for (uint64_t r = 0; r < c.rows; ++r) rows.push_back(c.row(r));
  }
}

TransferCommands lower_copies(std::span<const ByteCopy> copies, const std::optional<LinearImageCaps>& caps) {
  TransferCommands out;
  const bool images = caps && caps->texel_sizes != 0 && caps->max_width > 0 && caps->max_height > 0 && caps->row_pitch;
  if (!images) {
    append_rows(copies, out.buffer_rows);
    return out;
  }
  Lowering lowering(*caps, out);
  for (const ByteCopy& copy : copies) {
    if (copy.rows == 1) {
      out.buffer_rows.push_back(copy);
      continue;
    }
    // Taller than an image: pieces of max_height rows.
    for (uint64_t first = 0; first < copy.rows; first += caps->max_height) {
      ByteCopy piece = copy;
      piece.src += first * copy.src_pitch;
      piece.dst += first * copy.dst_pitch;
      piece.rows = std::min<uint64_t>(caps->max_height, copy.rows - first);
      if (!lowering.place(piece)) append_rows(std::span(&piece, 1), out.buffer_rows);
    }
  }
  return out;
}

}  // namespace stridescope::gpu
