// resources/docs/cli.md against the built stridescope-cli: `generate` (a corpus of specs, each
// beside its result document) and `check` (another implementation's result
// against StrideScope's).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

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
