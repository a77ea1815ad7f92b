// Splitting a compute pass so that it respects the device's limits:
//   - each storage buffer binding covers at most maxStorageBufferRange bytes
//     (128 MiB on lavapipe) and starts at a multiple of
//     minStorageBufferOffsetAlignment; ranges are exact, never VK_WHOLE_SIZE;
//   - each vkCmdDispatch has at most maxComputeWorkGroupCount[0] workgroups
//     (the backend loops over dispatches; see dispatch_count).
// The output is cut into boxes (a range per axis) whose input, output and
// indices windows each fit one binding. A tensor small enough to bind whole
// is bound whole; only big ones are cut, along their outermost axes first.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/operation.h"
#include "gpu/gather_dispatch.h"

namespace stridescope::gpu {

// How the shader's work touches one tensor buffer.
struct TensorAccess {
  uint64_t bytes = 0;         // the tensor's buffer size (DMLCalcBufferTensorSize)
  uint32_t element_size = 0;  // 0: the pass has no such tensor
  // Output tensors: elements per index along each axis.
  std::vector<uint64_t> strides;
};

struct WorkModel {
  std::vector<uint64_t> sizes;  // output size per axis; the last axis is the row
  std::vector<Region> regions;  // the parts to compute; empty: everything
  uint64_t chunk = 64;          // row elements per invocation
  // Whether the shader can write several consecutive rows of a box per
  // invocation: where a box's row fits one chunk, as many as `chunk`
  // elements fill, within DeviceLimits::max_rows_per_item.
  bool several_rows_per_item = false;
  int64_t input_base = 0;
  // Input elements read by outputs [lo, hi) along `axis`, nullopt if none.
  std::function<std::optional<ElementRange>(std::size_t axis, uint64_t lo, uint64_t hi)> input_range;
  TensorAccess input;  // strides unused
  TensorAccess output;
  TensorAccess indices;
};

struct DeviceLimits {
  uint64_t max_storage_range = 0;
  uint64_t storage_offset_alignment = 1;
  uint64_t max_items = uint64_t{1} << 31;  // invocations per box (32-bit shader arithmetic)
  uint64_t max_boxes = uint64_t{1} << 16;
  // Views of 16-byte texels (shaders/source_quads.glsl): the most texels one
  // may hold, 0 where the device has no such uniform texel buffers, and the
  // alignment of a view's offset.
  uint64_t max_texel_quads = 0;
  uint64_t texel_offset_alignment = 16;
  // The tiled transpose moves whole tiles in registers rather than through
  // shared memory: on CPU devices (lavapipe) shared memory is plain memory
  // reached through per-lane loops, and barriers switch coroutines.
  bool tiles_in_registers = false;
  // Short rows per invocation (WorkModel::several_rows_per_item): at most
  // this many, while a box keeps at least `min_items_per_box` invocations.
  // CPU devices take many: there an invocation's set-up costs more than a
  // short row, and a few workgroups per core keep every core busy. GPUs keep
  // one row each: they need many invocations in flight.
  uint64_t max_rows_per_item = 1;
  uint64_t min_items_per_box = 1;
  // The gather and pooling shaders store their quads as two 64-bit words (the pairs build,
  // shaders/quad_stores.glsl): on CPU devices with shaderInt64, where every
  // store component is a per-lane scalar store, unless the host has AVX-512
  // (cpu_device_store_pairs in vulkan_backend.cpp). GPUs store a quad at once.
  bool store_pairs = false;
  // Outputs per max_pooling2 invocation. CPU devices take long chunks: there
  // an invocation's set-up (its row's decoding, the edge and head groups'
  // tests) runs for the 8 lanes of a batch at once and costs about one
  // group of outputs. GPUs keep short ones: they need many invocations.
  uint64_t pooling_chunk = 16;
  // Which runs the transfer pass copies or fills, and which the gather
  // shader writes: GatherTuning{} on CPU devices, kGpuGatherTuning on GPUs.
  GatherTuning gather;
  friend bool operator==(const DeviceLimits&, const DeviceLimits&) = default;
};

// A binding window: bytes [offset, offset + range) of the buffer; the shader
// counts element offsets from base_element = offset / element size.
struct Window {
  uint64_t offset = 0;
  uint64_t range = 0;
  uint64_t base_element = 0;
};

// A Region small enough for one binding window per buffer and one dispatch.
struct WorkBox : Region {
  Window input;
  Window output;
  Window indices;
  uint64_t chunks_per_row = 0;
  uint64_t rows_per_item = 1;  // consecutive rows one invocation writes (chunks_per_row == 1)
  uint64_t items = 0;          // ceil(rows() / rows_per_item) * chunks_per_row
  // The pipeline variant the box runs, the value of the pass's per-box
  // specialization constant (ComputePass::key_for; max_pooling2: SS_GENERAL,
  // SS_INTERIOR, SS_INTERIOR_AT + k, gpu/pooling_interior.h).
  uint32_t variant = 0;

  // The box's rows: the product of its extents but the row's (the last).
  uint64_t rows() const {
    uint64_t rows = 1;
    for (std::size_t a = 0; a + 1 < extent.size(); ++a) rows *= extent[a];
    return rows;
  }
};

// The work of a gather program's shader (its shader_regions) over the op's
// buffers, `chunk` row elements per invocation. The model reads `program`,
// which must outlive it.
WorkModel gather_work(const GatherDispatch& program, const Operation& op, uint64_t chunk);

// BackendFailure when the layout would need more than max_boxes windows.
Expected<std::vector<WorkBox>> split_work(const WorkModel& model, const DeviceLimits& limits);

// Dispatches of at most `max_groups` workgroups of `local_size` covering `items`.
uint64_t dispatch_count(uint64_t items, uint64_t local_size, uint64_t max_groups);

// n / divisor == (t + ((n - t) >> shift1)) >> shift2 with t = umulhi(n, magic),
// for every 32-bit n (Granlund and Montgomery, "Division by invariant
// integers using multiplication", 1994). The shaders divide this way.
struct DivisionMagic {
  uint32_t magic = 0;
  uint32_t shift1 = 0;
  uint32_t shift2 = 0;
};
DivisionMagic division_magic(uint32_t divisor);  // divisor >= 1

}  // namespace stridescope::gpu
