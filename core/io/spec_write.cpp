// write_spec and save_spec_file (spec_file.h): pretty JSON following
// resources/docs/spec-format.md, arrays on one line the way it shows them.
#include <type_traits>

#include <nlohmann/json.hpp>

#include "core/io/atomic_file.h"
#include "core/io/json_number.h"
#include "core/io/spec_file.h"
#include "core/op_schema.h"

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
      } else if (std::holds_alternative<FillLogicalIota>(*fill)) {
        text += "\"logicalIota\"";
      } else if (std::holds_alternative<FillZeros>(*fill)) {
        text += "\"zeros\"";
      } else {
        const auto& random = std::get<FillRandom>(*fill);
        text += "{\"random\": {\"seed\": " + std::to_string(random.seed) + ", \"min\": ";
        append_json_scalar(text, random.min);
        text += ", \"max\": ";
        append_json_scalar(text, random.max);
        if (random.integers) text += ", \"integers\": true";
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

// A value the op does not read (padding's outside CONSTANT mode) is left out
// while it holds the default.
bool value_unused(const ParamsRequest& params, const ParamField& field, const Scalar& value) {
  const auto* integer = std::get_if<int64_t>(&value);
  return !param_in_use(params, field) && integer && *integer == field.fill;
}

void append_params(std::string& out, const ParamsRequest& params) {
  const std::string indent = "\n    ";
  out += '{';
  MemberWriter members(out, indent);
  for (const ParamField& field : op_schema(static_cast<OpKind>(params.index())).params) {
    const std::string_view name = field.json_name;
    std::visit(
        [&](const auto* value) {
          using T = std::remove_cvref_t<decltype(*value)>;
          if constexpr (std::is_same_v<T, std::optional<std::vector<uint64_t>>>) {
            members.optional_list(name, *value);
          } else if constexpr (std::is_same_v<T, PaddingMode>) {
            members.key(name) += quoted(std::string(to_string(*value)));
          } else if constexpr (std::is_same_v<T, Scalar>) {
            if (!value_unused(params, field, *value)) append_json_scalar(members.key(name), *value);
          } else {
            members.list(name, *value);
          }
        },
        param_slot(params, field));
  }
  out += "\n  }";
}

}  // namespace

std::string write_spec(const Spec& spec) {
  const OpRequest& request = spec.request;
  std::string out = "{";
  MemberWriter members(out, "\n  ");
  if (!spec.description.empty()) members.key("description") += quoted(spec.description);
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
