// stridescope-cli's command logic run in process with stand-in backends, for
// what the real build cannot show on a machine without a GPU: compare's exit
// 1 on a mismatch (first differing coordinate on stderr), an unavailable
// backend noted while the others are compared, and a backend failing.
#include "app/cli/cli.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include <cstring>

#include "cli_runner.h"
#include "tests/cli/cli_in_process.h"
#include "tests/cli/failing_backend.h"
#include "core/cpu_backend.h"

namespace stridescope::cli {
namespace {

using test::run_in_process;

// The CPU result with one element changed: +1 on the float at `offset` of
// the output (or of the indices).
class FaultyBackend final : public Backend {
 public:
  FaultyBackend(std::string name, uint64_t offset, bool in_indices)
      : name_(std::move(name)), offset_(offset), in_indices_(in_indices) {}
  std::string_view name() const override { return name_; }
  std::string device_name() const override { return "test double"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override {
    CpuReferenceBackend cpu;
    Expected<RunStats> stats = cpu.run(op, input, output, indices);
    if (in_indices_) {
      uint32_t value = 0;
      std::memcpy(&value, indices.data() + offset_ * 4, 4);
      ++value;
      std::memcpy(indices.data() + offset_ * 4, &value, 4);
    } else {
      float value = 0;
      std::memcpy(&value, output.data() + offset_ * 4, 4);
      value += 1;
      std::memcpy(output.data() + offset_ * 4, &value, 4);
    }
    return stats;
  }

 private:
  std::string name_;
  uint64_t offset_;
  bool in_indices_;
};

// The CPU reference, reporting device time as a GPU backend would.
class TimedBackend final : public Backend {
 public:
  std::string_view name() const override { return "timed"; }
  std::string device_name() const override { return "test double"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override {
    Expected<RunStats> stats = cpu_.run(op, input, output, indices);
    if (stats) {
      stats->gpu_milliseconds = 1.5;
      stats->passes = {{"transfer: copy 1 runs", 0.5}, {"gather box 0 workgroups [0, 1)", 1.0}};
    }
    return stats;
  }

 private:
  CpuReferenceBackend cpu_;
};

// Backends by name: "cpu" the reference, "faulty" / "faulty-indices" the
// doubles, "vulkan" unavailable, "failing" failing; "cpu-reference" is the reference too.
Environment doubles(std::vector<std::string> compiled, uint64_t fault_offset = 2) {
  Environment env;
  env.compiled_backends = [compiled] { return compiled; };
  env.make_backend = [fault_offset](std::string_view name,
                                    const BackendOptions& options) -> Expected<std::unique_ptr<Backend>> {
    // Both names make the reference backend; the CLI names it as asked.
    if (name == "cpu" || name == "cpu-reference") return std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>());
    if (name == "faulty") return std::unique_ptr<Backend>(std::make_unique<FaultyBackend>("faulty", fault_offset, false));
    if (name == "faulty-indices") {
      return std::unique_ptr<Backend>(std::make_unique<FaultyBackend>("faulty-indices", fault_offset, true));
    }
    if (name == "failing") return std::unique_ptr<Backend>(std::make_unique<test::FailingBackend>("cpu"));
    if (name == "timed") return std::unique_ptr<Backend>(std::make_unique<TimedBackend>());
    // As the Vulkan backend does: a device asked for by name is missing at --device.
    const char* named = std::getenv("STRIDESCOPE_VULKAN_DEVICE");
    if (options.vulkan_device || (named != nullptr && *named != '\0')) {
      return Error{ErrorCode::BackendUnavailable, "--device", "no Vulkan device matches it"};
    }
    return Error{ErrorCode::BackendUnavailable, "--backend", "no Vulkan device on this machine"};
  };
  env.examples_dir = STRIDESCOPE_EXAMPLES_DIR;
  return env;
}

TEST(CliRun, TimingsListTheDeviceTimePerPassOnStderr) {
  const auto outcome =
      run_in_process({"run", test::example("slice_example1_contiguous.json"), "--backend", "timed", "--timings"},
                     doubles({"cpu", "timed"}));
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.err,
            "timings: timed (test double): 1.500 ms\n"
            "  0.500 ms  transfer: copy 1 runs\n"
            "  1.000 ms  gather box 0 workgroups [0, 1)\n");
  EXPECT_NE(outcome.out.find("\"data\""), std::string::npos);  // the result document is unchanged on stdout
}

TEST(CliCompare, TimingsGiveTheCpuBackendsWallClockAndTheOthersDeviceTime) {
  const auto outcome =
      run_in_process({"compare", test::example("slice_example1_contiguous.json"), "--timings"},
                     doubles({"cpu", "timed"}));
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.err.rfind("timings: cpu (", 0), 0u) << outcome.err;
  EXPECT_NE(outcome.err.find(" ms wall clock\ntimings: timed (test double): 1.500 ms\n"), std::string::npos)
      << outcome.err;
}

TEST(CliCompare, MismatchExitsOneWithTheFirstDifferingCoordinate) {
  // slice1 example 2 gives [[14,16],[6,8]]; the double adds 1 at offset 2 (out[0,0,1,0]).
  const auto outcome =
      run_in_process({"compare", test::example("slice1_example2_negative_strides.json")}, doubles({"cpu", "faulty"}));
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(outcome.err,
            "error: output[0,0,1,0]: faulty differs from cpu at offset 2 (cpu gives 6, faulty gives 7); "
            "1 of 4 elements differ\n");
}

TEST(CliCompare, IndicesMismatchIsFound) {
  const auto outcome = run_in_process({"compare", test::example("max_pooling2_3x3_stride2_pad1_indices.json")},
                                      doubles({"cpu", "faulty-indices"}, 4));
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(outcome.err.rfind("error: outputIndices[0,0,1,1]: faulty-indices differs from cpu at offset 4 "
                              "(cpu gives 12, faulty-indices gives 13)", 0), 0u)
      << outcome.err;
}

TEST(CliCompare, EqualBackendsExitZero) {
  const auto outcome =
      run_in_process({"compare", test::example("padding_example3_reflection.json")}, doubles({"cpu", "cpu"}));
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "equal: cpu and cpu agree bit for bit on 80 output elements\n");
  EXPECT_EQ(outcome.err, "");
}

TEST(CliCompare, SeveralSpecsGetALineEachAndASummary) {
  test::TempFolder folder;
  test::write_text(folder / "bad.json", R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [0]}})");
  const std::string slice = test::example("slice1_example2_negative_strides.json");
  const std::string bad = (folder / "bad.json").string();
  const std::string padding = test::example("padding_example3_reflection.json");
  const auto outcome = run_in_process({"compare", slice, bad, padding}, doubles({"cpu", "cpu"}));
  // Every spec is compared; the exit code is the first failure's (2: invalid).
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.out, slice + ": equal: cpu and cpu agree bit for bit on 4 output elements\n" + padding +
                             ": equal: cpu and cpu agree bit for bit on 80 output elements\n"
                             "compared 3 specs: 2 equal, 0 differ, 1 failed\n");
  EXPECT_EQ(outcome.err, bad + ": error: input.sizes[0]: size must be at least 1\n");
}

TEST(CliCompare, SeveralSpecsExitOneWhenAnyDiffers) {
  test::TempFolder folder;
  test::write_text(folder / "bad.json", R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [0]}})");
  const std::string bad = (folder / "bad.json").string();
  const std::string slice = test::example("slice1_example2_negative_strides.json");
  const auto outcome = run_in_process({"compare", bad, slice}, doubles({"cpu", "faulty"}));
  EXPECT_EQ(outcome.exit_code, 1);  // a mismatch outranks the invalid spec before it
  EXPECT_EQ(outcome.err, bad + ": error: input.sizes[0]: size must be at least 1\n" + slice +
                             ": error: output[0,0,1,0]: faulty differs from cpu at offset 2 (cpu gives 6, faulty "
                             "gives 7); 1 of 4 elements differ\n");
  EXPECT_EQ(outcome.out, "compared 2 specs: 0 equal, 1 differ, 1 failed\n");
}

TEST(CliCompare, OneElementIsNotPlural) {
  test::TempFolder folder;
  test::write_text(folder / "one.json", R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [1]}})");
  const auto outcome = run_in_process({"compare", (folder / "one.json").string()}, doubles({"cpu", "cpu"}));
  EXPECT_EQ(outcome.out, "equal: cpu and cpu agree bit for bit on 1 output element\n");
}

TEST(CliCompare, UnavailableBackendIsNotedAndTheRestCompared) {
  const auto outcome =
      run_in_process({"compare", test::example("slice_example1_contiguous.json")}, doubles({"cpu", "vulkan"}));
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.err,
            "note: vulkan backend unavailable (--backend: no Vulkan device on this machine); compared cpu alone\n");
}

TEST(CliCompare, ANamedVulkanDeviceThatIsMissingExitsThree) {
  const auto outcome =
      run_in_process({"compare", test::example("slice_example1_contiguous.json"), "--device", "nosuch"},
                     doubles({"cpu", "vulkan"}));
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_EQ(outcome.err, "error: --device: no Vulkan device matches it\n");
  EXPECT_EQ(outcome.out, "");
}

TEST(CliCompare, AVulkanDeviceNamedByTheEnvironmentThatIsMissingExitsThree) {
  ::setenv("STRIDESCOPE_VULKAN_DEVICE", "nosuch", 1);
  const auto outcome =
      run_in_process({"compare", test::example("slice_example1_contiguous.json")}, doubles({"cpu", "vulkan"}));
  ::unsetenv("STRIDESCOPE_VULKAN_DEVICE");
  EXPECT_EQ(outcome.exit_code, 3);
}

TEST(CliCompare, NoAvailableBackendExitsThree) {
  const auto outcome =
      run_in_process({"compare", test::example("slice_example1_contiguous.json")}, doubles({"vulkan"}));
  EXPECT_EQ(outcome.exit_code, 3);
}

TEST(CliCompare, InvalidSpecExitsTwoBeforeAnyBackendRuns) {
  test::TempFolder folder;
  test::write_text(folder / "bad.json", R"({"op": "identity", "input": {"dataType": "FLOAT32", "sizes": [0]}})");
  const auto outcome = run_in_process({"compare", (folder / "bad.json").string()}, doubles({"cpu", "faulty"}));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: input.sizes[0]: size must be at least 1\n");
}

TEST(CliRun, UnavailableBackendExitsThree) {
  const auto outcome = run_in_process({"run", test::example("slice_example1_contiguous.json"), "--backend", "vulkan"},
                                      doubles({"cpu", "vulkan"}));
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_EQ(outcome.err, "error: --backend: no Vulkan device on this machine\n");
  EXPECT_EQ(outcome.out, "");
}

TEST(CliRun, BackendFailureExitsFour) {
  const auto outcome = run_in_process({"run", test::example("slice_example1_contiguous.json"), "--backend", "failing"},
                                      doubles({"cpu", "failing"}));
  EXPECT_EQ(outcome.exit_code, 4);
  EXPECT_EQ(outcome.err, "error: device lost\n");
}

TEST(CliRun, ReportsTheBackendItRanOn) {
  const auto outcome = run_in_process({"run", test::example("slice_example2_strided.json"), "--backend", "faulty"},
                                      doubles({"cpu", "faulty"}, 0));
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.out.find(R"("backend": "faulty")"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find(R"("data": [6,8,13,16])"), std::string::npos) << outcome.out;
}

TEST(CliRun, TheDocumentNamesTheBackendAsAskedForNotAsItCallsItself) {
  const auto outcome =
      run_in_process({"run", test::example("slice_example2_strided.json"), "--backend", "cpu-reference"},
                     doubles({"cpu", "cpu-reference"}));
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.out.find(R"("backend": "cpu-reference")"), std::string::npos) << outcome.out;
}

TEST(CliErrors, ControlCharactersInQuotedSpecTextAreEscaped) {
  // An unknown op name is quoted back; ESC would recolour the terminal and a
  // line separator would split the one-line error.
  test::TempFolder folder;
  test::write_text(folder / "s.json",
                   "{\"op\": \"a\\u001b[31mb\\u2028c\\nd\", \"input\": {\"dataType\": \"FLOAT32\", \"sizes\": [1]}}");
  const auto outcome = run_in_process({"run", (folder / "s.json").string()}, doubles({"cpu"}));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err.rfind("error: op: unknown op \"a\\u001B[31mb\\u2028c\\u000Ad\" (expected", 0), 0u) << outcome.err;
  EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1);
}

TEST(CliDemo, RunsEveryExampleOfAFolder) {
  const auto outcome = run_in_process({"demo"}, doubles({"cpu"}));
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("== slice1_example2_negative_strides ==\n"
                             "slice1: inputWindowOffsets [0,0,0,1], inputWindowSizes [1,1,4,3], "
                             "inputWindowStrides [1,1,-2,2]\n"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("output FLOAT32 sizes [1,1,2,2] strides [4,4,2,1] (4 buffer elements)\n"
                             "   14 16\n"
                             "    6  8\n"),
            std::string::npos)
      << outcome.out;
}

}  // namespace
}  // namespace stridescope::cli
