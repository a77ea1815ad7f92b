// Ways to fill an input buffer, as the spec's `fill` names them. Values are
// written in buffer order (offset 0, 1, 2, ...), as in the DirectML examples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "data_type.h"
#include "error.h"

namespace stridescope {

// 1, 2, 3, ... converted to the type; integers wrap modulo 2^bits (INT8 goes
// 126, 127, -128, ...), FLOAT16 rounds to nearest once past 2048.
struct FillIota {
  friend bool operator==(FillIota, FillIota) = default;
};
struct FillZeros {
  friend bool operator==(FillZeros, FillZeros) = default;
};
// Uniform in [min, max] from a fixed generator (SplitMix64), so a seed gives the
// same buffer on every machine. Integer types draw integers in
// [ceil(min), floor(max)] clamped to the type's range.
struct FillRandom {
  uint64_t seed = 0;
  double min = 0;
  double max = 1;
  friend bool operator==(const FillRandom&, const FillRandom&) = default;
};

using Fill = std::variant<FillIota, FillZeros, FillRandom>;

// A random fill of an integer type must reach at least one integer the type
// holds: [0.5, 0.7] holds none, and [1000, 2000] none that UINT8 holds. The
// error names `path` (the spec's "input.fill.random").
Status check_fill(const Fill& fill, DataType type, const std::string& path);

// Fills `buffer_elements` elements of `type` at the start of `buffer`.
void fill_buffer(const Fill& fill, DataType type, uint64_t buffer_elements, std::span<std::byte> buffer);

}  // namespace stridescope
