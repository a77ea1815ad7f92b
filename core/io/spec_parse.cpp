// parse_spec and load_spec_file (spec_file.h): the spec's JSON shape, read
// into an OpRequest; Operation::make judges what the numbers mean.
#include <cmath>

#include "core/decimal.h"
#include "core/op_schema.h"
#include "core/io/json_reading.h"
#include "core/scalar.h"
#include "core/io/spec_file.h"
#include "core/io/text_file.h"

namespace stridescope {
namespace {

using namespace json_reading;

// Tensors.

Status read_tensor_shape(const json& object, const std::string& path, TensorRequest& tensor) {
  if (const json* type = find(object, "dataType")) {
    SS_ASSIGN_OR_RETURN(tensor.data_type, read_data_type(*type, field(path, "dataType")));
  }
  SS_RETURN_IF_ERROR(read_optional_uints(object, path, "sizes", tensor.sizes));
  return read_optional_uints(object, path, "strides", tensor.strides);
}

// A random fill's bound, held as a double: an integer in the 64-bit range
// that a double cannot hold exactly (9007199254740993) would move the
// interval, and an INT64 fill could then draw a value outside the one written.
Expected<double> read_fill_bound(const json& value, const std::string& path) {
  SS_ASSIGN_OR_RETURN(const double bound, read_finite_double(value, path));
  std::optional<WideInt> integer;
  if (value.is_number_unsigned()) {
    integer = static_cast<WideInt>(value.get<uint64_t>());
  } else if (value.is_number_integer()) {
    integer = static_cast<WideInt>(value.get<int64_t>());
  } else if (const std::optional<Decimal> decimal = decimal_of(value); decimal && decimal_is_integer(*decimal)) {
    integer = decimal_truncated(*decimal);
  }
  const bool in_64_bit_range = integer && *integer > -(WideInt{1} << 64) && *integer < (WideInt{1} << 64);
  if (in_64_bit_range && static_cast<WideInt>(bound) != *integer) {
    return invalid(path, "is an integer a double cannot hold exactly (it would become " +
                             format_scalar(Scalar{bound}) + "); random bounds are doubles, exact up to 2^53");
  }
  return bound;
}

Expected<Fill> read_fill(const json& value, const std::string& path) {
  if (value.is_string()) {
    const auto& name = value.get_ref<const std::string&>();
    if (name == "iota") return Fill{FillIota{}};
    if (name == "logicalIota") return Fill{FillLogicalIota{}};
    if (name == "zeros") return Fill{FillZeros{}};
    return invalid(path, "unknown fill \"" + name +
                             "\" (expected \"iota\", \"logicalIota\", \"zeros\" or {\"random\": {...}})");
  }
  if (!value.is_object()) {
    return wrong_type(path, "\"iota\", \"logicalIota\", \"zeros\" or {\"random\": {...}}", value);
  }
  SS_RETURN_IF_ERROR(check_object(value, path, {"random"}));
  const json* random = find(value, "random");
  if (!random) return missing(field(path, "random"));
  const std::string random_path = field(path, "random");
  SS_RETURN_IF_ERROR(check_object(*random, random_path, {"seed", "min", "max", "integers"}));
  FillRandom fill;
  if (const json* seed = find(*random, "seed")) {
    SS_ASSIGN_OR_RETURN(fill.seed, read_uint(*seed, field(random_path, "seed")));
  }
  for (auto [key, target] : {std::pair{"min", &fill.min}, std::pair{"max", &fill.max}}) {
    if (const json* bound = find(*random, key)) {
      SS_ASSIGN_OR_RETURN(*target, read_fill_bound(*bound, field(random_path, key)));
    }
  }
  if (const json* integers = find(*random, "integers")) {
    if (!integers->is_boolean()) return wrong_type(field(random_path, "integers"), "true or false", *integers);
    fill.integers = integers->get<bool>();
  }
  if (fill.min > fill.max) return invalid(field(random_path, "max"), "must not be less than min");
  return Fill{fill};
}

Expected<std::vector<Scalar>> read_data(const json& value, const std::string& path) {
  if (!value.is_array()) return wrong_type(path, "an array of numbers", value);
  std::vector<Scalar> data;
  data.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    SS_ASSIGN_OR_RETURN(const Scalar entry, read_scalar(value[i], indexed(path, i)));
    data.push_back(entry);
  }
  return data;
}

Status read_input(const json& object, const std::filesystem::path& base_dir, Spec& spec) {
  const std::string path = "input";
  SS_RETURN_IF_ERROR(check_object(object, path, {"dataType", "sizes", "strides", "data", "fill", "npy"}));
  if (!find(object, "dataType")) return missing(field(path, "dataType"));
  if (!find(object, "sizes")) return missing(field(path, "sizes"));
  SS_RETURN_IF_ERROR(read_tensor_shape(object, path, spec.request.input));

  const char* source = nullptr;
  for (const char* key : {"data", "fill", "npy"}) {
    if (!find(object, key)) continue;
    if (source) {
      return invalid(field(path, key), std::string("give only one of data, fill and npy (") + source +
                                           " is given too)");
    }
    source = key;
  }
  if (const json* data = find(object, "data")) {
    SS_ASSIGN_OR_RETURN(spec.input_source, read_data(*data, field(path, "data")));
  } else if (const json* fill = find(object, "fill")) {
    SS_ASSIGN_OR_RETURN(spec.input_source, read_fill(*fill, field(path, "fill")));
  } else if (const json* npy = find(object, "npy")) {
    SS_ASSIGN_OR_RETURN(const std::string file, read_string(*npy, field(path, "npy")));
    if (file.empty()) return invalid(field(path, "npy"), "must not be empty");
    const std::filesystem::path relative(file);
    spec.input_source = relative.is_absolute() || base_dir.empty() ? relative : base_dir / relative;
  } else {
    spec.input_source = Fill{FillIota{}};
  }
  return {};
}

// Params: each op's fields as its schema lists them (op_schema.h).

Status read_padding_mode(const json& value, const std::string& path, PaddingMode& out) {
  SS_ASSIGN_OR_RETURN(const std::string name, read_string(value, path));
  const auto mode = parse_padding_mode(name);
  if (!mode) {
    return invalid(path, "unknown padding mode \"" + name + "\" (expected CONSTANT, EDGE, REFLECTION, SYMMETRIC)");
  }
  out = *mode;
  return {};
}

template <class T, class Out>
Status assign(Expected<T> parsed, Out& out) {
  SS_ASSIGN_OR_RETURN(out, std::move(parsed));
  return {};
}

// Reads a present field's value into the slot its type has.
struct SlotReader {
  const json& value;
  const std::string& path;
  Status operator()(std::vector<uint64_t>* out) const { return assign(read_uint_array(value, path), *out); }
  Status operator()(std::optional<std::vector<uint64_t>>* out) const {
    return assign(read_uint_array(value, path), *out);
  }
  Status operator()(std::vector<int64_t>* out) const { return assign(read_int_array(value, path), *out); }
  Status operator()(PaddingMode* out) const { return read_padding_mode(value, path, *out); }
  Status operator()(Scalar* out) const { return assign(read_scalar(value, path), *out); }
};

// One field into its slot; absent optional fields keep the empty request's value.
Status read_param(const json& params, const std::string& path, const ParamField& param, ParamSlot slot) {
  const json* value = find(params, param.json_name);
  const std::string value_path = field(path, param.json_name);
  if (!value) return param.optional ? Status{} : Status{missing(value_path)};
  return std::visit(SlotReader{*value, value_path}, slot);
}

Expected<ParamsRequest> read_op_params(OpKind kind, const json& params, const std::string& path) {
  const OpSchema& schema = op_schema(kind);
  std::vector<std::string_view> names;
  for (const ParamField& param : schema.params) names.push_back(param.json_name);
  SS_RETURN_IF_ERROR(check_object(params, path, names));
  ParamsRequest request = empty_params_request(kind);
  for (const ParamField& param : schema.params) {
    SS_RETURN_IF_ERROR(read_param(params, path, param, param_slot(request, param)));
  }
  return request;
}

Expected<ParamsRequest> read_params(OpKind kind, const json* params) {
  const std::string path = "params";
  if (kind == OpKind::Identity) {
    if (params) {
      if (Status s = check_object(*params, path, {}); !s.ok()) {
        Error error = s.error();
        if (params->is_object()) error.message = "unknown field (identity takes no params)";
        return error;
      }
    }
    return ParamsRequest{IdentityRequest{}};
  }
  if (!params) return missing(path);
  return read_op_params(kind, *params, path);
}

// One line of text the app shows with the spec (what an example teaches).
Expected<std::string> read_description(const json& value) {
  SS_ASSIGN_OR_RETURN(std::string text, read_string(value, "description"));
  if (text.find_first_of("\n\r") != std::string::npos) {
    return invalid("description", "must be one line (no line breaks)");
  }
  if (text.size() > kMaxDescriptionBytes) {
    return invalid("description", "is " + std::to_string(text.size()) + " bytes long; at most " +
                                      std::to_string(kMaxDescriptionBytes) + " (one line)");
  }
  return text;
}

Error with_spec_file(Error error, const std::filesystem::path& file) {
  if (error.path.empty()) error.path = file.string();
  return error;
}


}  // namespace

Expected<Spec> parse_spec(std::string_view json_text, const std::filesystem::path& base_dir) {
  SS_ASSIGN_OR_RETURN(const json document, parse_json(json_text));
  if (Status s = check_object(document, "", {"description", "op", "input", "output", "outputIndices", "params"});
      !s.ok()) {
    Error error = s.error();
    if (!document.is_object()) error.message = "a spec is a JSON object, got " + type_name(document);
    return error;
  }

  const json* op = find(document, "op");
  if (!op) return missing("op");
  SS_ASSIGN_OR_RETURN(const std::string op_name, read_string(*op, "op"));
  const auto kind = parse_op_kind(op_name);
  if (!kind) {
    return invalid("op", "unknown op \"" + op_name +
                             "\" (expected identity, slice, slice1, padding, max_pooling2)");
  }

  Spec spec;
  if (const json* description = find(document, "description")) {
    SS_ASSIGN_OR_RETURN(spec.description, read_description(*description));
  }
  const json* input = find(document, "input");
  if (!input) return missing("input");
  SS_RETURN_IF_ERROR(read_input(*input, base_dir, spec));

  if (const json* output = find(document, "output")) {
    SS_RETURN_IF_ERROR(check_object(*output, "output", {"dataType", "sizes", "strides"}));
    SS_RETURN_IF_ERROR(read_tensor_shape(*output, "output", spec.request.output));
  }
  if (const json* indices = find(document, "outputIndices")) {
    SS_RETURN_IF_ERROR(check_object(*indices, "outputIndices", {"dataType", "sizes", "strides"}));
    TensorRequest request;
    SS_RETURN_IF_ERROR(read_tensor_shape(*indices, "outputIndices", request));
    spec.request.output_indices = request;
  }

  SS_ASSIGN_OR_RETURN(spec.request.params, read_params(*kind, find(document, "params")));
  return spec;
}

Expected<Spec> load_spec_file(const std::filesystem::path& file) {
  SS_ASSIGN_OR_RETURN(const std::string text,
                      read_text_file(file, kMaxSpecBytes,
                                     "spec file is larger than " + std::to_string(kMaxSpecBytes) +
                                         " bytes; give large inputs as .npy files"));
  Expected<Spec> spec = parse_spec(text, file.parent_path());
  if (!spec) return with_spec_file(spec.error(), file);
  return spec;
}

}  // namespace stridescope
