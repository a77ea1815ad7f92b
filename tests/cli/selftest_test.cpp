// stridescope-cli selftest run in process with stand-in backends: every
// example and N random specs against cpu-reference; exit 0 when all agree, 1
// on a difference (with the generate command that writes the case), 4 when a
// backend fails.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "app/cli/cli.h"
#include "core/cpu_backend.h"
#include "tests/cli/cli_in_process.h"
#include "tests/cli/failing_backend.h"

namespace stridescope::cli {
namespace {

using test::run_in_process;

// The reference result with the lowest bit of the output's first byte
// flipped: element [0,...,0] always lives at offset 0, so every case differs.
class BitFlipBackend final : public Backend {
 public:
  std::string_view name() const override { return "bitflip"; }
  std::string device_name() const override { return "test double"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override {
    Expected<RunStats> stats = reference_.run(op, input, output, indices);
    output[0] ^= std::byte{1};
    return stats;
  }

 private:
  CpuReferenceBackend reference_;
};

Environment selftest_doubles(std::vector<std::string> compiled) {
  Environment env;
  env.compiled_backends = [compiled] { return compiled; };
  env.make_backend = [](std::string_view name, const BackendOptions&) -> Expected<std::unique_ptr<Backend>> {
    if (name == "bitflip") return std::unique_ptr<Backend>(std::make_unique<BitFlipBackend>());
    if (name == "failing") return std::unique_ptr<Backend>(std::make_unique<test::FailingBackend>("failing"));
    return std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>());
  };
  env.examples_dir = STRIDESCOPE_EXAMPLES_DIR;
  return env;
}

std::size_t bundled_examples() {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    count += entry.path().extension() == ".json";
  }
  return count;
}

std::size_t lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t count = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) count += line.rfind(prefix, 0) == 0;
  return count;
}

TEST(CliSelftest, BackendsThatAgreeExitZeroAndTheDevicesAreNamed) {
  const auto outcome = run_in_process({"selftest", "--count", "12"}, selftest_doubles({"cpu", "cpu-reference"}));
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out.rfind("reference: cpu-reference (CPU reference)\ntesting:   cpu (CPU reference)\n", 0), 0u)
      << outcome.out;
  const std::string summary = std::to_string(bundled_examples() + 12) + " cases (the bundled examples and 12 random "
                              "specs, seed 1) on cpu against cpu-reference: " +
                              std::to_string(bundled_examples() + 12) + " equal, 0 differ, 0 failed\n";
  EXPECT_NE(outcome.out.find(summary), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.err, "");
}

TEST(CliSelftest, EveryDifferenceIsALineWithTheCommandThatWritesTheCase) {
  const auto outcome =
      run_in_process({"selftest", "--count", "3", "--seed", "7", "--op", "slice1"},
                     selftest_doubles({"cpu-reference", "bitflip"}));
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(lines_starting(outcome.err, "differ: "), bundled_examples() + 3) << outcome.err;
  EXPECT_NE(outcome.err.find("differ: random case 2 (stridescope-cli generate DIR --seed 7 --count 3 --op slice1): "
                             "output[0"),
            std::string::npos)
      << outcome.err;
  EXPECT_NE(outcome.err.find("bitflip differs from cpu-reference at offset 0"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.out.find(": 0 equal, " + std::to_string(bundled_examples() + 3) + " differ, 0 failed\n"),
            std::string::npos)
      << outcome.out;
}

TEST(CliSelftest, ABackendThatFailsExitsFourAndSaysWhich) {
  const auto outcome = run_in_process({"selftest", "--count", "1"}, selftest_doubles({"cpu-reference", "failing"}));
  EXPECT_EQ(outcome.exit_code, 4);
  EXPECT_NE(outcome.err.find("failed: random case 0 (stridescope-cli generate DIR --seed 1 --count 1): failing: "
                             "device lost"),
            std::string::npos)
      << outcome.err;
}

TEST(CliSelftest, BadOptionsAreErrorsNamingThem) {
  EXPECT_EQ(run_in_process({"selftest", "--count", "0"}, selftest_doubles({"cpu-reference"})).err,
            "error: --count: must be 1 to 1000000\n");
  EXPECT_EQ(run_in_process({"selftest", "extra"}, selftest_doubles({"cpu-reference"})).exit_code, 2);
  EXPECT_EQ(run_in_process({"selftest", "--out", "x"}, selftest_doubles({"cpu-reference"})).err,
            "error: --out: is not an option of selftest\n");
}

}  // namespace
}  // namespace stridescope::cli
