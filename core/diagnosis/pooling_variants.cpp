#include "core/diagnosis/pooling_variants.h"

#include <bit>
#include <limits>

#include "core/diagnosis/mistaken_eval.h"
#include "core/float16.h"
#include "core/scalar.h"

namespace stridescope {
namespace {

using Results = std::vector<VariantResult>;

std::optional<VariantResult> pooled(const Operation& op, const Tensors& t, const PoolingPlan& plan,
                                    std::span<const std::byte> input, const PoolingRule& rule) {
  std::optional<PooledBuffers> buffers =
      run_pooling_rule(op.params_as<MaxPooling2Params>(), plan, t, input, rule);
  if (!buffers) return std::nullopt;
  return VariantResult{t.output, t.indices, std::move(buffers->output), std::move(buffers->indices),
                       std::move(buffers->undefined_indices)};
}

Results with_rule(const Operation& op, std::span<const std::byte> input, const PoolingRule& rule) {
  Results results;
  if (auto result = pooled(op, tensors_of(op), make_pooling_plan(op), input, rule)) {
    results.push_back(std::move(*result));
  }
  return results;
}

// --- indices ---

uint64_t spatial_elements(const TensorDesc& input) {
  uint64_t count = 1;
  for (std::size_t d = 2; d < input.rank(); ++d) count *= input.sizes()[d];
  return count;
}

// The winner's index as the mistake counts it, from its logical coordinate.
uint64_t mistaken_index(MistakeId id, const TensorDesc& input, const Coord& at) {
  switch (id) {
    case MistakeId::IndicesPerPlane: return input.flat_index_of(at) % spatial_elements(input);
    case MistakeId::IndicesAsBufferOffsets: return input.offset_of(at);
    default: {  // column-major: the first spatial dimension fastest, planes row-major
      uint64_t index = 0;
      uint64_t weight = 1;
      for (std::size_t d = 2; d < input.rank(); ++d) {
        index += at[d] * weight;
        weight *= input.sizes()[d];
      }
      return (at[0] * input.sizes()[1] + at[1]) * weight + index;
    }
  }
}

Results reindexed(MistakeId id, const Operation& op, std::span<const std::byte> input) {
  const std::optional<TensorDesc>& indices = op.output_indices();
  if (!indices) return {};
  const TensorDesc& in = op.input();
  const bool packed = in.strides() == TensorDesc::packed_strides(in.sizes());
  const bool applies = id == MistakeId::IndicesPerPlane          ? in.sizes()[0] * in.sizes()[1] > 1
                       : id == MistakeId::IndicesAsBufferOffsets ? !packed
                                                                 : true;
  if (!applies) return {};
  Results results = with_rule(op, input, PoolingRule{});
  if (results.empty()) return {};
  std::vector<std::byte>& buffer = results.front().indices_buffer;
  const DataType type = indices->data_type();
  const uint64_t largest = type == DataType::UInt32 ? std::numeric_limits<uint32_t>::max()
                                                    : std::numeric_limits<uint64_t>::max();
  Coord out(indices->rank(), 0);
  do {
    std::byte* at = buffer.data() + indices->offset_of(out) * indices->element_size();
    const uint64_t index = mistaken_index(id, in, in.coord_of_flat_index(read_element_bits(type, at)));
    if (index > largest) return {};  // would not fit the indices type: the mistake cannot show so
    write_element_bits(type, index, at);
  } while (next_coord(out, indices->sizes()));
  return results;
}

// --- padding that takes part ---

bool has_padding(const MaxPooling2Params& p) {
  for (std::size_t s = 0; s < p.spatial_rank(); ++s) {
    if (p.start_padding[s] > 0 || p.end_padding[s] > 0) return true;
  }
  return false;
}

// What padding may count as: the type's lowest value, -infinity, or 0.
std::vector<uint64_t> padding_candidates(DataType type) {
  switch (type) {
    case DataType::Float16: return {0xFBFF, 0xFC00, 0};
    case DataType::Float32:
      return {std::bit_cast<uint32_t>(std::numeric_limits<float>::lowest()),
              std::bit_cast<uint32_t>(-std::numeric_limits<float>::infinity()), 0};
    case DataType::Float64:
      return {std::bit_cast<uint64_t>(std::numeric_limits<double>::lowest()),
              std::bit_cast<uint64_t>(-std::numeric_limits<double>::infinity()), 0};
    case DataType::Int8: return {0x80, 0};
    case DataType::Int16: return {0x8000, 0};
    case DataType::Int32: return {0x80000000u, 0};
    case DataType::Int64: return {uint64_t{1} << 63, 0};
    default: return {0};
  }
}

Results padding_takes_part(const Operation& op, std::span<const std::byte> input) {
  if (!has_padding(op.params_as<MaxPooling2Params>())) return {};
  Results results;
  for (uint64_t bits : padding_candidates(op.input().data_type())) {
    PoolingRule rule;
    rule.padding_bits = bits;
    Results r = with_rule(op, input, rule);
    for (VariantResult& result : r) results.push_back(std::move(result));
  }
  return results;
}

// --- output sizes ---

std::optional<Sizes> undilated_sizes(const Operation& op) {
  const auto& p = op.params_as<MaxPooling2Params>();
  Sizes sizes = op.output().sizes();
  bool dilated = false;
  for (std::size_t s = 0; s < p.spatial_rank(); ++s) {
    dilated = dilated || p.dilations[s] > 1;
    const uint64_t padded = op.input().sizes()[s + 2] + p.start_padding[s] + p.end_padding[s];
    if (padded < p.window_size[s]) return std::nullopt;
    sizes[s + 2] = (padded - p.window_size[s]) / p.strides[s] + 1;
  }
  // The same sizes give the same windows: the mistake cannot show.
  if (!dilated || sizes == op.output().sizes()) return std::nullopt;
  return sizes;
}

std::optional<Tensors> undilated_tensors(const Operation& op) {
  const std::optional<Sizes> sizes = undilated_sizes(op);
  if (!sizes) return std::nullopt;
  Expected<TensorDesc> output = TensorDesc::make(op.output().data_type(), *sizes, std::nullopt, "output");
  if (!output) return std::nullopt;
  Tensors t{op.input(), *output, std::nullopt};
  if (op.output_indices()) {
    Expected<TensorDesc> indices =
        TensorDesc::make(op.output_indices()->data_type(), *sizes, std::nullopt, "outputIndices");
    if (!indices) return std::nullopt;
    t.indices = *indices;
  }
  return t;
}

Results undilated_output_size(const Operation& op, std::span<const std::byte> input) {
  const std::optional<Tensors> t = undilated_tensors(op);
  if (!t) return {};
  const PoolingPlan plan = pooling_plan_for(op.params_as<MaxPooling2Params>(), op.input().sizes(), t->output.sizes());
  Results results;
  if (auto result = pooled(op, *t, plan, input, PoolingRule{})) results.push_back(std::move(*result));
  return results;
}

}  // namespace

std::vector<VariantResult> run_pooling_mistake(MistakeId id, const Operation& op, std::span<const std::byte> input) {
  if (op.kind() != OpKind::MaxPooling2) return {};
  switch (id) {
    case MistakeId::IndicesPerPlane:
    case MistakeId::IndicesAsBufferOffsets:
    case MistakeId::IndicesColumnMajor: return reindexed(id, op, input);
    case MistakeId::LastMaximumWins:
      return with_rule(op, input, PoolingRule{.last_wins = true, .nan_loses = false, .padding_bits = std::nullopt});
    case MistakeId::PaddingTakesPart: return padding_takes_part(op, input);
    case MistakeId::NanIgnored:
      if (!is_floating(op.input().data_type())) return {};
      return with_rule(op, input, PoolingRule{.last_wins = false, .nan_loses = true, .padding_bits = std::nullopt});
    case MistakeId::UndilatedOutputSize: return undilated_output_size(op, input);
    default: return {};
  }
}

std::vector<Reshape> mistaken_shapes(const Operation& op) {
  if (op.kind() != OpKind::MaxPooling2) return {};
  const std::optional<Tensors> t = undilated_tensors(op);
  if (!t) return {};
  return {Reshape{MistakeId::UndilatedOutputSize, t->output, t->indices}};
}

}  // namespace stridescope
