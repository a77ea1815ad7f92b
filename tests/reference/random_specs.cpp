#include "random_specs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <set>

#include "core/float16.h"
#include "reference_ops.h"

namespace stridescope::reference {
namespace {

uint64_t product(const U64s& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), uint64_t{1}, std::multiplies<>());
}

template <class T>
std::string join(std::span<const T> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

}  // namespace

std::string json_array(std::span<const uint64_t> values) { return join(values); }
std::string json_array(std::span<const int64_t> values) { return join(values); }


U64s random_sizes(Rng& rng, std::size_t rank, uint64_t max_elements) {
  U64s sizes(rank);
  for (auto& s : sizes) s = rng.chance(0.3) ? 1 : rng.range(1, 4);
  if (rng.chance(0.25)) sizes[rng.below(rank)] = rng.range(5, 9);
  if (rank <= 2 && rng.chance(0.15)) sizes[rng.below(rank)] = rng.range(10, max_elements);  // one long axis
  while (product(sizes) > max_elements) *std::max_element(sizes.begin(), sizes.end()) -= 1;
  return sizes;
}

Layout random_layout(Rng& rng, bool output) {
  const uint64_t r = rng.below(100);
  if (output) {  // a few overlapping/broadcast outputs, which must be refused
    if (r < 30) return Layout::Omitted;
    if (r < 40) return Layout::Packed;
    if (r < 60) return Layout::Gapped;
    if (r < 75) return Layout::Permuted;
    if (r < 95) return Layout::PermutedGapped;
    return r < 97 ? Layout::Broadcast : Layout::Overlapping;
  }
  if (r < 20) return Layout::Omitted;
  if (r < 28) return Layout::Packed;
  if (r < 43) return Layout::Gapped;
  if (r < 55) return Layout::Permuted;
  if (r < 67) return Layout::PermutedGapped;
  if (r < 87) return Layout::Broadcast;
  return Layout::Overlapping;
}

std::optional<U64s> random_strides(Rng& rng, const U64s& sizes, Layout layout) {
  if (layout == Layout::Omitted) return std::nullopt;
  const std::size_t rank = sizes.size();
  if (layout == Layout::Overlapping) {
    U64s strides(rank);
    for (auto& s : strides) s = rng.range(0, 3);
    return strides;
  }
  std::vector<std::size_t> inner_to_outer(rank);
  for (std::size_t d = 0; d < rank; ++d) inner_to_outer[d] = rank - 1 - d;
  const bool permute = layout == Layout::Permuted || layout == Layout::PermutedGapped ||
                       (layout == Layout::Broadcast && rng.chance(0.3));
  if (permute) {
    for (std::size_t i = rank; i > 1; --i) std::swap(inner_to_outer[i - 1], inner_to_outer[rng.below(i)]);
  }
  const bool gaps = layout == Layout::Gapped || layout == Layout::PermutedGapped ||
                    (layout == Layout::Broadcast && rng.chance(0.3));
  U64s strides(rank);
  uint64_t next = gaps ? rng.range(1, 2) : 1;
  for (std::size_t d : inner_to_outer) {
    strides[d] = next;
    next = next * sizes[d] + (gaps ? rng.range(0, 3) : 0);
  }
  if (layout == Layout::Broadcast) {
    bool any = false;
    for (std::size_t d = 0; d < rank; ++d) {
      if (sizes[d] > 1 && rng.chance(0.5)) strides[d] = 0, any = true;
    }
    if (!any) strides[rng.below(rank)] = 0;
  }
  return strides;
}

// One element's bits, biased towards the values that break backends.
uint64_t special_bits(Rng& rng, DataType type) {
  const uint64_t r = rng.below(16);
  const uint64_t sign_bit = rng.chance(0.5) ? 1 : 0;
  switch (type) {
    case DataType::Float16:
      if (r < 6) return double_to_half(static_cast<double>(rng.between(-3, 3)));       // ties
      if (r == 6) return sign_bit << 15;                                               // +-0
      if (r == 7) return sign_bit << 15 | 0x7C00;                                      // +-inf
      if (r == 8) return sign_bit << 15 | 0x7E00 | rng.below(0x200);                   // quiet NaN
      if (r == 9) return sign_bit << 15 | 0x7C00 | rng.range(1, 0x1FF);                // signalling NaN
      if (r == 10) return sign_bit << 15 | rng.range(1, 0x3FF);                        // denormal
      if (r == 11) return sign_bit << 15 | (rng.chance(0.5) ? 0x7BFF : 0x0400);        // max, min normal
      return rng.next() & 0xFFFF;
    case DataType::Float32:
      if (r < 6) {
        const float v = static_cast<float>(rng.between(-3, 3));
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        return bits;
      }
      if (r == 6) return sign_bit << 31;
      if (r == 7) return sign_bit << 31 | 0x7F800000u;
      if (r == 8) return sign_bit << 31 | 0x7FC00000u | rng.below(0x400000);
      if (r == 9) return sign_bit << 31 | 0x7F800000u | rng.range(1, 0x3FFFFF);
      if (r == 10) return sign_bit << 31 | rng.range(1, 0x7FFFFF);
      if (r == 11) return sign_bit << 31 | (rng.chance(0.5) ? 0x7F7FFFFFu : 0x00800000u);
      return rng.next() & 0xFFFFFFFFu;
    case DataType::Float64:
      if (r < 6) {
        const double v = static_cast<double>(rng.between(-3, 3));
        uint64_t bits;
        std::memcpy(&bits, &v, 8);
        return bits;
      }
      if (r == 6) return sign_bit << 63;
      if (r == 7) return sign_bit << 63 | 0x7FF0000000000000ull;
      if (r == 8) return sign_bit << 63 | 0x7FF8000000000000ull | rng.below(uint64_t{1} << 51);
      if (r == 9) return sign_bit << 63 | 0x7FF0000000000000ull | rng.range(1, (uint64_t{1} << 51) - 1);
      if (r == 10) return sign_bit << 63 | rng.range(1, (uint64_t{1} << 52) - 1);
      if (r == 11) return sign_bit << 63 | (rng.chance(0.5) ? 0x7FEFFFFFFFFFFFFFull : 0x0010000000000000ull);
      return rng.next();
    default:
      break;
  }
  // Integers, as two's complement of the type's width (truncated by the writer).
  const bool is_signed = is_signed_integer(type);
  const unsigned bits = static_cast<unsigned>(element_size(type) * 8);
  if (r < 7) return static_cast<uint64_t>(is_signed ? rng.between(-3, 3) : rng.between(0, 6));  // ties
  if (r == 7) return is_signed ? uint64_t{1} << (bits - 1) : 0;                              // min
  if (r == 8) return is_signed ? (uint64_t{1} << (bits - 1)) - 1 : ~uint64_t{0};             // max
  if (r == 9) return ~uint64_t{0};                                                            // -1 / max
  if (bits == 64 && r < 14) {
    // Neighbours above 2^53 that a double cannot tell apart.
    const uint64_t base = rng.chance(0.5) ? uint64_t{1} << 53 : uint64_t{1} << 60;
    const uint64_t v = base + rng.below(4);
    return is_signed && rng.chance(0.3) ? 0 - v : v;
  }
  return rng.next();
}

void fill_special(Rng& rng, DataType type, std::span<std::byte> buffer) {
  const std::size_t size = element_size(type);
  const std::size_t elements = buffer.size() / size;
  for (std::size_t e = 0; e < elements; ++e) {
    const uint64_t bits = special_bits(rng, type);
    for (std::size_t b = 0; b < size; ++b) buffer[e * size + b] = std::byte((bits >> (8 * b)) & 0xFF);
  }
}

// A pattern unlike any value an op writes in one piece.
void fill_sentinel(std::span<std::byte> buffer, uint8_t seed) {
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = std::byte(static_cast<uint8_t>(seed + i * 37 + 0x5B));
}


namespace {

std::string json_tensor(const TensorRequest& t) {
  std::string text = "{";
  std::string sep;
  if (t.data_type) text += "\"dataType\": \"" + std::string(to_string(*t.data_type)) + "\"", sep = ", ";
  if (t.sizes) text += sep + "\"sizes\": " + json_array(*t.sizes), sep = ", ";
  if (t.strides) text += sep + "\"strides\": " + json_array(*t.strides);
  return text + "}";
}

std::string json_params(const OpRequest& r) {
  switch (r.kind()) {
    case OpKind::Identity: return "{}";
    case OpKind::Slice: {
      const auto& p = std::get<SliceRequest>(r.params);
      return "{\"offsets\": " + json_array(p.offsets) + ", \"sizes\": " + json_array(p.sizes) +
             ", \"strides\": " + json_array(p.strides) + "}";
    }
    case OpKind::Slice1: {
      const auto& p = std::get<Slice1Request>(r.params);
      return "{\"inputWindowOffsets\": " + json_array(p.input_window_offsets) +
             ", \"inputWindowSizes\": " + json_array(p.input_window_sizes) +
             ", \"inputWindowStrides\": " + json_array(p.input_window_strides) + "}";
    }
    case OpKind::Padding: {
      const auto& p = std::get<PaddingRequest>(r.params);
      return "{\"paddingMode\": \"" + std::string(to_string(p.padding_mode)) +
             "\", \"paddingValue\": " + format_scalar(p.padding_value) +
             ", \"startPadding\": " + json_array(p.start_padding) + ", \"endPadding\": " + json_array(p.end_padding) +
             "}";
    }
    case OpKind::MaxPooling2: {
      const auto& p = std::get<MaxPooling2Request>(r.params);
      std::string text = "{\"windowSize\": " + json_array(p.window_size);
      if (p.strides) text += ", \"strides\": " + json_array(*p.strides);
      if (p.start_padding) text += ", \"startPadding\": " + json_array(*p.start_padding);
      if (p.end_padding) text += ", \"endPadding\": " + json_array(*p.end_padding);
      if (p.dilations) text += ", \"dilations\": " + json_array(*p.dilations);
      return text + "}";
    }
  }
  return "{}";
}

}  // namespace

std::string json_spec(const OpRequest& r) {
  std::string text = "{\"op\": \"" + std::string(to_string(r.kind())) + "\", \"input\": " + json_tensor(r.input) +
                     ", \"output\": " + json_tensor(r.output);
  if (r.output_indices) text += ", \"outputIndices\": " + json_tensor(*r.output_indices);
  return text + ", \"params\": " + json_params(r) + "}";
}


// Distinct offsets by enumeration: false when two coordinates share one.
bool unique_offsets(const U64s& sizes, const U64s& strides) {
  std::set<uint64_t> seen;
  std::vector<uint64_t> coord(sizes.size(), 0);
  while (true) {
    uint64_t offset = 0;
    for (std::size_t d = 0; d < sizes.size(); ++d) offset += coord[d] * strides[d];
    if (!seen.insert(offset).second) return false;
    std::size_t d = sizes.size();
    for (; d-- > 0;) {
      if (++coord[d] < sizes[d]) break;
      coord[d] = 0;
    }
    if (d == static_cast<std::size_t>(-1)) return true;
  }
}

U64s packed_strides(const U64s& sizes) {
  U64s strides(sizes.size());
  uint64_t next = 1;
  for (std::size_t d = sizes.size(); d-- > 0;) strides[d] = next, next *= sizes[d];
  return strides;
}

namespace {

Validity refuse(std::string why) { return Validity{false, std::move(why), {}}; }

}  // namespace

// The DirectML rules (resources/docs/operators.md) for the requests the generators below produce
// (tensor sizes and strides always present and in range, buffers small).
Validity expected_validity(const OpRequest& r) {
  const U64s& in = *r.input.sizes;
  const std::size_t rank = in.size();
  const DataType type = *r.input.data_type;
  if (r.output.data_type && *r.output.data_type != type) return refuse("output type differs from input type");
  if (r.output_indices && r.kind() != OpKind::MaxPooling2) return refuse("indices for an op without indices");

  Validity result;
  U64s& out = result.output_sizes;
  switch (r.kind()) {
    case OpKind::Identity:
      out = in;
      break;
    case OpKind::Slice: {
      const auto& p = std::get<SliceRequest>(r.params);
      if (p.offsets.size() != rank || p.sizes.size() != rank || p.strides.size() != rank) return refuse("lengths");
      for (std::size_t d = 0; d < rank; ++d) {
        if (p.strides[d] < 1) return refuse("slice stride 0");
        if (p.sizes[d] < 1) return refuse("slice size 0");
        if (p.offsets[d] + p.strides[d] * (p.sizes[d] - 1) >= in[d]) return refuse("slice reads outside");
      }
      out = p.sizes;
      break;
    }
    case OpKind::Slice1: {
      const auto& p = std::get<Slice1Request>(r.params);
      if (p.input_window_offsets.size() != rank || p.input_window_sizes.size() != rank ||
          p.input_window_strides.size() != rank) {
        return refuse("lengths");
      }
      if (!r.output.sizes) return refuse("slice1 needs output sizes");
      if (r.output.sizes->size() != rank) return refuse("output rank");
      for (std::size_t d = 0; d < rank; ++d) {
        const int64_t stride = p.input_window_strides[d];
        if (stride == 0) return refuse("slice1 stride 0");
        if (p.input_window_sizes[d] < 1) return refuse("empty window");
        if (p.input_window_offsets[d] + p.input_window_sizes[d] > in[d]) return refuse("window outside input");
        const uint64_t magnitude = static_cast<uint64_t>(stride < 0 ? -stride : stride);
        const uint64_t reachable = 1 + (p.input_window_sizes[d] - 1) / magnitude;
        const uint64_t size = (*r.output.sizes)[d];
        if (size < 1 || size > reachable) return refuse("output size beyond MaxCopiedElements");
      }
      out = *r.output.sizes;
      break;
    }
    case OpKind::Padding: {
      const auto& p = std::get<PaddingRequest>(r.params);
      if (p.start_padding.size() != rank || p.end_padding.size() != rank) return refuse("lengths");
      for (std::size_t d = 0; d < rank; ++d) out.push_back(in[d] + p.start_padding[d] + p.end_padding[d]);
      if (p.padding_mode == PaddingMode::Constant && !reference::padding_value_bits(p.padding_value, type)) {
        return refuse("paddingValue outside the type");
      }
      break;
    }
    case OpKind::MaxPooling2: {
      const auto& p = std::get<MaxPooling2Request>(r.params);
      if (rank != 4 && rank != 5) return refuse("pooling rank");
      const std::size_t spatial = rank - 2;
      const U64s ones(spatial, 1), zeros(spatial, 0);
      const U64s& window = p.window_size;
      const U64s& strides = p.strides.value_or(ones);
      const U64s& start = p.start_padding.value_or(zeros);
      const U64s& end = p.end_padding.value_or(zeros);
      const U64s& dilations = p.dilations.value_or(ones);
      for (const U64s* v : {&window, &strides, &start, &end, &dilations}) {
        if (v->size() != spatial) return refuse("lengths");
      }
      out = {in[0], in[1]};
      for (std::size_t s = 0; s < spatial; ++s) {
        if (window[s] < 1 || strides[s] < 1 || dilations[s] < 1) return refuse("window/stride/dilation 0");
        const uint64_t span = (window[s] - 1) * dilations[s] + 1;
        const uint64_t padded = in[s + 2] + start[s] + end[s];
        if (span > padded) return refuse("window larger than the padded input");
        const uint64_t size = (padded - span) / strides[s] + 1;
        for (uint64_t o = 0; o < size; ++o) {
          bool touches_input = false;
          for (uint64_t k = 0; k < window[s]; ++k) {
            const uint64_t reach = o * strides[s] + k * dilations[s];
            touches_input = touches_input || (reach >= start[s] && reach - start[s] < in[s + 2]);
          }
          if (!touches_input) return refuse("a window lies wholly in padding");
        }
        out.push_back(size);
      }
      if (r.output_indices) {
        const TensorRequest& idx = *r.output_indices;
        if (idx.data_type != DataType::UInt32 && idx.data_type != DataType::UInt64) return refuse("indices type");
        if (idx.sizes && *idx.sizes != out) return refuse("indices sizes");
        if (idx.strides && (idx.strides->size() != rank || !unique_offsets(out, *idx.strides))) {
          return refuse("indices strides overlap");
        }
      }
      // DirectML's max_pooling2 table lists no FLOAT64; spec-format.md allows
      // every data type for every op, and so does StrideScope.
      break;
    }
  }
  if (r.output.sizes && *r.output.sizes != out) return refuse("output sizes differ from the op's");
  if (r.output.strides && (r.output.strides->size() != rank || !unique_offsets(out, *r.output.strides))) {
    return refuse("output strides overlap");
  }
  return result;
}


namespace {

TensorRequest random_input(Rng& rng, DataType type, const U64s& sizes) {
  return TensorRequest{type, sizes, random_strides(rng, sizes, random_layout(rng, false))};
}

// Output sizes given (sometimes) and strides (random layouts, a few invalid).
void random_output(Rng& rng, OpRequest& r, const U64s& out_sizes, bool sizes_required) {
  const Layout layout = random_layout(rng, true);
  if (sizes_required || layout != Layout::Omitted || rng.chance(0.5)) r.output.sizes = out_sizes;
  if (r.output.sizes) r.output.strides = random_strides(rng, out_sizes, layout);
  if (rng.chance(0.5)) r.output.data_type = r.input.data_type;
}

// A handful of draws are spoiled on purpose so the validator is exercised.
void maybe_spoil_common(Rng& rng, OpRequest& r) {
  if (!rng.chance(0.06)) return;
  switch (rng.below(3)) {
    case 0: {
      const DataType other = kAllDataTypes[rng.below(kAllDataTypes.size())];
      r.output.data_type = other;  // invalid unless it happens to match
      break;
    }
    case 1:
      if (r.output.sizes && !r.output.sizes->empty()) (*r.output.sizes)[rng.below(r.output.sizes->size())] += 1;
      break;
    default:
      if (r.kind() != OpKind::MaxPooling2) r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
      break;
  }
}

}  // namespace

OpRequest random_identity(Rng& rng, DataType type) {
  const U64s in = random_sizes(rng, rng.range(1, 8), 64);
  OpRequest r{random_input(rng, type, in), TensorRequest{}, std::nullopt, IdentityRequest{}};
  random_output(rng, r, in, false);
  maybe_spoil_common(rng, r);
  return r;
}

OpRequest random_slice(Rng& rng, DataType type) {
  const U64s in = random_sizes(rng, rng.range(1, 8), 96);
  SliceRequest p;
  for (uint64_t n : in) {
    const uint64_t stride = rng.range(1, 3);
    const uint64_t size = 1 + rng.below(1 + (n - 1) / stride);
    p.strides.push_back(stride);
    p.sizes.push_back(size);
    p.offsets.push_back(rng.below(n - stride * (size - 1)));
  }
  if (rng.chance(0.08)) {
    const std::size_t d = rng.below(in.size());
    switch (rng.below(3)) {
      case 0: p.offsets[d] += 1; break;   // may read past the end
      case 1: p.strides[d] = 0; break;
      default: p.sizes[d] += 1; break;
    }
  }
  OpRequest r{random_input(rng, type, in), TensorRequest{}, std::nullopt, p};
  random_output(rng, r, p.sizes, false);
  maybe_spoil_common(rng, r);
  return r;
}

OpRequest random_slice1(Rng& rng, DataType type) {
  const U64s in = random_sizes(rng, rng.range(1, 8), 96);
  Slice1Request p;
  U64s out;
  for (uint64_t n : in) {
    const uint64_t size = rng.range(1, n);
    const uint64_t offset = rng.below(n - size + 1);
    int64_t stride = static_cast<int64_t>(rng.chance(0.1) ? rng.range(4, 9) : rng.range(1, 3));
    if (rng.chance(0.5)) stride = -stride;
    const uint64_t reachable = 1 + (size - 1) / static_cast<uint64_t>(stride < 0 ? -stride : stride);
    p.input_window_offsets.push_back(offset);
    p.input_window_sizes.push_back(size);
    p.input_window_strides.push_back(stride);
    out.push_back(rng.chance(0.7) ? reachable : rng.range(1, reachable));
  }
  if (rng.chance(0.08)) {
    const std::size_t d = rng.below(in.size());
    switch (rng.below(4)) {
      case 0: p.input_window_strides[d] = 0; break;
      case 1: p.input_window_offsets[d] += 1; break;  // may leave the input
      case 2: out[d] += 1; break;                     // may pass MaxCopiedElements
      default: p.input_window_sizes[d] = 0; break;
    }
  }
  OpRequest r{random_input(rng, type, in), TensorRequest{}, std::nullopt, p};
  random_output(rng, r, out, true);
  maybe_spoil_common(rng, r);
  return r;
}

namespace {

Scalar random_padding_value(Rng& rng, DataType type, bool allow_out_of_range) {
  const uint64_t r = rng.below(10);
  if (is_floating(type)) {
    // Finite values stay inside the type's range: whether overflow to
    // infinity is refused or rounded is not what these tests pin down.
    const bool half = type == DataType::Float16;
    const double limit = half ? 60000.0 : 1e30;
    switch (r) {
      case 0: return half ? Scalar{int64_t{65504}} : Scalar{int64_t{(int64_t{1} << 53) + 1}};
      case 1: return half ? Scalar{-65504.0} : Scalar{std::numeric_limits<uint64_t>::max()};
      case 2: return -0.0;
      case 3: return rng.chance(0.5) ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
      case 4: return 0.1;
      case 5: return std::ldexp(static_cast<double>(rng.range(1, 1000)), -30);  // FLOAT16 denormals
      case 6: return std::numeric_limits<double>::quiet_NaN();
      case 7: return type == DataType::Float64 ? 5e-324 : 1e-40;  // FLOAT64 / FLOAT32 denormals
      default: return (static_cast<double>(rng.next() >> 11) * 0x1p-53 * 2 - 1) * (rng.chance(0.5) ? 10.0 : limit);
    }
  }
  const bool is_signed = is_signed_integer(type);
  const unsigned bits = static_cast<unsigned>(element_size(type) * 8);
  const uint64_t max = is_signed ? (uint64_t{1} << (bits - 1)) - 1 : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  if (allow_out_of_range && r == 0) {
    // One past either end of the type (exact as doubles: powers of two).
    const double high = is_signed ? std::ldexp(1.0, static_cast<int>(bits) - 1) : std::ldexp(1.0, static_cast<int>(bits));
    const double low = is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) * 1.5 : -1.0;
    return rng.chance(0.5) ? high : low;
  }
  switch (r) {
    case 1: return 10.6;
    case 2: return is_signed ? Scalar{-10.6} : Scalar{0.9};
    case 3: return is_signed ? Scalar{-static_cast<int64_t>(max) - 1} : Scalar{uint64_t{0}};
    case 4: return max;  // uint64_t: the type's maximum exactly
    case 5: return bits == 64 ? Scalar{int64_t{(int64_t{1} << 53) + 1}} : Scalar{int64_t{7}};
    case 6:  // truncates to max - 1; 64-bit types take it as an exact integer instead
      return bits == 64 ? Scalar{max - 1} : Scalar{static_cast<double>(max) - 0.5};
    default: return int64_t{rng.between(0, 100)};
  }
}

}  // namespace

OpRequest random_padding(Rng& rng, DataType type) {
  const U64s in = random_sizes(rng, rng.range(1, 8), 48);
  PaddingRequest p;
  p.padding_mode = static_cast<PaddingMode>(rng.below(4));
  for (uint64_t n : in) {
    // Mostly small; sometimes beyond the input size, folding several times.
    const uint64_t reach = rng.chance(0.3) ? 3 * n + 2 : n + 1;
    p.start_padding.push_back(rng.chance(0.3) ? 0 : rng.range(0, reach));
    p.end_padding.push_back(rng.chance(0.3) ? 0 : rng.range(0, reach));
  }
  // Keep the output small: drop paddings until it is.
  auto out_count = [&] {
    uint64_t count = 1;
    for (std::size_t d = 0; d < in.size(); ++d) count *= in[d] + p.start_padding[d] + p.end_padding[d];
    return count;
  };
  while (out_count() > 768) {
    const std::size_t d = rng.below(in.size());
    p.start_padding[d] /= 2;
    p.end_padding[d] /= 2;
  }
  p.padding_value = random_padding_value(rng, type, p.padding_mode == PaddingMode::Constant);
  U64s out;
  for (std::size_t d = 0; d < in.size(); ++d) out.push_back(in[d] + p.start_padding[d] + p.end_padding[d]);
  if (rng.chance(0.04)) p.start_padding.pop_back();
  OpRequest r{random_input(rng, type, in), TensorRequest{}, std::nullopt, p};
  random_output(rng, r, out, false);
  maybe_spoil_common(rng, r);
  return r;
}

OpRequest random_pooling(Rng& rng, DataType type) {
  const std::size_t rank = rng.chance(0.6) ? 4 : 5;
  const std::size_t spatial = rank - 2;
  U64s in{rng.range(1, 2), rng.range(1, 3)};
  for (std::size_t s = 0; s < spatial; ++s) in.push_back(rng.range(1, rank == 4 ? 7 : 4));
  MaxPooling2Request p;
  U64s strides, start, end, dilations;
  for (std::size_t s = 0; s < spatial; ++s) {
    // Windows mostly fit the input; now and then one may not.
    const uint64_t n = in[s + 2];
    p.window_size.push_back(rng.chance(0.05) ? rng.range(1, n + 2) : rng.range(1, std::min<uint64_t>(3, n)));
    strides.push_back(rng.range(1, 3));
    uint64_t dilation = rng.chance(0.7) ? 1 : rng.range(2, 3);
    if ((p.window_size.back() - 1) * dilation + 1 > n && rng.chance(0.9)) dilation = 1;
    dilations.push_back(dilation);
    // Paddings mostly below the window's span (so windows reach the input);
    // now and then wider, which the validator must refuse or accept by rule.
    const uint64_t span = (p.window_size.back() - 1) * dilations.back() + 1;
    const uint64_t reach = rng.chance(0.1) ? span + 1 : span - 1;
    start.push_back(rng.chance(0.4) ? 0 : rng.range(0, reach));
    end.push_back(rng.chance(0.4) ? 0 : rng.range(0, reach));
  }
  if (rng.chance(0.8)) p.strides = strides;
  if (rng.chance(0.7)) p.start_padding = start;
  if (rng.chance(0.7)) p.end_padding = end;
  if (rng.chance(0.7)) p.dilations = dilations;
  if (rng.chance(0.03)) p.window_size[rng.below(spatial)] = 0;

  OpRequest r{random_input(rng, type, in), TensorRequest{}, std::nullopt, p};
  // The output sizes as the validator must infer them (when it accepts).
  OpRequest probe = r;
  const Validity v = expected_validity(probe);
  const U64s out = v.valid ? v.output_sizes : U64s(rank, 1);
  random_output(rng, r, out, false);
  const uint64_t which = rng.below(100);
  if (which < 70) {
    TensorRequest idx{which < 35 ? DataType::UInt32 : DataType::UInt64, std::nullopt, std::nullopt};
    if (which == 3) idx.data_type = DataType::Int32;  // invalid
    if (rng.chance(0.5)) idx.sizes = out;
    if (idx.sizes) idx.strides = random_strides(rng, out, random_layout(rng, true));
    r.output_indices = idx;
  }
  maybe_spoil_common(rng, r);
  return r;
}

}  // namespace stridescope::reference
