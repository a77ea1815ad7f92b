#include "cpu_backend.h"

#include <cmath>
#include <cstring>

#include "float16.h"
#include "index_plan.h"
#include "pooling_value.h"
#include "scalar.h"

namespace stridescope {
namespace {

// Output element by element, through the gather plan's per-dimension tables.
void run_gather(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output) {
  const GatherPlan plan = make_gather_plan(op);
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();
  const std::size_t size = out.element_size();
  uint64_t padding_bits = 0;
  if (op.kind() == OpKind::Padding) padding_bits = op.params_as<PaddingParams>().value_bits;

  Coord coord(out.rank(), 0);
  do {
    bool padded = false;
    uint64_t source = 0;
    for (std::size_t d = 0; d < plan.rank; ++d) {
      const int64_t index = plan.source[d][coord[d]];
      if (index == kPaddingIndex) {
        padded = true;
        break;
      }
      source += static_cast<uint64_t>(index) * in.strides()[d];
    }
    std::byte* target = output.data() + out.offset_of(coord) * size;
    if (padded) {
      std::memcpy(target, &padding_bits, size);
    } else {
      std::memcpy(target, input.data() + source * size, size);
    }
  } while (next_coord(coord, out.sizes()));
}

template <class Stored, class Compared>
void run_pooling_typed(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                       std::span<std::byte> indices) {
  const PoolingPlan plan = make_pooling_plan(op);
  const TensorDesc& in = op.input();
  const TensorDesc& out = op.output();
  const std::size_t spatial = plan.spatial_rank;
  const std::optional<TensorDesc>& index_desc = op.output_indices();

  Coord out_coord(out.rank(), 0);
  do {
    // Walk the window's taps in row-major order with an odometer over spatial dims.
    Sizes window_extent;
    for (std::size_t s = 0; s < spatial; ++s) window_extent.push_back(plan.axes[s].window);
    Coord tap(spatial, 0);
    bool found = false;
    Compared best{};
    uint64_t best_offset = 0;
    Coord best_coord;
    do {
      Coord in_coord{out_coord[0], out_coord[1]};
      bool padded = false;
      for (std::size_t s = 0; s < spatial; ++s) {
        const int64_t index = plan.axes[s].taps[out_coord[s + 2] * plan.axes[s].window + tap[s]];
        if (index == kPaddingIndex) {
          padded = true;
          break;
        }
        in_coord.push_back(static_cast<uint64_t>(index));
      }
      if (padded) continue;
      const uint64_t offset = in.offset_of(in_coord);
      const Compared value = load_as<Stored, Compared>(input.data() + offset * sizeof(Stored));
      if (!found || pooling_prefers(value, best)) {
        found = true;
        best = value;
        best_offset = offset;
        best_coord = in_coord;
      }
    } while (next_coord(tap, window_extent));
    // Validation guarantees every window touches the input, so `found` holds.
    std::memcpy(output.data() + out.offset_of(out_coord) * sizeof(Stored),
                input.data() + best_offset * sizeof(Stored), sizeof(Stored));
    if (index_desc) {
      const uint64_t flat = in.flat_index_of(best_coord);
      write_element_bits(index_desc->data_type(), flat,
                         indices.data() + index_desc->offset_of(out_coord) * index_desc->element_size());
    }
  } while (next_coord(out_coord, out.sizes()));
}

void run_pooling(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                 std::span<std::byte> indices) {
  switch (op.input().data_type()) {
    case DataType::Float16: return run_pooling_typed<uint16_t, float>(op, input, output, indices);
    case DataType::Float32: return run_pooling_typed<float, float>(op, input, output, indices);
    case DataType::Float64: return run_pooling_typed<double, double>(op, input, output, indices);
    case DataType::Int8: return run_pooling_typed<int8_t, int8_t>(op, input, output, indices);
    case DataType::Int16: return run_pooling_typed<int16_t, int16_t>(op, input, output, indices);
    case DataType::Int32: return run_pooling_typed<int32_t, int32_t>(op, input, output, indices);
    case DataType::Int64: return run_pooling_typed<int64_t, int64_t>(op, input, output, indices);
    case DataType::UInt8: return run_pooling_typed<uint8_t, uint8_t>(op, input, output, indices);
    case DataType::UInt16: return run_pooling_typed<uint16_t, uint16_t>(op, input, output, indices);
    case DataType::UInt32: return run_pooling_typed<uint32_t, uint32_t>(op, input, output, indices);
    case DataType::UInt64: return run_pooling_typed<uint64_t, uint64_t>(op, input, output, indices);
  }
}

}  // namespace

Expected<RunStats> CpuReferenceBackend::run(const Operation& op, std::span<const std::byte> input,
                                            std::span<std::byte> output, std::span<std::byte> indices) {
  SS_RETURN_IF_ERROR(check_buffer_sizes(op, input, output, indices));
  if (op.kind() == OpKind::MaxPooling2) {
    run_pooling(op, input, output, indices);
  } else {
    run_gather(op, input, output);
  }
  return RunStats{};
}

}  // namespace stridescope
