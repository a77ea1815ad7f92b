// Reading another implementation's result (core/io/result_file.h), as
// `stridescope-cli check`, `render --compare-with` and the app's Compare with
// Result do: `run --out X.npy` writes the output to X.npy and the indices to
// X.indices.npy; a .npy must hold the tensor's data type and one value per
// buffer element; a result document loses NaN payloads, so there a NaN
// matches any NaN.
#include "core/io/result_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "temp_folder.h"

namespace stridescope {
namespace {

TensorDesc float_tensor(uint64_t elements) {
  return TensorDesc::make(DataType::Float32, Sizes{1, elements}, std::nullopt, "output").value();
}

TEST(ResultFile, NpyFilesAreNamedByTheirSuffixInAnyCase) {
  EXPECT_TRUE(is_npy_file("theirs.npy"));
  EXPECT_TRUE(is_npy_file("THEIRS.NPY"));
  EXPECT_FALSE(is_npy_file("theirs.json"));
  EXPECT_FALSE(is_npy_file("npy"));
}

TEST(ResultFile, TheIndicesLieBesideTheOutput) {
  EXPECT_EQ(indices_npy_path("out/theirs.npy"), std::filesystem::path("out/theirs.indices.npy"));
}

TEST(ResultFile, ANpyOfAnotherTypeOrLengthIsRefusedNamingTheFile) {
  NpyArray ints{DataType::Int32, {2}, std::vector<std::byte>(8)};
  Expected<std::vector<std::byte>> wrong_type = npy_as_buffer(ints, float_tensor(2), "r.npy");
  ASSERT_FALSE(wrong_type);
  EXPECT_EQ(wrong_type.error().to_string(), "r.npy: holds INT32; the spec's tensor is FLOAT32");

  NpyArray three{DataType::Float32, {3}, std::vector<std::byte>(12)};
  Expected<std::vector<std::byte>> wrong_length = npy_as_buffer(three, float_tensor(2), "r.npy");
  ASSERT_FALSE(wrong_length);
  EXPECT_EQ(wrong_length.error().to_string(), "r.npy: holds 3 elements; the buffer has 2");
}

TEST(ResultFile, AResultDocumentsFieldErrorsNameTheFile) {
  test::TempFolder folder;
  const std::filesystem::path file = folder / "theirs.json";
  test::write_text(file, R"({"output": {"dataType": "FLOAT32", "sizes": [1,3], "data": [1,2,3]}})");
  Expected<ResultDocument> read = read_result_file(file, float_tensor(2), nullptr, uint64_t{1} << 20);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().to_string(), file.string() + ": output.sizes: are [1,3]; the spec's are [1,2]");
}

TEST(ResultFile, ANanMatchesAnyNanAndNothingElse) {
  const float quiet = std::numeric_limits<float>::quiet_NaN();
  uint32_t other_payload_bits = 0x7fc00123;
  float other_payload = 0;
  std::memcpy(&other_payload, &other_payload_bits, 4);
  const float ours[] = {quiet, 1.0f};
  float theirs[] = {other_payload, 2.0f};
  const uint64_t matched = match_nan_to_nan(float_tensor(2), std::as_bytes(std::span(ours)),
                                            std::as_writable_bytes(std::span(theirs)));
  EXPECT_EQ(matched, 1u);
  EXPECT_EQ(std::memcmp(&theirs[0], &ours[0], 4), 0);  // now the same bits
  EXPECT_EQ(theirs[1], 2.0f);                           // a number is left as it was
}

}  // namespace
}  // namespace stridescope
