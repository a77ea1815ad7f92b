#include "random_specs.h"

#include <set>

#include "core/io/random_request.h"
#include "reference_ops.h"

namespace stridescope::reference {
namespace {

template <class T>
std::string join(std::span<const T> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

}  // namespace

std::string json_array(std::span<const uint64_t> values) { return join(values); }
std::string json_array(std::span<const int64_t> values) { return join(values); }

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

// The DirectML rules (resources/docs/operators.md) for the requests the generators produce
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

// Every op the same way: any layout, overlapping inputs too, a few draws spoiled.
OpRequest draw(Rng& rng, OpKind op, DataType type) {
  random::DrawOptions options;
  options.op = op;
  options.type = type;
  options.spoil = true;
  options.overlapping_inputs = true;
  return random::random_request(rng, options);
}

}  // namespace

OpRequest random_identity(Rng& rng, DataType type) { return draw(rng, OpKind::Identity, type); }
OpRequest random_slice(Rng& rng, DataType type) { return draw(rng, OpKind::Slice, type); }
OpRequest random_slice1(Rng& rng, DataType type) { return draw(rng, OpKind::Slice1, type); }
OpRequest random_padding(Rng& rng, DataType type) { return draw(rng, OpKind::Padding, type); }
OpRequest random_pooling(Rng& rng, DataType type) { return draw(rng, OpKind::MaxPooling2, type); }

}  // namespace stridescope::reference
