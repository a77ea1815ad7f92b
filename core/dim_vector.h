// A fixed-capacity vector of per-dimension values (sizes, strides, offsets).
// DirectML tensors have 1 to 8 dimensions, so these never allocate and copy
// cheaply by value.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

namespace stridescope {

inline constexpr std::size_t kMaxRank = 8;

template <class T>
class DimVector {
 public:
  constexpr DimVector() = default;
  constexpr DimVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  constexpr explicit DimVector(std::span<const T> values) { assign(values.begin(), values.end()); }
  constexpr DimVector(std::size_t rank, T fill) {
    assert(rank <= kMaxRank);
    rank_ = rank;
    std::fill_n(values_.begin(), rank, fill);
  }

  [[nodiscard]] constexpr std::size_t size() const { return rank_; }
  [[nodiscard]] constexpr bool empty() const { return rank_ == 0; }
  constexpr T& operator[](std::size_t i) { assert(i < rank_); return values_[i]; }
  constexpr const T& operator[](std::size_t i) const { assert(i < rank_); return values_[i]; }
  constexpr T* begin() { return values_.data(); }
  constexpr T* end() { return values_.data() + rank_; }
  constexpr const T* begin() const { return values_.data(); }
  constexpr const T* end() const { return values_.data() + rank_; }
  constexpr T* data() { return values_.data(); }
  constexpr const T* data() const { return values_.data(); }
  constexpr T& back() { return values_[rank_ - 1]; }
  constexpr const T& back() const { return values_[rank_ - 1]; }

  constexpr void push_back(T value) {
    assert(rank_ < kMaxRank);
    values_[rank_++] = value;
  }
  constexpr void resize(std::size_t rank, T fill = T{}) {
    assert(rank <= kMaxRank);
    for (std::size_t i = rank_; i < rank; ++i) values_[i] = fill;
    rank_ = rank;
  }
  constexpr operator std::span<const T>() const { return {values_.data(), rank_}; }  // NOLINT

  friend constexpr bool operator==(const DimVector& a, const DimVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  template <class It>
  constexpr void assign(It first, It last) {
    rank_ = 0;
    for (; first != last; ++first) push_back(*first);
  }

  std::array<T, kMaxRank> values_{};
  std::size_t rank_ = 0;
};

using Sizes = DimVector<uint64_t>;    // logical extent per dimension, each >= 1
using Strides = DimVector<uint64_t>;  // tensor strides in elements, >= 0 (0 broadcasts)
using Coord = DimVector<uint64_t>;    // a logical coordinate, one index per dimension
using SignedCoord = DimVector<int64_t>;  // one that may lie outside the tensor (in padding)

// "[0,0,1,2]", "[0,0,-2,1]": how every message and view writes a coordinate.
template <class T>
std::string format_coord(const DimVector<T>& coord) {
  std::string text = "[";
  for (std::size_t i = 0; i < coord.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(coord[i]);
  }
  return text + "]";
}

}  // namespace stridescope
