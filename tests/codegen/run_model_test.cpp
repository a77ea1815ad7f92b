// stridescope-cli run MODEL.json on a DxDispatch model, in process: the
// public dml_slice.json prints what DxDispatch prints; a model StrideScope
// cannot run exits 2 with one error line naming the JSON path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/cli/cli_in_process.h"

namespace stridescope::test {
namespace {

const std::string kModelDir = std::string(STRIDESCOPE_CODEGEN_TESTS) + "/dxdispatch_models/";

TEST(RunModel, ThePublicSliceModelPrintsWhatDxDispatchPrints) {
  const CliResult r = run_in_process({"run", kModelDir + "dml_slice.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "output: 7, 9, 12, 14, 17, 19\n");
  EXPECT_EQ(r.err, "");
}

TEST(RunModel, AModelWithScaleBiasExits2NamingThePath) {
  const CliResult r = run_in_process({"run", kModelDir + "microsoft_dml_element_wise_identity.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(
      r.err,
      "error: dispatchables.identity.desc.ScaleBias: is not supported: StrideScope's identity has no ScaleBias\n");
}

TEST(RunModel, OutWritesTheFinalContentsOfEveryResource) {
  // dml_slice.json: input is the sequence 1..25 (5x5), the slice takes rows
  // 1-3 and columns 1 and 3: 7, 9, 12, 14, 17, 19 (what DxDispatch prints).
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "stridescope_model_result.json";
  std::filesystem::remove(file);
  const CliResult r = run_in_process({"run", kModelDir + "dml_slice.json", "--out", file.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "output: 7, 9, 12, 14, 17, 19\n");  // prints still print
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text,
            "{\n  \"resources\": {\n"
            "    \"input\": {\"dataType\": \"FLOAT32\", \"data\": "
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25]},\n"
            "    \"output\": {\"dataType\": \"FLOAT32\", \"data\": [7,9,12,14,17,19]}\n"
            "  }\n}\n");
  std::filesystem::remove(file);
}

TEST(RunModel, OutAsNpyIsRefusedNamingOut) {
  const CliResult r = run_in_process({"run", kModelDir + "dml_slice.json", "--out", "x.npy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: --out: a model's result is a JSON document of its resources, not .npy\n");
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace stridescope::test
