// The worked examples of the DirectML documentation pages, typed in once by
// hand from the pages so that every test layer (core, CLI, Vulkan, app)
// checks against the same printed values. Row-major logical order.
#pragma once

#include <array>
#include <vector>

namespace stridescope::pages {

// DML_PADDING_OPERATOR_DESC examples 1-4: InputTensor {1,1,4,4},
// StartPadding {0,0,1,2}, EndPadding {0,0,3,4}, OutputTensor {1,1,8,10}.
inline constexpr std::array<int, 16> kPaddingInput = {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8};

// Example 1: DML_PADDING_MODE_CONSTANT, PaddingValue 9.
inline constexpr std::array<int, 80> kPaddingConstant9 = {
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9,  //
    9, 9, 1, 2, 3, 4, 9, 9, 9, 9,  //
    9, 9, 5, 6, 7, 8, 9, 9, 9, 9,  //
    9, 9, 1, 2, 3, 4, 9, 9, 9, 9,  //
    9, 9, 5, 6, 7, 8, 9, 9, 9, 9,  //
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9,  //
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9,  //
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// Example 2: DML_PADDING_MODE_EDGE.
inline constexpr std::array<int, 80> kPaddingEdge = {
    1, 1, 1, 2, 3, 4, 4, 4, 4, 4,  //
    1, 1, 1, 2, 3, 4, 4, 4, 4, 4,  //
    5, 5, 5, 6, 7, 8, 8, 8, 8, 8,  //
    1, 1, 1, 2, 3, 4, 4, 4, 4, 4,  //
    5, 5, 5, 6, 7, 8, 8, 8, 8, 8,  //
    5, 5, 5, 6, 7, 8, 8, 8, 8, 8,  //
    5, 5, 5, 6, 7, 8, 8, 8, 8, 8,  //
    5, 5, 5, 6, 7, 8, 8, 8, 8, 8};

// Example 3: DML_PADDING_MODE_REFLECTION.
inline constexpr std::array<int, 80> kPaddingReflection = {
    7, 6, 5, 6, 7, 8, 7, 6, 5, 6,  //
    3, 2, 1, 2, 3, 4, 3, 2, 1, 2,  //
    7, 6, 5, 6, 7, 8, 7, 6, 5, 6,  //
    3, 2, 1, 2, 3, 4, 3, 2, 1, 2,  //
    7, 6, 5, 6, 7, 8, 7, 6, 5, 6,  //
    3, 2, 1, 2, 3, 4, 3, 2, 1, 2,  //
    7, 6, 5, 6, 7, 8, 7, 6, 5, 6,  //
    3, 2, 1, 2, 3, 4, 3, 2, 1, 2};

// Example 4: DML_PADDING_MODE_SYMMETRIC.
inline constexpr std::array<int, 80> kPaddingSymmetric = {
    2, 1, 1, 2, 3, 4, 4, 3, 2, 1,  //
    2, 1, 1, 2, 3, 4, 4, 3, 2, 1,  //
    6, 5, 5, 6, 7, 8, 8, 7, 6, 5,  //
    2, 1, 1, 2, 3, 4, 4, 3, 2, 1,  //
    6, 5, 5, 6, 7, 8, 8, 7, 6, 5,  //
    6, 5, 5, 6, 7, 8, 8, 7, 6, 5,  //
    2, 1, 1, 2, 3, 4, 4, 3, 2, 1,  //
    6, 5, 5, 6, 7, 8, 8, 7, 6, 5};

// The page's values as the element type a test compares in.
template <class T, std::size_t N>
std::vector<T> values(const std::array<int, N>& page) {
  return std::vector<T>(page.begin(), page.end());
}

}  // namespace stridescope::pages
