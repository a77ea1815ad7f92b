#include "app/cli/tensor_text.h"

#include "core/scalar.h"

namespace stridescope::cli {

std::string format_element(DataType type, const std::byte* bytes) {
  return format_scalar(read_element(type, bytes));
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
