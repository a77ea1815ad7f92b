// A stand-in for DirectML.h, so the DirectML C++ that core/codegen writes can
// be compiled and its values checked on a machine without the Windows SDK.
// The structs follow the DirectML documentation (the operator pages and the
// DML_BUFFER_TENSOR_DESC, DML_TENSOR_DESC, DML_OPERATOR_DESC,
// DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC and DML_PADDING1_OPERATOR_DESC
// pages): same members, same order, same types. Data type and padding mode
// values are DirectML's; the operator type values are this stub's own.
// IDMLDevice here only records the operator description it is given.
#pragma once

#include <cstdint>

using UINT = uint32_t;
using INT = int32_t;
using UINT64 = uint64_t;
using INT64 = int64_t;
using FLOAT = float;
using HRESULT = int32_t;
struct GUID {
  uint32_t data1;
};
using REFIID = const GUID&;

enum DML_TENSOR_DATA_TYPE {
  DML_TENSOR_DATA_TYPE_UNKNOWN,
  DML_TENSOR_DATA_TYPE_FLOAT32,
  DML_TENSOR_DATA_TYPE_FLOAT16,
  DML_TENSOR_DATA_TYPE_UINT32,
  DML_TENSOR_DATA_TYPE_UINT16,
  DML_TENSOR_DATA_TYPE_UINT8,
  DML_TENSOR_DATA_TYPE_INT32,
  DML_TENSOR_DATA_TYPE_INT16,
  DML_TENSOR_DATA_TYPE_INT8,
  DML_TENSOR_DATA_TYPE_FLOAT64,
  DML_TENSOR_DATA_TYPE_UINT64,
  DML_TENSOR_DATA_TYPE_INT64,
};

enum DML_TENSOR_TYPE { DML_TENSOR_TYPE_INVALID, DML_TENSOR_TYPE_BUFFER };

enum DML_TENSOR_FLAGS { DML_TENSOR_FLAG_NONE = 0x0, DML_TENSOR_FLAG_OWNED_BY_DML = 0x1 };

struct DML_BUFFER_TENSOR_DESC {
  DML_TENSOR_DATA_TYPE DataType;
  DML_TENSOR_FLAGS Flags;
  UINT DimensionCount;
  const UINT* Sizes;
  const UINT* Strides;
  UINT64 TotalTensorSizeInBytes;
  UINT GuaranteedBaseOffsetAlignment;
};

struct DML_TENSOR_DESC {
  DML_TENSOR_TYPE Type;
  const void* Desc;
};

enum DML_OPERATOR_TYPE {
  DML_OPERATOR_INVALID,
  DML_OPERATOR_ELEMENT_WISE_IDENTITY,
  DML_OPERATOR_SLICE,
  DML_OPERATOR_SLICE1,
  DML_OPERATOR_PADDING,
  DML_OPERATOR_PADDING1,
  DML_OPERATOR_MAX_POOLING2,
};

struct DML_OPERATOR_DESC {
  DML_OPERATOR_TYPE Type;
  const void* Desc;
};

struct DML_SCALE_BIAS {
  FLOAT Scale;
  FLOAT Bias;
};

struct DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  const DML_SCALE_BIAS* ScaleBias;
};

struct DML_SLICE_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  UINT DimensionCount;
  const UINT* Offsets;
  const UINT* Sizes;
  const UINT* Strides;
};

struct DML_SLICE1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  UINT DimensionCount;
  const UINT* InputWindowOffsets;
  const UINT* InputWindowSizes;
  const INT* InputWindowStrides;
};

enum DML_PADDING_MODE {
  DML_PADDING_MODE_CONSTANT,
  DML_PADDING_MODE_EDGE,
  DML_PADDING_MODE_REFLECTION,
  DML_PADDING_MODE_SYMMETRIC,
};

struct DML_PADDING_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  DML_PADDING_MODE PaddingMode;
  FLOAT PaddingValue;
  UINT DimensionCount;
  const UINT* StartPadding;
  const UINT* EndPadding;
};

union DML_SCALAR_UNION {
  uint8_t Bytes[8];
  int8_t Int8;
  uint8_t UInt8;
  int16_t Int16;
  uint16_t UInt16;
  int32_t Int32;
  uint32_t UInt32;
  INT64 Int64;
  UINT64 UInt64;
  FLOAT Float32;
  double Float64;
};

struct DML_PADDING1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  DML_PADDING_MODE PaddingMode;
  DML_TENSOR_DATA_TYPE PaddingValueDataType;
  DML_SCALAR_UNION PaddingValue;
  UINT DimensionCount;
  const UINT* StartPadding;
  const UINT* EndPadding;
};

struct DML_MAX_POOLING2_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  const DML_TENSOR_DESC* OutputIndicesTensor;
  UINT DimensionCount;
  const UINT* Strides;
  const UINT* WindowSize;
  const UINT* StartPadding;
  const UINT* EndPadding;
  const UINT* Dilations;
};

struct IDMLOperator {};

// The stub's device: CreateOperator hands the description to `record`.
struct IDMLDevice {
  virtual ~IDMLDevice() = default;
  virtual HRESULT CreateOperator(const DML_OPERATOR_DESC* desc, REFIID riid, void** object) = 0;
};

inline const GUID IID_IDMLOperator_stub = {1};
#define IID_PPV_ARGS(pp) IID_IDMLOperator_stub, reinterpret_cast<void**>(pp)
