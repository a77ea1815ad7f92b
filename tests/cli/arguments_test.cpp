// The command line of stridescope-cli (app/cli/cli_arguments.h): options
// before or after the command, `--name value` or `--name=value`, and each
// command accepting only its own options.
#include "app/cli/cli_arguments.h"

#include <gtest/gtest.h>

namespace stridescope::cli {
namespace {

using Args = std::vector<std::string>;

CliArguments parse_ok(const Args& args) {
  Expected<CliArguments> parsed = parse_arguments(args);
  EXPECT_TRUE(parsed.has_value()) << parsed.error().to_string();
  return parsed.has_value() ? *parsed : CliArguments{};
}

std::string error_of(const Args& args) {
  Expected<CliArguments> parsed = parse_arguments(args);
  EXPECT_FALSE(parsed.has_value());
  return parsed.has_value() ? "" : parsed.error().to_string();
}

TEST(CliArguments, RunWithBackendAndOut) {
  const CliArguments args = parse_ok({"run", "spec.json", "--backend", "vulkan", "--out=result.npy"});
  EXPECT_EQ(args.command, "run");
  EXPECT_EQ(args.positional, Args{"spec.json"});
  EXPECT_EQ(args.backend, "vulkan");
  EXPECT_EQ(args.out, "result.npy");
}

TEST(CliArguments, DefaultsAreCpuAndOneGibibyte) {
  const CliArguments args = parse_ok({"run", "spec.json"});
  EXPECT_EQ(args.backend, "cpu");
  EXPECT_EQ(args.max_bytes, uint64_t{1} << 30);
  EXPECT_FALSE(args.out.has_value());
}

TEST(CliArguments, GlobalOptionsMayComeFirst) {
  const CliArguments args =
      parse_ok({"--max-bytes", "4096", "--device", "1", "--force-staging", "compare", "spec.json"});
  EXPECT_EQ(args.command, "compare");
  EXPECT_EQ(args.max_bytes, 4096u);
  EXPECT_EQ(args.device, "1");
  EXPECT_TRUE(args.force_staging);
}

TEST(CliArguments, ExplainAndLayoutOptions) {
  const CliArguments explain = parse_ok({"explain", "s.json", "--at", "0,0,1,0", "--json"});
  EXPECT_EQ(explain.at, "0,0,1,0");
  EXPECT_TRUE(explain.json);
  const CliArguments layout = parse_ok({"layout", "--sizes", "2,3", "--strides=1,2", "--dataType", "UINT8"});
  EXPECT_EQ(layout.sizes, "2,3");
  EXPECT_EQ(layout.strides, "1,2");
  EXPECT_EQ(layout.data_type, "UINT8");
}

TEST(CliArguments, ErrorsNameTheOption) {
  EXPECT_EQ(error_of({"run", "s.json", "--frobnicate"}), "--frobnicate: unknown option (see --help)");
  EXPECT_EQ(error_of({"run", "s.json", "--at", "0"}), "--at: is not an option of run");
  EXPECT_EQ(error_of({"layout", "--backend", "cpu"}), "--backend: is not an option of layout");
  EXPECT_EQ(error_of({"run", "s.json", "--out"}), "--out: needs a value");
  EXPECT_EQ(error_of({"explain", "s.json", "--json=yes"}), "--json: takes no value");
  EXPECT_EQ(error_of({"run", "s.json", "--max-bytes", "lots"}),
            "--max-bytes: expected a non-negative integer, got 'lots'");
  EXPECT_EQ(error_of({"run", "s.json", "--max-bytes", "0"}), "--max-bytes: must be at least 1");
  EXPECT_EQ(error_of({"frobnicate"}), "frobnicate: unknown command (expected run, compare, explain, layout, demo, generate, check, selftest, code or render)");
}

TEST(CliArguments, AnOptionGivenTwiceIsAnError) {
  EXPECT_EQ(error_of({"layout", "--sizes", "2,3", "--sizes", "4"}), "--sizes: given twice");
  EXPECT_EQ(error_of({"run", "s.json", "--backend=cpu", "--backend", "vulkan"}), "--backend: given twice");
}

TEST(CliArguments, HelpCommandShowsTheHelp) {
  EXPECT_TRUE(parse_ok({"help"}).help);
  EXPECT_TRUE(parse_ok({"help"}).command.empty());
}

TEST(CliArguments, DoubleDashEndsOptions) {
  const CliArguments args = parse_ok({"run", "--", "--odd-name.json"});
  EXPECT_EQ(args.positional, Args{"--odd-name.json"});
}

TEST(CliArguments, IndexListsAcceptCommasAndBrackets) {
  EXPECT_EQ(*parse_index_list("0,0,1,0", "--at"), (std::vector<uint64_t>{0, 0, 1, 0}));
  EXPECT_EQ(*parse_index_list("[1, 2]", "--at"), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(*parse_index_list("7", "--sizes"), (std::vector<uint64_t>{7}));
}

TEST(CliArguments, IndexListErrorsNameTheOption) {
  EXPECT_EQ(parse_index_list("1,-2", "--at").error().path, "--at");
  EXPECT_EQ(parse_index_list("1,,2", "--at").error().path, "--at");
  EXPECT_EQ(parse_index_list("", "--sizes").error().path, "--sizes");
  EXPECT_EQ(parse_index_list("a", "--strides").error().path, "--strides");
  EXPECT_EQ(parse_index_list("1,1,1,1,1,1,1,1,1", "--at").error().to_string(), "--at: has more than 8 entries");
  EXPECT_EQ(parse_index_list("99999999999999999999", "--at").error().path, "--at");
}

}  // namespace
}  // namespace stridescope::cli
