#include "pooled_words.h"

#include <cstddef>
#include <optional>

#include "gpu_test_support.h"

namespace stridescope::test {

void expect_pooled_words(VulkanBackend& gpu, const Operation& op, const std::vector<uint32_t>& input,
                         const PooledWords& expected) {
  auto result = run_to_new_buffers(gpu, op, bytes_of(input));
  ASSERT_TRUE(result) << result.error().to_string();
  EXPECT_EQ(values_of<uint32_t>(result->output, expected.output.size()), expected.output);
  const std::optional<TensorDesc>& index_desc = op.output_indices();
  if (!index_desc) return;
  const std::size_t n = expected.indices.size();
  const bool wide = index_desc->data_type() == DataType::UInt64;
  std::vector<uint64_t> indices = values_of<uint64_t>(result->indices, wide ? n : 0);
  if (!wide) {
    for (uint32_t index : values_of<uint32_t>(result->indices, n)) indices.push_back(index);
  }
  EXPECT_EQ(indices, expected.indices) << to_string(index_desc->data_type()) << " indices";
}

}  // namespace stridescope::test
