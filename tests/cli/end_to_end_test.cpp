// resources/docs/cli.md against the built stridescope-cli: commands, exit codes
// (0 ok; 2 invalid spec or bad arguments; 3 backend unavailable; compare 1 on
// a mismatch) and errors as one stderr line "error: <field path>: <message>".
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/backend_factory.h"
#include "cli_runner.h"
#include "core/io/npy.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

bool has_vulkan() {
  const auto names = compiled_backends();
  return std::find(names.begin(), names.end(), "vulkan") != names.end();
}

std::string one_line(const std::string& text) {
  return text.empty() || text.find('\n') != text.size() - 1 ? "<not one line: " + text + ">" : text;
}

// Writes `text` as spec.json in `folder` and returns its path.
std::string spec_file(const TempFolder& folder, std::string_view text, const std::string& name = "spec.json") {
  write_text(folder / name, text);
  return (folder / name).string();
}

// ---------------------------------------------------------------- run

TEST(CliRun, PrintsTheResultDocument) {
  const CliResult result = run_cli_binary({"run", example("slice1_example2_negative_strides.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(json::parse(result.out), json::parse(R"({
    "backend": "cpu",
    "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2], "strides": [4,4,2,1], "data": [14,16,6,8] }
  })"));
}

TEST(CliRun, InvalidSpecExitsTwoWithTheContractsErrorLine) {
  TempFolder folder;
  const std::string spec = spec_file(folder, R"({
    "op": "slice1",
    "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,4], "fill": "iota" },
    "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2] },
    "params": { "inputWindowOffsets": [0,0,0,1], "inputWindowSizes": [1,1,4,3], "inputWindowStrides": [1,1,0,2] }
  })");
  const CliResult result = run_cli_binary({"run", spec});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "error: params.inputWindowStrides[2]: stride must not be 0\n");
  EXPECT_EQ(result.out, "");
}

// One rule of the spec format (resources/docs/) per row: the spec breaking it, and the field path the
// error line must name.
struct InvalidCase {
  const char* rule;
  const char* spec;
  const char* path;
};

const InvalidCase kInvalidSpecs[] = {
    {"unknown fields are errors",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2]}, "comment": "x"})", "comment"},
    {"unknown op", R"({"op": "transpose", "input": {"dataType": "FLOAT32", "sizes": [2]}})", "op"},
    {"unknown data type", R"({"op": "identity", "input": {"dataType": "BFLOAT16", "sizes": [2]}})", "input.dataType"},
    {"1 to 8 dimensions", R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": []}})", "input.sizes"},
    {"more than 8 dimensions",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1,1,1,1,1,1,1,1,1]}})", "input.sizes"},
    {"sizes at least 1", R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,0]}})", "input.sizes[1]"},
    {"strides one per dimension",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,2], "strides": [1]}})", "input.strides"},
    {"strides are not negative",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,2], "strides": [2,-1]}})",
     "input.strides[1]"},
    {"output strides must not overlap",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,2]}, "output": {"strides": [1,1]}})",
     "output.strides"},
    {"output broadcast is overlap too",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,2]}, "output": {"strides": [0,1]}})",
     "output.strides"},
    {"identity output sizes equal the input's",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,2]}, "output": {"sizes": [2,3]}})",
     "output.sizes[1]"},
    {"input and output data types agree",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2]}, "output": {"dataType": "INT32"}})",
     "output.dataType"},
    {"data at least the buffer size",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2,2], "data": [1,2,3]}})", "input.data"},
    {"data values fit the type",
     R"({"op": "identity", "input": {"dataType": "UINT8", "sizes": [2], "data": [1, 256]}})", "input.data[1]"},
    {"only one of data, fill and npy",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1], "data": [1], "fill": "zeros"}})",
     "input.fill"},
    {"slice offsets one per dimension",
     R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4,4]},
         "params": {"offsets": [0], "sizes": [1,1], "strides": [1,1]}})",
     "params.offsets"},
    {"slice strides >= 1",
     R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4,4]},
         "params": {"offsets": [0,0], "sizes": [1,1], "strides": [1,0]}})",
     "params.strides[1]"},
    {"slice reads inside the input",
     R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4,4]},
         "params": {"offsets": [0,1], "sizes": [1,2], "strides": [1,3]}})",
     "params.sizes[1]"},
    {"slice sizes equal the output sizes",
     R"({"op": "slice", "input": {"dataType": "FLOAT32", "sizes": [4,4]}, "output": {"sizes": [1,3]},
         "params": {"offsets": [0,0], "sizes": [1,2], "strides": [1,1]}})",
     "output.sizes[1]"},
    {"slice1 stride must not be 0",
     R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4,4]}, "output": {"sizes": [1,1]},
         "params": {"inputWindowOffsets": [0,0], "inputWindowSizes": [1,1], "inputWindowStrides": [0,1]}})",
     "params.inputWindowStrides[0]"},
    {"slice1 window inside the input",
     R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4,4]}, "output": {"sizes": [1,1]},
         "params": {"inputWindowOffsets": [0,2], "inputWindowSizes": [1,3], "inputWindowStrides": [1,1]}})",
     "params.inputWindowSizes[1]"},
    {"slice1 window not empty",
     R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4,4]}, "output": {"sizes": [1,1]},
         "params": {"inputWindowOffsets": [0,0], "inputWindowSizes": [0,1], "inputWindowStrides": [1,1]}})",
     "params.inputWindowSizes[0]"},
    {"slice1 output no larger than the reachable count 1 + (size - 1) / |stride|",
     R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]}, "output": {"sizes": [1,1,3,2]},
         "params": {"inputWindowOffsets": [0,0,0,1], "inputWindowSizes": [1,1,4,3],
                    "inputWindowStrides": [1,1,-2,2]}})",
     "output.sizes[2]"},
    {"slice1 strides are integers",
     R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4]},
         "params": {"inputWindowOffsets": [0], "inputWindowSizes": [4], "inputWindowStrides": [-1.5]}})",
     "params.inputWindowStrides[0]"},
    {"padding mode is one of four",
     R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [4]},
         "params": {"paddingMode": "WRAP", "startPadding": [1], "endPadding": [1]}})",
     "params.paddingMode"},
    {"padding output sizes are input + start + end",
     R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]}, "output": {"sizes": [1,1,8,9]},
         "params": {"paddingMode": "EDGE", "startPadding": [0,0,1,2], "endPadding": [0,0,3,4]}})",
     "output.sizes[3]"},
    {"padding arrays one per dimension",
     R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [4,4]},
         "params": {"paddingMode": "EDGE", "startPadding": [1,1], "endPadding": [1]}})",
     "params.endPadding"},
    {"paddingValue fits the integer type",
     R"({"op": "padding", "input": {"dataType": "UINT8", "sizes": [4]},
         "params": {"paddingMode": "CONSTANT", "paddingValue": 300, "startPadding": [1], "endPadding": [1]}})",
     "params.paddingValue"},
    {"paddingValue is a number",
     R"({"op": "padding", "input": {"dataType": "FLOAT32", "sizes": [4]},
         "params": {"paddingMode": "CONSTANT", "paddingValue": "nine", "startPadding": [1], "endPadding": [1]}})",
     "params.paddingValue"},
    {"max_pooling2 needs a 4-D or 5-D input",
     R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [4,4]}, "params": {"windowSize": [2,2]}})",
     "input.sizes"},
    {"max_pooling2 arrays one per spatial dimension",
     R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]}, "params": {"windowSize": [2,2,2]}})",
     "params.windowSize"},
    {"max_pooling2 strides >= 1",
     R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]},
         "params": {"windowSize": [2,2], "strides": [0,1]}})",
     "params.strides[0]"},
    {"max_pooling2 dilated window fits the padded input",
     R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]},
         "params": {"windowSize": [3,3], "dilations": [1,2]}})",
     "params.windowSize[1]"},
    {"max_pooling2 output sizes follow the formula",
     R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]}, "output": {"sizes": [1,1,2,2]},
         "params": {"windowSize": [2,2], "strides": [1,1]}})",
     "output.sizes[2]"},
    {"outputIndices is UINT32 or UINT64",
     R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1,1,4,4]},
         "outputIndices": {"dataType": "INT32"}, "params": {"windowSize": [2,2]}})",
     "outputIndices.dataType"},
    {"outputIndices only for max_pooling2",
     R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [2]}, "outputIndices": {"dataType": "UINT32"}})",
     "outputIndices"},
};

TEST(CliRun, EveryRuleOfTheContractIsAnInvalidSpecNamingItsField) {
  TempFolder folder;
  for (const InvalidCase& c : kInvalidSpecs) {
    SCOPED_TRACE(c.rule);
    const CliResult result = run_cli_binary({"run", spec_file(folder, c.spec)});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(one_line(result.err).rfind("error: " + std::string(c.path) + ": ", 0), 0u) << result.err;
    EXPECT_EQ(result.out, "");
  }
}

TEST(CliRun, InvalidJsonExitsTwoNamingTheFile) {
  TempFolder folder;
  const std::string spec = spec_file(folder, "{\"op\": ");
  const CliResult result = run_cli_binary({"run", spec});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(one_line(result.err).rfind("error: " + spec + ": invalid JSON", 0), 0u) << result.err;
}

TEST(CliRun, MissingSpecFileExitsTwoNamingIt) {
  TempFolder folder;
  const std::string spec = (folder / "nope.json").string();
  const CliResult result = run_cli_binary({"run", spec});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(one_line(result.err).rfind("error: " + spec + ": ", 0), 0u) << result.err;
}

TEST(CliRun, BufferOverMaxBytesIsRefused) {
  TempFolder folder;
  // 1024 x 1024 FLOAT32 needs 4 MiB.
  const std::string spec =
      spec_file(folder, R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1024,1024]}})");
  const CliResult refused = run_cli_binary({"run", spec, "--max-bytes", "1000000"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err,
            "error: input.sizes: buffer of 4194304 bytes exceeds the limit of 1000000 bytes (--max-bytes)\n");
  const CliResult allowed = run_cli_binary({"run", spec, "--max-bytes", "4194304", "--out",
                                            (folder / "out.npy").string()});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
}

TEST(CliRun, OutWithAnUpperCaseNpySuffixWritesNpy) {
  TempFolder folder;
  const std::string out = (folder / "RESULT.NPY").string();
  const CliResult result = run_cli_binary({"run", example("slice_example1_contiguous.json"), "--out", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const Expected<NpyArray> array = read_npy(out, 1 << 20);
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  EXPECT_EQ(array->shape, (std::vector<uint64_t>{1, 1, 3, 2}));
}

TEST(CliRun, ReadsTheSpecFromAPipe) {
  TempFolder folder;
  write_text(folder / "spec.json", R"({"op": "identity", "input": {"dataType": "INT32", "sizes": [3], "fill": "iota"}})");
  const CliResult piped = run_cli_binary({"run", "/dev/stdin"}, folder / "spec.json");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_NE(piped.out.find("\"data\": [1,2,3]"), std::string::npos) << piped.out;
}

TEST(CliRun, InvalidSpecExitsTwoWhateverBackendWasAskedFor) {
  TempFolder folder;
  const std::string spec = spec_file(folder, R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [0]}})");
  const CliResult result = run_cli_binary({"run", spec, "--backend", "vulkan"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "error: input.sizes[0]: size must be at least 1\n");
}

TEST(CliRun, VulkanWithoutTheBackendExitsThree) {
  if (has_vulkan()) GTEST_SKIP() << "this build has the Vulkan backend";
  const CliResult result = run_cli_binary({"run", example("slice_example1_contiguous.json"), "--backend", "vulkan"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(one_line(result.err).rfind("error: --backend: ", 0), 0u) << result.err;
}

TEST(CliRun, UnknownBackendExitsTwo) {
  const CliResult result = run_cli_binary({"run", example("slice_example1_contiguous.json"), "--backend", "tpu"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(one_line(result.err).rfind("error: --backend: ", 0), 0u) << result.err;
}

TEST(CliRun, OutJsonWritesTheDocumentToTheFile) {
  TempFolder folder;
  const std::string out = (folder / "result.json").string();
  const CliResult result = run_cli_binary({"run", example("slice_example1_contiguous.json"), "--out", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(json::parse(read_text(out))["output"]["data"], json::parse("[7,8,11,12,15,16]"));
}

TEST(CliRun, OutNpyWritesOutputAndIndicesWithTheOutputShape) {
  TempFolder folder;
  const std::string out = (folder / "pool.npy").string();
  const CliResult result =
      run_cli_binary({"run", example("max_pooling2_3x3_stride2_pad1_indices.json"), "--out", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  const std::string text = read_text(out);
  EXPECT_NE(text.find("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 3, 3), }"), std::string::npos);
  const Expected<NpyArray> output = read_npy(out, 1 << 20);
  ASSERT_TRUE(output.has_value()) << output.error().to_string();
  std::vector<float> values(9);
  std::memcpy(values.data(), output->data.data(), 36);
  EXPECT_EQ(values, (std::vector<float>{9, 6, 5, 9, 9, 9, 6, 8, 8}));

  const Expected<NpyArray> indices = read_npy(folder / "pool.indices.npy", 1 << 20);
  ASSERT_TRUE(indices.has_value()) << indices.error().to_string();
  EXPECT_EQ(indices->type, DataType::UInt32);
  EXPECT_EQ(indices->shape, (std::vector<uint64_t>{1, 1, 3, 3}));
  std::vector<uint32_t> flat(9);
  std::memcpy(flat.data(), indices->data.data(), 36);
  EXPECT_EQ(flat, (std::vector<uint32_t>{5, 7, 4, 5, 12, 14, 20, 18, 18}));
}

TEST(CliRun, OutNpyThatCannotWriteTheIndicesLeavesTheEarlierOutputAsItWas) {
  TempFolder folder;
  const std::string out = (folder / "pool.npy").string();
  write_text(out, "an earlier run's output");
  std::filesystem::create_directory(folder / "pool.indices.npy");
  const CliResult result =
      run_cli_binary({"run", example("max_pooling2_3x3_stride2_pad1_indices.json"), "--out", out});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("pool.indices.npy: is a folder"), std::string::npos) << result.err;
  // Not a new output beside missing indices: the pair is written together or not at all.
  EXPECT_EQ(read_text(out), "an earlier run's output");
  EXPECT_EQ(folder.entries(), (std::vector<std::string>{"pool.indices.npy", "pool.npy"}));
}

TEST(CliRun, OutNpyOfAGappedOutputIsItsFlatBuffer) {
  TempFolder folder;
  const std::string spec = spec_file(folder, R"({"op": "identity",
    "input": {"dataType": "INT16", "sizes": [2,3], "data": [1,2,3,4,5,6]},
    "output": {"strides": [4,1]}})");
  const std::string out = (folder / "gapped.npy").string();
  ASSERT_EQ(run_cli_binary({"run", spec, "--out", out}).exit_code, 0);
  const Expected<NpyArray> array = read_npy(out, 1 << 20);
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  // Offsets 0,1,2 and 4,5,6; offset 3 is a gap left zero.
  EXPECT_EQ(array->shape, std::vector<uint64_t>{7});
  std::vector<int16_t> values(7);
  std::memcpy(values.data(), array->data.data(), 14);
  EXPECT_EQ(values, (std::vector<int16_t>{1, 2, 3, 0, 4, 5, 6}));
}

TEST(CliRun, NpyOutputFeedsBackAsNpyInput) {
  TempFolder folder;
  const std::string first = spec_file(folder, R"({"op": "identity",
    "input": {"dataType": "INT64", "sizes": [2,2], "data": [-9223372036854775808, 9007199254740993, -1, 42]}})",
                                      "first.json");
  ASSERT_EQ(run_cli_binary({"run", first, "--out", (folder / "values.npy").string()}).exit_code, 0);
  // Relative to the spec file's folder.
  const std::string second = spec_file(folder, R"({"op": "slice1",
    "input": {"dataType": "INT64", "sizes": [2,2], "npy": "values.npy"},
    "params": {"inputWindowOffsets": [0,0], "inputWindowSizes": [2,2], "inputWindowStrides": [-1,-1]}})",
                                       "second.json");
  const CliResult result = run_cli_binary({"run", second});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(R"("data": [42,-1,9007199254740993,-9223372036854775808])"), std::string::npos)
      << result.out;
}

TEST(CliRun, NpyOfTheWrongTypeIsAnErrorAtInputNpy) {
  TempFolder folder;
  const std::vector<std::byte> bytes(8);
  const std::vector<uint64_t> shape = {2};
  ASSERT_TRUE(write_npy(folder / "f32.npy", DataType::Float32, shape, bytes).ok());
  const std::string spec =
      spec_file(folder, R"({"op": "identity", "input": {"dataType": "INT32", "sizes": [2], "npy": "f32.npy"}})");
  const CliResult result = run_cli_binary({"run", spec});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(one_line(result.err).rfind("error: input.npy: ", 0), 0u) << result.err;
}

// ---------------------------------------------------------------- compare

TEST(CliCompare, EveryAvailableBackendAgreesOnTheExample) {
  const CliResult result = run_cli_binary({"compare", example("padding_example4_symmetric.json")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const auto names = compiled_backends();
  if (names == std::vector<std::string>{"cpu"}) {
    EXPECT_EQ(result.err, "note: this build has only the cpu backend; compared cpu alone\n");
    EXPECT_EQ(result.out, "ran: cpu alone on 80 output elements (nothing to compare with)\n");
  } else if (!has_vulkan()) {
    // The fast CPU backend is checked against the reference one.
    EXPECT_EQ(result.err, "");
    EXPECT_EQ(result.out, "equal: cpu and cpu-reference agree bit for bit on 80 output elements\n");
  }
}

TEST(CliSelftest, EveryBackendOfThisBuildAgreesWithTheReference) {
  const CliResult result = run_cli_binary({"selftest", "--count", "40"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("reference: cpu-reference (CPU reference)\n", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("testing:   cpu (CPU ("), std::string::npos) << result.out;
  const bool vulkan_here = has_vulkan() && result.err.find("vulkan backend unavailable") == std::string::npos;
  if (vulkan_here) {
    EXPECT_NE(result.out.find("testing:   vulkan ("), std::string::npos) << result.out;
  }
  EXPECT_NE(result.out.find(" 0 differ, 0 failed\n"), std::string::npos) << result.out;
}

TEST(CliCompare, InvalidSpecExitsTwo) {
  TempFolder folder;
  const CliResult result = run_cli_binary({"compare", spec_file(folder, R"({"op": "identity"})")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "error: input: missing required field\n");
}

// ---------------------------------------------------------------- explain

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

// ---------------------------------------------------------------- arguments

TEST(CliArgumentsEndToEnd, HelpAndVersionExitZero) {
  const CliResult help = run_cli_binary({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out.rfind("usage: stridescope-cli", 0), 0u);
  EXPECT_NE(help.out.find("X.indices.npy"), std::string::npos);
  const CliResult version = run_cli_binary({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("stridescope-cli ", 0), 0u);
}

TEST(CliArgumentsEndToEnd, BadArgumentsExitTwoWithOneErrorLine) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"frobnicate"},
           {"run"},
           {"run", example("slice_example1_contiguous.json"), "extra"},
           {"run", example("slice_example1_contiguous.json"), "--frobnicate"},
           {"layout", "--at", "1"},
       }) {
    const CliResult result = run_cli_binary(args);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(one_line(result.err).rfind("error: ", 0), 0u) << result.err;
  }
}

// ---------------------------------------------------------------- demo

TEST(CliDemoEndToEnd, RunsTheBundledExamples) {
  const CliResult result = run_cli_binary({"demo"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("== padding_example4_symmetric ==\n"), std::string::npos);
  EXPECT_NE(result.out.find(" examples ran\n"), std::string::npos);
}

TEST(CliDemoEndToEnd, FolderWithoutSpecsExitsTwo) {
  TempFolder folder;
  const CliResult result = run_cli_binary({"demo", folder.path().string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(one_line(result.err).rfind("error: " + folder.path().string() + ": ", 0), 0u) << result.err;
}

TEST(CliDemoEndToEnd, ABrokenExampleIsReportedAndTheRestStillRun) {
  TempFolder folder;
  spec_file(folder, R"({"op": "identity", "input": {"dataType": "UINT8", "sizes": [2], "data": [4,5]}})", "a.json");
  spec_file(folder, R"({"op": "identity"})", "b.json");
  const CliResult result = run_cli_binary({"demo", folder.path().string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.out.find("   4 5\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("  error: input: missing required field\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1 of 2 examples ran\n"), std::string::npos) << result.out;
}

// generate: a corpus of specs, each beside the result document `run` gives for it.
std::vector<std::string> corpus_files(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CliGenerate, WritesSpecsThatRunToTheResultsBesideThem) {
  TempFolder folder;
  const CliResult result = run_cli_binary({"generate", (folder / "corpus").string(), "--count", "8", "--seed", "7"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("wrote 8 cases"), std::string::npos) << result.out;
  const std::vector<std::string> files = corpus_files(folder / "corpus");
  ASSERT_EQ(files.size(), 16u);
  for (const std::string& name : files) {
    if (name.ends_with(".result.json")) continue;
    SCOPED_TRACE(name);
    EXPECT_TRUE(name.starts_with("case_000"));
    const std::filesystem::path spec = folder / "corpus" / name;
    const CliResult run = run_cli_binary({"run", spec.string()});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::filesystem::path result_file = spec;
    result_file.replace_extension(".result.json");
    EXPECT_EQ(run.out, read_text(result_file));
  }
}

TEST(CliGenerate, TheSameSeedWritesTheSameCasesAndALargerCountExtendsThem) {
  TempFolder folder;
  ASSERT_EQ(run_cli_binary({"generate", (folder / "a").string(), "--count", "3", "--seed", "9"}).exit_code, 0);
  ASSERT_EQ(run_cli_binary({"generate", (folder / "b").string(), "--count", "5", "--seed", "9"}).exit_code, 0);
  ASSERT_EQ(run_cli_binary({"generate", (folder / "c").string(), "--count", "3", "--seed", "10"}).exit_code, 0);
  const std::vector<std::string> a = corpus_files(folder / "a");
  ASSERT_EQ(a.size(), 6u);
  const std::vector<std::string> b = corpus_files(folder / "b");
  for (const std::string& name : a) {
    ASSERT_TRUE(std::find(b.begin(), b.end(), name) != b.end()) << name;
    EXPECT_EQ(read_text(folder / "a" / name), read_text(folder / "b" / name)) << name;
  }
  EXPECT_NE(corpus_files(folder / "c"), a);
}

TEST(CliGenerate, OnlyTheOpAskedWithinTheElementLimit) {
  TempFolder folder;
  const CliResult result = run_cli_binary(
      {"generate", folder.path().string(), "--count", "4", "--op", "max_pooling2", "--max-elements", "20"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const std::string& name : corpus_files(folder.path())) {
    EXPECT_NE(name.find("_max_pooling2."), std::string::npos) << name;
    if (!name.ends_with(".result.json")) continue;
    const json output = json::parse(read_text(folder / name))["output"];
    uint64_t elements = 1;
    for (const uint64_t size : output["sizes"].get<std::vector<uint64_t>>()) elements *= size;
    EXPECT_LE(elements, 20u) << name;
  }
}

TEST(CliGenerate, BadOptionsAreErrorsNamingThem) {
  TempFolder folder;
  const std::string dir = folder.path().string();
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"generate", dir, "--count", "0"}, "error: --count: must be 1 to 1000000"},
      {{"generate", dir, "--count", "ten"}, "error: --count: expected a non-negative integer, got 'ten'"},
      {{"generate", dir, "--max-elements", "0"}, "error: --max-elements: must be 1 to 1048576"},
      {{"generate", dir, "--seed", "-1"}, "error: --seed: expected a non-negative integer, got '-1'"},
      {{"generate", dir, "--op", "conv"}, "error: --op: expected identity, slice, slice1, padding or max_pooling2"},
      {{"generate"}, "error: DIR: generate needs a folder to write the cases to"},
      {{"run", dir, "--seed", "1"}, "error: --seed: is not an option of run"},
  };
  for (const auto& c : cases) {
    const CliResult result = run_cli_binary(c.args);
    EXPECT_EQ(result.exit_code, 2) << c.message;
    EXPECT_TRUE(result.err.starts_with(c.message)) << result.err;
  }
  EXPECT_TRUE(corpus_files(folder.path()).empty());
}

// check: another implementation's result against StrideScope's.
TEST(CliCheck, AMatchingResultDocumentOrNpyPasses) {
  TempFolder folder;
  const std::string spec = example("max_pooling2_3x3_stride2_pad1_indices.json");
  const CliResult run = run_cli_binary({"run", spec});
  write_text(folder / "theirs.json", run.out);
  const CliResult json_check = run_cli_binary({"check", spec, (folder / "theirs.json").string()});
  EXPECT_EQ(json_check.exit_code, 0) << json_check.err;
  EXPECT_NE(json_check.out.find("matches cpu bit for bit on 9 output elements and their indices"), std::string::npos)
      << json_check.out;
  ASSERT_EQ(run_cli_binary({"run", spec, "--out", (folder / "theirs.npy").string()}).exit_code, 0);
  const CliResult npy_check = run_cli_binary({"check", spec, (folder / "theirs.npy").string()});
  EXPECT_EQ(npy_check.exit_code, 0) << npy_check.err;
}

TEST(CliCheck, TheFirstDifferenceIsNamedWithBothValuesAndItsRule) {
  TempFolder folder;
  // DML_SLICE1 example 2 gives [14,16,6,8]; this implementation got 7 for out[0,0,1,0].
  write_text(folder / "theirs.json", R"({"backend": "mine",
    "output": {"dataType": "FLOAT32", "sizes": [1,1,2,2], "strides": [4,4,2,1], "data": [14,16,7,8]}})");
  const CliResult result =
      run_cli_binary({"check", example("slice1_example2_negative_strides.json"), (folder / "theirs.json").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("output[0,0,1,0]: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("theirs.json has 7, cpu gives 6 (1 of 4 elements differ)"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("= in[0,0,1,1] (offset 5)"), std::string::npos) << result.err;
}

TEST(CliCheck, ANanInAResultDocumentMatchesAnyNan) {
  TempFolder folder;
  const std::string spec = spec_file(folder, R"({"op": "identity",
    "input": {"dataType": "FLOAT32", "sizes": [3], "data": [1, "NaN", "-Infinity"]}})");
  write_text(folder / "theirs.json",
             R"({"output": {"dataType": "FLOAT32", "sizes": [3], "data": [1, "NaN", "-Infinity"]}})");
  const CliResult result = run_cli_binary({"check", spec, (folder / "theirs.json").string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("its NaNs matched NaNs"), std::string::npos) << result.out;
  // but a number is not a NaN
  write_text(folder / "wrong.json", R"({"output": {"dataType": "FLOAT32", "sizes": [3], "data": [1, 0, "-Infinity"]}})");
  EXPECT_EQ(run_cli_binary({"check", spec, (folder / "wrong.json").string()}).exit_code, 1);
}

TEST(CliCheck, AResultThatDoesNotFitTheSpecIsAnErrorNamingTheField) {
  TempFolder folder;
  const std::string spec = spec_file(folder, R"({"op": "identity",
    "input": {"dataType": "UINT8", "sizes": [2], "data": [1, 2]}})");
  const struct {
    std::string document;
    std::string message;
  } cases[] = {
      {R"({"output": {"dataType": "INT8", "sizes": [2], "data": [1,2]}})", "output.dataType: is INT8; the spec's is UINT8"},
      {R"({"output": {"dataType": "UINT8", "sizes": [3], "data": [1,2,3]}})", "output.sizes: are [3]; the spec's are [2]"},
      {R"({"output": {"dataType": "UINT8", "sizes": [2], "data": [1]}})", "output.data: has 1 values; the buffer has 2"},
      {R"({"output": {"dataType": "UINT8", "sizes": [2], "data": [1, 300]}})", "output.data[1]: "},
      {R"({"output": {"dataType": "UINT8", "sizes": [2], "data": [1, 2]}, "extra": 1})", "extra: "},
      {R"({"backend": "cpu"})", "output: "},
  };
  for (const auto& c : cases) {
    write_text(folder / "theirs.json", c.document);
    const CliResult result = run_cli_binary({"check", spec, (folder / "theirs.json").string()});
    EXPECT_EQ(result.exit_code, 2) << c.document;
    EXPECT_TRUE(result.err.starts_with("error: " + (folder / "theirs.json").string() + ": " + c.message))
        << result.err;
  }
  EXPECT_EQ(run_cli_binary({"check", spec}).exit_code, 2);
  EXPECT_EQ(run_cli_binary({"check", spec, (folder / "missing.npy").string()}).exit_code, 2);
  // Far longer than two values can be written: refused before it is parsed.
  write_text(folder / "huge.json", R"({"output": {"data": [)" + std::string(200000, ' ') + "1,2]}}");
  const CliResult huge = run_cli_binary({"check", spec, (folder / "huge.json").string()});
  EXPECT_EQ(huge.exit_code, 2);
  EXPECT_NE(huge.err.find("is longer than a result document of this spec can be"), std::string::npos) << huge.err;
}

TEST(CliCheck, EveryGeneratedCaseChecksAgainstTheResultBesideIt) {
  TempFolder folder;
  ASSERT_EQ(run_cli_binary({"generate", folder.path().string(), "--count", "12", "--seed", "3"}).exit_code, 0);
  for (const std::string& name : corpus_files(folder.path())) {
    if (name.ends_with(".result.json")) continue;
    std::filesystem::path result = folder / name;
    result.replace_extension(".result.json");
    const CliResult check = run_cli_binary({"check", (folder / name).string(), result.string()});
    EXPECT_EQ(check.exit_code, 0) << name << ": " << check.err;
  }
}

}  // namespace
}  // namespace stridescope::test
