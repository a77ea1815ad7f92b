// write_spec and save_spec_file (spec_file.h): pretty JSON following
// resources/docs/spec-format.md, arrays on one line the way it shows them.
#include <nlohmann/json.hpp>

#include "core/io/atomic_file.h"
#include "core/io/json_number.h"
#include "core/io/spec_file.h"

namespace stridescope {
namespace {

using json = nlohmann::json;

std::string quoted(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

template <class T>
void append_list(std::string& out, const std::vector<T>& values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  out += ']';
}

// Appends `"key": value` members, comma-separated, to an object being written.
class MemberWriter {
 public:
  MemberWriter(std::string& out, std::string separator) : out_(out), separator_(std::move(separator)) {}

  std::string& key(std::string_view name) {
    out_ += first_ ? "" : ",";
    out_ += separator_;
    out_ += '"';
    out_ += name;
    out_ += "\": ";
    first_ = false;
    return out_;
  }
  template <class T>
  void list(std::string_view name, const std::vector<T>& values) {
    append_list(key(name), values);
  }
  template <class T>
  void optional_list(std::string_view name, const std::optional<std::vector<T>>& values) {
    if (values) list(name, *values);
  }

 private:
  std::string& out_;
  std::string separator_;
  bool first_ = true;
};

void append_tensor(std::string& out, const TensorRequest& tensor, const InputSource* source) {
  out += '{';
  MemberWriter members(out, " ");
  if (tensor.data_type) members.key("dataType") += quoted(std::string(to_string(*tensor.data_type)));
  members.optional_list("sizes", tensor.sizes);
  members.optional_list("strides", tensor.strides);
  if (source) {
    if (const auto* fill = std::get_if<Fill>(source)) {
      std::string& text = members.key("fill");
      if (std::holds_alternative<FillIota>(*fill)) {
        text += "\"iota\"";
      } else if (std::holds_alternative<FillZeros>(*fill)) {
        text += "\"zeros\"";
      } else {
        const auto& random = std::get<FillRandom>(*fill);
        text += "{\"random\": {\"seed\": " + std::to_string(random.seed) + ", \"min\": ";
        append_json_scalar(text, random.min);
        text += ", \"max\": ";
        append_json_scalar(text, random.max);
        text += "}}";
      }
    } else if (const auto* data = std::get_if<std::vector<Scalar>>(source)) {
      std::string& text = members.key("data");
      text += '[';
      for (std::size_t i = 0; i < data->size(); ++i) {
        if (i > 0) text += ',';
        append_json_scalar(text, (*data)[i]);
      }
      text += ']';
    } else {
      members.key("npy") += quoted(std::get<std::filesystem::path>(*source).generic_string());
    }
  }
  out += " }";
}

void append_params(std::string& out, const ParamsRequest& params) {
  const std::string indent = "\n    ";
  out += '{';
  MemberWriter members(out, indent);
  if (const auto* slice = std::get_if<SliceRequest>(&params)) {
    members.list("offsets", slice->offsets);
    members.list("sizes", slice->sizes);
    members.list("strides", slice->strides);
  } else if (const auto* slice1 = std::get_if<Slice1Request>(&params)) {
    members.list("inputWindowOffsets", slice1->input_window_offsets);
    members.list("inputWindowSizes", slice1->input_window_sizes);
    members.list("inputWindowStrides", slice1->input_window_strides);
  } else if (const auto* padding = std::get_if<PaddingRequest>(&params)) {
    members.key("paddingMode") += quoted(std::string(to_string(padding->padding_mode)));
    // Only CONSTANT uses the value; the default 0 is left out elsewhere.
    const auto* zero = std::get_if<int64_t>(&padding->padding_value);
    if (padding->padding_mode == PaddingMode::Constant || !zero || *zero != 0) {
      append_json_scalar(members.key("paddingValue"), padding->padding_value);
    }
    members.list("startPadding", padding->start_padding);
    members.list("endPadding", padding->end_padding);
  } else if (const auto* pooling = std::get_if<MaxPooling2Request>(&params)) {
    members.list("windowSize", pooling->window_size);
    members.optional_list("strides", pooling->strides);
    members.optional_list("startPadding", pooling->start_padding);
    members.optional_list("endPadding", pooling->end_padding);
    members.optional_list("dilations", pooling->dilations);
  }
  out += "\n  }";
}

}  // namespace

std::string write_spec(const Spec& spec) {
  const OpRequest& request = spec.request;
  std::string out = "{";
  MemberWriter members(out, "\n  ");
  members.key("op") += quoted(std::string(to_string(request.kind())));
  append_tensor(members.key("input"), request.input, &spec.input_source);
  append_tensor(members.key("output"), request.output, nullptr);
  if (request.output_indices) append_tensor(members.key("outputIndices"), *request.output_indices, nullptr);
  if (request.kind() != OpKind::Identity) append_params(members.key("params"), request.params);
  out += "\n}\n";
  return out;
}

Status save_spec_file(const Spec& spec, const std::filesystem::path& file) {
  Spec saved = spec;
  if (auto* npy = std::get_if<std::filesystem::path>(&saved.input_source)) {
    std::error_code error;
    const std::filesystem::path folder = std::filesystem::absolute(
        file.has_parent_path() ? file.parent_path() : std::filesystem::path("."), error);
    const std::filesystem::path target = std::filesystem::absolute(*npy, error);
    if (!error) *npy = target.lexically_normal().lexically_proximate(folder.lexically_normal());
  }
  return write_file_atomically(file, write_spec(saved));
}

}  // namespace stridescope
