// The input's buffer as a spec describes it (data, fill or npy), in buffer
// order over the strided buffer; wrong data is refused at its field.
#include "core/io/spec_file.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/io/npy.h"
#include "core/operation.h"
#include "spec_test_support.h"
#include "temp_folder.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;

// ---------------------------------------------------------------- input buffers

TensorDesc desc_of(DataType type, U64s sizes, std::optional<U64s> strides = std::nullopt) {
  std::optional<Strides> s;
  if (strides) s = Strides(std::span<const uint64_t>(*strides));
  Expected<TensorDesc> desc = TensorDesc::make(type, Sizes(std::span<const uint64_t>(sizes)), s, "input");
  EXPECT_TRUE(desc.has_value());
  return *desc;
}

template <class T>
std::vector<T> elements(const std::vector<std::byte>& bytes, std::size_t count) {
  std::vector<T> values(count);
  std::memcpy(values.data(), bytes.data(), count * sizeof(T));
  return values;
}

TEST(InputBuffer, DataFillsTheBufferInBufferOrder) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{-2}, 10.6, -10.6};
  const Expected<std::vector<std::byte>> buffer = make_input_buffer(spec, desc_of(DataType::Int16, {2, 2}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  EXPECT_EQ(buffer->size(), 8u);
  // DirectML: integer types truncate toward zero (10.6 -> 10, -10.6 -> -10).
  EXPECT_EQ(elements<int16_t>(*buffer, 4), (std::vector<int16_t>{1, -2, 10, -10}));
}

TEST(InputBuffer, DataCoversTheStridedBufferNotTheLogicalCount) {
  // Broadcast rows: sizes {2,3}, strides {0,1} span 3 buffer elements.
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{2}, int64_t{3}};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::UInt8, {2, 3}, U64s{0, 1}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  ASSERT_EQ(buffer->size(), 4u);  // 3 bytes rounded up to 4 (DMLCalcBufferTensorSize)
  EXPECT_EQ(elements<uint8_t>(*buffer, 4), (std::vector<uint8_t>{1, 2, 3, 0}));
}

TEST(InputBuffer, ShortDataIsAnErrorAtInputData) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{2}};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Float32, {3}));
  ASSERT_FALSE(buffer.has_value());
  EXPECT_EQ(buffer.error().path, "input.data");
}

TEST(InputBuffer, ValueOutOfRangeNamesItsIndex) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{int64_t{1}, int64_t{127}, int64_t{128}};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Int8, {3}));
  ASSERT_FALSE(buffer.has_value());
  EXPECT_EQ(buffer.error().path, "input.data[2]");
}

TEST(InputBuffer, ExtraDataIsIgnored) {
  Spec spec;
  spec.input_source = std::vector<Scalar>{1.5, 2.5, 99.0, 1e300};
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Float32, {2}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  EXPECT_EQ(elements<float>(*buffer, 2), (std::vector<float>{1.5f, 2.5f}));
}

TEST(InputBuffer, IotaCountsFromOneInBufferOrder) {
  Spec spec;  // iota by default
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Int32, {2, 2}, U64s{1, 2}));
  ASSERT_TRUE(buffer.has_value());
  EXPECT_EQ(elements<int32_t>(*buffer, 4), (std::vector<int32_t>{1, 2, 3, 4}));
}

TEST(InputBuffer, NpyMustMatchTheTypeAndHoldEnoughElements) {
  test::TempFolder folder;
  const std::vector<float> values = {1, 2, 3, 4, 5, 6};
  std::vector<std::byte> bytes(24);
  std::memcpy(bytes.data(), values.data(), 24);
  const U64s shape = {2, 3};
  ASSERT_TRUE(write_npy(folder / "in.npy", DataType::Float32, shape, bytes).ok());
  Spec spec;
  spec.input_source = folder / "in.npy";

  // The shape does not matter, only the element count: the buffer is flat.
  const auto buffer = make_input_buffer(spec, desc_of(DataType::Float32, {3, 2}));
  ASSERT_TRUE(buffer.has_value()) << buffer.error().to_string();
  EXPECT_EQ(elements<float>(*buffer, 6), values);

  const auto fewer = make_input_buffer(spec, desc_of(DataType::Float32, {4}));
  ASSERT_TRUE(fewer.has_value());
  EXPECT_EQ(elements<float>(*fewer, 4), (std::vector<float>{1, 2, 3, 4}));

  const auto too_many = make_input_buffer(spec, desc_of(DataType::Float32, {7}));
  ASSERT_FALSE(too_many.has_value());
  EXPECT_EQ(too_many.error().path, "input.npy");

  const auto wrong_type = make_input_buffer(spec, desc_of(DataType::Int32, {6}));
  ASSERT_FALSE(wrong_type.has_value());
  EXPECT_EQ(wrong_type.error().path, "input.npy");
  EXPECT_NE(wrong_type.error().message.find("<f4"), std::string::npos) << wrong_type.error().message;
}

TEST(InputBuffer, NpyOverTheLimitOrMissingIsAnErrorAtInputNpy) {
  test::TempFolder folder;
  const U64s shape = {100};
  ASSERT_TRUE(write_npy(folder / "big.npy", DataType::UInt8, shape, std::vector<std::byte>(100)).ok());
  Spec spec;
  spec.input_source = folder / "big.npy";
  const auto limited = make_input_buffer(spec, desc_of(DataType::UInt8, {4}), Limits{50});
  ASSERT_FALSE(limited.has_value());
  EXPECT_EQ(limited.error().path, "input.npy");

  spec.input_source = folder / "missing.npy";
  const auto missing = make_input_buffer(spec, desc_of(DataType::UInt8, {4}));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().path, "input.npy");
  EXPECT_EQ(missing.error().code, ErrorCode::Io);
}

}  // namespace
}  // namespace stridescope
