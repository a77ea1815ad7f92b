// Small helpers shared by the core tests: building requests, typed buffers,
// and reading a tensor's logical values through its strides. Offsets are
// computed here (sum of coord * stride), not through the code under test.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/cpu_backend.h"
#include "core/operation.h"
#include "reference/reference_ops.h"

namespace stridescope::test {

using U64s = std::vector<uint64_t>;

inline TensorRequest tensor(DataType type, U64s sizes, std::optional<U64s> strides = std::nullopt) {
  return TensorRequest{type, std::move(sizes), std::move(strides)};
}
inline TensorRequest any_tensor() { return TensorRequest{}; }

// DirectML's SLICE1 example 2 (offsets [0,0,0,1], sizes [1,1,4,3], strides
// [1,1,-2,2]) on a 4x4 input: rows 3 then 1 (a negative stride starts at the
// window's end), columns 1 and 3.
inline OpRequest slice1_example2() {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), tensor(DataType::Float32, {1, 1, 2, 2}),
                   std::nullopt, Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}};
}

// The PADDING page's examples: a 4x4 input padded by 1 row above, 3 below, 2
// columns left and 4 right, in `mode` (value 9 where CONSTANT).
inline OpRequest page_padding(PaddingMode mode) {
  return OpRequest{tensor(DataType::Float32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                   PaddingRequest{mode, int64_t{9}, {0, 0, 1, 2}, {0, 0, 3, 4}}};
}

// Elements laid out one after the other, padded with zero bytes to a
// multiple of 4 (DMLCalcBufferTensorSize rounds buffers up to 4 bytes).
template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> bytes((values.size() * sizeof(T) + 3) / 4 * 4, std::byte{0});
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), values.size() * sizeof(T));
  return bytes;
}

template <class T>
T load(std::span<const std::byte> bytes, uint64_t element) {
  T value;
  std::memcpy(&value, bytes.data() + element * sizeof(T), sizeof(T));
  return value;
}

// The tensor's values in row-major logical order, read through its strides.
template <class T>
std::vector<T> logical_values(const TensorDesc& desc, std::span<const std::byte> bytes) {
  std::vector<T> values;
  std::vector<uint64_t> coord(desc.rank(), 0);
  while (true) {
    uint64_t offset = 0;
    for (std::size_t d = 0; d < desc.rank(); ++d) offset += coord[d] * desc.strides()[d];
    values.push_back(load<T>(bytes, offset));
    std::size_t d = desc.rank();
    while (d-- > 0) {
      if (++coord[d] < desc.sizes()[d]) break;
      coord[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) break;
  }
  return values;
}

// 1, 2, 3, ..., n as the DirectML examples fill their inputs.
inline std::vector<float> iota_floats(std::size_t n, float first = 1) {
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = first + static_cast<float>(i);
  return values;
}

struct Outputs {
  std::vector<std::byte> output;
  std::vector<std::byte> indices;
};

// Core's CPU backend through run_to_new_buffers; an error fails the test.
inline Outputs run_cpu(const Operation& op, std::span<const std::byte> input) {
  CpuReferenceBackend backend;
  auto result = run_to_new_buffers(backend, op, input);
  if (!result) {
    ADD_FAILURE() << "cpu backend: " << result.error().to_string();
    return {};
  }
  return {std::move(result->output), std::move(result->indices)};
}

// The independent reference (tests/reference); an error fails the test.
inline Outputs run_reference(const Operation& op, std::span<const std::byte> input) {
  auto result = reference::run_to_new_buffers(op, input);
  if (!result) {
    ADD_FAILURE() << "reference: " << result.error().to_string();
    return {};
  }
  return {std::move(result->output), std::move(result->indices)};
}

}  // namespace stridescope::test

// Validates `request` into `const Operation& var`, failing the test on error.
#define SS_ASSERT_MAKE(var, request)                                       \
  auto var##_made = ::stridescope::Operation::make(request);              \
  ASSERT_TRUE(var##_made.has_value()) << var##_made.error().to_string();  \
  const ::stridescope::Operation& var = *var##_made

// Expects Operation::make to refuse `request` naming exactly `expected_path`.
#define SS_EXPECT_REFUSED(request, expected_path)                                     \
  do {                                                                                \
    auto refused_ = ::stridescope::Operation::make(request);                          \
    ASSERT_FALSE(refused_.has_value()) << "accepted, expected an error at " << (expected_path); \
    EXPECT_EQ(refused_.error().code, ::stridescope::ErrorCode::InvalidSpec);          \
    EXPECT_EQ(refused_.error().path, (expected_path)) << refused_.error().to_string(); \
    EXPECT_FALSE(refused_.error().message.empty());                                   \
  } while (false)
