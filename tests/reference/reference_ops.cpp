#include "reference_ops.h"

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "core/float16.h"

namespace stridescope::reference {
namespace {

using Index = std::vector<uint64_t>;

Index to_index(std::span<const uint64_t> values) { return Index(values.begin(), values.end()); }

// Row-major odometer: advances `coord` within `sizes`; false after the last.
bool advance(Index& coord, const Index& sizes) {
  for (std::size_t d = sizes.size(); d-- > 0;) {
    if (++coord[d] < sizes[d]) return true;
    coord[d] = 0;
  }
  return false;
}

// The smallest buffer holding every element: DMLCalcBufferTensorSize,
// (offset of the last element + 1) * element size rounded up to 4 bytes.
uint64_t needed_bytes(const TensorDesc& desc) {
  uint64_t last = 0;
  for (std::size_t d = 0; d < desc.rank(); ++d) last += (desc.sizes()[d] - 1) * desc.strides()[d];
  const uint64_t bytes = (last + 1) * element_size(desc.data_type());
  return (bytes + 3) / 4 * 4;
}

Error failure(std::string message) {
  return Error{ErrorCode::BackendFailure, "", "reference: " + std::move(message)};
}

// A tensor seen through its sizes and strides.
struct View {
  Index sizes, strides;
  std::size_t element_bytes;

  explicit View(const TensorDesc& desc)
      : sizes(to_index(desc.sizes())), strides(to_index(desc.strides())),
        element_bytes(element_size(desc.data_type())) {}

  uint64_t byte_offset(const Index& coord) const { return element_offset(coord, strides) * element_bytes; }
};

// --- values, for max_pooling2's comparisons ---

double load_floating(DataType type, const std::byte* p) {
  switch (type) {
    case DataType::Float16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return half_to_double(bits);
    }
    case DataType::Float32: {
      float value;
      std::memcpy(&value, p, 4);
      return value;
    }
    default: {
      double value;
      std::memcpy(&value, p, 8);
      return value;
    }
  }
}

int64_t load_signed(DataType type, const std::byte* p) {
  switch (type) {
    case DataType::Int8: { int8_t v; std::memcpy(&v, p, 1); return v; }
    case DataType::Int16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DataType::Int32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

uint64_t load_unsigned(DataType type, const std::byte* p) {
  switch (type) {
    case DataType::UInt8: { uint8_t v; std::memcpy(&v, p, 1); return v; }
    case DataType::UInt16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case DataType::UInt32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

// Does the element at `candidate` replace the best so far? Only a strictly
// greater value does (the first maximum wins ties, -0 and +0 tie), a NaN
// beats every number and nothing beats a NaN (the first NaN wins).
bool beats(DataType type, const std::byte* candidate, const std::byte* best) {
  if (type == DataType::Float16 || type == DataType::Float32 || type == DataType::Float64) {
    const double a = load_floating(type, candidate);
    const double b = load_floating(type, best);
    if (std::isnan(b)) return false;
    if (std::isnan(a)) return true;
    return a > b;
  }
  if (type == DataType::Int8 || type == DataType::Int16 || type == DataType::Int32 ||
      type == DataType::Int64) {
    return load_signed(type, candidate) > load_signed(type, best);
  }
  return load_unsigned(type, candidate) > load_unsigned(type, best);
}

// --- the gather operators ---

Status run_gather(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output) {
  const View in_view(op.input());
  const View out_view(op.output());
  const std::size_t bytes = out_view.element_bytes;

  std::vector<std::byte> padding_value(bytes);
  if (op.kind() == OpKind::Padding) {
    const auto& p = op.params_as<PaddingParams>();
    if (p.mode == PaddingMode::Constant) {
      const std::optional<uint64_t> bits = padding_value_bits(p.value, op.output().data_type());
      if (!bits) return failure("paddingValue does not fit the output type");
      for (std::size_t b = 0; b < bytes; ++b) padding_value[b] = std::byte((*bits >> (8 * b)) & 0xFF);
    }
  }

  Index o(out_view.sizes.size(), 0);
  Index source(o.size());
  do {
    bool constant = false;
    for (std::size_t d = 0; d < o.size() && !constant; ++d) {
      const std::optional<int64_t> index = source_index(op, d, o[d]);
      if (!index) {
        constant = true;
      } else if (*index < 0 || static_cast<uint64_t>(*index) >= in_view.sizes[d]) {
        return failure("output index " + std::to_string(o[d]) + " of dimension " + std::to_string(d) +
                       " reads input index " + std::to_string(*index));
      } else {
        source[d] = static_cast<uint64_t>(*index);
      }
    }
    const uint64_t out_at = out_view.byte_offset(o);
    if (out_at + bytes > output.size()) return failure("write outside the output buffer");
    if (constant) {
      std::memcpy(output.data() + out_at, padding_value.data(), bytes);
      continue;
    }
    const uint64_t in_at = in_view.byte_offset(source);
    if (in_at + bytes > input.size()) return failure("read outside the input buffer");
    std::memcpy(output.data() + out_at, input.data() + in_at, bytes);
  } while (advance(o, out_view.sizes));
  return {};
}

// --- max_pooling2 ---

struct Winner {
  Index coord;       // in the logical input
  uint64_t byte_at;  // its bytes in the input buffer
};

// The first maximum over the window taps that lie inside the input.
Expected<Winner> find_winner(const Operation& op, std::span<const std::byte> input, const Index& o) {
  const View in_view(op.input());
  const DataType type = op.input().data_type();
  std::optional<Winner> best;
  Index in(o.size());
  for (const WindowTap& tap : pooling_window(op, o)) {
    if (tap.padded) continue;  // padding never wins
    for (std::size_t d = 0; d < in.size(); ++d) in[d] = static_cast<uint64_t>(tap.coord[d]);
    const uint64_t at = in_view.byte_offset(in);
    if (at + in_view.element_bytes > input.size()) return failure("read outside the input buffer");
    if (!best || beats(type, input.data() + at, input.data() + best->byte_at)) best = Winner{in, at};
  }
  if (!best) return failure("a window lies wholly in padding");
  return *best;
}

Status run_pooling(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                   std::span<std::byte> indices) {
  const View in_view(op.input());
  const View out_view(op.output());
  const std::size_t bytes = out_view.element_bytes;
  std::optional<View> indices_view;
  if (op.output_indices()) indices_view.emplace(*op.output_indices());

  Index o(out_view.sizes.size(), 0);
  do {
    auto winner = find_winner(op, input, o);
    if (!winner) return winner.error();
    const auto& [best, best_at] = *winner;

    const uint64_t out_at = out_view.byte_offset(o);
    if (out_at + bytes > output.size()) return failure("write outside the output buffer");
    std::memcpy(output.data() + out_at, input.data() + best_at, bytes);

    if (indices_view) {
      const uint64_t flat = row_major_position(best, in_view.sizes);
      const uint64_t idx_at = indices_view->byte_offset(o);
      if (idx_at + indices_view->element_bytes > indices.size()) {
        return failure("write outside the indices buffer");
      }
      if (indices_view->element_bytes == 4) {
        if (flat > std::numeric_limits<uint32_t>::max()) return failure("index does not fit UINT32");
        const auto narrow = static_cast<uint32_t>(flat);
        std::memcpy(indices.data() + idx_at, &narrow, 4);
      } else {
        std::memcpy(indices.data() + idx_at, &flat, 8);
      }
    }
  } while (advance(o, out_view.sizes));
  return {};
}

// Rounds a double to float, nearest-even, with IEEE overflow to infinity
// (a plain cast of an out-of-range double is undefined behaviour in C++).
float round_to_float(double value) {
  if (std::isnan(value)) return static_cast<float>(value);
  const double halfway_past_max = 0x1.ffffffp127;  // between FLT_MAX and 2^128
  if (std::fabs(value) >= halfway_past_max) {
    const float infinity = std::numeric_limits<float>::infinity();
    return value < 0 ? -infinity : infinity;
  }
  if (std::fabs(value) > FLT_MAX) return value < 0 ? -FLT_MAX : FLT_MAX;
  return static_cast<float>(value);
}

template <class F>
uint64_t bits_of(F value) {
  if constexpr (sizeof(F) == 4) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
  } else {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return bits;
  }
}

}  // namespace

std::optional<int64_t> source_index(const Operation& op, std::size_t dim, uint64_t out) {
  const auto o = static_cast<int64_t>(out);
  switch (op.kind()) {
    case OpKind::Identity:
      return o;
    case OpKind::Slice: {
      const auto& p = op.params_as<SliceParams>();  // Offsets + Strides * o
      return static_cast<int64_t>(p.offsets[dim]) + static_cast<int64_t>(p.strides[dim]) * o;
    }
    case OpKind::Slice1: {
      // CopyStart at the window end where the stride is negative.
      const auto& p = op.params_as<Slice1Params>();
      const int64_t stride = p.window_strides[dim];
      int64_t start = static_cast<int64_t>(p.window_offsets[dim]);
      if (stride < 0) start += static_cast<int64_t>(p.window_sizes[dim]) - 1;
      return start + stride * o;
    }
    case OpKind::Padding: {
      const auto& p = op.params_as<PaddingParams>();
      const std::optional<uint64_t> folded =
          fold_by_walking(p.mode, o - static_cast<int64_t>(p.start_padding[dim]), op.input().sizes()[dim]);
      if (!folded) return std::nullopt;
      return static_cast<int64_t>(*folded);
    }
    case OpKind::MaxPooling2:
      break;
  }
  return std::nullopt;
}

std::vector<WindowTap> pooling_window(const Operation& op, std::span<const uint64_t> out) {
  const auto& p = op.params_as<MaxPooling2Params>();
  const std::size_t spatial = p.window_size.size();
  const Index window = to_index(p.window_size);
  std::vector<WindowTap> taps;
  Index k(spatial, 0);
  do {
    WindowTap tap;
    tap.coord = {static_cast<int64_t>(out[0]), static_cast<int64_t>(out[1])};  // batch, channel
    for (std::size_t s = 0; s < spatial; ++s) {
      // o * Stride - Start + k * Dilation
      const int64_t index = static_cast<int64_t>(out[s + 2] * p.strides[s] + k[s] * p.dilations[s]) -
                            static_cast<int64_t>(p.start_padding[s]);
      tap.coord.push_back(index);
      tap.padded = tap.padded || index < 0 || static_cast<uint64_t>(index) >= op.input().sizes()[s + 2];
    }
    taps.push_back(std::move(tap));
  } while (advance(k, window));
  return taps;
}

Expected<uint64_t> pooling_winner(const Operation& op, std::span<const std::byte> input,
                                  std::span<const uint64_t> out) {
  auto winner = find_winner(op, input, to_index(out));
  if (!winner) return winner.error();
  return row_major_position(winner->coord, op.input().sizes());
}

std::optional<uint64_t> fold_by_walking(PaddingMode mode, int64_t i, uint64_t n) {
  const auto size = static_cast<int64_t>(n);
  if (i >= 0 && i < size) return static_cast<uint64_t>(i);
  switch (mode) {
    case PaddingMode::Constant:
      return std::nullopt;
    case PaddingMode::Edge:
      return i < 0 ? 0 : n - 1;
    case PaddingMode::Reflection:
      // The mirror stands on the edge element: index -1 sees 1, index n sees n-2.
      if (n == 1) return 0;
      while (i < 0 || i >= size) i = i < 0 ? -i : 2 * (size - 1) - i;
      return static_cast<uint64_t>(i);
    case PaddingMode::Symmetric:
      // The mirror stands between the edge and the padding: -1 sees 0, n sees n-1.
      while (i < 0 || i >= size) i = i < 0 ? -1 - i : 2 * size - 1 - i;
      return static_cast<uint64_t>(i);
  }
  return std::nullopt;
}

// Integers and doubles (what padding_value_bits leaves after reading a Decimal).
double as_double(const Scalar& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<uint64_t>(&value)) return static_cast<double>(*u);
  return std::get<double>(value);
}

std::optional<uint64_t> padding_value_bits(const Scalar& given, DataType type) {
  // The random specs make integers and doubles only; a Decimal is read here
  // through the C library in long double, which is exact for them.
  Scalar value = given;
  if (const auto* decimal = std::get_if<Decimal>(&given)) {
    const long double wide = std::strtold(decimal->text.c_str(), nullptr);
    if (type == DataType::Float32) return bits_of(std::strtof(decimal->text.c_str(), nullptr));
    if (is_floating(type)) {
      value = static_cast<double>(wide);
    } else if (std::fabs(std::truncl(wide)) < 0x1p63L) {
      value = static_cast<int64_t>(std::truncl(wide));
    } else {
      return std::nullopt;
    }
  }
  switch (type) {
    case DataType::Float64:
      return bits_of(as_double(value));
    case DataType::Float32:
      if (const auto* d = std::get_if<double>(&value)) return bits_of(round_to_float(*d));
      if (const auto* i = std::get_if<int64_t>(&value)) return bits_of(static_cast<float>(*i));  // one rounding
      return bits_of(static_cast<float>(std::get<uint64_t>(value)));
    case DataType::Float16:
      // An integer beyond 2^53 reaches double with a rounding, but anything
      // that large is far past 65504 and becomes infinity either way.
      return uint64_t{double_to_half(as_double(value))};
    default:
      break;
  }

  // Integers: truncate toward zero to sign and magnitude, then range-check.
  bool negative = false;
  uint64_t magnitude = 0;
  if (const auto* i = std::get_if<int64_t>(&value)) {
    negative = *i < 0;
    magnitude = negative ? 0 - static_cast<uint64_t>(*i) : static_cast<uint64_t>(*i);
  } else if (const auto* u = std::get_if<uint64_t>(&value)) {
    magnitude = *u;
  } else {
    const double d = std::get<double>(value);
    if (!std::isfinite(d)) return std::nullopt;
    const double t = std::trunc(d);
    negative = t < 0;
    const double abs_t = std::fabs(t);
    if (abs_t >= 0x1p64) return std::nullopt;
    magnitude = static_cast<uint64_t>(abs_t);
  }
  const unsigned bits = static_cast<unsigned>(element_size(type) * 8);
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const bool is_signed = type == DataType::Int8 || type == DataType::Int16 ||
                         type == DataType::Int32 || type == DataType::Int64;
  if (is_signed) {
    const uint64_t limit = uint64_t{1} << (bits - 1);  // |min|; max is limit - 1
    if (negative ? magnitude > limit : magnitude >= limit) return std::nullopt;
  } else {
    if (negative && magnitude != 0) return std::nullopt;
    if (magnitude > mask) return std::nullopt;
  }
  return (negative ? 0 - magnitude : magnitude) & mask;
}

uint64_t element_offset(std::span<const uint64_t> coord, std::span<const uint64_t> strides) {
  uint64_t offset = 0;
  for (std::size_t d = 0; d < coord.size(); ++d) offset += coord[d] * strides[d];
  return offset;
}

uint64_t row_major_position(std::span<const uint64_t> coord, std::span<const uint64_t> sizes) {
  uint64_t position = 0;
  uint64_t weight = 1;
  for (std::size_t d = coord.size(); d-- > 0;) {
    position += coord[d] * weight;
    weight *= sizes[d];
  }
  return position;
}

Status run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
           std::span<std::byte> indices) {
  if (input.size() < needed_bytes(op.input())) return failure("input buffer too small");
  if (output.size() < needed_bytes(op.output())) return failure("output buffer too small");
  if (op.output_indices() && indices.size() < needed_bytes(*op.output_indices())) {
    return failure("indices buffer too small");
  }
  if (op.kind() == OpKind::MaxPooling2) return run_pooling(op, input, output, indices);
  return run_gather(op, input, output);
}

Expected<Buffers> run_to_new_buffers(const Operation& op, std::span<const std::byte> input) {
  Buffers buffers;
  buffers.output.assign(needed_bytes(op.output()), std::byte{0});
  if (op.output_indices()) buffers.indices.assign(needed_bytes(*op.output_indices()), std::byte{0});
  Status status = run(op, input, buffers.output, buffers.indices);
  if (!status) return status.error();
  return buffers;
}

}  // namespace stridescope::reference
