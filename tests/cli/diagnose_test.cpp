// check SPEC RESULT --diagnose, end to end: the mistaken results are written
// by hand from the DirectML rules (REFLECTION of 1 2 3 4 by 2 is 3 2 |1 2 3 4| 3 2;
// repeating the edge gives 2 1 |1 2 3 4| 4 3).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.h"

namespace stridescope::test {
namespace {

constexpr const char* kReflection = R"({"op": "padding",
  "input": {"dataType": "FLOAT32", "sizes": [1,1,1,4], "data": [1,2,3,4]},
  "params": {"paddingMode": "REFLECTION", "startPadding": [0,0,0,2], "endPadding": [0,0,0,2]}})";

std::string result_document(const std::string& data) {
  return R"({"output": {"dataType": "FLOAT32", "sizes": [1,1,1,8], "data": [)" + data + "]}}";
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST(CliDiagnose, ARepeatedEdgeIsNamed) {
  TempFolder folder;
  write_text(folder / "spec.json", kReflection);
  write_text(folder / "theirs.json", result_document("2,1,1,2,3,4,4,3"));
  const CliResult r =
      run_cli_binary({"check", (folder / "spec.json").string(), (folder / "theirs.json").string(), "--diagnose"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("(4 of 8 elements differ)"), std::string::npos) << r.err;  // check's own report stays
  EXPECT_TRUE(r.out.starts_with("diagnosis: reflection-repeats-edge: REFLECTION padding repeats the edge element"))
      << r.out;
  EXPECT_EQ(count_of(r.out, "diagnosis:"), 1u) << r.out;
}

TEST(CliDiagnose, TheExactResultHasNoDiagnosis) {
  TempFolder folder;
  write_text(folder / "spec.json", kReflection);
  write_text(folder / "theirs.json", result_document("3,2,1,2,3,4,3,2"));
  const CliResult r =
      run_cli_binary({"check", (folder / "spec.json").string(), (folder / "theirs.json").string(), "--diagnose"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("equal: ")) << r.out;
  EXPECT_EQ(r.out.find("diagnosis"), std::string::npos) << r.out;
}

TEST(CliDiagnose, JsonGivesTheSameAsADocument) {
  TempFolder folder;
  write_text(folder / "spec.json", kReflection);
  write_text(folder / "theirs.json", result_document("2,1,1,2,3,4,4,3"));
  const CliResult r = run_cli_binary(
      {"check", (folder / "spec.json").string(), (folder / "theirs.json").string(), "--diagnose", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto document = nlohmann::json::parse(r.out);
  EXPECT_EQ(document["equal"], false);
  EXPECT_EQ(document["differing"], 4);
  ASSERT_EQ(document["diagnoses"].size(), 1u);
  EXPECT_EQ(document["diagnoses"][0]["id"], "reflection-repeats-edge");
  EXPECT_EQ(document["diagnoses"][0]["complete"], true);
  EXPECT_EQ(document["unknown"], false);

  write_text(folder / "exact.json", result_document("3,2,1,2,3,4,3,2"));
  const CliResult equal = run_cli_binary(
      {"check", (folder / "spec.json").string(), (folder / "exact.json").string(), "--diagnose", "--json"});
  EXPECT_EQ(equal.exit_code, 0) << equal.err;
  EXPECT_EQ(nlohmann::json::parse(equal.out)["equal"], true);
}

TEST(CliDiagnose, AnUnexplainedDifferenceIsUnknownWithWhatItShares) {
  TempFolder folder;
  write_text(folder / "spec.json", kReflection);
  write_text(folder / "theirs.json", result_document("3,2,1,2,3,4,3,9"));
  const CliResult r =
      run_cli_binary({"check", (folder / "spec.json").string(), (folder / "theirs.json").string(), "--diagnose"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.starts_with("diagnosis: unknown\n")) << r.out;
  EXPECT_NE(r.out.find("  in common: only one position: [0,0,0,7]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  in common: only padded positions\n"), std::string::npos) << r.out;
}

// DirectML's page sizes the output without Dilations: 1 2 3 4 5, window 2
// dilated by 2 gives 3 elements (3 4 5); the page's formula 4 (3 4 5 4).
TEST(CliDiagnose, AResultOfUndilatedSizesStillExitsTwoButIsNamed) {
  TempFolder folder;
  write_text(folder / "spec.json", R"({"op": "max_pooling2",
    "input": {"dataType": "FLOAT32", "sizes": [1,1,1,5], "fill": "iota"},
    "params": {"windowSize": [1,2], "dilations": [1,2]}})");
  write_text(folder / "theirs.json",
             R"({"output": {"dataType": "FLOAT32", "sizes": [1,1,1,4], "data": [3,4,5,4]}})");
  const CliResult r =
      run_cli_binary({"check", (folder / "spec.json").string(), (folder / "theirs.json").string(), "--diagnose"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("output.sizes: are [1,1,1,4]"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.starts_with("diagnosis: undilated-output-size: ")) << r.out;

  const CliResult plain = run_cli_binary({"check", (folder / "spec.json").string(), (folder / "theirs.json").string()});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_TRUE(plain.out.empty()) << plain.out;
}

TEST(CliDiagnose, AResultThatIsInvalidOtherwiseGetsNoDiagnosis) {
  TempFolder folder;
  write_text(folder / "spec.json", kReflection);
  write_text(folder / "theirs.json", R"({"output": {"dataType": "INT8", "sizes": [1,1,1,8], "data": [0,0,0,0,0,0,0,0]}})");
  const CliResult r =
      run_cli_binary({"check", (folder / "spec.json").string(), (folder / "theirs.json").string(), "--diagnose"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("output.dataType: is INT8"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliDiagnose, JsonNeedsDiagnose) {
  TempFolder folder;
  write_text(folder / "spec.json", kReflection);
  const CliResult r = run_cli_binary({"check", (folder / "spec.json").string(), "x.json", "--json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.err.starts_with("error: --json: ")) << r.err;
}

// The pairs resources/docs/mistakes.md draws (resources/mistakes/NAME.json
// and NAME.theirs.json, the mistaken results written by hand from the page):
// each names its own mistake first.
TEST(CliDiagnose, EveryDocumentedMistakenResultIsNamedByItsMistake) {
  const std::filesystem::path mistakes = std::filesystem::path(STRIDESCOPE_EXAMPLES_DIR) / ".." / "mistakes";
  const std::string suffix = ".theirs.json";
  int pairs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(mistakes)) {
    const std::string file = entry.path().filename().string();
    if (!file.ends_with(suffix)) continue;
    const std::string name = file.substr(0, file.size() - suffix.size());
    const CliResult r = run_cli_binary(
        {"check", (mistakes / (name + ".json")).string(), entry.path().string(), "--diagnose"});
    EXPECT_EQ(r.exit_code, 1) << name << ": " << r.err;
    EXPECT_TRUE(r.out.starts_with("diagnosis: " + name + ": ")) << name << ": " << r.out;
    ++pairs;
  }
  EXPECT_EQ(pairs, 17);  // every worked example but undilated-output-size, whose sizes differ
}

}  // namespace
}  // namespace stridescope::test
