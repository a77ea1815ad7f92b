#include "tensor_desc.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "checked_math.h"

namespace stridescope {
namespace {

constexpr uint64_t kMaxDimension = std::numeric_limits<uint32_t>::max();  // DirectML's UINT
// Largest buffer (in elements) whose offsets are enumerated exactly when the
// nesting test cannot decide uniqueness (a 32 MiB bitmap).
constexpr uint64_t kMaxEnumeratedElements = uint64_t{1} << 28;

std::string indexed(const std::string& path, const char* field, std::size_t i) {
  return path + "." + field + "[" + std::to_string(i) + "]";
}

// A bitmap of buffer offsets that supports "S | (S << shift)".
class OffsetSet {
 public:
  explicit OffsetSet(uint64_t bits) : words_((bits + 63) / 64, 0), bits_(bits) { words_[0] = 1; }

  void or_shifted(uint64_t shift) {
    if (shift == 0 || shift >= bits_) return;
    const uint64_t word_shift = shift / 64;
    const unsigned bit_shift = static_cast<unsigned>(shift % 64);
    for (uint64_t i = words_.size(); i-- > word_shift;) {
      uint64_t value = words_[i - word_shift] << bit_shift;
      if (bit_shift != 0 && i - word_shift > 0) value |= words_[i - word_shift - 1] >> (64 - bit_shift);
      words_[i] |= value;
    }
  }

  // S := union over k in [0, count) of S << (k * stride), by doubling.
  void repeat(uint64_t count, uint64_t stride) {
    // Invariant: S covers multiples [0, done).
    uint64_t done = 1;
    while (done < count) {
      const uint64_t step = std::min(done, count - done);
      // Adding shifts step*stride to [0, done) covers [0, done + step) because
      // step <= done.
      or_shifted(step * stride);
      done += step;
    }
  }

  uint64_t count() const {
    uint64_t total = 0;
    for (uint64_t w : words_) total += static_cast<uint64_t>(__builtin_popcountll(w));
    return total;
  }

 private:
  std::vector<uint64_t> words_;
  uint64_t bits_;
};

struct Dim {
  uint64_t size;
  uint64_t stride;
};

// Dimensions that can make offsets collide in ways broadcast does not explain.
std::vector<Dim> addressing_dims(const Sizes& sizes, const Strides& strides) {
  std::vector<Dim> dims;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] > 1 && strides[i] != 0) dims.push_back({sizes[i], strides[i]});
  }
  std::sort(dims.begin(), dims.end(), [](Dim a, Dim b) { return a.stride < b.stride; });
  return dims;
}

// True when each dimension's stride steps over everything the smaller ones
// reach: a sufficient condition for distinct offsets.
bool strides_nest(const std::vector<Dim>& dims) {
  uint64_t reach = 1;  // offsets [0, reach) may be used by the smaller dimensions
  for (const Dim& d : dims) {
    if (d.stride < reach) return false;
    reach += (d.size - 1) * d.stride;  // cannot overflow: bounded by buffer_elements
  }
  return true;
}

}  // namespace

Strides TensorDesc::packed_strides(const Sizes& sizes) {
  Strides strides(sizes.size(), 0);
  uint64_t stride = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= sizes[i];  // callers validate the product separately
  }
  return strides;
}

Expected<TensorDesc> TensorDesc::make(DataType type, const Sizes& sizes,
                                      const std::optional<Strides>& strides,
                                      const std::string& path, const Limits& limits) {
  if (sizes.empty()) return invalid(path + ".sizes", "a tensor needs 1 to 8 dimensions");
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return invalid(indexed(path, "sizes", i), "size must be at least 1");
    if (sizes[i] > kMaxDimension) {
      return invalid(indexed(path, "sizes", i), "size must fit in 32 bits (at most 4294967295)");
    }
  }
  TensorDesc desc;
  desc.type_ = type;
  desc.sizes_ = sizes;

  uint64_t count = 1;
  for (uint64_t size : sizes) {
    auto product = checked_mul(count, size);
    if (!product) return invalid(path + ".sizes", "element count overflows 64 bits");
    count = *product;
  }
  desc.element_count_ = count;

  if (strides) {
    if (strides->size() != sizes.size()) {
      return invalid(path + ".strides", "has " + std::to_string(strides->size()) +
                                            " entries but sizes has " + std::to_string(sizes.size()));
    }
    for (std::size_t i = 0; i < strides->size(); ++i) {
      if ((*strides)[i] > kMaxDimension) {
        return invalid(indexed(path, "strides", i), "stride must fit in 32 bits (at most 4294967295)");
      }
    }
    desc.strides_ = *strides;
  } else {
    desc.strides_ = packed_strides(sizes);
  }

  // Offset of the last element; each term is < 2^64 because both factors fit in 32 bits.
  uint64_t last = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto sum = checked_add(last, (sizes[i] - 1) * desc.strides_[i]);
    if (!sum) return invalid(path + ".strides", "buffer size overflows 64 bits");
    last = *sum;
  }
  desc.buffer_elements_ = last + 1;
  auto bytes = checked_mul(desc.buffer_elements_, stridescope::element_size(type));
  if (!bytes || *bytes > limits.max_bytes) {
    const std::string what = "buffer of " +
                             (bytes ? std::to_string(*bytes) + " bytes" : std::string("over 2^64 bytes")) +
                             " exceeds the limit of " + std::to_string(limits.max_bytes) + " bytes (--max-bytes)";
    // Blame the strides when the same sizes packed would fit: the dimension
    // whose stride reaches furthest.
    const auto packed_bytes = checked_mul(count, stridescope::element_size(type));
    if (strides && packed_bytes && *packed_bytes <= limits.max_bytes) {
      std::size_t widest = 0;
      for (std::size_t i = 1; i < sizes.size(); ++i) {
        if ((sizes[i] - 1) * desc.strides_[i] > (sizes[widest] - 1) * desc.strides_[widest]) widest = i;
      }
      return invalid(indexed(path, "strides", widest), what + "; packed, these sizes would need " +
                                                           std::to_string(*packed_bytes) + " bytes");
    }
    return invalid(path + ".sizes", what);
  }
  desc.buffer_bytes_ = (*bytes + 3) / 4 * 4;

  LayoutTraits& layout = desc.layout_;
  const Strides packed = packed_strides(sizes);
  layout.row_major = true;
  uint64_t previous_stride = std::numeric_limits<uint64_t>::max();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] <= 1) continue;
    if (desc.strides_[i] == 0) {
      layout.broadcast = true;
    } else {
      if (desc.strides_[i] > previous_stride) layout.permuted = true;
      previous_stride = desc.strides_[i];
    }
    if (desc.strides_[i] != packed[i]) layout.row_major = false;
  }

  const std::vector<Dim> dims = addressing_dims(sizes, desc.strides_);
  uint64_t addressed_count = 1;  // coordinates once broadcast dimensions are collapsed
  for (const Dim& d : dims) addressed_count *= d.size;  // <= element_count: no overflow
  if (strides_nest(dims)) {
    layout.distinct_offsets = addressed_count;
  } else if (desc.buffer_elements_ <= kMaxEnumeratedElements) {
    OffsetSet set(desc.buffer_elements_);
    for (const Dim& d : dims) set.repeat(d.size, d.stride);
    layout.distinct_offsets = set.count();
  } else {
    // Too large to enumerate: uniqueness is undecided, so say "may overlap".
    layout.exact = false;
    layout.distinct_offsets = std::min(addressed_count, desc.buffer_elements_);
  }
  layout.overlapping = !layout.exact || layout.distinct_offsets < addressed_count;
  layout.gapped = layout.distinct_offsets < desc.buffer_elements_;
  layout.packed = !layout.overlapping && !layout.broadcast && !layout.gapped;
  return desc;
}

uint64_t TensorDesc::offset_of(const Coord& coord) const {
  uint64_t offset = 0;
  for (std::size_t i = 0; i < coord.size(); ++i) offset += coord[i] * strides_[i];
  return offset;
}

uint64_t TensorDesc::flat_index_of(const Coord& coord) const {
  uint64_t flat = 0;
  for (std::size_t i = 0; i < coord.size(); ++i) flat = flat * sizes_[i] + coord[i];
  return flat;
}

Coord TensorDesc::coord_of_flat_index(uint64_t flat) const {
  Coord coord(rank(), 0);
  for (std::size_t i = rank(); i-- > 0;) {
    coord[i] = flat % sizes_[i];
    flat /= sizes_[i];
  }
  return coord;
}

bool next_coord(Coord& coord, const Sizes& sizes) {
  for (std::size_t i = sizes.size(); i-- > 0;) {
    if (++coord[i] < sizes[i]) return true;
    coord[i] = 0;
  }
  return false;
}

}  // namespace stridescope
