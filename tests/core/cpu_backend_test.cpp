// The reference CPU backend (Backend interface, backend.h): "only the
// elements the output tensors address are written: the bytes of a gapped
// output's gaps keep what the caller put there". Identity copies through
// both tensors' strides (DML_ELEMENT_WISE_IDENTITY), so any input layout
// reaches any output layout with the same logical values.
#include "core/cpu_backend.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace stridescope {
namespace {

using test::tensor;
using test::U64s;

TEST(CpuBackend, NamesItselfForTheCli) {
  CpuReferenceBackend backend;
  EXPECT_EQ(backend.name(), "cpu-reference");
  EXPECT_EQ(backend.device_name(), "CPU reference");
}

TEST(CpuBackend, GapsKeepWhatTheCallerPutThere) {
  // 2x3 written with rows padded to 5 elements: offsets 3 and 4 are gaps.
  OpRequest request{tensor(DataType::UInt16, {2, 3}), TensorRequest{std::nullopt, std::nullopt, U64s{5, 1}},
                    std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(std::vector<uint16_t>{1, 2, 3, 4, 5, 6});
  std::vector<std::byte> output(op.output().buffer_bytes(), std::byte{0xA5});
  CpuReferenceBackend backend;
  auto stats = backend.run(op, input, output, {});
  ASSERT_TRUE(stats.has_value()) << stats.error().to_string();
  const std::vector<uint16_t> expected{1, 2, 3, 0xA5A5, 0xA5A5, 4, 5, 6};
  ASSERT_EQ(output.size(), 16u);
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(test::load<uint16_t>(output, i), expected[i]) << i;
}

TEST(CpuBackend, IdentityTransposesLayouts) {
  // Column-major input to row-major output: logical values unchanged.
  OpRequest request{tensor(DataType::Int32, {2, 3}, U64s{1, 2}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(std::vector<int32_t>{'A', 'D', 'B', 'E', 'C', 'F'});
  const test::Outputs out = test::run_cpu(op, input);
  EXPECT_EQ(test::logical_values<int32_t>(op.output(), out.output),
            (std::vector<int32_t>{'A', 'B', 'C', 'D', 'E', 'F'}));
}

TEST(CpuBackend, BroadcastInputRepeatsItsRow) {
  OpRequest request{tensor(DataType::Float64, {2, 3}, U64s{0, 1}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  const auto input = test::bytes_of(std::vector<double>{1.5, -2, 3});
  const test::Outputs out = test::run_cpu(op, input);
  EXPECT_EQ(test::logical_values<double>(op.output(), out.output), (std::vector<double>{1.5, -2, 3, 1.5, -2, 3}));
}

TEST(CpuBackend, RefusesBuffersSmallerThanTheTensors) {
  OpRequest request{tensor(DataType::Float32, {4}), TensorRequest{}, std::nullopt, IdentityRequest{}};
  SS_ASSERT_MAKE(op, request);
  CpuReferenceBackend backend;
  std::vector<std::byte> small(12), enough(16), output(16);
  EXPECT_FALSE(backend.run(op, small, output, {}).has_value()) << "input of 12 bytes for 16";
  EXPECT_FALSE(backend.run(op, enough, small, {}).has_value()) << "output of 12 bytes for 16";
  OpRequest pooling{tensor(DataType::Float32, {1, 1, 2, 2}), TensorRequest{}, tensor(DataType::UInt32, {1, 1, 1, 1}),
                    MaxPooling2Request{{2, 2}, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  SS_ASSERT_MAKE(pool, pooling);
  std::vector<std::byte> no_indices;
  EXPECT_FALSE(backend.run(pool, enough, output, no_indices).has_value()) << "indices asked for, none given";
}

TEST(CpuBackend, EveryDataTypeIsCopiedBitForBit) {
  for (DataType type : kAllDataTypes) {
    OpRequest request{tensor(type, {5}), TensorRequest{}, std::nullopt,
                      Slice1Request{{0}, {5}, {-1}}};
    request.output.sizes = U64s{5};
    SS_ASSERT_MAKE(op, request);
    std::vector<std::byte> input(op.input().buffer_bytes());
    for (std::size_t b = 0; b < input.size(); ++b) input[b] = std::byte(0x11 * (b + 1) ^ 0x80);
    const test::Outputs out = test::run_cpu(op, input);
    const std::size_t size = element_size(type);
    for (std::size_t e = 0; e < 5; ++e) {
      for (std::size_t b = 0; b < size; ++b) {
        ASSERT_EQ(out.output[e * size + b], input[(4 - e) * size + b]) << to_string(type) << " element " << e;
      }
    }
  }
}

}  // namespace
}  // namespace stridescope
