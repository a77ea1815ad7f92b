// stridescope-cli run MODEL.json on a DxDispatch model, in process: the
// public dml_slice.json prints what DxDispatch prints; a model StrideScope
// cannot run exits 2 with one error line naming the JSON path.
#include <gtest/gtest.h>

#include <sstream>

#include "app/cli/cli.h"

namespace stridescope::test {
namespace {

const std::string kModels = std::string(STRIDESCOPE_CODEGEN_TESTS) + "/dxdispatch_models/";

struct CliResult {
  int code;
  std::string out;
  std::string err;
};

CliResult run(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = cli::run_cli(args, out, err, cli::default_environment());
  return {code, out.str(), err.str()};
}

TEST(RunModel, ThePublicSliceModelPrintsWhatDxDispatchPrints) {
  const CliResult r = run({"run", kModels + "dml_slice.json"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "output: 7, 9, 12, 14, 17, 19\n");
  EXPECT_EQ(r.err, "");
}

TEST(RunModel, AModelWithScaleBiasExits2NamingThePath) {
  const CliResult r = run({"run", kModels + "microsoft_dml_element_wise_identity.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "error: dispatchables.identity.desc.ScaleBias: is not supported: StrideScope's identity has no ScaleBias\n");
}

TEST(RunModel, OutIsRefusedForModelsForNow) {
  const CliResult r = run({"run", kModels + "dml_slice.json", "--out", "x.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "error: --out: is not supported for DxDispatch models yet\n");
}

}  // namespace
}  // namespace stridescope::test
