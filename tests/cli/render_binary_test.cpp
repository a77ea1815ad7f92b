// `stridescope-cli render` as users run it: the CLI links no Qt and becomes
// stridescope-render beside it (app/cli/main.cpp), so a figure, a piped spec,
// the exit codes and the error lines must come through that hand-over intact.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <iterator>
#include <string>

#include "cli_runner.h"

namespace stridescope::test {
namespace {

std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

constexpr std::string_view kPngSignature{"\x89PNG\r\n\x1a\n", 8};

#ifdef STRIDESCOPE_RENDERER_BUILT

// Unsets an environment variable for one test (children inherit the change).
class WithoutEnvironmentVariable {
 public:
  explicit WithoutEnvironmentVariable(const char* name) : name_(name) {
    if (const char* value = std::getenv(name)) saved_ = value;
    ::unsetenv(name);
  }
  ~WithoutEnvironmentVariable() {
    if (saved_) ::setenv(name_, saved_->c_str(), 1);
  }
  WithoutEnvironmentVariable(const WithoutEnvironmentVariable&) = delete;
  WithoutEnvironmentVariable& operator=(const WithoutEnvironmentVariable&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

// Also with no XDG_RUNTIME_DIR (CI, cron): Qt's warning about it must not
// reach the user's stderr.
TEST(CliRender, DrawsAPngThroughTheRendererBesideTheCli) {
  const WithoutEnvironmentVariable no_runtime_dir("XDG_RUNTIME_DIR");
  TempFolder folder;
  const std::string out = (folder / "figure.png").string();
  const CliResult result = run_cli_binary({"render", example("slice1_example2_negative_strides.json"), "--out", out});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(file_bytes(out).substr(0, kPngSignature.size()), kPngSignature);
}

TEST(CliRender, APipedSpecReachesTheRendererUnread) {
  TempFolder folder;
  const std::string out = (folder / "figure.svg").string();
  const CliResult result =
      run_cli_binary({"render", "/dev/stdin", "--out", out}, example("padding_example3_reflection.json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(file_bytes(out).find("<svg"), std::string::npos);
}

TEST(CliRender, TheRenderersErrorsKeepTheContractsLineAndExitCode) {
  TempFolder folder;
  const std::string out = (folder / "figure.bmp").string();
  const CliResult result = run_cli_binary({"render", example("slice1_example2_negative_strides.json"), "--out", out});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err, "error: --out: expected a file ending in .png, .svg or .gif, got '" + out + "'\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

// A mistaken result beside the spec (resources/mistakes/): the figure is
// drawn; one whose sizes are not the spec's is refused, naming the option,
// the file and the field.
TEST(CliRender, CompareWithDrawsAResultThatFits_AndRefusesOneThatDoesNot) {
  // The refusal must be render's first line: no Qt warning about a runtime
  // folder that the test machine may have (see the test above).
  const WithoutEnvironmentVariable no_runtime_dir("XDG_RUNTIME_DIR");
  const std::string mistakes = std::string(STRIDESCOPE_EXAMPLES_DIR) + "/../mistakes/";
  TempFolder folder;
  const std::string out = (folder / "figure.png").string();
  const CliResult drawn = run_cli_binary({"render", mistakes + "reflection-repeats-edge.json", "--out", out,
                                          "--compare-with", mistakes + "reflection-repeats-edge.theirs.json"});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_EQ(file_bytes(out).substr(0, kPngSignature.size()), kPngSignature);

  const std::string refused_out = (folder / "refused.png").string();
  const CliResult refused =
      run_cli_binary({"render", mistakes + "reflection-repeats-edge.json", "--out", refused_out, "--compare-with",
                      mistakes + "slice1-negative-stride-from-offset.theirs.json"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err.rfind("error: --compare-with: slice1-negative-stride-from-offset.theirs.json: output.sizes: ", 0),
            0u)
      << refused.err;
  EXPECT_FALSE(std::filesystem::exists(refused_out));
}

#endif

TEST(CliRender, TextNeedsNoRenderer) {
  const CliResult result = run_cli_binary({"render", example("slice1_example2_negative_strides.json"), "--text"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("slice1"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace stridescope::test
