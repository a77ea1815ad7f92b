#include "core/io/result_document.h"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/io/json_number.h"
#include "core/io/json_reading.h"

namespace stridescope {
namespace {

constexpr std::size_t kFlushBytes = 1 << 16;

void append_list(std::string& out, std::span<const uint64_t> values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  out += ']';
}

}  // namespace

void write_tensor_json(std::ostream& stream, const TensorDesc& desc, std::span<const std::byte> buffer) {
  std::string text = "{\"dataType\": \"";
  text += to_string(desc.data_type());
  text += "\", \"sizes\": ";
  append_list(text, desc.sizes());
  text += ", \"strides\": ";
  append_list(text, desc.strides());
  text += ", \"data\": [";
  const std::size_t size = desc.element_size();
  // Never reads past the buffer, even if a caller breaks the precondition.
  const uint64_t elements = std::min<uint64_t>(desc.buffer_elements(), buffer.size() / size);
  for (uint64_t i = 0; i < elements; ++i) {
    if (i > 0) text += ',';
    append_json_element(text, desc.data_type(), buffer.data() + i * size);
    if (text.size() >= kFlushBytes) {
      stream << text;
      text.clear();
    }
  }
  text += "]}";
  stream << text;
}

void write_result_document(std::ostream& stream, std::string_view backend, const Operation& op,
                           std::span<const std::byte> output, std::span<const std::byte> indices) {
  stream << "{\n  \"backend\": "
         << nlohmann::json(std::string(backend)).dump(-1, ' ', false,
                                                      nlohmann::json::error_handler_t::replace)
         << ",\n  \"output\": ";
  write_tensor_json(stream, op.output(), output);
  if (op.output_indices()) {
    stream << ",\n  \"outputIndices\": ";
    write_tensor_json(stream, *op.output_indices(), indices);
  }
  stream << "\n}\n";
}

std::string write_result_document(std::string_view backend, const Operation& op,
                                  std::span<const std::byte> output,
                                  std::span<const std::byte> indices) {
  std::ostringstream stream;
  write_result_document(stream, backend, op, output, indices);
  return std::move(stream).str();
}

namespace {

using namespace json_reading;

std::string list_text(std::span<const uint64_t> values) {
  std::string text;
  append_list(text, values);
  return text;
}

// One tensor object of the document, as the buffer `desc` describes.
Expected<std::vector<std::byte>> read_tensor(const json& document, std::string_view key, const TensorDesc& desc) {
  const std::string path(key);
  const json* object = find(document, key);
  if (!object) return missing(path);
  SS_RETURN_IF_ERROR(check_object(*object, path, {"dataType", "sizes", "strides", "data"}));

  const json* type_value = find(*object, "dataType");
  if (!type_value) return missing(field(path, "dataType"));
  SS_ASSIGN_OR_RETURN(const DataType type, read_data_type(*type_value, field(path, "dataType")));
  if (type != desc.data_type()) {
    return Error{ErrorCode::InvalidSpec, field(path, "dataType"),
                 std::string("is ") + std::string(to_string(type)) + "; the spec's is " +
                     std::string(to_string(desc.data_type()))};
  }
  std::vector<uint64_t> sizes;
  SS_RETURN_IF_ERROR(read_required_uints(*object, path, "sizes", sizes));
  const std::vector<uint64_t> expected_sizes(desc.sizes().begin(), desc.sizes().end());
  if (sizes != expected_sizes) {
    return Error{ErrorCode::InvalidSpec, field(path, "sizes"),
                 "are " + list_text(sizes) + "; the spec's are " + list_text(expected_sizes)};
  }
  std::optional<std::vector<uint64_t>> strides;
  SS_RETURN_IF_ERROR(read_optional_uints(*object, path, "strides", strides));
  const std::vector<uint64_t> expected_strides(desc.strides().begin(), desc.strides().end());
  if (strides && *strides != expected_strides) {
    return Error{ErrorCode::InvalidSpec, field(path, "strides"),
                 "are " + list_text(*strides) + "; the spec's are " + list_text(expected_strides)};
  }

  const std::string data_path = field(path, "data");
  const json* data = find(*object, "data");
  if (!data) return missing(data_path);
  if (!data->is_array()) return wrong_type(data_path, "an array", *data);
  if (data->size() != desc.buffer_elements()) {
    return Error{ErrorCode::InvalidSpec, data_path,
                 "has " + std::to_string(data->size()) + " values; the buffer has " +
                     std::to_string(desc.buffer_elements()) + " elements"};
  }
  const std::size_t size = desc.element_size();
  std::vector<std::byte> buffer(desc.buffer_bytes());  // rounded up to 4 bytes, as every buffer is
  for (std::size_t i = 0; i < data->size(); ++i) {
    const std::string element_path = indexed(data_path, i);
    SS_ASSIGN_OR_RETURN(const Scalar value, read_scalar((*data)[i], element_path));
    SS_ASSIGN_OR_RETURN(const uint64_t bits, encode_scalar(value, desc.data_type(), element_path));
    write_element_bits(desc.data_type(), bits, buffer.data() + i * size);
  }
  return buffer;
}

}  // namespace

Expected<ResultDocument> read_result_document(std::string_view text, const Operation& op) {
  return read_result_document(text, op.output(), op.output_indices() ? &*op.output_indices() : nullptr);
}

Expected<ResultDocument> read_result_document(std::string_view text, const TensorDesc& output,
                                              const TensorDesc* indices) {
  SS_ASSIGN_OR_RETURN(const json document, parse_json(text));
  if (!document.is_object()) return wrong_type("", "an object", document);
  if (indices) {
    SS_RETURN_IF_ERROR(check_object(document, "", {"backend", "output", "outputIndices"}));
  } else {
    SS_RETURN_IF_ERROR(check_object(document, "", {"backend", "output"}));
  }
  ResultDocument result;
  if (const json* backend = find(document, "backend")) {
    SS_ASSIGN_OR_RETURN(result.backend, read_string(*backend, "backend"));
  }
  SS_ASSIGN_OR_RETURN(result.output, read_tensor(document, "output", output));
  if (indices) {
    SS_ASSIGN_OR_RETURN(result.indices, read_tensor(document, "outputIndices", *indices));
  }
  return result;
}

}  // namespace stridescope
