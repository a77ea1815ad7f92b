#include "core/io/random_request.h"

#include <algorithm>
#include <array>

#include "core/io/random_layout.h"
#include "core/io/random_values.h"
#include "core/operation.h"

namespace stridescope::random {
namespace {

constexpr std::array<OpKind, 5> kOps = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding,
                                        OpKind::MaxPooling2};

// One draw's choices, resolved from the options.
struct Draw {
  SplitMix64& rng;
  const DrawOptions& options;
  OpKind op;
  DataType type;
  uint64_t max_elements;
  uint64_t max_output_elements;
  bool big() const { return options.size_class == SizeClass::Big; }
};

// The input budget when the options leave it to the op: padding grows its
// input and so starts smaller; pooling draws its own shapes (a few hundred
// elements at most), so the budget only bounds a caller's smaller limit.
uint64_t default_max_elements(OpKind op, SizeClass size_class) {
  if (size_class == SizeClass::Big) return op == OpKind::Padding ? 20000 : 150000;
  switch (op) {
    case OpKind::Identity: return 64;
    case OpKind::Slice:
    case OpKind::Slice1: return 96;
    case OpKind::Padding: return 48;
    case OpKind::MaxPooling2: return 384;
  }
  return 64;
}

Draw resolve(SplitMix64& rng, const DrawOptions& options) {
  const OpKind op = options.op ? *options.op : kOps[rng.below(kOps.size())];
  const DataType type = options.type ? *options.type : kAllDataTypes[rng.below(kAllDataTypes.size())];
  const uint64_t max_elements =
      options.max_elements ? options.max_elements : default_max_elements(op, options.size_class);
  uint64_t max_output = options.max_output_elements;
  if (max_output == 0) max_output = options.size_class == SizeClass::Big ? 400000 : 16 * max_elements;
  return Draw{rng, options, op, type, max_elements, std::max(max_output, max_elements)};
}

U64s input_sizes(Draw& d) {
  const std::size_t rank = d.rng.between(1, 8);
  return d.big() ? random_big_sizes(d.rng, rank, d.max_elements) : random_sizes(d.rng, rank, d.max_elements);
}

TensorRequest random_input(Draw& d, const U64s& sizes) {
  const Layout layout = random_input_layout(d.rng, d.options.overlapping_inputs);
  return TensorRequest{d.type, sizes, random_strides(d.rng, sizes, layout)};
}

// Output sizes given (sometimes) and strides (random layouts, a few invalid when spoiling).
void random_output(Draw& d, OpRequest& r, const U64s& out_sizes, bool sizes_required) {
  const Layout layout = random_output_layout(d.rng, d.options.spoil);
  if (sizes_required || layout != Layout::Omitted || d.rng.chance(0.5)) r.output.sizes = out_sizes;
  if (r.output.sizes) r.output.strides = random_strides(d.rng, out_sizes, layout);
  if (d.rng.chance(0.5)) r.output.data_type = r.input.data_type;
}

// A handful of draws are spoiled on purpose so the validator is exercised.
void maybe_spoil_common(Draw& d, OpRequest& r) {
  if (!d.options.spoil || !d.rng.chance(0.06)) return;
  switch (d.rng.below(3)) {
    case 0: r.output.data_type = kAllDataTypes[d.rng.below(kAllDataTypes.size())]; break;  // invalid unless it matches
    case 1:
      if (r.output.sizes && !r.output.sizes->empty()) (*r.output.sizes)[d.rng.below(r.output.sizes->size())] += 1;
      break;
    default:
      if (r.kind() != OpKind::MaxPooling2) r.output_indices = TensorRequest{DataType::UInt32, {}, {}};
      break;
  }
}

// The tail every op shares: the input's layout, then the output's.
OpRequest finish(Draw& d, const U64s& in, ParamsRequest params, const U64s& out, bool out_sizes_required) {
  OpRequest r{random_input(d, in), TensorRequest{}, std::nullopt, std::move(params)};
  random_output(d, r, out, out_sizes_required);
  maybe_spoil_common(d, r);
  return r;
}

OpRequest draw_identity(Draw& d) {
  const U64s in = input_sizes(d);
  return finish(d, in, IdentityRequest{}, in, false);
}

OpRequest draw_slice(Draw& d) {
  const U64s in = input_sizes(d);
  SliceRequest p;
  for (uint64_t n : in) {
    const uint64_t stride = d.rng.between(1, 3);
    const uint64_t size = 1 + d.rng.below(1 + (n - 1) / stride);
    p.strides.push_back(stride);
    p.sizes.push_back(size);
    p.offsets.push_back(d.rng.below(n - stride * (size - 1)));
  }
  if (d.options.spoil && d.rng.chance(0.08)) {
    const std::size_t dim = d.rng.below(in.size());
    switch (d.rng.below(3)) {
      case 0: p.offsets[dim] += 1; break;  // may read past the end
      case 1: p.strides[dim] = 0; break;
      default: p.sizes[dim] += 1; break;
    }
  }
  const U64s out = p.sizes;
  return finish(d, in, std::move(p), out, false);
}

void spoil_slice1(Draw& d, Slice1Request& p, U64s& out) {
  if (!d.options.spoil || !d.rng.chance(0.08)) return;
  const std::size_t dim = d.rng.below(out.size());
  switch (d.rng.below(4)) {
    case 0: p.input_window_strides[dim] = 0; break;
    case 1: p.input_window_offsets[dim] += 1; break;  // may leave the input
    case 2: out[dim] += 1; break;                     // may pass MaxCopiedElements
    default: p.input_window_sizes[dim] = 0; break;
  }
}

// Windows with strides of either sign (now and then longer than 3), and
// output sizes at most what each window supplies, sometimes fewer.
OpRequest draw_slice1(Draw& d) {
  const U64s in = input_sizes(d);
  Slice1Request p;
  U64s out;
  for (uint64_t n : in) {
    const uint64_t size = d.rng.between(1, n);
    const uint64_t offset = d.rng.below(n - size + 1);
    const uint64_t magnitude = d.rng.chance(0.1) ? d.rng.between(4, 9) : d.rng.between(1, 3);
    const auto stride = static_cast<int64_t>(magnitude);
    p.input_window_offsets.push_back(offset);
    p.input_window_sizes.push_back(size);
    p.input_window_strides.push_back(d.rng.chance(0.5) ? -stride : stride);
    const uint64_t reachable = 1 + (size - 1) / magnitude;
    out.push_back(d.rng.chance(0.7) ? reachable : d.rng.between(1, reachable));
  }
  spoil_slice1(d, p, out);
  return finish(d, in, std::move(p), out, true);
}

// How far a padding may reach on a dimension of `n`: mostly about the input
// size, sometimes beyond it (folding several times). Big draws pad a little,
// except now and then a short dimension, so the rows stay long.
uint64_t padding_reach(Draw& d, uint64_t n) {
  if (!d.big()) return d.rng.chance(0.3) ? 3 * n + 2 : n + 1;
  return n <= 64 && d.rng.chance(0.1) ? 2 * n + 2 : 2;
}

OpRequest draw_padding(Draw& d) {
  const U64s in = input_sizes(d);
  PaddingRequest p;
  p.padding_mode = static_cast<PaddingMode>(d.rng.below(4));
  for (uint64_t n : in) {
    const uint64_t reach = padding_reach(d, n);
    p.start_padding.push_back(d.rng.chance(0.3) ? 0 : d.rng.between(0, reach));
    p.end_padding.push_back(d.rng.chance(0.3) ? 0 : d.rng.between(0, reach));
  }
  auto padded = [&] {
    U64s out;
    for (std::size_t dim = 0; dim < in.size(); ++dim) {
      out.push_back(in[dim] + p.start_padding[dim] + p.end_padding[dim]);
    }
    return out;
  };
  while (product(padded()) > d.max_output_elements) {  // keep the output within budget
    const std::size_t dim = d.rng.below(in.size());
    p.start_padding[dim] /= 2;
    p.end_padding[dim] /= 2;
  }
  p.padding_value = random_padding_value(d.rng, d.type, d.options.spoil && p.padding_mode == PaddingMode::Constant);
  const U64s out = padded();
  if (d.options.spoil && d.rng.chance(0.04)) p.start_padding.pop_back();
  return finish(d, in, std::move(p), out, false);
}

U64s pooling_sizes(Draw& d, std::size_t rank) {
  SplitMix64& rng = d.rng;
  U64s in{rng.between(1, 2), rng.between(1, 3)};
  const uint64_t spatial_max = d.big() ? (rank == 4 ? 12 : 6) : (rank == 4 ? 7 : 4);
  for (std::size_t s = 2; s < rank; ++s) in.push_back(rng.between(1, spatial_max));
  if (d.big()) in[rank - 1] = rng.between(30, 179);  // rows long enough for vectors
  while (product(in) > d.max_elements) {
    uint64_t& largest = *std::max_element(in.begin(), in.end());
    largest = (largest + 1) / 2;
  }
  return in;
}

// Windows mostly fit the input, their paddings mostly below the window's
// span (so windows reach the input); when spoiling, now and then not, which
// the validator must refuse or accept by rule.
MaxPooling2Request pooling_params(Draw& d, const U64s& in) {
  SplitMix64& rng = d.rng;
  const bool spoil = d.options.spoil;
  MaxPooling2Request p;
  U64s strides, start, end, dilations;
  for (std::size_t s = 2; s < in.size(); ++s) {
    const uint64_t n = in[s];
    const uint64_t fitting = std::min<uint64_t>(d.big() ? 4 : 3, n);
    p.window_size.push_back(spoil && rng.chance(0.05) ? rng.between(1, n + 2) : rng.between(1, fitting));
    strides.push_back(rng.between(1, 3));
    uint64_t dilation = rng.chance(0.7) ? 1 : rng.between(2, 3);
    if ((p.window_size.back() - 1) * dilation + 1 > n && (!spoil || rng.chance(0.9))) dilation = 1;
    dilations.push_back(dilation);
    const uint64_t span = (p.window_size.back() - 1) * dilation + 1;
    const uint64_t reach = spoil && rng.chance(0.1) ? span + 1 : span - 1;
    start.push_back(rng.chance(0.4) ? 0 : rng.between(0, reach));
    end.push_back(rng.chance(0.4) ? 0 : rng.between(0, reach));
  }
  // Omitted now and then, so the defaults are drawn too.
  const bool with_strides = rng.chance(0.8), with_start = rng.chance(0.7), with_end = rng.chance(0.7),
             with_dilations = rng.chance(0.7);
  if (!with_dilations && !spoil) {  // paddings that reach the input through the undilated window too
    for (std::size_t s = 0; s < start.size(); ++s) {
      start[s] = std::min(start[s], p.window_size[s] - 1);
      end[s] = std::min(end[s], p.window_size[s] - 1);
    }
  }
  if (with_strides) p.strides = strides;
  if (with_start) p.start_padding = start;
  if (with_end) p.end_padding = end;
  if (with_dilations) p.dilations = dilations;
  if (spoil && rng.chance(0.03)) p.window_size[rng.below(p.window_size.size())] = 0;
  return p;
}

OpRequest draw_pooling(Draw& d) {
  const std::size_t rank = d.rng.chance(0.6) ? 4 : 5;
  const U64s in = pooling_sizes(d, rank);
  MaxPooling2Request params = pooling_params(d, in);  // before the input's layout, as every op draws
  OpRequest r{random_input(d, in), TensorRequest{}, std::nullopt, std::move(params)};
  // Output sizes written out (as another tool would need them); where core
  // refuses the request there are none, and any will do.
  Expected<std::optional<Sizes>> inferred = infer_output_sizes(r);
  const U64s out = inferred && inferred->has_value() ? U64s(inferred->value().begin(), inferred->value().end())
                                                      : U64s(rank, 1);
  random_output(d, r, out, false);
  const uint64_t which = d.rng.below(100);
  if (which < 70) {
    TensorRequest indices{which < 35 ? DataType::UInt32 : DataType::UInt64, std::nullopt, std::nullopt};
    if (which == 3 && d.options.spoil) indices.data_type = DataType::Int32;  // invalid
    if (d.rng.chance(0.5)) indices.sizes = out;
    if (indices.sizes) indices.strides = random_strides(d.rng, out, random_output_layout(d.rng, d.options.spoil));
    r.output_indices = indices;
  }
  maybe_spoil_common(d, r);
  return r;
}

}  // namespace

OpRequest random_request(SplitMix64& rng, const DrawOptions& options) {
  Draw d = resolve(rng, options);
  switch (d.op) {
    case OpKind::Identity: return draw_identity(d);
    case OpKind::Slice: return draw_slice(d);
    case OpKind::Slice1: return draw_slice1(d);
    case OpKind::Padding: return draw_padding(d);
    case OpKind::MaxPooling2: return draw_pooling(d);
  }
  return draw_identity(d);
}

}  // namespace stridescope::random
