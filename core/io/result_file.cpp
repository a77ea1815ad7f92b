#include "core/io/result_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/io/text_file.h"
#include "core/scalar.h"

namespace stridescope {

bool is_npy_file(std::string_view path) {
  constexpr std::string_view suffix = ".npy";
  if (path.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), path.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char wanted, char given) { return wanted == std::tolower(static_cast<unsigned char>(given)); });
}

std::filesystem::path indices_npy_path(const std::filesystem::path& out) {
  return out.parent_path() / (out.stem().string() + ".indices.npy");
}

Expected<std::vector<std::byte>> npy_as_buffer(NpyArray array, const TensorDesc& desc, const std::string& file) {
  if (array.type != desc.data_type()) {
    return Error{ErrorCode::InvalidSpec, file,
                 "holds " + std::string(to_string(array.type)) + "; the spec's tensor is " +
                     std::string(to_string(desc.data_type()))};
  }
  const uint64_t bytes = desc.buffer_elements() * desc.element_size();
  if (array.data.size() != bytes) {
    return Error{ErrorCode::InvalidSpec, file,
                 "holds " + std::to_string(array.data.size() / desc.element_size()) + " elements; the buffer has " +
                     std::to_string(desc.buffer_elements())};
  }
  std::vector<std::byte> buffer = std::move(array.data);
  buffer.resize(desc.buffer_bytes());
  return buffer;
}

uint64_t longest_result_document(const TensorDesc& output, const TensorDesc* indices) {
  uint64_t values = output.buffer_elements();
  if (indices) values += indices->buffer_elements();
  return values * 48 + (uint64_t{1} << 16);
}

namespace {

Expected<std::vector<std::byte>> read_npy_buffer(const std::filesystem::path& file, const TensorDesc& desc,
                                                 uint64_t max_bytes) {
  SS_ASSIGN_OR_RETURN(NpyArray array, read_npy(file, max_bytes));
  return npy_as_buffer(std::move(array), desc, file.string());
}

}  // namespace

Expected<ResultDocument> read_result_file(const std::filesystem::path& file, const TensorDesc& output,
                                          const TensorDesc* indices, uint64_t max_bytes) {
  if (is_npy_file(file.string())) {
    ResultDocument result;
    SS_ASSIGN_OR_RETURN(result.output, read_npy_buffer(file, output, max_bytes));
    if (indices) {
      const std::filesystem::path indices_file = indices_npy_path(file);
      SS_ASSIGN_OR_RETURN(result.indices, read_npy_buffer(indices_file, *indices, max_bytes));
    }
    return result;
  }
  const uint64_t most = longest_result_document(output, indices);
  SS_ASSIGN_OR_RETURN(const std::string text,
                      read_text_file(file, most, "is longer than a result document of this spec can be (" +
                                                     std::to_string(most) + " bytes)"));
  Expected<ResultDocument> result = read_result_document(text, output, indices);
  if (!result) return Error{result.error().code, file.string(), result.error().to_string()};
  return result;
}

uint64_t match_nan_to_nan(const TensorDesc& desc, std::span<const std::byte> ours, std::span<std::byte> theirs) {
  if (!is_floating(desc.data_type())) return 0;
  uint64_t matched = 0;
  const std::size_t size = desc.element_size();
  for (uint64_t i = 0; i < desc.buffer_elements(); ++i) {
    const std::byte* a = ours.data() + i * size;
    std::byte* b = theirs.data() + i * size;
    if (std::isnan(to_double(read_element(desc.data_type(), a))) &&
        std::isnan(to_double(read_element(desc.data_type(), b)))) {
      std::copy(a, a + size, b);
      ++matched;
    }
  }
  return matched;
}

}  // namespace stridescope
