#include "random_ops.h"

#include <algorithm>
#include <sstream>

#include "core/io/random_request.h"
#include "core/io/random_values.h"

namespace stridescope::testing {

// Small draws a little larger than the shared specs' (a thousand elements
// at most, paddings to a few thousand), so blocked and vector loops run
// more than one block.
constexpr uint64_t kSmallMaxElements = 1024;
constexpr uint64_t kSmallMaxPadded = 8192;
// Big paddings stay well below kMaxBigOutput, so none is skipped and none
// costs the reference more than the largest gathers do.
constexpr uint64_t kBigMaxPadded = 60000;

OpRequest random_request(Rng& rng, const DrawOptions& options) {
  random::DrawOptions draw;
  draw.op = options.kind;
  draw.size_class = options.big ? random::SizeClass::Big : random::SizeClass::Small;
  draw.max_elements = options.big ? 0 : kSmallMaxElements;
  draw.max_output_elements = options.big ? kBigMaxPadded : kSmallMaxPadded;
  draw.overlapping_inputs = true;
  return random::random_request(rng, draw);
}

void fill_random(Rng& rng, const TensorDesc& desc, std::span<std::byte> buffer) {
  const std::size_t bytes = desc.buffer_elements() * desc.element_size();  // not the rounding to 4 bytes
  random::fill_special(rng, desc.data_type(), buffer.first(std::min(buffer.size(), bytes)));
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
