#include "core/io/result_document.h"

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/io/json_number.h"

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

}  // namespace stridescope
