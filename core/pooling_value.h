// How max_pooling2 reads an element to compare it: the stored bits as the
// type the comparison happens in (FLOAT16 widened to float, every other type
// as itself). The reference backend and the diagnosis's mistaken variants
// read elements the same way, so a variant differs only in its own rule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "float16.h"

namespace stridescope {

template <class Stored, class Compared>
Compared load_as(const std::byte* bytes) {
  Stored value;
  std::memcpy(&value, bytes, sizeof(Stored));
  if constexpr (std::is_same_v<Stored, uint16_t> && std::is_same_v<Compared, float>) {
    return half_to_float(value);
  } else {
    return static_cast<Compared>(value);
  }
}

}  // namespace stridescope
