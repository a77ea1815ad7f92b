// The requests the validation tests start from: the DirectML pages' examples
// (SLICE, SLICE1, PADDING), a basic pooling window and an identity, each valid
// as it stands; a test changes one field and checks the refusal names it.
#pragma once

#include <optional>

#include "core/operation.h"
#include "test_support.h"

namespace stridescope::test {

using test::U64s;

inline constexpr DataType F32 = DataType::Float32;

// DML_SLICE1 example 2: {1,1,4,4} input, window offsets {0,0,0,1}, sizes
// {1,1,4,3}, strides {1,1,-2,2}, output {1,1,2,2}.
inline OpRequest slice1_page() {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 2, 2}), std::nullopt,
                   Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}};
}

// DML_SLICE example 2: offsets {0,0,1,0}, sizes {1,1,2,2}, strides {1,1,2,3}.
inline OpRequest slice_page() {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 2, 2}), std::nullopt,
                   SliceRequest{{0, 0, 1, 0}, {1, 1, 2, 2}, {1, 1, 2, 3}}};
}

// DML_PADDING examples: {1,1,4,4} padded by {0,0,1,2} and {0,0,3,4} to {1,1,8,10}.
inline OpRequest padding_page(PaddingMode mode = PaddingMode::Constant) {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 8, 10}), std::nullopt,
                   PaddingRequest{mode, int64_t{9}, {0, 0, 1, 2}, {0, 0, 3, 4}}};
}

// A 2x2 window with stride 2 over {1,1,4,4}: output {1,1,2,2}.
inline OpRequest pooling_basic() {
  return OpRequest{tensor(F32, {1, 1, 4, 4}), tensor(F32, {1, 1, 2, 2}), tensor(DataType::UInt32, {1, 1, 2, 2}),
                   MaxPooling2Request{{2, 2}, U64s{2, 2}, std::nullopt, std::nullopt, std::nullopt}};
}

inline OpRequest identity(U64s sizes, std::optional<U64s> in_strides = std::nullopt,
                   std::optional<U64s> out_strides = std::nullopt) {
  return OpRequest{tensor(F32, sizes, in_strides), TensorRequest{std::nullopt, std::nullopt, out_strides},
                   std::nullopt, IdentityRequest{}};
}

}  // namespace stridescope::test
