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
#include "tensor_desc.h"

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
// [ceil(min), floor(max)] clamped to the type's range; with `integers`, float
// types draw integers in [ceil(min), floor(max)] too (small whole numbers,
// say -9..9, read well in a grid's cells).
struct FillRandom {
  uint64_t seed = 0;
  double min = 0;
  double max = 1;
  bool integers = false;
  friend bool operator==(const FillRandom&, const FillRandom&) = default;
};
// 1, 2, 3, ... in the tensor's logical (row-major) order, each written at
// its element's offset: whatever the strides, the logical grid reads 1, 2,
// 3, ... and the buffer shows where each element lives. A buffer element
// that several logical elements share (a stride of 0, overlapping strides)
// holds the number of the first of them; one that none reaches (a gap)
// holds 0.
struct FillLogicalIota {
  friend bool operator==(FillLogicalIota, FillLogicalIota) = default;
};

using Fill = std::variant<FillIota, FillZeros, FillRandom, FillLogicalIota>;

// A logical iota numbers every logical element, which a broadcast tensor can
// have far more of than its buffer holds: at most this many.
inline constexpr uint64_t kMaxLogicalIotaElements = uint64_t{1} << 26;

// A random fill of an integer type must reach at least one integer the type
// holds: [0.5, 0.7] holds none, and [1000, 2000] none that UINT8 holds. The
// error names `path` (the spec's "input.fill.random").
Status check_fill(const Fill& fill, DataType type, const std::string& path);

// Fills `buffer_elements` elements of `type` at the start of `buffer`. Without
// a layout, a logical iota is taken over a packed tensor: buffer order.
void fill_buffer(const Fill& fill, DataType type, uint64_t buffer_elements, std::span<std::byte> buffer);
// Fills the buffer of `tensor` (buffer_bytes() long), placing a logical iota
// by the tensor's strides. A logical iota over more than
// kMaxLogicalIotaElements elements is an error at `path` ("input.fill").
Status fill_tensor_buffer(const Fill& fill, const TensorDesc& tensor, std::span<std::byte> buffer,
                          const std::string& path);

}  // namespace stridescope
