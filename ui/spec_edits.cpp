#include "ui/spec_edits.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/op_schema.h"
#include "core/slice.h"
#include "core/tensor_desc.h"

namespace stridescope::ui {
namespace {

struct FieldRef {
  std::string_view group;  // "input", "output", "params"
  std::string_view name;   // a tensor's sizes or strides, a param's JSON name
  std::size_t index = 0;
};

std::optional<FieldRef> parse_path(std::string_view path) {
  const auto dot = path.find('.');
  const auto open = path.find('[');
  if (dot == std::string_view::npos || open == std::string_view::npos || open < dot || path.back() != ']') {
    return std::nullopt;
  }
  FieldRef ref;
  ref.group = path.substr(0, dot);
  ref.name = path.substr(dot + 1, open - dot - 1);
  const std::string_view digits = path.substr(open + 1, path.size() - open - 2);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), ref.index);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return ref;
}

// The unsigned or signed array a path names, whichever the op has.
struct ArrayRef {
  std::vector<uint64_t>* unsigned_values = nullptr;
  std::vector<int64_t>* signed_values = nullptr;
};

std::vector<uint64_t>* optional_array(std::optional<std::vector<uint64_t>>& array) {
  return array ? &*array : nullptr;
}

ArrayRef find_array(Spec& spec, const FieldRef& ref) {
  OpRequest& r = spec.request;
  if (ref.group == "input" || ref.group == "output") {
    TensorRequest& t = ref.group == "input" ? r.input : r.output;
    if (ref.name == "sizes") return {optional_array(t.sizes)};
    if (ref.name == "strides") return {optional_array(t.strides)};
    return {};
  }
  if (ref.group != "params") return {};
  const ParamField* field = find_param(r.kind(), ref.name);
  if (!field) return {};
  return std::visit(
      [](auto* slot) -> ArrayRef {
        using T = std::remove_pointer_t<decltype(slot)>;
        if constexpr (std::is_same_v<T, std::vector<uint64_t>>) return {slot};
        if constexpr (std::is_same_v<T, std::optional<std::vector<uint64_t>>>) return {optional_array(*slot)};
        if constexpr (std::is_same_v<T, std::vector<int64_t>>) return {nullptr, slot};
        return {};
      },
      param_slot(r.params, *field));
}

template <class T>
void resize_front(std::vector<T>& values, std::size_t old_rank, std::size_t rank, T fill) {
  if (rank > old_rank) {
    values.insert(values.begin(), rank - old_rank, fill);
  } else if (rank < old_rank && values.size() >= old_rank - rank) {
    values.erase(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(old_rank - rank));
  }
}

template <class T>
void resize_at(std::vector<T>& values, std::size_t position, std::size_t old_rank, std::size_t rank, T fill) {
  position = std::min(position, values.size());
  if (rank > old_rank) {
    values.insert(values.begin() + static_cast<std::ptrdiff_t>(position), rank - old_rank, fill);
  } else if (rank < old_rank && values.size() >= position + (old_rank - rank)) {
    values.erase(values.begin() + static_cast<std::ptrdiff_t>(position),
                 values.begin() + static_cast<std::ptrdiff_t>(position + old_rank - rank));
  }
}

void resize_strides(std::optional<std::vector<uint64_t>>& strides, const std::vector<uint64_t>& old_sizes,
                    std::size_t position, std::size_t old_rank, std::size_t rank) {
  if (!strides || strides->size() != old_rank) return;
  // A new dimension has size 1, so its stride never moves an element: give it
  // the extent of the dimension it is placed in front of, as packed strides would.
  uint64_t extent = 1;
  if (position < old_rank) extent = (*strides)[position] * old_sizes[position];
  resize_at(*strides, position, old_rank, rank, std::max<uint64_t>(extent, 1));
}

}  // namespace

Spec default_spec() {
  Spec spec;
  spec.request.input = {DataType::Float32, std::vector<uint64_t>{1, 1, 4, 4}, std::nullopt};
  spec.request.output = {DataType::Float32, std::vector<uint64_t>{1, 1, 2, 2}, std::nullopt};
  spec.request.params = Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}};
  spec.input_source = FillIota{};
  return spec;
}

std::size_t spec_rank(const Spec& spec) {
  return spec.request.input.sizes ? spec.request.input.sizes->size() : 0;
}

namespace {

// Every param array at the value that changes nothing (the schema's fill),
// optional ones written out; the demonstrations of with_op change a few entries.
ParamsRequest neutral_params(OpKind kind, std::size_t rank) {
  ParamsRequest params = empty_params_request(kind);
  for (const ParamField& field : op_schema(kind).params) {
    if (!field.is_array()) continue;
    const std::size_t entries = param_entries(field.extent, rank);
    std::visit(
        [&](auto* slot) {
          using T = std::remove_pointer_t<decltype(slot)>;
          if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            *slot = std::vector<int64_t>(entries, field.fill);
          } else if constexpr (std::is_same_v<T, std::vector<uint64_t>> ||
                               std::is_same_v<T, std::optional<std::vector<uint64_t>>>) {
            *slot = std::vector<uint64_t>(entries, static_cast<uint64_t>(field.fill));
          }
        },
        param_slot(params, field));
  }
  return params;
}

// Parameters that show something on an input of `sizes`: every second
// element, a reversed last dimension, reflected borders, 2x2 windows.
void demonstrate(OpRequest& r, const std::vector<uint64_t>& sizes) {
  const std::size_t rank = sizes.size();
  const auto last_two = [rank](std::size_t d) { return d + 2 >= rank; };
  if (auto* p = std::get_if<SliceRequest>(&r.params)) {
    for (std::size_t d = 0; d < rank; ++d) {
      const bool every_second = last_two(d) && sizes[d] >= 2;
      p->strides[d] = every_second ? 2 : 1;
      p->sizes[d] = every_second ? slice1_max_copied(sizes[d], 2) : sizes[d];
    }
  } else if (auto* p1 = std::get_if<Slice1Request>(&r.params)) {
    std::vector<uint64_t> out;
    for (std::size_t d = 0; d < rank; ++d) {
      const int64_t stride = d + 1 == rank ? -1 : 1;  // reverse the last dimension
      p1->input_window_sizes[d] = sizes[d];
      p1->input_window_strides[d] = stride;
      out.push_back(slice1_max_copied(sizes[d], stride));
    }
    r.output.sizes = out;
  } else if (auto* pad = std::get_if<PaddingRequest>(&r.params)) {
    for (std::size_t d = 0; d < rank; ++d) {
      pad->start_padding[d] = last_two(d) ? 1 : 0;
      pad->end_padding[d] = last_two(d) ? 2 : 0;
    }
    pad->padding_mode = PaddingMode::Reflection;
  } else if (auto* pool = std::get_if<MaxPooling2Request>(&r.params)) {
    for (std::size_t d = 2; d < rank; ++d) {
      const uint64_t window = sizes[d] >= 2 ? 2 : 1;
      pool->window_size[d - 2] = window;
      (*pool->strides)[d - 2] = window;
    }
    r.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  }
}

}  // namespace

Spec with_op(const Spec& original, OpKind kind) {
  Spec spec = original;
  if (kind == OpKind::MaxPooling2) {
    const std::size_t rank = spec_rank(spec);
    if (rank < 4) spec = with_rank(spec, 4);
    if (rank > 5) spec = with_rank(spec, 5);
  }
  OpRequest& r = spec.request;
  const std::vector<uint64_t> sizes = r.input.sizes.value_or(std::vector<uint64_t>{1});
  r.output.sizes.reset();
  r.output.strides.reset();
  r.output_indices.reset();
  r.params = neutral_params(kind, sizes.size());
  demonstrate(r, sizes);
  return spec;
}

Spec with_rank(const Spec& original, std::size_t rank) {
  Spec spec = original;
  const std::size_t old_rank = spec_rank(spec);
  if (rank == old_rank || rank < 1 || rank > kMaxRank || old_rank == 0) return spec;
  OpRequest& r = spec.request;
  // max_pooling2 grows and shrinks its spatial dimensions, right after {N, C}.
  const bool pooling = r.kind() == OpKind::MaxPooling2;
  const std::size_t at = pooling ? 2 : 0;
  const std::vector<uint64_t> old_sizes = *r.input.sizes;

  resize_at(*r.input.sizes, at, old_rank, rank, uint64_t{1});
  resize_strides(r.input.strides, old_sizes, at, old_rank, rank);
  if (r.output.sizes) {
    const std::vector<uint64_t> old_out = *r.output.sizes;
    resize_at(*r.output.sizes, at, old_rank, rank, uint64_t{1});
    resize_strides(r.output.strides, old_out, at, old_rank, rank);
  } else {
    r.output.strides.reset();
  }

  // Every param array gains or loses entries at its front, each new entry the
  // value that leaves a size-1 dimension unchanged.
  for (const ParamField& field : op_schema(r.kind()).params) {
    if (!field.is_array()) continue;
    const std::size_t old_entries = param_entries(field.extent, old_rank);
    const std::size_t entries = param_entries(field.extent, rank);
    std::visit(
        [&](auto* slot) {
          using T = std::remove_pointer_t<decltype(slot)>;
          if constexpr (std::is_same_v<T, std::optional<std::vector<uint64_t>>>) {
            if (*slot) resize_front(**slot, old_entries, entries, static_cast<uint64_t>(field.fill));
          } else if constexpr (std::is_same_v<T, std::vector<uint64_t>>) {
            resize_front(*slot, old_entries, entries, static_cast<uint64_t>(field.fill));
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            resize_front(*slot, old_entries, entries, field.fill);
          }
        },
        param_slot(r.params, field));
  }
  return spec;
}

namespace {

// Optional param arrays a spec left out (max_pooling2's strides, paddings,
// dilations): they read as the schema's default in every entry and come
// into being on the first edit.
struct OmittedArray {
  std::optional<std::vector<uint64_t>>* array;
  uint64_t fill;
  std::size_t entries;
};

// As many entries as the op's first required array of the same extent
// holds (what the person typed: max_pooling2's windowSize).
std::size_t typed_entries(const ParamsRequest& params, const ParamField& like) {
  for (const ParamField& field : op_schema(static_cast<OpKind>(params.index())).params) {
    if (field.extent != like.extent || field.optional) continue;
    const ConstParamSlot slot = param_slot(params, field);
    if (const auto* values = std::get_if<const std::vector<uint64_t>*>(&slot)) return (*values)->size();
  }
  return 0;
}

std::optional<OmittedArray> omitted_array(Spec& spec, const FieldRef& ref) {
  if (ref.group != "params") return std::nullopt;
  ParamsRequest& params = spec.request.params;
  const ParamField* field = find_param(spec.request.kind(), ref.name);
  if (!field) return std::nullopt;
  const ParamSlot slot = param_slot(params, *field);
  auto* const* array = std::get_if<std::optional<std::vector<uint64_t>>*>(&slot);
  if (!array || **array) return std::nullopt;
  return OmittedArray{*array, static_cast<uint64_t>(field->fill), typed_entries(params, *field)};
}

}  // namespace

std::optional<int64_t> int_field(const Spec& spec, std::string_view path) {
  const auto ref = parse_path(path);
  if (!ref) return std::nullopt;
  if (const auto omitted = omitted_array(const_cast<Spec&>(spec), *ref)) {  // read only
    if (ref->index < omitted->entries) return static_cast<int64_t>(omitted->fill);
    return std::nullopt;
  }
  const ArrayRef array = find_array(const_cast<Spec&>(spec), *ref);  // read only
  if (array.unsigned_values && ref->index < array.unsigned_values->size()) {
    return static_cast<int64_t>((*array.unsigned_values)[ref->index]);
  }
  if (array.signed_values && ref->index < array.signed_values->size()) {
    return (*array.signed_values)[ref->index];
  }
  return std::nullopt;
}

bool set_int_field(Spec& spec, std::string_view path, int64_t value) {
  const auto ref = parse_path(path);
  if (!ref) return false;
  if (const auto omitted = omitted_array(spec, *ref); omitted && ref->index < omitted->entries) {
    if (value < 0) return false;
    *omitted->array = std::vector<uint64_t>(omitted->entries, omitted->fill);
  }
  const ArrayRef array = find_array(spec, *ref);
  if (array.unsigned_values && ref->index < array.unsigned_values->size()) {
    if (value < 0) return false;
    (*array.unsigned_values)[ref->index] = static_cast<uint64_t>(value);
    return true;
  }
  if (array.signed_values && ref->index < array.signed_values->size()) {
    (*array.signed_values)[ref->index] = value;
    return true;
  }
  return false;
}

std::vector<std::string> param_array_fields(OpKind kind) {
  std::vector<std::string> paths;
  for (const ParamField& field : op_schema(kind).params) {
    if (field.is_array()) paths.push_back(param_path(field));
  }
  return paths;
}

void fit_values_to_input(Spec& spec) {
  auto* values = std::get_if<std::vector<Scalar>>(&spec.input_source);
  const TensorRequest& in = spec.request.input;
  if (!values || !in.data_type || !in.sizes || in.sizes->empty() || in.sizes->size() > kMaxRank) return;
  std::optional<Strides> strides;
  if (in.strides) {
    if (in.strides->size() != in.sizes->size()) return;
    strides = Strides(std::span<const uint64_t>(*in.strides));
  }
  const Expected<TensorDesc> desc =
      TensorDesc::make(*in.data_type, Sizes(std::span<const uint64_t>(*in.sizes)), strides, "input");
  // Typed values are for small teaching tensors; large ones belong in a .npy file.
  constexpr uint64_t kMaxTypedValues = uint64_t{1} << 20;
  if (desc && values->size() < desc->buffer_elements() && desc->buffer_elements() <= kMaxTypedValues) {
    values->resize(desc->buffer_elements(), int64_t{0});
  }
}

std::vector<Scalar> values_from_buffer(DataType type, const std::vector<std::byte>& buffer, uint64_t elements) {
  std::vector<Scalar> values;
  const std::size_t size = element_size(type);
  elements = std::min<uint64_t>(elements, buffer.size() / size);
  values.reserve(elements);
  for (uint64_t i = 0; i < elements; ++i) values.push_back(read_element(type, buffer.data() + i * size));
  return values;
}

std::string format_values(const std::vector<Scalar>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) text += ", ";
    text += format_scalar(values[i]);
  }
  return text;
}

Expected<std::vector<Scalar>> parse_values(std::string_view text) {
  std::vector<Scalar> values;
  std::size_t pos = 0;
  const auto separator = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == ';'; };
  while (pos < text.size()) {
    while (pos < text.size() && separator(text[pos])) ++pos;
    if (pos >= text.size()) break;
    std::size_t end = pos;
    while (end < text.size() && !separator(text[end])) ++end;
    const std::string_view token = text.substr(pos, end - pos);
    const std::string path = "input.data[" + std::to_string(values.size()) + "]";
    const char* first = token.data();
    const char* last = token.data() + token.size();
    int64_t i = 0;
    uint64_t u = 0;
    double d = 0;
    if (token == "NaN") {
      values.emplace_back(std::numeric_limits<double>::quiet_NaN());
    } else if (token == "Infinity" || token == "inf") {
      values.emplace_back(std::numeric_limits<double>::infinity());
    } else if (token == "-Infinity" || token == "-inf") {
      values.emplace_back(-std::numeric_limits<double>::infinity());
    } else if (auto [p, ec] = std::from_chars(first, last, i); ec == std::errc() && p == last) {
      values.emplace_back(i);
    } else if (auto [p2, ec2] = std::from_chars(first, last, u); ec2 == std::errc() && p2 == last) {
      values.emplace_back(u);
    } else if (std::optional<Decimal> decimal = make_decimal(token)) {
      values.emplace_back(std::move(*decimal));  // exact until converted to the input's type
    } else if (auto [p3, ec3] = std::from_chars(first, last, d); ec3 == std::errc() && p3 == last) {
      values.emplace_back(d);
    } else {
      return invalid(path, "'" + std::string(token) + "' is not a number");
    }
    pos = end;
  }
  return values;
}

}  // namespace stridescope::ui
