// The Backend interface: run() reads and writes the physical buffers through
// the tensors' strides (operators.md: "a broadcast or overlapping input, or a
// gapped output, is legal and must give the same logical result as a packed
// one"); run_to_new_buffers allocates zero-filled buffers of
// DMLCalcBufferTensorSize bytes, so a gapped output's gaps read zero.
#include "core/backend.h"

#include <gtest/gtest.h>

#include "core/cpu_backend.h"
#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

TEST(Backend, RunToNewBuffersSizesBuffersLikeDmlCalcBufferTensorSize) {
  // INT8 output of 3 elements at stride 2: 5 bytes rounded up to 8.
  OpRequest request{tensor(DataType::Int8, {3}), TensorRequest{std::nullopt, std::nullopt, U64s{2}}, std::nullopt,
                    IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  CpuReferenceBackend backend;
  const auto input = test::bytes_of(std::vector<int8_t>{-1, -2, -3});
  auto result = run_to_new_buffers(backend, op, input);
  ASSERT_TRUE(result.has_value()) << result.error().to_string();
  ASSERT_EQ(result->output.size(), 8u);
  EXPECT_TRUE(result->indices.empty());
  const std::vector<int8_t> expected{-1, 0, -2, 0, -3, 0, 0, 0};  // gaps and tail zero
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(test::load<int8_t>(result->output, i), expected[i]) << i;
}

TEST(Backend, RunToNewBuffersAllocatesIndicesOnlyWhenAsked) {
  OpRequest request{tensor(DataType::Float32, {1, 1, 2, 2}), TensorRequest{}, tensor(DataType::UInt64, {1, 1, 1, 1}),
                    MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  SS_ASSERT_MAKE(op, request);
  CpuReferenceBackend backend;
  const auto input = test::bytes_of(std::vector<float>{1, 4, 3, 2});
  auto result = run_to_new_buffers(backend, op, input);
  ASSERT_TRUE(result.has_value()) << result.error().to_string();
  ASSERT_EQ(result->indices.size(), 8u);
  EXPECT_EQ(test::load<uint64_t>(result->indices, 0), 1u);
  EXPECT_EQ(test::load<float>(result->output, 0), 4.0f);
}

TEST(Backend, CheckBufferSizesNamesTheShortBuffer) {
  // Each buffer must hold at least its tensor's DMLCalcBufferTensorSize.
  OpRequest request{tensor(DataType::Float16, {1, 1, 3, 3}), TensorRequest{}, tensor(DataType::UInt64, {1, 1, 2, 2}),
                    MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  SS_ASSERT_MAKE(op, request);
  std::vector<std::byte> input(20), output(8), indices(32);  // 18 -> 20, 8, 32 bytes
  EXPECT_TRUE(check_buffer_sizes(op, input, output, indices).ok());
  std::vector<std::byte> short_input(18), short_output(7), short_indices(31);
  auto status = check_buffer_sizes(op, short_input, output, indices);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().path, "input");
  status = check_buffer_sizes(op, input, short_output, indices);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().path, "output");
  status = check_buffer_sizes(op, input, output, short_indices);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().path, "outputIndices");
  // Larger buffers are fine.
  std::vector<std::byte> big(64);
  EXPECT_TRUE(check_buffer_sizes(op, big, big, big).ok());
}

}  // namespace
}  // namespace stridescope
