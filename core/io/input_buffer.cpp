// make_input_buffer (spec_file.h): the input tensor's buffer from the spec's
// fill, data or .npy file.
#include <cstring>

#include "core/io/npy.h"
#include "core/io/spec_file.h"

namespace stridescope {
namespace {

std::string indexed(const std::string& path, uint64_t i) { return path + "[" + std::to_string(i) + "]"; }

}  // namespace

Expected<std::vector<std::byte>> make_input_buffer(const Spec& spec, const TensorDesc& input,
                                                   const Limits& limits) {
  const DataType type = input.data_type();
  const std::size_t size = element_size(type);
  const uint64_t elements = input.buffer_elements();
  std::vector<std::byte> buffer(input.buffer_bytes());

  if (const auto* fill = std::get_if<Fill>(&spec.input_source)) {
    SS_RETURN_IF_ERROR(check_fill(*fill, type, "input.fill.random"));
    SS_RETURN_IF_ERROR(fill_tensor_buffer(*fill, input, buffer, "input.fill"));
    return buffer;
  }
  if (const auto* data = std::get_if<std::vector<Scalar>>(&spec.input_source)) {
    if (data->size() < elements) {
      return invalid("input.data", "has " + std::to_string(data->size()) + " values; the input buffer needs " +
                                       std::to_string(elements) + " (its sizes and strides span that many elements)");
    }
    for (uint64_t i = 0; i < elements; ++i) {
      SS_ASSIGN_OR_RETURN(const uint64_t bits, encode_scalar((*data)[i], type, indexed("input.data", i)));
      write_element_bits(type, bits, buffer.data() + i * size);
    }
    return buffer;
  }

  const auto& file = std::get<std::filesystem::path>(spec.input_source);
  Expected<NpyArray> array = read_npy(file, limits.max_bytes);
  if (!array) {
    Error error = array.error();
    error.message = error.to_string();
    error.path = "input.npy";
    return error;
  }
  if (array->type != type) {
    return invalid("input.npy", file.string() + ": holds " + npy_descr(array->type) + " (" +
                                    std::string(to_string(array->type)) + ") but the input is " +
                                    std::string(to_string(type)));
  }
  const uint64_t available = array->data.size() / size;
  if (available < elements) {
    return invalid("input.npy", file.string() + ": holds " + std::to_string(available) +
                                    " elements; the input buffer needs " + std::to_string(elements));
  }
  std::memcpy(buffer.data(), array->data.data(), elements * size);
  return buffer;
}

}  // namespace stridescope