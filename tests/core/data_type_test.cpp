// DirectML's DML_TENSOR_DATA_TYPE_*: the eleven element types the
// data-movement operators support at DML_FEATURE_LEVEL_5_0 (FLOAT64, FLOAT32,
// FLOAT16, INT64, INT32, INT16, INT8, UINT64, UINT32, UINT16, UINT8), named in
// spec files without the prefix ("FLOAT32"), 1, 2, 4 or 8 bytes each.
#include "core/data_type.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace stridescope {
namespace {

static_assert(element_size(DataType::Float16) == 2);
static_assert(element_size(DataType::Float64) == 8);
static_assert(element_size(DataType::UInt8) == 1);
static_assert(parse_data_type("UINT32") == DataType::UInt32);
static_assert(!parse_data_type("uint32").has_value());
static_assert(is_floating(DataType::Float16) && !is_floating(DataType::Int64));
static_assert(is_signed_integer(DataType::Int8) && !is_signed_integer(DataType::UInt8));
static_assert(is_unsigned_integer(DataType::UInt64) && !is_unsigned_integer(DataType::Float32));

TEST(DataType, ElementSizesMatchTheirNames) {
  EXPECT_EQ(element_size(DataType::Float16), 2u);
  EXPECT_EQ(element_size(DataType::Float32), 4u);
  EXPECT_EQ(element_size(DataType::Float64), 8u);
  EXPECT_EQ(element_size(DataType::Int8), 1u);
  EXPECT_EQ(element_size(DataType::Int16), 2u);
  EXPECT_EQ(element_size(DataType::Int32), 4u);
  EXPECT_EQ(element_size(DataType::Int64), 8u);
  EXPECT_EQ(element_size(DataType::UInt8), 1u);
  EXPECT_EQ(element_size(DataType::UInt16), 2u);
  EXPECT_EQ(element_size(DataType::UInt32), 4u);
  EXPECT_EQ(element_size(DataType::UInt64), 8u);
}

TEST(DataType, AllElevenTypesAreListedOnce) {
  std::set<DataType> seen(kAllDataTypes.begin(), kAllDataTypes.end());
  EXPECT_EQ(seen.size(), 11u);
}

TEST(DataType, SpecNamesRoundTrip) {
  std::set<std::string> names;
  for (DataType type : kAllDataTypes) {
    const std::string_view name = to_string(type);
    names.insert(std::string(name));
    EXPECT_EQ(parse_data_type(name), type) << name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"FLOAT16", "FLOAT32", "FLOAT64", "INT8", "INT16", "INT32",
                                          "INT64", "UINT8", "UINT16", "UINT32", "UINT64"}));
}

TEST(DataType, UnknownOrMiscasedNamesAreRefused) {
  EXPECT_FALSE(parse_data_type("float32").has_value());
  EXPECT_FALSE(parse_data_type("DML_TENSOR_DATA_TYPE_FLOAT32").has_value());
  EXPECT_FALSE(parse_data_type("BOOL").has_value());
  EXPECT_FALSE(parse_data_type("").has_value());
  EXPECT_FALSE(parse_data_type("FLOAT32 ").has_value());
}

TEST(DataType, EveryTypeIsExactlyOneKind) {
  for (DataType type : kAllDataTypes) {
    const int kinds = int{is_floating(type)} + int{is_signed_integer(type)} + int{is_unsigned_integer(type)};
    EXPECT_EQ(kinds, 1) << to_string(type);
  }
  EXPECT_TRUE(is_unsigned_integer(DataType::UInt8));
  EXPECT_TRUE(is_signed_integer(DataType::Int64));
  EXPECT_TRUE(is_floating(DataType::Float64));
}

}  // namespace
}  // namespace stridescope
