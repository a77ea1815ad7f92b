// resources/docs/cli.md against the built stridescope-cli: `explain` (where an output element
// comes from) and `layout` (a layout's traits and offsets).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

TEST(CliExplain, NamesTheInputElementASlice1OutputReads) {
  // DirectML's SLICE1 example 2: Output[0,0,1,0] = Input[{0,0,1,1}] = 6.
  const CliResult result =
      run_cli_binary({"explain", example("slice1_example2_negative_strides.json"), "--at", "0,0,1,0"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("out[0,0,1,0] = in[0,0,1,1] (offset 5)", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("source: in[0,0,1,1], buffer offset 5, value 6\n"), std::string::npos) << result.out;
}

TEST(CliExplain, JsonGivesSourceOffsetAndValue) {
  const CliResult result =
      run_cli_binary({"explain", example("slice1_example2_negative_strides.json"), "--at", "0,0,0,1", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["kind"], "copied");
  EXPECT_EQ(doc["source"], json::parse("[0,0,3,3]"));
  EXPECT_EQ(doc["sourceOffset"], 15);
  EXPECT_EQ(doc["value"], 16);
  EXPECT_EQ(doc["outputOffset"], 1);
}

TEST(CliExplain, AHugePoolingWindowIsSummarisedWithItsWinner) {
  // 4096x4096 taps over one input element, all but the last in padding: the
  // explanation lists 65,536 taps, counts the rest and names the winner.
  TempFolder folder;
  const std::string spec =
      spec_file(folder, R"({"op": "max_pooling2", "input": {"dataType": "UINT8", "sizes": [1,1,1,1], "fill": "iota"},)"
                        R"( "params": {"windowSize": [4096,4096], "startPadding": [4095,4095]}})");
  const CliResult text = run_cli_binary({"explain", spec, "--at", "0,0,0,0"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("... and 16711680 more taps, not listed\n"), std::string::npos);
  EXPECT_NE(text.out.find("winner: in[0,0,0,0]  offset 0  value 1  index 0 (tap 16777215 in window order)"),
            std::string::npos) << text.out.substr(text.out.size() - 300);
  const CliResult doc = run_cli_binary({"explain", spec, "--at", "0,0,0,0", "--json"});
  ASSERT_EQ(doc.exit_code, 0) << doc.err;
  const json parsed = json::parse(doc.out);
  EXPECT_EQ(parsed["windowTaps"], 16777216);
  EXPECT_EQ(parsed["window"].size(), 65536u);
  EXPECT_EQ(parsed["winner"], 16777215);
}

TEST(CliExplain, ConstantPaddingGivesThePaddingValue) {
  const CliResult result =
      run_cli_binary({"explain", example("padding_example1_constant.json"), "--at", "0,0,0,0", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["kind"], "paddingConstant");
  EXPECT_EQ(doc["value"], 9);
  EXPECT_EQ(doc["unfolded"], json::parse("[0,0,-1,-2]"));
}

TEST(CliExplain, ReflectionFoldsIntoTheInput) {
  // Example 3, first row: 7 6 5 6 ...; out[0,0,0,0] reads in[0,0,1,2] = 7.
  const CliResult result =
      run_cli_binary({"explain", example("padding_example3_reflection.json"), "--at", "0,0,0,0", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["kind"], "paddingFolded");
  EXPECT_EQ(doc["source"], json::parse("[0,0,1,2]"));
  EXPECT_EQ(doc["value"], 7);
}

TEST(CliExplain, PoolingListsTheWindowAndTheFirstMaximumWins) {
  // Window of out[0,0,0,2]: rows -1..1, columns 3..5; values 1 5 / 5 3 with
  // padding around them; the first 5 (row 0, column 4, index 4) wins.
  const CliResult result = run_cli_binary(
      {"explain", example("max_pooling2_3x3_stride2_pad1_indices.json"), "--at", "0,0,0,2", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["kind"], "pooled");
  ASSERT_EQ(doc["window"].size(), 9u);
  EXPECT_EQ(doc["window"][0]["padded"], true);
  EXPECT_EQ(doc["window"][4]["coord"], json::parse("[0,0,0,4]"));
  EXPECT_EQ(doc["winner"], 4);
  EXPECT_EQ(doc["winnerIndex"], 4);
  EXPECT_EQ(doc["value"], 5);
}

TEST(CliExplain, BadCoordinatesExitTwoNamingAt) {
  const std::string spec = example("slice1_example2_negative_strides.json");
  const CliResult outside = run_cli_binary({"explain", spec, "--at", "0,0,2,0"});
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_EQ(outside.err, "error: --at[2]: 2 is outside output size 2\n");
  const CliResult rank = run_cli_binary({"explain", spec, "--at", "0,0"});
  EXPECT_EQ(rank.exit_code, 2);
  EXPECT_EQ(one_line(rank.err).rfind("error: --at: ", 0), 0u) << rank.err;
  const CliResult garbage = run_cli_binary({"explain", spec, "--at", "0,x"});
  EXPECT_EQ(garbage.exit_code, 2);
  EXPECT_EQ(one_line(garbage.err).rfind("error: --at: ", 0), 0u) << garbage.err;
}

TEST(CliExplain, WithoutAtWorksOutTheOutputSizes) {
  // No coordinate: how each output size follows from the spec. SLICE1
  // example 2's window rows: 1 + (4 - 1) / |-2| = 2.
  const CliResult sizes = run_cli_binary({"explain", example("slice1_example2_negative_strides.json")});
  EXPECT_EQ(sizes.exit_code, 0) << sizes.err;
  EXPECT_EQ(sizes.out.rfind("output sizes [1,1,2,2]:\n", 0), 0u) << sizes.out;
  EXPECT_NE(sizes.out.find("  out[2] = MaxCopiedElements = 1 + (windowSize - 1) / |stride| = 1 + (4 - 1) / |-2| = 2\n"),
            std::string::npos)
      << sizes.out;
}

// ---------------------------------------------------------------- layout

TEST(CliLayout, ColumnMajorIsPackedAndPermuted) {
  // DirectML's sizes-and-strides page: 2x3 column-major stores A D B E C F.
  const CliResult result = run_cli_binary({"layout", "--sizes", "2,3", "--strides", "1,2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("traits:   packed, permuted\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("   0 2 4\n   1 3 5\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("  1: [1,0]\n"), std::string::npos) << result.out;
}

TEST(CliLayout, OneByteElementsSayByte) {
  const CliResult result = run_cli_binary({"layout", "--sizes", "3", "--dataType", "UINT8"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("dataType: UINT8 (1 byte)\n"), std::string::npos) << result.out;
}

TEST(CliLayout, JsonTraitsOfThePagesLayouts) {
  struct Case {
    std::vector<std::string> args;
    uint64_t buffer_elements;
    const char* traits;
    const char* offsets;
  };
  const Case cases[] = {
      {{"--sizes", "2,3"}, 6,
       R"({"packed":true,"rowMajor":true,"broadcast":false,"gapped":false,"overlapping":false,"permuted":false})",
       "[0,1,2,3,4,5]"},
      {{"--sizes", "2,3", "--strides", "0,1"}, 3,
       R"({"packed":false,"rowMajor":false,"broadcast":true,"gapped":false,"overlapping":false,"permuted":false})",
       "[0,1,2,0,1,2]"},
      {{"--sizes", "2,3", "--strides", "5,1"}, 8,
       R"({"packed":false,"rowMajor":false,"broadcast":false,"gapped":true,"overlapping":false,"permuted":false})",
       "[0,1,2,5,6,7]"},
      {{"--sizes", "2,2,3", "--strides", "6,3,1"}, 12,
       R"({"packed":true,"rowMajor":true,"broadcast":false,"gapped":false,"overlapping":false,"permuted":false})",
       "[0,1,2,3,4,5,6,7,8,9,10,11]"},
      {{"--sizes", "3,3", "--strides", "1,1"}, 5,
       R"({"packed":false,"rowMajor":false,"broadcast":false,"gapped":false,"overlapping":true,"permuted":false})",
       "[0,1,2,1,2,3,2,3,4]"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"layout", "--json"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const CliResult result = run_cli_binary(args);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const json doc = json::parse(result.out);
    EXPECT_EQ(doc["bufferElements"], c.buffer_elements) << result.out;
    EXPECT_EQ(doc["traits"], json::parse(c.traits)) << result.out;
    EXPECT_EQ(doc["offsets"], json::parse(c.offsets)) << result.out;
  }
}

TEST(CliLayout, NhwcStridesOfThePage) {
  // Packed NHWC for sizes {1,1,3,5}: strides {15,1,5,1}; offset of (0,0,2,4) is 14.
  const CliResult result =
      run_cli_binary({"layout", "--sizes", "1,1,3,5", "--strides", "15,1,5,1", "--dataType", "FLOAT16", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["bufferBytes"], 32);  // 15 halves = 30 bytes, rounded up to 4
  EXPECT_EQ(doc["offsets"][14], 14);
  EXPECT_EQ(doc["traits"]["packed"], true);
}

TEST(CliLayout, ErrorsNameTheOption) {
  const CliResult zero = run_cli_binary({"layout", "--sizes", "2,0"});
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_EQ(zero.err, "error: --sizes[1]: size must be at least 1\n");
  const CliResult mismatch = run_cli_binary({"layout", "--sizes", "2,3", "--strides", "1"});
  EXPECT_EQ(mismatch.exit_code, 2);
  EXPECT_EQ(one_line(mismatch.err).rfind("error: --strides: ", 0), 0u) << mismatch.err;
  const CliResult type = run_cli_binary({"layout", "--sizes", "2", "--dataType", "FLOAT8"});
  EXPECT_EQ(type.exit_code, 2);
  EXPECT_EQ(one_line(type.err).rfind("error: --dataType: ", 0), 0u) << type.err;
  const CliResult none = run_cli_binary({"layout"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(one_line(none.err).rfind("error: --sizes: ", 0), 0u) << none.err;
  const CliResult big = run_cli_binary({"layout", "--sizes", "1000,1000", "--max-bytes", "1000"});
  EXPECT_EQ(big.exit_code, 2);
  EXPECT_EQ(one_line(big.err).rfind("error: --sizes: buffer of 4000000 bytes exceeds", 0), 0u) << big.err;
}

TEST(CliLayout, HugeBroadcastListsOnlyAPrefixOfItsOffsets) {
  const CliResult result = run_cli_binary({"layout", "--sizes", "100000,100000", "--strides", "0,0", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["bufferElements"], 1);
  EXPECT_EQ(doc["offsetsTruncated"], true);
}

}  // namespace
}  // namespace stridescope::test
