// compare and explain on DxDispatch models (resources/docs/cli.md), in
// process with stand-in backends: compare runs a model's dispatches in order
// on every backend and compares each dispatch's output; explain --dispatch K
// explains one dispatch (K counted from 0 among the dispatch commands, or a
// dispatchable's name) with the input its earlier dispatches left. The
// expected values are worked out by hand in the comments.
#include "app/cli/cli.h"

#include <gtest/gtest.h>

#include <cstring>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "core/cpu_backend.h"
#include "tests/cli/cli_in_process.h"

namespace stridescope::cli {
namespace {

// The public DxDispatch model (microsoft/DirectML): a [1,1,5,5] sequence
// 1..25, sliced at offsets [0,0,1,1], sizes [1,1,3,2], strides [1,1,1,2]:
// out[0,0,i,j] = in[0,0,1+i,1+2j], which DxDispatch prints as 7, 9, 12, 14, 17, 19.
const std::string kSliceModel = std::string(STRIDESCOPE_MODELS_DIR) + "/dml_slice.json";

// Two dispatches sharing a buffer: "rev" (SLICE1, window [0,6) by -2) reads
// a = 1..6 from the window's end: a[5], a[3], a[1] = 6, 4, 2 into b; "pad"
// (PADDING, REFLECTION, 1 each side) then reads b: 4 | 6, 4, 2 | 4 into c.
constexpr const char* kTwoDispatches = R"({
  "resources": {
    "a": { "initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3, 4, 5, 6] },
    "b": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 3, "value": 0 } },
    "c": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 5, "value": 0 } }
  },
  "dispatchables": {
    "rev": { "type": "DML_OPERATOR_SLICE1", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [6] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [3] },
      "DimensionCount": 1, "InputWindowOffsets": [0], "InputWindowSizes": [6], "InputWindowStrides": [-2] } },
    "pad": { "type": "PADDING", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [3] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [5] },
      "PaddingMode": "REFLECTION", "PaddingValue": 0, "DimensionCount": 1, "StartPadding": [1], "EndPadding": [1] } }
  },
  "commands": [
    { "type": "dispatch", "dispatchable": "rev", "bindings": { "InputTensor": "a", "OutputTensor": "b" } },
    { "type": "print", "resource": "b" },
    { "type": "dispatch", "dispatchable": "pad", "bindings": { "InputTensor": "b", "OutputTensor": "c" } }
  ]
})";

// The CPU reference with 1 added to output element 1 of every padding it runs.
class PaddingFaultBackend final : public Backend {
 public:
  std::string_view name() const override { return "faulty"; }
  std::string device_name() const override { return "test double"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override {
    Expected<RunStats> stats = cpu_.run(op, input, output, indices);
    if (op.kind() == OpKind::Padding) {
      float value = 0;
      std::memcpy(&value, output.data() + 4, 4);
      value += 1;
      std::memcpy(output.data() + 4, &value, 4);
    }
    return stats;
  }

 private:
  CpuReferenceBackend cpu_;
};

Environment model_doubles(std::vector<std::string> compiled) {
  Environment env;
  env.compiled_backends = [compiled] { return compiled; };
  env.make_backend = [](std::string_view name, const BackendOptions&) -> Expected<std::unique_ptr<Backend>> {
    if (name == "faulty") return std::unique_ptr<Backend>(std::make_unique<PaddingFaultBackend>());
    return std::unique_ptr<Backend>(std::make_unique<CpuReferenceBackend>());
  };
  return env;
}

// Model commands over the reference backend, or the doubles `env` makes.
test::CliResult run_model_command(const std::vector<std::string>& args,
                                  const Environment& env = model_doubles({"cpu", "cpu-reference"})) {
  return test::run_in_process(args, env);
}

class ModelCommands : public ::testing::Test {
 protected:
  void SetUp() override { test::write_text(model_, kTwoDispatches); }
  test::TempFolder folder_;
  std::filesystem::path model_file() const { return model_; }
  std::string model() const { return model_.string(); }

 private:
  std::filesystem::path model_ = folder_ / "two.json";
};

TEST_F(ModelCommands, CompareGivesALinePerDispatchNamingIt) {
  const auto o = run_model_command({"compare", kSliceModel});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, "dispatch 0 (slice, DML_OPERATOR_SLICE): equal: cpu and cpu-reference agree bit for bit on 6 "
                   "output elements\n");
  EXPECT_EQ(o.err, "");
}

TEST_F(ModelCommands, CompareFindsADifferenceInALaterDispatchAndExitsOne) {
  // c = 4, 6, 4, 2, 4: the double makes element 1 a 7.
  const auto o = run_model_command({"compare", model()}, model_doubles({"cpu", "faulty"}));
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.out, "dispatch 0 (rev, DML_OPERATOR_SLICE1): equal: cpu and faulty agree bit for bit on 3 output "
                   "elements\n");
  EXPECT_EQ(o.err, "dispatch 1 (pad, DML_OPERATOR_PADDING): error: output[1]: faulty differs from cpu at offset 1 "
                   "(cpu gives 6, faulty gives 7); 1 of 5 elements differ\n");
}

TEST_F(ModelCommands, CompareTakesModelsAmongSpecs) {
  const std::string spec = test::example("slice1_example2_negative_strides.json");
  const auto o = run_model_command({"compare", model(), spec});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, model() + ": dispatch 0 (rev, DML_OPERATOR_SLICE1): equal: cpu and cpu-reference agree bit for "
                             "bit on 3 output elements\n" +
                       model() + ": dispatch 1 (pad, DML_OPERATOR_PADDING): equal: cpu and cpu-reference agree bit "
                                 "for bit on 5 output elements\n" +
                       spec + ": equal: cpu and cpu-reference agree bit for bit on 4 output elements\n"
                              "compared 2 specs: 2 equal, 0 differ, 0 failed\n");
}

TEST_F(ModelCommands, CompareRefusesAModelItCannotRunBeforeAnyBackendRuns) {
  test::write_text(model_file(), R"({"resources": {}, "dispatchables": {"g": {"type": "DML_GRAPH_DESC"}}, "commands": []})");
  const auto o = run_model_command({"compare", model()}, model_doubles({}));  // no backend: validation comes first
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err.rfind("error: dispatchables.g.type: StrideScope runs DML_OPERATOR_SLICE", 0), 0u) << o.err;
}

TEST_F(ModelCommands, ExplainOfAOneDispatchModelNeedsNoDispatch) {
  // out[0,0,2,1] = in[0,0,1+2,1+2·1] = in[0,0,3,3]: offset 3·5 + 3 = 18, value 19;
  // the output is packed [1,1,3,2], so its offset is 2·2 + 1 = 5.
  const auto o = run_model_command({"explain", kSliceModel, "--at", "0,0,2,1"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("dispatch 0 (slice, DML_OPERATOR_SLICE)\nout[0,0,2,1] = in[0,0,3,3] (offset 18)", 0), 0u)
      << o.out;
  EXPECT_NE(o.out.find("  output offset: 5\n  source: in[0,0,3,3], buffer offset 18, value 19\n"), std::string::npos)
      << o.out;
}

TEST_F(ModelCommands, ExplainReadsTheInputTheEarlierDispatchesLeft) {
  // pad reads b = 6, 4, 2 (rev's output, not b's zeros): c[0] reflects to b[1] = 4.
  for (const char* which : {"1", "pad"}) {
    const auto o = run_model_command({"explain", model(), "--dispatch", which, "--at", "0"});
    EXPECT_EQ(o.exit_code, 0) << which << ": " << o.err;
    EXPECT_EQ(o.out.rfind("dispatch 1 (pad, DML_OPERATOR_PADDING)\n", 0), 0u) << o.out;
    EXPECT_NE(o.out.find("  source: in[1], buffer offset 1, value 4\n"), std::string::npos) << which << ": " << o.out;
  }
  // rev's element 0 is a[5] = 6.
  const auto first = run_model_command({"explain", model(), "--dispatch", "0", "--at", "0", "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const nlohmann::json doc = nlohmann::json::parse(first.out);
  EXPECT_EQ(doc["source"], nlohmann::json::array({5}));
  EXPECT_EQ(doc["value"], 6);
}

TEST_F(ModelCommands, ExplainWithoutAtGivesTheDispatchsOutputSizes) {
  const auto o = run_model_command({"explain", model(), "--dispatch", "pad"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("dispatch 1 (pad, DML_OPERATOR_PADDING)\noutput sizes [5]:\n", 0), 0u) << o.out;
}

TEST_F(ModelCommands, ABadDispatchExitsTwoListingTheDispatches) {
  const std::string list = "the model's dispatches are 0 (rev), 1 (pad)\n";
  auto o = run_model_command({"explain", model(), "--dispatch", "2", "--at", "0"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "error: --dispatch: there is no dispatch 2 (counted from 0): " + list);
  EXPECT_EQ(o.out, "");
  o = run_model_command({"explain", model(), "--dispatch", "print", "--at", "0"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "error: --dispatch: names no dispatch ('print'): " + list);
  o = run_model_command({"explain", model(), "--at", "0"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "error: --dispatch: the model has 2 dispatches: pick one, by number from 0 or by name; " + list);
  o = run_model_command({"explain", model(), "--dispatch", "-1"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "error: --dispatch: names no dispatch ('-1'): " + list);
}

TEST_F(ModelCommands, ADispatchableDispatchedTwiceIsPickedByNumber) {
  std::string text = kTwoDispatches;
  text.replace(text.find("\"dispatchable\": \"pad\""), 21, "\"dispatchable\": \"rev\"");
  text.replace(text.find("\"InputTensor\": \"b\", \"OutputTensor\": \"c\""), 39, "\"InputTensor\": \"a\", \"OutputTensor\": \"b\"");
  test::write_text(model_file(), text);
  const auto o = run_model_command({"explain", model(), "--dispatch", "rev"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "error: --dispatch: 'rev' is dispatched 2 times: pick one by its number; the model's dispatches "
                   "are 0 (rev), 1 (rev)\n");
  EXPECT_EQ(run_model_command({"explain", model(), "--dispatch", "1"}).exit_code, 0);
}

TEST_F(ModelCommands, DispatchOnASpecIsRefused) {
  const std::string spec = test::example("slice1_example2_negative_strides.json");
  const auto o = run_model_command({"explain", spec, "--dispatch", "0"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(o.err, "error: --dispatch: picks a dispatch of a DxDispatch model; " + spec + " is a spec\n");
}

TEST_F(ModelCommands, TheBuiltToolExplainsTheSliceModel) {
  const test::CliResult r = test::run_cli_binary({"explain", kSliceModel, "--dispatch", "slice", "--at", "0,0,0,0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // out[0,0,0,0] = in[0,0,1,1]: offset 6, value 7, DxDispatch's first printed value.
  EXPECT_NE(r.out.find("  source: in[0,0,1,1], buffer offset 6, value 7\n"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace stridescope::cli
