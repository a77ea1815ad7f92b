#include "app/cli/tensor_text.h"

#include <algorithm>

#include "core/io/json_number.h"

namespace stridescope::cli {

std::string format_element(DataType type, const std::byte* bytes) {
  std::string text;
  append_json_element(text, type, bytes);
  // JSON quotes the non-finite names; a grid shows them bare.
  if (text.size() >= 2 && text.front() == '"') text = text.substr(1, text.size() - 2);
  return text;
}

std::string tensor_line(const char* name, const TensorDesc& desc) {
  return std::string(name) + " " + std::string(to_string(desc.data_type())) + " sizes " + format_list(desc.sizes()) +
         " strides " + format_list(desc.strides()) + " (" + std::to_string(desc.buffer_elements()) +
         " buffer elements)";
}

std::string buffer_text(const TensorDesc& desc, std::span<const std::byte> buffer, uint64_t max_elements) {
  std::string text;
  const uint64_t shown = std::min<uint64_t>(desc.buffer_elements(), max_elements);
  for (uint64_t i = 0; i < shown && (i + 1) * desc.element_size() <= buffer.size(); ++i) {
    text += ' ' + format_element(desc.data_type(), buffer.data() + i * desc.element_size());
  }
  if (shown < desc.buffer_elements()) text += " ...";
  return text;
}

std::string format_grid(const TensorDesc& desc, std::span<const std::byte> buffer, std::string_view indent,
                        uint64_t max_elements) {
  const std::size_t size = desc.element_size();
  return format_cells(desc.sizes(), indent, max_elements, [&](const Coord& coord) {
    const uint64_t offset = desc.offset_of(coord);
    if ((offset + 1) * size > buffer.size()) return std::string("?");
    return format_element(desc.data_type(), buffer.data() + offset * size);
  });
}

std::string format_list(std::span<const uint64_t> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(values[i]);
  }
  return text + "]";
}

}  // namespace stridescope::cli
