#include "random_ops.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <sstream>

#include "core/operation.h"

namespace stridescope::testing {

namespace {

using Vec = std::vector<uint64_t>;

std::vector<uint64_t> packed_in_order(const Vec& sizes, const std::vector<std::size_t>& inner_to_outer,
                                      const Vec& gaps) {
  Vec strides(sizes.size(), 0);
  uint64_t stride = 1;
  for (std::size_t d : inner_to_outer) {
    strides[d] = stride;
    stride *= sizes[d] + gaps[d];
  }
  return strides;
}

// Strides for a tensor of `sizes`: packed (nullopt), gapped, permuted,
// and for inputs also broadcast or arbitrary (possibly overlapping).
std::optional<Vec> random_strides(Rng& rng, const Vec& sizes, bool input) {
  const std::size_t rank = sizes.size();
  std::vector<std::size_t> order(rank);
  for (std::size_t i = 0; i < rank; ++i) order[i] = rank - 1 - i;  // innermost first
  Vec gaps(rank, 0);
  switch (rng.below(input ? 6 : 4)) {
    case 0: return std::nullopt;
    case 1: {  // gapped
      for (auto& g : gaps) g = rng.below(3);
      return packed_in_order(sizes, order, gaps);
    }
    case 2: {  // permuted, sometimes gapped too
      for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
      if (rng.chance(0.3)) {
        for (auto& g : gaps) g = rng.below(2);
      }
      return packed_in_order(sizes, order, gaps);
    }
    case 3: return packed_in_order(sizes, order, gaps);  // explicit row-major
    case 4: {  // broadcast
      Vec strides = packed_in_order(sizes, order, gaps);
      for (auto& s : strides) {
        if (rng.chance(0.35)) s = 0;
      }
      return strides;
    }
    default: {  // arbitrary: may overlap
      Vec strides(rank);
      for (auto& s : strides) s = rng.below(6);
      return strides;
    }
  }
}

Scalar random_padding_value(Rng& rng, DataType type) {
  if (is_floating(type)) {
    static constexpr double kValues[] = {0.0, -0.0, 1.5, -2.0, 65504.0, 1e-7,
                                         std::numeric_limits<double>::infinity(),
                                         -std::numeric_limits<double>::infinity(),
                                         std::numeric_limits<double>::quiet_NaN(), 3.14159};
    return kValues[rng.below(std::size(kValues))];
  }
  if (is_signed_integer(type)) {
    if (type == DataType::Int64 && rng.chance(0.3)) return int64_t{-(int64_t{1} << 50) - 7};
    return int64_t{rng.between(-100, 100)};
  }
  if (type == DataType::UInt64 && rng.chance(0.3)) return uint64_t{(uint64_t{1} << 63) + 5};
  return static_cast<int64_t>(rng.below(201));
}

Vec random_sizes(Rng& rng, std::size_t rank, bool big) {
  Vec sizes(rank);
  if (!big) {
    for (auto& s : sizes) s = 1 + rng.below(rank > 5 ? 3 : 5);
    return sizes;
  }
  // Big: the last dimensions carry the bulk, about 10^4 to 10^5 elements.
  for (auto& s : sizes) s = 1 + rng.below(3);
  sizes[rank - 1] = 40 + rng.below(560);
  if (rank >= 2) sizes[rank - 2] = 2 + rng.below(60);
  uint64_t total = 1;
  for (auto s : sizes) total *= s;
  while (total > 150000) {
    auto it = std::max_element(sizes.begin(), sizes.end());
    total /= *it;
    *it = (*it + 1) / 2;
    total *= *it;
  }
  return sizes;
}

}  // namespace

OpRequest random_request(Rng& rng, const DrawOptions& options) {
  static constexpr OpKind kKinds[] = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding,
                                      OpKind::MaxPooling2};
  const OpKind kind = options.kind.value_or(kKinds[rng.below(std::size(kKinds))]);
  const DataType type = kAllDataTypes[rng.below(kAllDataTypes.size())];
  OpRequest request;
  request.input.data_type = type;
  const bool big = options.big;

  std::size_t rank = 1 + rng.below(8);
  if (kind == OpKind::MaxPooling2) rank = rng.chance(0.75) ? 4 : 5;
  Vec in = random_sizes(rng, rank, big);
  if (kind == OpKind::MaxPooling2) {
    in[0] = 1 + rng.below(2);
    in[1] = 1 + rng.below(big ? 4 : 3);
    for (std::size_t d = 2; d < rank; ++d) in[d] = 1 + rng.below(big ? (rank == 5 ? 8 : 24) : 7);
    if (big) in[rank - 1] = 30 + rng.below(150);
  }
  request.input.sizes = in;
  request.input.strides = random_strides(rng, in, true);

  switch (kind) {
    case OpKind::Identity: request.params = IdentityRequest{}; break;
    case OpKind::Slice: {
      SliceRequest p;
      for (std::size_t d = 0; d < rank; ++d) {
        const uint64_t offset = rng.below(in[d]);
        const uint64_t stride = 1 + rng.below(3);
        const uint64_t most = (in[d] - offset - 1) / stride + 1;
        p.offsets.push_back(offset);
        p.strides.push_back(stride);
        p.sizes.push_back(1 + rng.below(most));
      }
      if (rng.chance(0.05)) p.sizes[0] += 1;  // sometimes reads past the input: invalid
      request.params = p;
      break;
    }
    case OpKind::Slice1: {
      Slice1Request p;
      for (std::size_t d = 0; d < rank; ++d) {
        const uint64_t offset = rng.below(in[d]);
        p.input_window_offsets.push_back(offset);
        p.input_window_sizes.push_back(1 + rng.below(in[d] - offset));
        const int64_t magnitude = rng.between(1, 3);
        p.input_window_strides.push_back(rng.chance(0.4) ? -magnitude : magnitude);
      }
      request.params = p;
      break;
    }
    case OpKind::Padding: {
      PaddingRequest p;
      p.padding_mode = static_cast<PaddingMode>(rng.below(4));
      p.padding_value = random_padding_value(rng, type);
      // Paddings beyond the input size (folding more than once) on one dimension.
      const std::size_t folded = rng.below(rank);
      for (std::size_t d = 0; d < rank; ++d) {
        const bool far = d == folded && in[d] <= 64 && rng.chance(0.5);
        auto amount = [&] { return far ? rng.below(2 * in[d] + 3) : rng.below(big ? 7 : 3); };
        p.start_padding.push_back(amount());
        p.end_padding.push_back(amount());
      }
      request.params = p;
      break;
    }
    case OpKind::MaxPooling2: {
      MaxPooling2Request p;
      const std::size_t spatial = rank - 2;
      Vec window, strides, start, end, dilations;
      for (std::size_t s = 0; s < spatial; ++s) {
        window.push_back(1 + rng.below(4));
        strides.push_back(1 + rng.below(3));
        dilations.push_back(rng.chance(0.6) ? 1 : 1 + rng.below(3));
        start.push_back(rng.below(window.back() + 1));
        end.push_back(rng.below(window.back() + 1));
      }
      p.window_size = window;
      if (rng.chance(0.8)) p.strides = strides;
      if (rng.chance(0.7)) p.start_padding = start;
      if (rng.chance(0.7)) p.end_padding = end;
      if (rng.chance(0.7)) p.dilations = dilations;
      request.params = p;
      break;
    }
  }

  // Output (and indices) strides need the output sizes.
  auto inferred = infer_output_sizes(request);
  if (inferred && *inferred) {
    Vec out((*inferred)->begin(), (*inferred)->end());
    if (kind == OpKind::Slice1 && rng.chance(0.4)) {
      for (auto& s : out) s = 1 + rng.below(s);  // fewer than the window supplies
      request.output.sizes = out;
    } else if (rng.chance(0.3)) {
      request.output.sizes = out;
    }
    request.output.strides = random_strides(rng, out, false);
    if (kind == OpKind::MaxPooling2 && !rng.chance(0.25)) {
      TensorRequest indices;
      indices.data_type = rng.chance(0.6) ? DataType::UInt32 : DataType::UInt64;
      indices.strides = random_strides(rng, out, false);
      request.output_indices = indices;
    }
  }
  return request;
}

void fill_random(Rng& rng, const TensorDesc& desc, std::span<std::byte> buffer) {
  const std::size_t size = desc.element_size();
  const uint64_t elements = desc.buffer_elements();
  // A few values per type that make ties, NaNs and signed zeros common.
  static constexpr uint64_t kHalf[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x7fff, 0x4000};
  static constexpr uint64_t kFloat[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
                                        0x7fc00000, 0x7f800001, 0xffc00001, 0x7fffffff, 0x40000000};
  static constexpr uint64_t kDouble[] = {0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                                         0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
                                         0x7ff0000000000001, 0xfff8000000000001, 0x4000000000000000};
  const bool small_set = rng.chance(0.6);
  for (uint64_t e = 0; e < elements; ++e) {
    uint64_t bits = rng.next();
    if (small_set && rng.chance(0.8)) {
      switch (desc.data_type()) {
        case DataType::Float16: bits = kHalf[rng.below(std::size(kHalf))]; break;
        case DataType::Float32: bits = kFloat[rng.below(std::size(kFloat))]; break;
        case DataType::Float64: bits = kDouble[rng.below(std::size(kDouble))]; break;
        default: {
          static constexpr int64_t kInts[] = {0, 1, 2, -1, -128, 127, 3};
          bits = rng.chance(0.2) ? (rng.chance(0.5) ? ~uint64_t{0} >> 1 : uint64_t{1} << 63)
                                 : static_cast<uint64_t>(kInts[rng.below(std::size(kInts))]);
          if (rng.chance(0.2)) bits = ~uint64_t{0};  // the largest unsigned value
        }
      }
    }
    std::memcpy(buffer.data() + e * size, &bits, size);  // little-endian: the low bytes
  }
}

namespace {

template <class T>
std::string list(const T& values) {
  std::ostringstream s;
  s << '[';
  bool first = true;
  for (const auto& v : values) {
    if (!first) s << ',';
    first = false;
    s << v;
  }
  s << ']';
  return s.str();
}

std::string tensor(const TensorRequest& t) {
  std::string s = t.sizes ? list(*t.sizes) : "[?]";
  if (t.strides) s += "/" + list(*t.strides);
  return s;
}

}  // namespace

std::string describe(const OpRequest& r) {
  std::ostringstream s;
  s << to_string(r.kind()) << ' ' << (r.input.data_type ? to_string(*r.input.data_type) : "?") << " in"
    << tensor(r.input) << " out" << tensor(r.output);
  if (r.output_indices) {
    s << " indices " << to_string(r.output_indices->data_type.value_or(DataType::UInt32)) << tensor(*r.output_indices);
  }
  if (const auto* slice = std::get_if<SliceRequest>(&r.params)) {
    s << " offsets" << list(slice->offsets) << " sizes" << list(slice->sizes) << " strides" << list(slice->strides);
  } else if (const auto* slice1 = std::get_if<Slice1Request>(&r.params)) {
    s << " windowOffsets" << list(slice1->input_window_offsets) << " windowSizes"
      << list(slice1->input_window_sizes) << " windowStrides" << list(slice1->input_window_strides);
  } else if (const auto* padding = std::get_if<PaddingRequest>(&r.params)) {
    s << ' ' << to_string(padding->padding_mode) << " value " << format_scalar(padding->padding_value) << " start"
      << list(padding->start_padding) << " end" << list(padding->end_padding);
  } else if (const auto* pool = std::get_if<MaxPooling2Request>(&r.params)) {
    s << " window" << list(pool->window_size);
    if (pool->strides) s << " strides" << list(*pool->strides);
    if (pool->start_padding) s << " start" << list(*pool->start_padding);
    if (pool->end_padding) s << " end" << list(*pool->end_padding);
    if (pool->dilations) s << " dilations" << list(*pool->dilations);
  }
  return s.str();
}

}  // namespace stridescope::testing
