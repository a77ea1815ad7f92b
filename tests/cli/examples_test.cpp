// Every spec in resources/examples, run by the built stridescope-cli, gives
// the values printed on the DirectML page it comes from. The expected values
// below are copied by hand from those pages (Microsoft's DirectML docs), not computed:
//   DML_SLICE_OPERATOR_DESC examples 1 and 2, DML_SLICE1_OPERATOR_DESC
//   examples 1 and 2, DML_PADDING_OPERATOR_DESC examples 1 to 4, and the
//   layouts of "DirectML tensor sizes and strides" (letters A..F numbered 1..6).
// The max_pooling2 and NHWC RGB examples are StrideScope's own; their values
// were worked out by hand (see resources/examples/README.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "tests/reference/directml_pages.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

struct ExampleResult {
  std::vector<uint64_t> sizes;
  std::vector<double> data;             // the output buffer in buffer order
  std::vector<uint64_t> indices = {};   // max_pooling2's outputIndices, if any
};

const std::map<std::string, ExampleResult>& expected_results() {
  static const std::map<std::string, ExampleResult> results = {
      // DML_SLICE_OPERATOR_DESC, Example 1. Contiguous slice.
      {"slice_example1_contiguous.json", {{1, 1, 3, 2}, {7, 8, 11, 12, 15, 16}}},
      // DML_SLICE_OPERATOR_DESC, Example 2. Strided slice.
      {"slice_example2_strided.json", {{1, 1, 2, 2}, {5, 8, 13, 16}}},
      // DML_SLICE1_OPERATOR_DESC, Beispiel 1 (positive strides).
      {"slice1_example1_positive_strides.json", {{1, 1, 2, 2}, {2, 4, 10, 12}}},
      // DML_SLICE1_OPERATOR_DESC, Beispiel 2 (negative strides).
      {"slice1_example2_negative_strides.json", {{1, 1, 2, 2}, {14, 16, 6, 8}}},
      // DML_PADDING_OPERATOR_DESC, 例 1: CONSTANT 9.
      {"padding_example1_constant.json", {{1, 1, 8, 10}, pages::values<double>(pages::kPaddingConstant9)}},
      // 例 2: EDGE.
      {"padding_example2_edge.json", {{1, 1, 8, 10}, pages::values<double>(pages::kPaddingEdge)}},
      // 例 3: REFLECTION.
      {"padding_example3_reflection.json", {{1, 1, 8, 10}, pages::values<double>(pages::kPaddingReflection)}},
      // 例 4: SYMMETRIC.
      {"padding_example4_symmetric.json", {{1, 1, 8, 10}, pages::values<double>(pages::kPaddingSymmetric)}},
      // 3x3 window, stride 2, padding 1 over the 5x5 input 3 1 4 1 5 / 9 2 6 5 3 /
      // 5 8 9 7 9 / 3 2 3 8 4 / 6 2 6 4 3. Out[0,2]'s window holds two 5s; the
      // first in row-major window order (index 4) wins.
      {"max_pooling2_3x3_stride2_pad1_indices.json",
       {{1, 1, 3, 3}, {9, 6, 5, 9, 9, 9, 6, 8, 8}, {5, 7, 4, 5, 12, 14, 20, 18, 18}}},
      // Sizes and strides: the logical tensor A B C / D E F (1..6) from each layout.
      {"layout_hw_row_major.json", {{2, 3}, {1, 2, 3, 4, 5, 6}}},
      {"layout_wh_column_major.json", {{2, 3}, {1, 2, 3, 4, 5, 6}}},
      {"layout_broadcast_rows.json", {{2, 3}, {1, 2, 3, 1, 2, 3}}},
      {"layout_padded_rows.json", {{2, 3}, {1, 2, 3, 4, 5, 6}}},
      // DHW 2x2x3 holding A..L (1..12): packed, so the same order.
      {"layout_dhw.json", {{2, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}},
      // NHWC {1,1,3,5} with strides {15,1,5,1}: one channel, so row-major order.
      {"layout_nhwc.json", {{1, 1, 3, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}},
      // StrideScope's own: NHWC RGB pixels (r, g, b) = (10 + p, 20 + p, 30 + p) for
      // pixel p = 3h + w, copied to packed NCHW: the R plane, then G, then B.
      {"layout_nhwc_rgb_to_nchw.json",
       {{1, 3, 2, 3}, {10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35}}},
      // StrideScope's teaching examples, worked out by hand (resources/examples/README.md).
      // Sizes [3,2], strides [1,3] over the buffer 1..6: element (i, j) is at offset i + 3j.
      {"layout_transpose_by_strides.json", {{3, 2}, {1, 4, 2, 5, 3, 6}}},
      // Window stride -1 starts at column 3: each row of 1..8 reversed.
      {"slice1_flip_negative_stride.json", {{2, 4}, {4, 3, 2, 1, 8, 7, 6, 5}}},
      // Width stride 0: row i repeats stored value i + 1.
      {"layout_broadcast_column.json", {{3, 4}, {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}}},
      // Strides [1,1]: element (i, j) is at offset i + j, so row i is i+1, i+2, i+3.
      {"layout_sliding_windows.json", {{4, 3}, {1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5, 6}}},
      // REFLECTION, n = 3, period 4: columns -5..7 of 1 2 3 fold to 2 1 2 3 2 1 2 3 2 1 2 3 2.
      {"padding_reflection_past_the_input.json",
       {{2, 13}, {2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 5, 4, 5, 6, 5, 4, 5, 6, 5, 4, 5, 6, 5}}},
      // Dilation 2: out[a,b] takes rows a, a+2 and columns b, b+2. out[0,0] = max(1, 2, 5, 5),
      // the 5 at (2,0), flat 8; out[0,1] = max(5, 5, 2, 4), (0,1), flat 1; out[1,0] =
      // max(3, 3, 0, 1), (1,0), flat 4; out[1,1] = max(9, 1, 3, 3), (1,1), flat 5.
      {"max_pooling2_dilation_ties.json", {{1, 1, 2, 2}, {5, 5, 3, 9}, {8, 1, 4, 5}}},
  };
  return results;
}

std::vector<std::string> example_files() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Examples, EveryExampleHasItsExpectedValuesHere) {
  const auto files = example_files();
  EXPECT_EQ(files.size(), expected_results().size());
  for (const std::string& name : files) {
    EXPECT_TRUE(expected_results().count(name)) << name << " has no expected values in examples_test.cpp";
  }
}

TEST(Examples, EveryExampleGivesThePagesValues) {
  for (const std::string& name : example_files()) {
    SCOPED_TRACE(name);
    const auto it = expected_results().find(name);
    if (it == expected_results().end()) continue;
    const CliResult result = run_cli_binary({"run", example(name)});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json document = json::parse(result.out);
    EXPECT_EQ(document["output"]["sizes"].get<std::vector<uint64_t>>(), it->second.sizes);
    EXPECT_EQ(document["output"]["data"].get<std::vector<double>>(), it->second.data);
    if (it->second.indices.empty()) {
      EXPECT_FALSE(document.contains("outputIndices"));
    } else {
      EXPECT_EQ(document["outputIndices"]["data"].get<std::vector<uint64_t>>(), it->second.indices);
    }
  }
}

TEST(Examples, EveryExamplePassesCompare) {
  for (const std::string& name : example_files()) {
    const CliResult result = run_cli_binary({"compare", example(name)});
    EXPECT_EQ(result.exit_code, 0) << name << ": " << result.err;
  }
}

}  // namespace
}  // namespace stridescope::test
