#include "core/io/random_spec.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/operation.h"
#include "core/scalar.h"
#include "core/split_mix64.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;

constexpr std::array<OpKind, 5> kOps = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding,
                                        OpKind::MaxPooling2};
constexpr std::array<PaddingMode, 4> kPaddingModes = {PaddingMode::Constant, PaddingMode::Edge,
                                                      PaddingMode::Reflection, PaddingMode::Symmetric};
// Each draw is cheap; this many refusals in a row would mean a generator bug.
constexpr int kMaxDraws = 10000;

template <class T, std::size_t N>
T pick(SplitMix64& rng, const std::array<T, N>& values) {
  return values[rng.below(N)];
}

uint64_t product(const U64s& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), uint64_t{1}, std::multiplies<>());
}

// Mostly 1 to 4 per dimension; the largest shrinks until the product fits.
U64s random_sizes(SplitMix64& rng, std::size_t rank, uint64_t max_elements) {
  U64s sizes(rank);
  for (uint64_t& size : sizes) size = rng.chance(0.1) ? rng.between(5, 7) : rng.between(1, 4);
  while (product(sizes) > max_elements) {
    uint64_t& largest = *std::max_element(sizes.begin(), sizes.end());
    largest = std::max<uint64_t>(1, largest / 2);
  }
  return sizes;
}

enum class Layout { Packed, Gapped, Permuted, Broadcast };

// Packed strides in the dimension order `order` (innermost last), with an
// optional gap after each dimension's run.
U64s strides_in_order(SplitMix64& rng, const U64s& sizes, const std::vector<std::size_t>& order, bool gapped) {
  U64s strides(sizes.size());
  uint64_t run = 1;
  for (auto d = order.rbegin(); d != order.rend(); ++d) {
    strides[*d] = run;
    run *= sizes[*d];
    if (gapped && rng.chance(0.6)) run += rng.between(1, 3);
  }
  return strides;
}

// Nullopt for packed (the spec omits them); a broadcast zeroes one stride.
std::optional<U64s> random_strides(SplitMix64& rng, const U64s& sizes, Layout layout) {
  std::vector<std::size_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  switch (layout) {
    case Layout::Packed: return std::nullopt;
    case Layout::Gapped: return strides_in_order(rng, sizes, order, true);
    case Layout::Permuted:
      for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
      return strides_in_order(rng, sizes, order, rng.chance(0.3));
    case Layout::Broadcast: {  // along a dimension longer than 1, where it shows
      U64s strides = strides_in_order(rng, sizes, order, false);
      std::vector<std::size_t> long_dims;
      for (std::size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] > 1) long_dims.push_back(d);
      }
      if (!long_dims.empty()) strides[long_dims[rng.below(long_dims.size())]] = 0;
      return strides;
    }
  }
  return std::nullopt;
}

Layout random_layout(SplitMix64& rng, bool input) {
  const uint64_t draw = rng.below(input ? 8 : 6);
  if (draw < 3) return Layout::Packed;
  if (draw < 4) return Layout::Gapped;
  if (draw < 6) return Layout::Permuted;
  return Layout::Broadcast;  // inputs only: an output may not share offsets
}

// One dimension of a slice window, mostly large and dense so that outputs
// are seldom a single element.
struct Window {
  uint64_t offset, size, stride;
};
Window random_window(SplitMix64& rng, uint64_t input_size) {
  const uint64_t offset = rng.chance(0.5) ? 0 : rng.below(input_size);
  const uint64_t room = input_size - offset;
  const uint64_t size = rng.chance(0.6) ? room : rng.between(1, room);
  const uint64_t stride = rng.chance(0.6) ? 1 : rng.between(2, 3);
  return {offset, size, stride};
}

SliceRequest random_slice(SplitMix64& rng, const U64s& sizes) {
  SliceRequest slice;
  for (const uint64_t size : sizes) {
    const Window window = random_window(rng, size);
    slice.offsets.push_back(window.offset);
    slice.sizes.push_back(window.size);
    slice.strides.push_back(window.stride);
  }
  return slice;
}

// A slice's window, each stride negated half the time.
Slice1Request random_slice1(SplitMix64& rng, const U64s& sizes) {
  SliceRequest window = random_slice(rng, sizes);
  Slice1Request slice{std::move(window.offsets), std::move(window.sizes), {}};
  for (const uint64_t stride : window.strides) {
    const auto magnitude = static_cast<int64_t>(stride);
    slice.input_window_strides.push_back(rng.chance(0.5) ? -magnitude : magnitude);
  }
  return slice;
}

// A value of `type` (exactly representable in it), biased towards the ones
// that trip implementations up.
Scalar random_value(SplitMix64& rng, DataType type) {
  if (is_floating(type)) {
    const double max_finite = type == DataType::Float16   ? 65504.0
                              : type == DataType::Float32 ? std::numeric_limits<float>::max()
                                                          : std::numeric_limits<double>::max();
    const double smallest = type == DataType::Float16   ? 0x1p-24
                            : type == DataType::Float32 ? std::numeric_limits<float>::denorm_min()
                                                        : std::numeric_limits<double>::denorm_min();
    double value = 0;
    switch (rng.below(12)) {
      case 0: value = 0.0; break;
      case 1: value = -0.0; break;
      case 2: value = std::numeric_limits<double>::infinity(); break;
      case 3: value = -std::numeric_limits<double>::infinity(); break;
      case 4: value = std::numeric_limits<double>::quiet_NaN(); break;
      case 5: value = rng.chance(0.5) ? max_finite : -max_finite; break;
      case 6: value = rng.chance(0.5) ? smallest : -smallest; break;
      case 7: value = (static_cast<double>(rng.below(2001)) - 1000.0) / 8.0; break;
      default: value = static_cast<double>(rng.below(9)) - 4.0; break;  // small integers: ties
    }
    // Rounded through the type, so the spec holds exactly what the buffer will.
    std::array<std::byte, 8> bytes{};
    write_element_bits(type, *encode_scalar(value, type, ""), bytes.data());
    return read_element(type, bytes.data());
  }
  // The full range, or small values (-4..4, or 0..8 unsigned) that tie.
  const uint64_t small = is_signed_integer(type) ? static_cast<uint64_t>(static_cast<int64_t>(rng.below(9)) - 4)
                                                 : rng.below(9);
  const uint64_t bits = rng.below(4) == 0 ? rng.next() : small;
  std::array<std::byte, 8> bytes{};
  const uint64_t extreme = rng.below(8);
  write_element_bits(type, bits, bytes.data());
  Scalar value = read_element(type, bytes.data());
  if (extreme == 0 || extreme == 1) {  // the type's smallest and largest
    const std::size_t width = element_size(type) * 8;
    if (is_signed_integer(type)) {
      const int64_t max = static_cast<int64_t>((uint64_t{1} << (width - 1)) - 1);
      value = extreme == 0 ? -max - 1 : max;
    } else {
      value = extreme == 0 ? uint64_t{0} : (width == 64 ? UINT64_MAX : (uint64_t{1} << width) - 1);
    }
  }
  return value;
}

PaddingRequest random_padding(SplitMix64& rng, const U64s& sizes, DataType type) {
  PaddingRequest padding;
  padding.padding_mode = pick(rng, kPaddingModes);
  // Only CONSTANT reads the value; the others keep the default 0.
  if (padding.padding_mode == PaddingMode::Constant) padding.padding_value = random_value(rng, type);
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    padding.start_padding.push_back(rng.chance(0.4) ? 0 : rng.between(1, 2));
    padding.end_padding.push_back(rng.chance(0.4) ? 0 : rng.between(1, 2));
  }
  return padding;
}

// Omitted now and then, so the defaults are part of the corpus too.
std::optional<U64s> maybe(SplitMix64& rng, U64s values) {
  if (rng.chance(0.25)) return std::nullopt;
  return values;
}

MaxPooling2Request random_pooling(SplitMix64& rng, const U64s& sizes) {
  MaxPooling2Request pooling;
  U64s strides, starts, ends, dilations;
  for (std::size_t d = 2; d < sizes.size(); ++d) {
    const uint64_t window = rng.between(1, std::min<uint64_t>(3, sizes[d] + 1));
    pooling.window_size.push_back(window);
    strides.push_back(rng.between(1, 2));
    starts.push_back(rng.below(window));
    ends.push_back(rng.below(window));
    dilations.push_back(rng.chance(0.7) ? 1 : 2);
  }
  pooling.strides = maybe(rng, std::move(strides));
  pooling.start_padding = maybe(rng, std::move(starts));
  pooling.end_padding = maybe(rng, std::move(ends));
  pooling.dilations = maybe(rng, std::move(dilations));
  return pooling;
}

// One draw: a request that may or may not be valid.
OpRequest draw_request(SplitMix64& rng, OpKind op, uint64_t max_elements) {
  OpRequest request;
  const DataType type = kAllDataTypes[rng.below(kAllDataTypes.size())];
  const std::size_t rank = op == OpKind::MaxPooling2 ? (rng.chance(0.75) ? 4 : 5)
                           : rng.chance(0.1)          ? rng.between(5, 8)
                                                      : rng.between(1, 4);
  const U64s sizes = random_sizes(rng, rank, max_elements);
  request.input = TensorRequest{type, sizes, random_strides(rng, sizes, random_layout(rng, true))};
  switch (op) {
    case OpKind::Identity: request.params = IdentityRequest{}; break;
    case OpKind::Slice: request.params = random_slice(rng, sizes); break;
    case OpKind::Slice1: request.params = random_slice1(rng, sizes); break;
    case OpKind::Padding: request.params = random_padding(rng, sizes, type); break;
    case OpKind::MaxPooling2:
      request.params = random_pooling(rng, sizes);
      if (rng.chance(0.6)) {
        request.output_indices = TensorRequest{rng.chance(0.5) ? DataType::UInt32 : DataType::UInt64, {}, {}};
      }
      break;
  }
  // Output sizes written out (as another tool would need them), in a layout of their own.
  Expected<std::optional<Sizes>> output_sizes = infer_output_sizes(request);
  if (output_sizes && output_sizes->has_value()) {
    const U64s out(output_sizes->value().begin(), output_sizes->value().end());
    request.output.sizes = out;
    request.output.strides = random_strides(rng, out, random_layout(rng, false));
    if (request.output_indices && rng.chance(0.3)) {
      request.output_indices->sizes = out;
      request.output_indices->strides = random_strides(rng, out, Layout::Permuted);
    }
  }
  return request;
}

}  // namespace

Expected<Spec> random_spec(uint64_t seed, const RandomSpecOptions& options) {
  if (options.max_elements == 0) return Error{ErrorCode::InvalidSpec, "", "max_elements must be at least 1"};
  SplitMix64 rng(seed);
  for (int draw = 0; draw < kMaxDraws; ++draw) {
    const OpKind op = options.op ? *options.op : pick(rng, kOps);
    OpRequest request = draw_request(rng, op, options.max_elements);
    Expected<Operation> operation = Operation::make(request);
    if (!operation || operation->output().buffer_elements() > options.max_elements) continue;
    std::vector<Scalar> data(operation->input().buffer_elements());
    for (Scalar& value : data) value = random_value(rng, operation->input().data_type());
    Spec spec;
    spec.request = std::move(request);
    spec.input_source.emplace<std::vector<Scalar>>(std::move(data));
    return spec;
  }
  return Error{ErrorCode::InvalidSpec, "", "no valid spec within " + std::to_string(kMaxDraws) + " draws"};
}

}  // namespace stridescope
