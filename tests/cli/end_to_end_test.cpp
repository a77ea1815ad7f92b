// resources/docs/cli.md against the built stridescope-cli: `compare`, `selftest`,
// the arguments every command shares, and `demo`. Exit codes: 0 ok; 2 invalid spec
// or bad arguments; 3 backend unavailable; compare 1 on a mismatch.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

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

}  // namespace
}  // namespace stridescope::test
