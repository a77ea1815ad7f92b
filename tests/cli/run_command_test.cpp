// resources/docs/cli.md against the built stridescope-cli: `run`: the result document,
// --out files (JSON, .npy; a failed write keeps the earlier file), .npy input, and
// every rule of the spec format as exit code 2 with one stderr line
// "error: <field path>: <message>".
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "core/io/npy.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

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

}  // namespace
}  // namespace stridescope::test
