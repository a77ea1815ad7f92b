// The stub device for dml_code_test: prints the operator description it is
// given as one JSON object per line (every member, arrays by DimensionCount).
#pragma once

#include <cstdio>
#include <cstring>
#include <string>

#include "DirectML.h"

namespace dml_dump {

inline std::string uints(const UINT* values, UINT count) {
  std::string text = "[";
  for (UINT i = 0; i < count; ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}
inline std::string ints(const INT* values, UINT count) {
  std::string text = "[";
  for (UINT i = 0; i < count; ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

inline std::string tensor(const DML_TENSOR_DESC* desc) {
  if (!desc) return "null";
  if (desc->Type != DML_TENSOR_TYPE_BUFFER) return "\"not a buffer tensor\"";
  const auto* b = static_cast<const DML_BUFFER_TENSOR_DESC*>(desc->Desc);
  return "{\"dataType\":" + std::to_string(b->DataType) + ",\"flags\":" + std::to_string(b->Flags) +
         ",\"sizes\":" + uints(b->Sizes, b->DimensionCount) + ",\"strides\":" + uints(b->Strides, b->DimensionCount) +
         ",\"bytes\":" + std::to_string(b->TotalTensorSizeInBytes) +
         ",\"alignment\":" + std::to_string(b->GuaranteedBaseOffsetAlignment) + "}";
}

template <class T>
std::string bits_of(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof value);
  return std::to_string(bits);
}

inline std::string describe(const DML_OPERATOR_DESC& op) {
  switch (op.Type) {
    case DML_OPERATOR_ELEMENT_WISE_IDENTITY: {
      const auto* d = static_cast<const DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC*>(op.Desc);
      return "{\"op\":\"identity\",\"input\":" + tensor(d->InputTensor) + ",\"output\":" + tensor(d->OutputTensor) +
             ",\"scaleBias\":" + (d->ScaleBias ? "true" : "false") + "}";
    }
    case DML_OPERATOR_SLICE: {
      const auto* d = static_cast<const DML_SLICE_OPERATOR_DESC*>(op.Desc);
      const UINT n = d->DimensionCount;
      return "{\"op\":\"slice\",\"input\":" + tensor(d->InputTensor) + ",\"output\":" + tensor(d->OutputTensor) +
             ",\"offsets\":" + uints(d->Offsets, n) + ",\"sizes\":" + uints(d->Sizes, n) +
             ",\"strides\":" + uints(d->Strides, n) + "}";
    }
    case DML_OPERATOR_SLICE1: {
      const auto* d = static_cast<const DML_SLICE1_OPERATOR_DESC*>(op.Desc);
      const UINT n = d->DimensionCount;
      return "{\"op\":\"slice1\",\"input\":" + tensor(d->InputTensor) + ",\"output\":" + tensor(d->OutputTensor) +
             ",\"offsets\":" + uints(d->InputWindowOffsets, n) + ",\"sizes\":" + uints(d->InputWindowSizes, n) +
             ",\"strides\":" + ints(d->InputWindowStrides, n) + "}";
    }
    case DML_OPERATOR_PADDING: {
      const auto* d = static_cast<const DML_PADDING_OPERATOR_DESC*>(op.Desc);
      const UINT n = d->DimensionCount;
      return "{\"op\":\"padding\",\"input\":" + tensor(d->InputTensor) + ",\"output\":" + tensor(d->OutputTensor) +
             ",\"mode\":" + std::to_string(d->PaddingMode) + ",\"valueFloatBits\":" + bits_of(d->PaddingValue) +
             ",\"start\":" + uints(d->StartPadding, n) + ",\"end\":" + uints(d->EndPadding, n) + "}";
    }
    case DML_OPERATOR_PADDING1: {
      const auto* d = static_cast<const DML_PADDING1_OPERATOR_DESC*>(op.Desc);
      const UINT n = d->DimensionCount;
      return "{\"op\":\"padding1\",\"input\":" + tensor(d->InputTensor) + ",\"output\":" + tensor(d->OutputTensor) +
             ",\"mode\":" + std::to_string(d->PaddingMode) + ",\"valueType\":" + std::to_string(d->PaddingValueDataType) +
             ",\"valueBits\":" + bits_of(d->PaddingValue.UInt64) + ",\"start\":" + uints(d->StartPadding, n) +
             ",\"end\":" + uints(d->EndPadding, n) + "}";
    }
    case DML_OPERATOR_MAX_POOLING2: {
      const auto* d = static_cast<const DML_MAX_POOLING2_OPERATOR_DESC*>(op.Desc);
      const UINT n = d->DimensionCount;
      return "{\"op\":\"max_pooling2\",\"input\":" + tensor(d->InputTensor) + ",\"output\":" + tensor(d->OutputTensor) +
             ",\"indices\":" + tensor(d->OutputIndicesTensor) + ",\"strides\":" + uints(d->Strides, n) +
             ",\"window\":" + uints(d->WindowSize, n) + ",\"start\":" + uints(d->StartPadding, n) +
             ",\"end\":" + uints(d->EndPadding, n) + ",\"dilations\":" + uints(d->Dilations, n) + "}";
    }
    default: return "{\"op\":\"unknown\"}";
  }
}

struct RecordingDevice final : IDMLDevice {
  std::string last;
  HRESULT CreateOperator(const DML_OPERATOR_DESC* desc, REFIID, void** object) override {
    last = describe(*desc);
    *object = nullptr;
    return 0;
  }
};

}  // namespace dml_dump
