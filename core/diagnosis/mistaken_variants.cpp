#include "core/diagnosis/mistaken_variants.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/diagnosis/mistaken_eval.h"
#include "core/diagnosis/pooling_variants.h"
#include "core/float16.h"
#include "core/index_plan.h"
#include "core/scalar.h"

namespace stridescope {
namespace {

using Results = std::vector<VariantResult>;

uint64_t padding_bits_of(const Operation& op) {
  return op.kind() == OpKind::Padding ? op.params_as<PaddingParams>().value_bits : 0;
}

// The exact semantics over tensors `t` (the op's, or packed ones), with the
// padding value `padding_bits`.
std::optional<VariantResult> exact_over(const Operation& op, const Tensors& t, std::span<const std::byte> input,
                                        uint64_t padding_bits) {
  VariantResult result{t.output, t.indices, {}, {}, {}};
  if (op.kind() == OpKind::MaxPooling2) {
    std::optional<PooledBuffers> pooled =
        run_pooling_rule(op.params_as<MaxPooling2Params>(), make_pooling_plan(op), t, input, PoolingRule{});
    if (!pooled) return std::nullopt;
    result.output_buffer = std::move(pooled->output);
    result.indices_buffer = std::move(pooled->indices);
  } else {
    result.output_buffer = run_gather_plan(make_gather_plan(op), t, input, padding_bits);
  }
  return result;
}

Results one(std::optional<VariantResult> result) {
  Results results;
  if (result) results.push_back(std::move(*result));
  return results;
}

Results gather_with(const Operation& op, const GatherPlan& plan, std::span<const std::byte> input,
                    uint64_t padding_bits) {
  const Tensors t = tensors_of(op);
  return one(VariantResult{t.output, t.indices, run_gather_plan(plan, t, input, padding_bits), {}, {}});
}

// --- slice1 ---

Results slice1_from_offset(const Operation& op, std::span<const std::byte> input) {
  if (op.kind() != OpKind::Slice1) return {};
  const auto& p = op.params_as<Slice1Params>();
  GatherPlan plan = make_gather_plan(op);
  bool negative = false;
  for (std::size_t d = 0; d < plan.rank; ++d) {
    if (p.window_strides[d] > 0) continue;
    negative = true;
    for (uint64_t o = 0; o < plan.source[d].size(); ++o) {
      const int64_t index = static_cast<int64_t>(p.window_offsets[d]) + p.window_strides[d] * static_cast<int64_t>(o);
      // A read before the input is one the mistaken code cannot have made.
      if (index < 0 || index >= static_cast<int64_t>(op.input().sizes()[d])) return {};
      plan.source[d][o] = index;
    }
  }
  if (!negative) return {};
  return gather_with(op, plan, input, 0);
}

// --- padding folds ---

// REFLECTION or SYMMETRIC mirrored once at the edge it crossed, then clamped.
int64_t fold_once_then_clamp(PaddingMode mode, int64_t i, int64_t n) {
  const int64_t edge = mode == PaddingMode::Symmetric ? 1 : 0;
  const int64_t mirrored = i < 0 ? -i - edge : 2 * (n - 1) - i + edge;
  return std::clamp<int64_t>(mirrored, 0, n - 1);
}

// NumPy's np.pad for 'reflect' (include_edge false) and 'symmetric' (true),
// on the input indices of one dimension: it fills the padding in chunks, each
// the reflection of what is already filled (padding included) next to the
// edge, from the left then the right, until both sides are full. A chunk is
// at most the filled length, so once a side has taken a shorter chunk the
// mirror no longer stands where the periodic fold's does.
std::vector<int64_t> numpy_pad_indices(int64_t n, int64_t left, int64_t right, bool include_edge) {
  const int64_t total = n + left + right;
  std::vector<int64_t> v(static_cast<std::size_t>(total), 0);
  for (int64_t i = 0; i < n; ++i) v[left + i] = i;
  if (n == 1) return v;  // NumPy repeats a single element (its "legacy" edge case)
  const int64_t edge = include_edge ? 1 : 0;
  while (left > 0 || right > 0) {
    const int64_t filled = total - left - right - (include_edge ? 0 : 1);
    if (left > 0) {
      const int64_t chunk = std::min(filled, left);
      const int64_t from = left - edge + chunk;  // read from..from-chunk+1, written left-chunk..left-1
      for (int64_t j = 0; j < chunk; ++j) v[left - chunk + j] = v[from - j];
      left -= chunk;
    }
    if (right > 0) {
      const int64_t chunk = std::min(filled, right);
      const int64_t from = total - right + edge - 2;
      const int64_t to = total - right;
      for (int64_t j = 0; j < chunk; ++j) v[to + j] = v[from - j];
      right -= chunk;
    }
  }
  return v;
}

Results padding_fold(MistakeId id, const Operation& op, std::span<const std::byte> input) {
  if (op.kind() != OpKind::Padding) return {};
  const auto& p = op.params_as<PaddingParams>();
  const bool reflection = p.mode == PaddingMode::Reflection;
  const bool symmetric = p.mode == PaddingMode::Symmetric;
  if ((id == MistakeId::ReflectionRepeatsEdge && !reflection) || (id == MistakeId::SymmetricSkipsEdge && !symmetric) ||
      (!reflection && !symmetric)) {
    return {};
  }
  GatherPlan plan = make_gather_plan(op);
  for (std::size_t d = 0; d < plan.rank; ++d) {
    const auto n = static_cast<int64_t>(op.input().sizes()[d]);
    std::vector<int64_t> numpy;
    if (id == MistakeId::NumpyNonperiodicFold) {
      numpy = numpy_pad_indices(n, static_cast<int64_t>(p.start_padding[d]), static_cast<int64_t>(p.end_padding[d]),
                                symmetric);
    }
    for (uint64_t o = 0; o < plan.source[d].size(); ++o) {
      const int64_t i = plan.unfolded[d][o];
      switch (id) {
        case MistakeId::ReflectionRepeatsEdge:
          plan.source[d][o] = fold_padded_index(PaddingMode::Symmetric, i, n);
          break;
        case MistakeId::SymmetricSkipsEdge:
          plan.source[d][o] = fold_padded_index(PaddingMode::Reflection, i, n);
          break;
        case MistakeId::NoPeriodicFold:
          if ((i < 0 || i >= n) && n > 1) plan.source[d][o] = fold_once_then_clamp(p.mode, i, n);
          break;
        default: plan.source[d][o] = numpy[o]; break;
      }
    }
  }
  return gather_with(op, plan, input, p.value_bits);
}

// --- paddingValue conversions ---

// `value` rounded to float, with IEEE overflow to infinity (a plain cast of
// an out-of-range double is undefined behaviour).
float to_float(double value) {
  if (std::isnan(value) || std::fabs(value) <= FLT_MAX) return static_cast<float>(value);
  const bool overflow = std::fabs(value) >= 0x1.ffffffp127;  // halfway between FLT_MAX and 2^128
  const float magnitude = overflow ? std::numeric_limits<float>::infinity() : FLT_MAX;
  return value < 0 ? -magnitude : magnitude;
}

float scalar_to_float(const Scalar& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return static_cast<float>(*i);  // one rounding
  if (const auto* u = std::get_if<uint64_t>(&value)) return static_cast<float>(*u);
  return to_float(to_double(value));
}

Results padding_with_value(const Operation& op, std::span<const std::byte> input, const std::vector<Scalar>& values) {
  Results results;
  for (const Scalar& value : values) {
    const Expected<uint64_t> bits = encode_scalar(value, op.output().data_type(), "paddingValue");
    if (!bits) continue;  // out of the type's range: the mistaken code would fail, not differ
    Results r = gather_with(op, make_gather_plan(op), input, *bits);
    results.push_back(std::move(r.front()));
  }
  return results;
}

Results padding_value(MistakeId id, const Operation& op, std::span<const std::byte> input) {
  if (op.kind() != OpKind::Padding) return {};
  const auto& p = op.params_as<PaddingParams>();
  if (p.mode != PaddingMode::Constant) return {};
  if (id == MistakeId::PaddingValueThroughFloat32) {
    return padding_with_value(op, input, {static_cast<double>(scalar_to_float(p.value))});
  }
  if (is_floating(op.output().data_type())) return {};
  const double value = to_double(p.value);
  if (!std::isfinite(value) || std::trunc(value) == value) return {};
  return padding_with_value(op, input, {std::round(value), std::nearbyint(value)});
}

// --- values through a narrower type ---

template <class Int>
Int through_double(Int value) {
  const auto wide = static_cast<double>(value);
  // 2^63 (2^64) is the first double past the type: it saturates.
  if (wide >= std::ldexp(1.0, std::numeric_limits<Int>::digits)) return std::numeric_limits<Int>::max();
  return static_cast<Int>(wide);
}

uint64_t narrowed(DataType type, uint64_t bits) {
  switch (type) {
    case DataType::Int64: return static_cast<uint64_t>(through_double(static_cast<int64_t>(bits)));
    case DataType::UInt64: return through_double(bits);
    default: {
      double value;
      std::memcpy(&value, &bits, 8);
      const auto narrow = static_cast<double>(to_float(value));
      std::memcpy(&bits, &narrow, 8);
      return bits;
    }
  }
}

Results narrowed_values(MistakeId id, const Operation& op, std::span<const std::byte> input) {
  const DataType type = op.input().data_type();
  const bool applies = id == MistakeId::Int64ThroughDouble ? (type == DataType::Int64 || type == DataType::UInt64)
                                                            : type == DataType::Float64;
  if (!applies) return {};
  std::vector<std::byte> converted(input.begin(), input.end());
  for (uint64_t i = 0; i < op.input().buffer_elements(); ++i) {
    std::byte* at = converted.data() + i * 8;
    write_element_bits(type, narrowed(type, read_element_bits(type, at)), at);
  }
  return one(exact_over(op, tensors_of(op), converted, narrowed(type, padding_bits_of(op))));
}

// --- strides ---

bool is_packed(const TensorDesc& desc) { return desc.strides() == TensorDesc::packed_strides(desc.sizes()); }

Results input_strides_ignored(const Operation& op, std::span<const std::byte> input) {
  if (is_packed(op.input())) return {};
  Tensors t = tensors_of(op);
  t.input = packed_like(op.input());
  // A broadcast input is smaller than packed: the mistaken code would read past it.
  if (t.input.buffer_bytes() > input.size()) return {};
  return one(exact_over(op, t, input, padding_bits_of(op)));
}

// `packed`'s elements at the same buffer positions of a buffer of `desc`.
std::vector<std::byte> packed_into(const TensorDesc& desc, const std::vector<std::byte>& packed) {
  std::vector<std::byte> buffer(desc.buffer_bytes());
  std::memcpy(buffer.data(), packed.data(), std::min(packed.size(), buffer.size()));
  return buffer;
}

Results output_strides_ignored(const Operation& op, std::span<const std::byte> input) {
  const auto& indices = op.output_indices();
  if (is_packed(op.output()) && (!indices || is_packed(*indices))) return {};
  Tensors t = tensors_of(op);
  t.output = packed_like(op.output());
  if (indices) t.indices = packed_like(*indices);
  // Packed writes past the end of the real buffer are ones the mistaken code cannot have made.
  if (t.output.buffer_elements() > op.output().buffer_elements()) return {};
  if (indices && t.indices->buffer_elements() > indices->buffer_elements()) return {};
  std::optional<VariantResult> packed = exact_over(op, t, input, padding_bits_of(op));
  if (!packed) return {};
  VariantResult result{op.output(), indices, packed_into(op.output(), packed->output_buffer), {}, {}};
  if (indices) result.indices_buffer = packed_into(*indices, packed->indices_buffer);
  return one(std::move(result));
}

}  // namespace

std::vector<VariantResult> run_mistaken(MistakeId id, const Operation& op, std::span<const std::byte> input) {
  switch (id) {
    case MistakeId::Slice1NegativeStrideFromOffset: return slice1_from_offset(op, input);
    case MistakeId::ReflectionRepeatsEdge:
    case MistakeId::SymmetricSkipsEdge:
    case MistakeId::NoPeriodicFold:
    case MistakeId::NumpyNonperiodicFold: return padding_fold(id, op, input);
    case MistakeId::PaddingValueRounded:
    case MistakeId::PaddingValueThroughFloat32: return padding_value(id, op, input);
    case MistakeId::Int64ThroughDouble:
    case MistakeId::Float64ThroughFloat32: return narrowed_values(id, op, input);
    case MistakeId::InputStridesIgnored: return input_strides_ignored(op, input);
    case MistakeId::OutputStridesIgnored: return output_strides_ignored(op, input);
    default: return run_pooling_mistake(id, op, input);
  }
}

}  // namespace stridescope
