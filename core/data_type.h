// The eleven element types of DirectML's data-movement operators, with their
// sizes and spec-file names (DML_TENSOR_DATA_TYPE_* without the prefix).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace stridescope {

enum class DataType : uint8_t {
  Float16, Float32, Float64,
  Int8, Int16, Int32, Int64,
  UInt8, UInt16, UInt32, UInt64,
};

inline constexpr std::array<DataType, 11> kAllDataTypes = {
    DataType::Float16, DataType::Float32, DataType::Float64, DataType::Int8,
    DataType::Int16,   DataType::Int32,   DataType::Int64,   DataType::UInt8,
    DataType::UInt16,  DataType::UInt32,  DataType::UInt64};

// Bytes per element: 1, 2, 4 or 8.
constexpr std::size_t element_size(DataType type) {
  switch (type) {
    case DataType::Int8: case DataType::UInt8: return 1;
    case DataType::Float16: case DataType::Int16: case DataType::UInt16: return 2;
    case DataType::Float32: case DataType::Int32: case DataType::UInt32: return 4;
    case DataType::Float64: case DataType::Int64: case DataType::UInt64: return 8;
  }
  return 0;
}

constexpr bool is_floating(DataType type) {
  return type == DataType::Float16 || type == DataType::Float32 || type == DataType::Float64;
}

constexpr bool is_signed_integer(DataType type) {
  return type == DataType::Int8 || type == DataType::Int16 || type == DataType::Int32 ||
         type == DataType::Int64;
}

constexpr bool is_unsigned_integer(DataType type) {
  return !is_floating(type) && !is_signed_integer(type);
}

// "FLOAT32", "UINT64", ... as written in spec files.
constexpr std::string_view to_string(DataType type) {
  switch (type) {
    case DataType::Float16: return "FLOAT16";
    case DataType::Float32: return "FLOAT32";
    case DataType::Float64: return "FLOAT64";
    case DataType::Int8: return "INT8";
    case DataType::Int16: return "INT16";
    case DataType::Int32: return "INT32";
    case DataType::Int64: return "INT64";
    case DataType::UInt8: return "UINT8";
    case DataType::UInt16: return "UINT16";
    case DataType::UInt32: return "UINT32";
    case DataType::UInt64: return "UINT64";
  }
  return "?";
}

constexpr std::optional<DataType> parse_data_type(std::string_view name) {
  for (DataType type : kAllDataTypes) {
    if (to_string(type) == name) return type;
  }
  return std::nullopt;
}

}  // namespace stridescope
