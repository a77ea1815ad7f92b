// stridescope-cli code SPEC --lang L, run in process: the program on stdout,
// the framework differences as "note:" lines on stderr, an invalid spec or
// language exits 2 naming the field, as the other commands do.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tests/cli/cli_in_process.h"
#include "temp_folder.h"

namespace stridescope::test {
namespace {

std::string example(const char* name) { return std::string(STRIDESCOPE_EXAMPLES_DIR) + "/" + name; }

TEST(CodeCommand, PrintsANumPyProgramForAnExample) {
  const CliResult r =
      run_in_process({"code", example("slice1_example2_negative_strides.json"), "--lang", "numpy"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("import numpy as np"), std::string::npos);
  EXPECT_NE(r.out.find("as_strided"), std::string::npos);
  // slice1 example 2: offsets [0,0,0,1], sizes [1,1,4,3], strides [1,1,-2,2]: row 3 down by 2, columns 1 on by 2.
  EXPECT_NE(r.out.find("result = x[0:1, 0:1, 3:0:-2, 1:4:2]"), std::string::npos) << r.out;
}

TEST(CodeCommand, TorchNotesTheFlipForNegativeSteps) {
  const CliResult r =
      run_in_process({"code", example("slice1_example2_negative_strides.json"), "--lang=torch"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("x.flip((2,))[0:1, 0:1, 0:3:2, 1:4:2]"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("note: PyTorch slicing takes no negative step"), std::string::npos) << r.err;
}

TEST(CodeCommand, TorchSaysItHasNoUint32) {
  TempFolder folder;
  std::ofstream(folder / "u32.json") << R"({"op": "identity", "input": {"dataType": "UINT32", "sizes": [2,2]}})";
  const CliResult r = run_in_process({"code", (folder / "u32.json").string(), "--lang", "torch"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("raise NotImplementedError"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("note: PyTorch 1.13 has no UINT32 tensors"), std::string::npos) << r.err;
}

TEST(CodeCommand, EveryLanguageWritesTheSliceExample) {
  const std::string spec = example("slice_example2_strided.json");
  const CliResult onnx = run_in_process({"code", spec, "--lang", "onnx"});
  EXPECT_EQ(onnx.exit_code, 0);
  EXPECT_NE(onnx.out.find("helper.make_node(\"Slice\""), std::string::npos) << onnx.out;
  const CliResult dml = run_in_process({"code", spec, "--lang", "dml"});
  EXPECT_EQ(dml.exit_code, 0);
  EXPECT_NE(dml.out.find("const DML_OPERATOR_DESC desc = {DML_OPERATOR_SLICE, &slice};"), std::string::npos) << dml.out;
  const CliResult model = run_in_process({"code", spec, "--lang", "dxdispatch"});
  EXPECT_EQ(model.exit_code, 0);
  EXPECT_NE(model.out.find("\"type\": \"DML_OPERATOR_SLICE\""), std::string::npos) << model.out;
}

TEST(CodeCommand, InvalidSpecExits2NamingTheField) {
  TempFolder folder;
  std::ofstream(folder / "bad.json") << R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4]},
    "params": {"inputWindowOffsets": [0], "inputWindowSizes": [4], "inputWindowStrides": [0]}})";
  const CliResult r = run_in_process({"code", (folder / "bad.json").string(), "--lang", "numpy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: params.inputWindowStrides[0]: stride must not be 0\n");
}

TEST(CodeCommand, LanguageIsRequiredAndChecked) {
  const std::string spec = example("slice_example1_contiguous.json");
  EXPECT_EQ(run_in_process({"code", spec}).err,
            "error: --lang: code needs --lang numpy, torch, onnx, dml or dxdispatch\n");
  const CliResult r = run_in_process({"code", spec, "--lang", "jax"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: --lang: expected numpy, torch, onnx, dml or dxdispatch, got 'jax'\n");
  EXPECT_EQ(run_in_process({"run", spec, "--lang", "numpy"}).err, "error: --lang: is not an option of run\n");
  EXPECT_EQ(run_in_process({"code"}).exit_code, 2);
}

}  // namespace
}  // namespace stridescope::test
