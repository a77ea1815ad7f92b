// DxDispatch models (DirectML's command-line runner; its JSON model format
// is described in DirectML's DxDispatch guide) read in StrideScope's terms, and run: named buffers with their
// initial values, DML dispatchables of StrideScope's operators as validated
// Operations, and the commands in order.
//
// Read: resources with array, constant ({valueCount, value}), sequence
// ({valueCount, valueStart, valueDelta}, accumulated in the element type) and
// .npy (sourcePath, resolved next to the model) initial values, "nan"/"inf"
// strings, full and short enum spellings (DML_TENSOR_DATA_TYPE_FLOAT32 or
// FLOAT32), // and /* */ comments and trailing commas; dispatchables of type
// DML_OPERATOR_SLICE, SLICE1, PADDING, PADDING1, MAX_POOLING2 and
// ELEMENT_WISE_IDENTITY (without ScaleBias), desc under "desc", "Desc" or
// inline, tensors short ({DataType, Sizes, Strides}) or long ({Type, Desc});
// commands dispatch (bindings by name, {name, elementOffset}, or a
// one-element array of either), print and
// writeFile. Anything else (another operator, a graph, HLSL or ONNX, an
// unknown resource, a bad enum, a buffer too small for its tensor) is an
// error naming the JSON path, before anything runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend.h"
#include "core/error.h"
#include "core/operation.h"

namespace stridescope {

struct DxResource {
  std::string name;
  DataType type = DataType::Float32;  // the initializer's: print shows values in it
  uint64_t count = 0;                 // the initializer's element count
  std::vector<std::byte> bytes;       // count elements, then zeros up to sizeInBytes / a multiple of 4
};

struct DxBinding {
  std::size_t resource = 0;     // index into DxModel::resources
  uint64_t byte_offset = 0;     // elementOffset times the resource's element size
};

struct DxDispatchable {
  std::string name;
  std::string type;     // the operator as DirectML names it: "DML_OPERATOR_PADDING1"
  OpRequest request;    // what the desc says, before validation: a spec's request
  Operation op;
};

struct DxCommand {
  enum class Kind { Dispatch, Print, WriteFile };
  Kind kind = Kind::Print;
  std::size_t dispatchable = 0;  // Dispatch
  DxBinding input, output;       // Dispatch
  std::optional<DxBinding> indices;
  std::size_t resource = 0;      // Print, WriteFile
  std::filesystem::path target;  // WriteFile
};

struct DxModel {
  std::vector<DxResource> resources;
  std::vector<DxDispatchable> dispatchables;
  std::vector<DxCommand> commands;
};

// Whether `text` looks like a DxDispatch model (it has "dispatchables").
bool looks_like_dxdispatch_model(std::string_view text);

// `base_dir`: the model's folder, where sourcePath files are looked up.
Expected<DxModel> parse_dxdispatch_model(std::string_view text, const std::filesystem::path& base_dir,
                                         const Limits& limits = {});

// What a run does besides running the commands in order.
struct DxRunOptions {
  // Runs only the commands before this index: the buffers as that command finds them.
  std::size_t stop_before = SIZE_MAX;
  // False: print and writeFile are skipped (explain and compare want the
  // dispatches' buffers, not the model's output).
  bool print_and_write = true;
  // Called after each dispatch with its command's index and what the backend
  // wrote: the output and indices tensors' buffers (TotalTensorSizeInBytes) and its times.
  std::function<void(std::size_t command, const RunResult& result)> after_dispatch;
};

// Runs the commands in order on `backend`; each print writes
// "NAME: v0, v1, ..." (the buffer's values in its initializer's type) to `out`.
Status run_dxdispatch_model(DxModel& model, Backend& backend, std::ostream& out, const DxRunOptions& options = {});

}  // namespace stridescope
