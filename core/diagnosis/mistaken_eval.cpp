#include "core/diagnosis/mistaken_eval.h"

#include <cstring>
#include <type_traits>

#include "core/float16.h"
#include "core/max_pooling.h"
#include "core/pooling_value.h"
#include "core/scalar.h"

namespace stridescope {

Tensors tensors_of(const Operation& op) { return {op.input(), op.output(), op.output_indices()}; }

TensorDesc packed_like(const TensorDesc& desc) {
  // The same sizes were valid with other strides; packed ones never need more room.
  return *TensorDesc::make(desc.data_type(), desc.sizes(), std::nullopt, "");
}

std::vector<std::byte> run_gather_plan(const GatherPlan& plan, const Tensors& t, std::span<const std::byte> input,
                                       uint64_t padding_bits) {
  std::vector<std::byte> output(t.output.buffer_bytes());
  const std::size_t size = t.output.element_size();
  Coord coord(t.output.rank(), 0);
  do {
    bool padded = false;
    uint64_t source = 0;
    for (std::size_t d = 0; d < plan.rank && !padded; ++d) {
      const int64_t index = plan.source[d][coord[d]];
      padded = index == kPaddingIndex;
      if (!padded) source += static_cast<uint64_t>(index) * t.input.strides()[d];
    }
    std::byte* target = output.data() + t.output.offset_of(coord) * size;
    if (padded) {
      std::memcpy(target, &padding_bits, size);
    } else {
      std::memcpy(target, input.data() + source * size, size);
    }
  } while (next_coord(coord, t.output.sizes()));
  return output;
}

namespace {

template <class T>
bool rule_prefers(T candidate, T best, const PoolingRule& rule) {
  if constexpr (std::is_floating_point_v<T>) {
    if (rule.nan_loses) {
      if (candidate != candidate) return false;
      if (best != best) return true;
      return rule.last_wins ? candidate >= best : candidate > best;
    }
  }
  // The last of equal candidates wins exactly where the first would not have.
  return rule.last_wins ? !pooling_prefers(best, candidate) : pooling_prefers(candidate, best);
}

struct Winner {
  bool found = false;
  bool padded = false;
  uint64_t bits = 0;
  Coord coord;
};

template <class Stored, class Compared>
Winner window_winner(const PoolingPlan& plan, const Tensors& t, std::span<const std::byte> input,
                     const PoolingRule& rule, const Coord& out) {
  Sizes extent;
  for (std::size_t s = 0; s < plan.spatial_rank; ++s) extent.push_back(plan.axes[s].window);
  Coord tap(plan.spatial_rank, 0);
  Winner winner;
  Compared best{};
  do {
    Coord in{out[0], out[1]};
    bool padded = false;
    for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
      const int64_t index = plan.axes[s].taps[out[s + 2] * plan.axes[s].window + tap[s]];
      padded = padded || index == kPaddingIndex;
      in.push_back(index == kPaddingIndex ? 0 : static_cast<uint64_t>(index));
    }
    if (padded && !rule.padding_bits) continue;
    uint64_t bits = 0;
    if (padded) {
      bits = *rule.padding_bits;
    } else {
      std::memcpy(&bits, input.data() + t.input.offset_of(in) * sizeof(Stored), sizeof(Stored));
    }
    const Compared value = load_as<Stored, Compared>(reinterpret_cast<const std::byte*>(&bits));
    if (!winner.found || rule_prefers(value, best, rule)) {
      winner = Winner{true, padded, bits, in};
      best = value;
    }
  } while (next_coord(tap, extent));
  return winner;
}

template <class Stored, class Compared>
std::optional<PooledBuffers> pool_typed(const PoolingPlan& plan, const Tensors& t, std::span<const std::byte> input,
                                        const PoolingRule& rule) {
  PooledBuffers result;
  result.output.resize(t.output.buffer_bytes());
  if (t.indices) result.indices.resize(t.indices->buffer_bytes());
  Coord out(t.output.rank(), 0);
  do {
    const Winner winner = window_winner<Stored, Compared>(plan, t, input, rule, out);
    if (!winner.found) return std::nullopt;
    std::memcpy(result.output.data() + t.output.offset_of(out) * sizeof(Stored), &winner.bits, sizeof(Stored));
    if (!t.indices) continue;
    const uint64_t at = t.indices->offset_of(out);
    if (winner.padded) {
      result.undefined_indices.push_back(at);
    } else {
      write_element_bits(t.indices->data_type(), t.input.flat_index_of(winner.coord),
                         result.indices.data() + at * t.indices->element_size());
    }
  } while (next_coord(out, t.output.sizes()));
  return result;
}

}  // namespace

std::optional<PooledBuffers> run_pooling_rule(const MaxPooling2Params&, const PoolingPlan& plan, const Tensors& t,
                                              std::span<const std::byte> input, const PoolingRule& rule) {
  switch (t.input.data_type()) {
    case DataType::Float16: return pool_typed<uint16_t, float>(plan, t, input, rule);
    case DataType::Float32: return pool_typed<float, float>(plan, t, input, rule);
    case DataType::Float64: return pool_typed<double, double>(plan, t, input, rule);
    case DataType::Int8: return pool_typed<int8_t, int8_t>(plan, t, input, rule);
    case DataType::Int16: return pool_typed<int16_t, int16_t>(plan, t, input, rule);
    case DataType::Int32: return pool_typed<int32_t, int32_t>(plan, t, input, rule);
    case DataType::Int64: return pool_typed<int64_t, int64_t>(plan, t, input, rule);
    case DataType::UInt8: return pool_typed<uint8_t, uint8_t>(plan, t, input, rule);
    case DataType::UInt16: return pool_typed<uint16_t, uint16_t>(plan, t, input, rule);
    case DataType::UInt32: return pool_typed<uint32_t, uint32_t>(plan, t, input, rule);
    case DataType::UInt64: return pool_typed<uint64_t, uint64_t>(plan, t, input, rule);
  }
  return std::nullopt;
}

PoolingPlan pooling_plan_for(const MaxPooling2Params& params, const Sizes& input_sizes, const Sizes& output_sizes) {
  PoolingPlan plan;
  plan.spatial_rank = params.spatial_rank();
  for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
    const auto n = static_cast<int64_t>(input_sizes[s + 2]);
    PoolingAxis& axis = plan.axes[s];
    axis.window = params.window_size[s];
    axis.taps.resize(output_sizes[s + 2] * axis.window);
    for (uint64_t o = 0; o < output_sizes[s + 2]; ++o) {
      for (uint64_t k = 0; k < axis.window; ++k) {
        const int64_t index = pooling_tap_index(params, s, o, k);
        axis.taps[o * axis.window + k] = (index >= 0 && index < n) ? index : kPaddingIndex;
      }
    }
  }
  return plan;
}

}  // namespace stridescope
