#include "operation.h"

#include <limits>
#include <string>

#include "checked_math.h"
#include "op_schema.h"

namespace stridescope {
namespace {

constexpr uint64_t kMaxUint32 = std::numeric_limits<uint32_t>::max();
// Bounds on pooling work so that hostile windows cannot hang a backend.
constexpr uint64_t kMaxPoolingAxisTable = uint64_t{1} << 26;  // output size * window, per axis
constexpr uint64_t kMaxPoolingTaps = uint64_t{1} << 33;       // output elements * window elements

std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

const char* dimensions_word(ParamExtent extent) {
  return extent == ParamExtent::PerSpatialDimension ? "spatial dimensions" : "dimensions";
}

// An array field's length check, the same for signed and unsigned arrays.
Status check_entries(std::size_t entries, const ParamField& field, std::size_t rank) {
  const std::size_t expected = param_entries(field.extent, rank);
  if (entries == expected) return {};
  return invalid(param_path(field), "has " + std::to_string(entries) + " entries but the input has " +
                                        std::to_string(expected) + " " + dimensions_word(field.extent));
}

// An unsigned parameter array: right length, every entry a DirectML UINT.
Expected<Sizes> dims_param(const std::vector<uint64_t>& values, const ParamField& field, std::size_t rank) {
  SS_RETURN_IF_ERROR(check_entries(values.size(), field, rank));
  const std::string path = param_path(field);
  Sizes dims;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] > kMaxUint32) return invalid(at(path, i), "must fit in 32 bits (at most 4294967295)");
    dims.push_back(values[i]);
  }
  return dims;
}

// Member `member` of `r`, checked as dims_param; an omitted optional array
// reads as its default in every entry.
template <class R>
Expected<Sizes> dims_param(const R& r, const std::vector<uint64_t> R::*member, std::size_t rank) {
  return dims_param(r.*member, param_field(member), rank);
}
template <class R>
Expected<Sizes> dims_param(const R& r, const std::optional<std::vector<uint64_t>> R::*member, std::size_t rank) {
  const ParamField& field = param_field(member);
  if (!(r.*member)) return Sizes(param_entries(field.extent, rank), static_cast<uint64_t>(field.fill));
  return dims_param(*(r.*member), field, rank);
}

Expected<TensorDesc> make_tensor(DataType type, const std::vector<uint64_t>& sizes,
                                 const std::optional<std::vector<uint64_t>>& strides,
                                 const std::string& path, const Limits& limits) {
  if (sizes.empty() || sizes.size() > kMaxRank) {
    return invalid(path + ".sizes", "has " + std::to_string(sizes.size()) + " dimensions; a tensor needs 1 to 8");
  }
  std::optional<Strides> stride_dims;
  if (strides) {
    if (strides->size() != sizes.size()) {
      return invalid(path + ".strides", "has " + std::to_string(strides->size()) + " entries but sizes has " +
                                            std::to_string(sizes.size()));
    }
    stride_dims = Strides(std::span<const uint64_t>(*strides));
  }
  return TensorDesc::make(type, Sizes(std::span<const uint64_t>(sizes)), stride_dims, path, limits);
}

Expected<TensorDesc> make_input(const OpRequest& request, const Limits& limits) {
  if (!request.input.data_type) return invalid("input.dataType", "is required");
  if (!request.input.sizes) return invalid("input.sizes", "is required");
  return make_tensor(*request.input.data_type, *request.input.sizes, request.input.strides, "input", limits);
}

// --- per-op parameter validation -------------------------------------------

Expected<SliceParams> validate(const SliceRequest& r, const TensorDesc& input) {
  const std::size_t rank = input.rank();
  SliceParams p;
  SS_ASSIGN_OR_RETURN(p.offsets, dims_param(r, &SliceRequest::offsets, rank));
  SS_ASSIGN_OR_RETURN(p.sizes, dims_param(r, &SliceRequest::sizes, rank));
  SS_ASSIGN_OR_RETURN(p.strides, dims_param(r, &SliceRequest::strides, rank));
  for (std::size_t i = 0; i < rank; ++i) {
    const uint64_t n = input.sizes()[i];
    if (p.strides[i] == 0) return invalid(param_path(&SliceRequest::strides, i), "stride must be at least 1");
    if (p.sizes[i] == 0) return invalid(param_path(&SliceRequest::sizes, i), "size must be at least 1");
    if (p.offsets[i] >= n) {
      return invalid(param_path(&SliceRequest::offsets, i), "offset " + std::to_string(p.offsets[i]) +
                                                                " is outside input size " + std::to_string(n) +
                                                                " (at most " + std::to_string(n - 1) + " here)");
    }
    const uint64_t last = p.offsets[i] + (p.sizes[i] - 1) * p.strides[i];  // < 2^64: 32-bit factors
    if (last >= n) {
      return invalid(param_path(&SliceRequest::sizes, i),
                     "slice reads input index " + std::to_string(last) + ", past input size " + std::to_string(n) +
                         " (offset + (size - 1) * stride must be < size; size at most " +
                         std::to_string((n - 1 - p.offsets[i]) / p.strides[i] + 1) + " with this offset and stride)");
    }
  }
  return p;
}

Expected<Slice1Params> validate(const Slice1Request& r, const TensorDesc& input) {
  const std::size_t rank = input.rank();
  Slice1Params p;
  SS_ASSIGN_OR_RETURN(p.window_offsets, dims_param(r, &Slice1Request::input_window_offsets, rank));
  SS_ASSIGN_OR_RETURN(p.window_sizes, dims_param(r, &Slice1Request::input_window_sizes, rank));
  const ParamField& strides = param_field(&Slice1Request::input_window_strides);
  SS_RETURN_IF_ERROR(check_entries(r.input_window_strides.size(), strides, rank));
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t stride = r.input_window_strides[i];
    const std::string path = param_path(strides, i);
    if (stride == 0) return invalid(path, "stride must not be 0");
    if (stride < std::numeric_limits<int32_t>::min() || stride > std::numeric_limits<int32_t>::max()) {
      return invalid(path, "stride must fit in 32 bits");
    }
    p.window_strides.push_back(stride);
    const uint64_t n = input.sizes()[i];
    if (p.window_sizes[i] == 0) {
      return invalid(param_path(&Slice1Request::input_window_sizes, i), "window must not be empty");
    }
    if (p.window_offsets[i] >= n) {
      return invalid(param_path(&Slice1Request::input_window_offsets, i),
                     "offset " + std::to_string(p.window_offsets[i]) + " is outside input size " + std::to_string(n) +
                         " (at most " + std::to_string(n - 1) + " here)");
    }
    if (p.window_offsets[i] + p.window_sizes[i] > n) {
      return invalid(param_path(&Slice1Request::input_window_sizes, i),
                     "window [" + std::to_string(p.window_offsets[i]) + ", " +
                         std::to_string(p.window_offsets[i] + p.window_sizes[i]) + ") exceeds input size " +
                         std::to_string(n) + " (offset + size must be <= size; window size at most " +
                         std::to_string(n - p.window_offsets[i]) + " with this offset)");
    }
  }
  return p;
}

Expected<PaddingParams> validate(const PaddingRequest& r, const TensorDesc& input) {
  const std::size_t rank = input.rank();
  PaddingParams p;
  p.mode = r.padding_mode;
  p.value = r.padding_value;
  SS_ASSIGN_OR_RETURN(p.start_padding, dims_param(r, &PaddingRequest::start_padding, rank));
  SS_ASSIGN_OR_RETURN(p.end_padding, dims_param(r, &PaddingRequest::end_padding, rank));
  if (p.mode == PaddingMode::Constant) {
    // The value only matters where it is used; other modes ignore it.
    SS_ASSIGN_OR_RETURN(p.value_bits, encode_scalar(p.value, input.data_type(), param_path(&PaddingRequest::padding_value)));
  }
  return p;
}

Expected<MaxPooling2Params> validate(const MaxPooling2Request& r, const TensorDesc& input) {
  if (input.rank() != 4 && input.rank() != 5) {
    return invalid("input.sizes", "max_pooling2 needs a 4-D {N,C,H,W} or 5-D {N,C,D,H,W} input, not " +
                                      std::to_string(input.rank()) + "-D");
  }
  const std::size_t rank = input.rank();
  const std::size_t spatial = rank - 2;
  MaxPooling2Params p;
  SS_ASSIGN_OR_RETURN(p.window_size, dims_param(r, &MaxPooling2Request::window_size, rank));
  SS_ASSIGN_OR_RETURN(p.strides, dims_param(r, &MaxPooling2Request::strides, rank));
  SS_ASSIGN_OR_RETURN(p.start_padding, dims_param(r, &MaxPooling2Request::start_padding, rank));
  SS_ASSIGN_OR_RETURN(p.end_padding, dims_param(r, &MaxPooling2Request::end_padding, rank));
  SS_ASSIGN_OR_RETURN(p.dilations, dims_param(r, &MaxPooling2Request::dilations, rank));
  for (std::size_t i = 0; i < spatial; ++i) {
    if (p.window_size[i] == 0) {
      return invalid(param_path(&MaxPooling2Request::window_size, i), "window must be at least 1");
    }
    if (p.strides[i] == 0) return invalid(param_path(&MaxPooling2Request::strides, i), "stride must be at least 1");
    if (p.dilations[i] == 0) {
      return invalid(param_path(&MaxPooling2Request::dilations, i), "dilation must be at least 1");
    }
    const uint64_t span = (p.window_size[i] - 1) * p.dilations[i] + 1;  // 32-bit factors: no overflow
    const uint64_t padded = input.sizes()[i + 2] + p.start_padding[i] + p.end_padding[i];
    if (span > padded) {
      return invalid(param_path(&MaxPooling2Request::window_size, i),
                     "dilated window spans " + std::to_string(span) + " elements, more than the padded input size " +
                         std::to_string(padded) + " (window size at most " +
                         std::to_string((padded - 1) / p.dilations[i] + 1) + " with dilation " +
                         std::to_string(p.dilations[i]) + ")");
    }
  }
  return p;
}

// The params' validation, dispatched on the request's alternative.
Expected<OpParams> validate_params(const OpRequest& request, const TensorDesc& input) {
  return std::visit(
      [&](const auto& r) -> Expected<OpParams> {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, IdentityRequest>) {
          return OpParams{IdentityParams{}};
        } else {
          SS_ASSIGN_OR_RETURN(auto params, validate(r, input));
          return OpParams{std::move(params)};
        }
      },
      request.params);
}

// Output sizes that follow from input and params; slice1's are the most the
// window can supply (a default the user may lower).
Expected<Sizes> determined_output_sizes(const OpParams& params, const TensorDesc& input) {
  const Sizes& in = input.sizes();
  if (std::holds_alternative<IdentityParams>(params)) return in;
  if (const auto* p = std::get_if<SliceParams>(&params)) return p->sizes;
  if (const auto* p = std::get_if<Slice1Params>(&params)) {
    Sizes out;
    for (std::size_t i = 0; i < in.size(); ++i) {
      out.push_back(slice1_max_copied(p->window_sizes[i], p->window_strides[i]));
    }
    return out;
  }
  if (const auto* p = std::get_if<PaddingParams>(&params)) {
    Sizes out;
    for (std::size_t i = 0; i < in.size(); ++i) {
      const uint64_t size = in[i] + p->start_padding[i] + p->end_padding[i];
      if (size > kMaxUint32) {
        return invalid(param_path(&PaddingRequest::end_padding, i),
                       "padded size " + std::to_string(size) + " does not fit in 32 bits");
      }
      out.push_back(size);
    }
    return out;
  }
  const auto& p = std::get<MaxPooling2Params>(params);
  Sizes out{in[0], in[1]};
  for (std::size_t i = 0; i < p.spatial_rank(); ++i) {
    const uint64_t span = (p.window_size[i] - 1) * p.dilations[i] + 1;
    const uint64_t padded = in[i + 2] + p.start_padding[i] + p.end_padding[i];
    out.push_back((padded - span) / p.strides[i] + 1);
  }
  return out;
}

Status check_output_sizes(const OpParams& params, const Sizes& determined, const std::vector<uint64_t>& given) {
  if (given.size() != determined.size()) {
    return invalid("output.sizes", "has " + std::to_string(given.size()) + " dimensions but the input has " +
                                       std::to_string(determined.size()));
  }
  const bool user_chosen = std::holds_alternative<Slice1Params>(params);
  for (std::size_t i = 0; i < given.size(); ++i) {
    if (user_chosen) {
      if (given[i] == 0) return invalid(at("output.sizes", i), "size must be at least 1");
      if (given[i] > determined[i]) {
        const auto& p = std::get<Slice1Params>(params);
        return invalid(at("output.sizes", i),
                       std::to_string(given[i]) + " exceeds the " + std::to_string(determined[i]) +
                           " elements the window can supply (1 + (" +
                           std::string(param_field(&Slice1Request::input_window_sizes).json_name) +
                           " - 1) / |stride| = 1 + (" + std::to_string(p.window_sizes[i]) + " - 1) / " +
                           std::to_string(static_cast<uint64_t>(std::abs(p.window_strides[i]))) + ")");
      }
    } else if (given[i] != determined[i]) {
      return invalid(at("output.sizes", i),
                     "is " + std::to_string(given[i]) + " but the op produces " + std::to_string(determined[i]));
    }
  }
  return {};
}

Status check_unique_offsets(const TensorDesc& desc, const std::string& path) {
  if (!desc.layout().exact) {
    return invalid(path + ".strides", "strides interleave over more than 2^28 elements, too many to check that "
                                      "no two elements share a buffer offset; an output must not overlap");
  }
  if (desc.layout().overlapping || desc.layout().broadcast) {
    return invalid(path + ".strides", "strides make two elements share a buffer offset; an output must not overlap");
  }
  return {};
}

// DirectML leaves open what a window wholly in padding yields; StrideScope
// refuses such parameters (max_pooling.h).
Status check_windows_touch_input(const MaxPooling2Params& p, const TensorDesc& input, const Sizes& out) {
  for (std::size_t i = 0; i < p.spatial_rank(); ++i) {
    const int64_t n = static_cast<int64_t>(input.sizes()[i + 2]);
    const int64_t stride = static_cast<int64_t>(p.strides[i]);
    const int64_t start = static_cast<int64_t>(p.start_padding[i]);
    const int64_t dilation = static_cast<int64_t>(p.dilations[i]);
    const int64_t window = static_cast<int64_t>(p.window_size[i]);
    auto touches = [&](int64_t o) {
      const int64_t first = o * stride - start;
      if (first >= n) return false;
      if (first >= 0) return true;
      const int64_t k = (-first + dilation - 1) / dilation;  // first tap at or after index 0
      return k < window && first + k * dilation < n;
    };
    auto refuse = [&](int64_t o, std::optional<std::vector<uint64_t>> MaxPooling2Request::*padding) {
      return invalid(param_path(padding, i), "the window of output index " + std::to_string(o) +
                                                 " along spatial dimension " + std::to_string(i) +
                                                 " lies wholly in padding");
    };
    const int64_t count = static_cast<int64_t>(out[i + 2]);
    // Only windows starting before the input can miss it at the front, and
    // only the last window can miss it at the back (window starts increase).
    for (int64_t o = 0; o < count && o * stride - start < 0; ++o) {
      if (!touches(o)) return refuse(o, &MaxPooling2Request::start_padding);
    }
    if (!touches(count - 1)) return refuse(count - 1, &MaxPooling2Request::end_padding);
  }
  return {};
}

Status check_pooling_work(const MaxPooling2Params& p, const Sizes& out) {
  uint64_t taps = 1;
  for (uint64_t size : out) taps *= size;  // bounded by the output buffer limit
  for (std::size_t i = 0; i < p.spatial_rank(); ++i) {
    auto table = checked_mul(out[i + 2], p.window_size[i]);
    if (!table || *table > kMaxPoolingAxisTable) {
      return invalid(param_path(&MaxPooling2Request::window_size, i),
                     "window " + std::to_string(p.window_size[i]) + " over " + std::to_string(out[i + 2]) +
                         " outputs is more work than StrideScope allows");
    }
    auto total = checked_mul(taps, p.window_size[i]);
    if (!total || *total > kMaxPoolingTaps) {
      return invalid(param_path(&MaxPooling2Request::window_size, i), "pooling would read more than 2^33 window taps");
    }
    taps = *total;
  }
  return {};
}

// The gather ops' per-axis tables (index_plan.h) hold 8 bytes per output
// index per axis, 16 for padding. A long axis (a 1-D tensor of a billion
// bytes) makes them larger than the buffers themselves, so they count
// against the same limit; pooling's tables are bounded by check_pooling_work.
Status check_index_tables(const OpParams& params, const Sizes& out, const Limits& limits) {
  if (std::holds_alternative<MaxPooling2Params>(params)) return {};
  const uint64_t per_index = std::holds_alternative<PaddingParams>(params) ? 16 : 8;
  uint64_t indices = 0;  // at most 8 * 2^32: no overflow below
  std::size_t longest = 0;
  for (std::size_t d = 0; d < out.size(); ++d) {
    indices += out[d];
    if (out[d] > out[longest]) longest = d;
  }
  const uint64_t bytes = indices * per_index;
  if (bytes <= limits.max_bytes) return {};
  return invalid(at("output.sizes", longest), std::to_string(out[longest]) + " indices along one axis need " +
                                                  std::to_string(bytes) + " bytes of index tables, over the limit of " +
                                                  std::to_string(limits.max_bytes) +
                                                  " bytes (--max-bytes); more dimensions, each shorter, need far less");
}

Expected<std::optional<TensorDesc>> make_indices(const OpRequest& request, const OpParams& params,
                                                 const TensorDesc& input, const Sizes& out, const Limits& limits) {
  if (!request.output_indices) return std::optional<TensorDesc>{};
  if (!std::holds_alternative<MaxPooling2Params>(params)) {
    return invalid("outputIndices", "only max_pooling2 has an indices output");
  }
  const TensorRequest& r = *request.output_indices;
  const DataType type = r.data_type.value_or(DataType::UInt32);
  if (type != DataType::UInt32 && type != DataType::UInt64) {
    return invalid("outputIndices.dataType", "must be UINT32 or UINT64, not " + std::string(to_string(type)));
  }
  if (type == DataType::UInt32 && input.element_count() > kMaxUint32 + uint64_t{1}) {
    return invalid("outputIndices.dataType", "UINT32 cannot index an input of " +
                                                 std::to_string(input.element_count()) + " elements; use UINT64");
  }
  const std::vector<uint64_t> sizes(out.begin(), out.end());
  if (r.sizes) {
    auto checked = check_output_sizes(params, out, *r.sizes);
    if (!checked) {
      Error e = checked.error();
      e.path.replace(0, std::string("output").size(), "outputIndices");
      return e;
    }
  }
  SS_ASSIGN_OR_RETURN(auto desc, make_tensor(type, sizes, r.strides, "outputIndices", limits));
  SS_RETURN_IF_ERROR(check_unique_offsets(desc, "outputIndices"));
  return std::optional<TensorDesc>{std::move(desc)};
}

}  // namespace

Expected<Operation> Operation::make(const OpRequest& request, const Limits& limits) {
  SS_ASSIGN_OR_RETURN(auto input, make_input(request, limits));
  SS_ASSIGN_OR_RETURN(auto params, validate_params(request, input));
  SS_ASSIGN_OR_RETURN(auto determined, determined_output_sizes(params, input));

  const DataType out_type = request.output.data_type.value_or(input.data_type());
  if (out_type != input.data_type()) {
    return invalid("output.dataType", "must equal input.dataType (" + std::string(to_string(input.data_type())) +
                                          "), not " + std::string(to_string(out_type)));
  }
  std::vector<uint64_t> out_sizes(determined.begin(), determined.end());
  if (request.output.sizes) {
    SS_RETURN_IF_ERROR(check_output_sizes(params, determined, *request.output.sizes));
    out_sizes = *request.output.sizes;
  }
  SS_ASSIGN_OR_RETURN(auto output, make_tensor(out_type, out_sizes, request.output.strides, "output", limits));
  SS_RETURN_IF_ERROR(check_unique_offsets(output, "output"));
  SS_RETURN_IF_ERROR(check_index_tables(params, output.sizes(), limits));

  if (const auto* pool = std::get_if<MaxPooling2Params>(&params)) {
    SS_RETURN_IF_ERROR(check_windows_touch_input(*pool, input, output.sizes()));
    SS_RETURN_IF_ERROR(check_pooling_work(*pool, output.sizes()));
  }
  SS_ASSIGN_OR_RETURN(auto indices, make_indices(request, params, input, output.sizes(), limits));
  if (auto* pool = std::get_if<MaxPooling2Params>(&params); pool && indices) {
    pool->indices_type = indices->data_type();
  }
  return Operation(input, output, indices, params);
}

Expected<std::optional<Sizes>> infer_output_sizes(const OpRequest& request) {
  SS_ASSIGN_OR_RETURN(auto input, make_input(request, Limits{}));
  SS_ASSIGN_OR_RETURN(auto params, validate_params(request, input));
  SS_ASSIGN_OR_RETURN(auto determined, determined_output_sizes(params, input));
  return std::optional<Sizes>{std::move(determined)};
}

Expected<TensorDesc> validate_input(const OpRequest& request, const Limits& limits) {
  return make_input(request, limits);
}

}  // namespace stridescope
