// What the elements where a result differs have in common, for a diagnosis
// no catalogued mistake explains: only padded positions, only one axis, only
// windows with tied maxima or a NaN, only values at one data type's limits.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/operation.h"

namespace stridescope {

struct DifferingElement {
  bool indices = false;  // in the indices tensor, else the output
  Coord coord;
};

// `exact_output` is StrideScope's output buffer; only the first
// kMaxDescribed differing elements are looked at.
inline constexpr std::size_t kMaxDescribed = 10000;
std::vector<std::string> describe_differences(const Operation& op, std::span<const std::byte> input,
                                              std::span<const std::byte> exact_output,
                                              std::span<const DifferingElement> differing);

}  // namespace stridescope
