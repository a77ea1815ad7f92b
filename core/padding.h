// DML_PADDING_OPERATOR_DESC: OutputSizes[i] = InputSizes[i] + StartPadding[i] + EndPadding[i].
//
// Output index o reads input index i = o - StartPadding, folded into [0, n):
//   CONSTANT    outside [0, n): the padding value
//   EDGE        clamp to [0, n-1]
//   REFLECTION  m = i mod (2n-2) (floor modulo); m < n ? m : 2n-2-m.
//               Mirrors without repeating the edge; periodic, so paddings of
//               any size fold again; a size-1 dimension repeats its element.
//   SYMMETRIC   m = i mod 2n; m < n ? m : 2n-1-m. Repeats the edge; periodic.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "dim_vector.h"
#include "padding_index.h"
#include "scalar.h"

namespace stridescope {

enum class PaddingMode { Constant, Edge, Reflection, Symmetric };

constexpr std::string_view to_string(PaddingMode mode) {
  switch (mode) {
    case PaddingMode::Constant: return "CONSTANT";
    case PaddingMode::Edge: return "EDGE";
    case PaddingMode::Reflection: return "REFLECTION";
    case PaddingMode::Symmetric: return "SYMMETRIC";
  }
  return "?";
}

constexpr std::optional<PaddingMode> parse_padding_mode(std::string_view name) {
  for (PaddingMode mode : {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection,
                           PaddingMode::Symmetric}) {
    if (to_string(mode) == name) return mode;
  }
  return std::nullopt;
}

struct PaddingParams {
  PaddingMode mode = PaddingMode::Constant;
  Scalar value = int64_t{0};  // paddingValue as written
  uint64_t value_bits = 0;    // paddingValue converted to the output type (scalar.h)
  Sizes start_padding;
  Sizes end_padding;

  friend bool operator==(const PaddingParams&, const PaddingParams&) = default;
};

constexpr int64_t floor_mod(int64_t a, int64_t m) {
  const int64_t r = a % m;
  return r < 0 ? r + m : r;
}

// REFLECTION and SYMMETRIC fold periodically: along a dimension of size n
// the mirrored pattern repeats every 2n - 2 indices (REFLECTION, the edge not
// repeated; n >= 2) or 2n (SYMMETRIC, the edge repeated).
constexpr int64_t fold_period(PaddingMode mode, int64_t n) {
  return mode == PaddingMode::Reflection ? 2 * n - 2 : 2 * n;
}

// Folds input index `i` (may be < 0 or >= n) into [0, n) by `mode`;
// kPaddingIndex where CONSTANT pads.
constexpr int64_t fold_padded_index(PaddingMode mode, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case PaddingMode::Constant: return kPaddingIndex;
    case PaddingMode::Edge: return i < 0 ? 0 : n - 1;
    case PaddingMode::Reflection: {
      if (n == 1) return 0;
      const int64_t m = floor_mod(i, fold_period(mode, n));
      return m < n ? m : 2 * n - 2 - m;
    }
    case PaddingMode::Symmetric: {
      const int64_t m = floor_mod(i, fold_period(mode, n));
      return m < n ? m : 2 * n - 1 - m;
    }
  }
  return kPaddingIndex;
}

// Output index `out` along `dim` as an input index, before folding: < 0 or
// >= the input size inside a padding region.
inline int64_t unfolded_padding_index(const PaddingParams& p, std::size_t dim, uint64_t out) {
  return static_cast<int64_t>(out) - static_cast<int64_t>(p.start_padding[dim]);
}

// The input index that output index `out` reads along dimension `dim`.
inline int64_t padding_source_index(const PaddingParams& p, const Sizes& input_sizes,
                                     std::size_t dim, uint64_t out) {
  return fold_padded_index(p.mode, unfolded_padding_index(p, dim, out),
                           static_cast<int64_t>(input_sizes[dim]));
}

// The DirectML page's own examples, checked at compile time.
static_assert(fold_padded_index(PaddingMode::Reflection, -2, 4) == 2);
static_assert(fold_padded_index(PaddingMode::Reflection, 4, 4) == 2);
static_assert(fold_padded_index(PaddingMode::Symmetric, -1, 4) == 0);
static_assert(fold_padded_index(PaddingMode::Symmetric, 6, 4) == 1);
static_assert(fold_padded_index(PaddingMode::Edge, 9, 4) == 3);

}  // namespace stridescope
