#include "compare.h"

#include <cstring>

namespace stridescope {

std::optional<Mismatch> compare_tensors(const TensorDesc& desc, std::span<const std::byte> a,
                                        std::span<const std::byte> b, std::size_t list_limit) {
  const std::size_t size = desc.element_size();
  std::optional<Mismatch> mismatch;
  Coord coord(desc.rank(), 0);
  if (a.size() < desc.buffer_bytes() || b.size() < desc.buffer_bytes()) {
    return Mismatch{desc.element_count(), coord, 0, {}};
  }
  do {
    const uint64_t offset = desc.offset_of(coord);
    if (std::memcmp(a.data() + offset * size, b.data() + offset * size, size) != 0) {
      if (!mismatch) mismatch = Mismatch{0, coord, offset, {}};
      ++mismatch->count;
      if (mismatch->listed.size() < list_limit) mismatch->listed.push_back({coord, offset});
    }
  } while (next_coord(coord, desc.sizes()));
  return mismatch;
}

}  // namespace stridescope
