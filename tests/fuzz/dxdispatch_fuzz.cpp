// DxDispatch model text -> parse_dxdispatch_model -> run on the reference CPU
// backend, as `stridescope-cli run MODEL.json` reads and runs a model someone
// else wrote. writeFile commands are dropped before running: a fuzzer must
// never write files where an input says. sourcePath files are looked up in a
// folder that does not exist, so no input reads this machine's files.
#include <algorithm>
#include <sstream>
#include <string>

#include "core/codegen/dxdispatch_model.h"
#include "core/cpu_backend.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace stridescope;
  const std::string_view text = fuzz::as_text(data, size);
  (void)looks_like_dxdispatch_model(text);
  Expected<DxModel> model =
      parse_dxdispatch_model(text, "/nonexistent-stridescope-fuzz-folder", Limits{fuzz::kFuzzMaxBytes});
  if (!model) return 0;
  std::erase_if(model->commands, [](const DxCommand& c) { return c.kind == DxCommand::Kind::WriteFile; });
  CpuReferenceBackend backend;
  std::ostringstream printed;
  Status ran = run_dxdispatch_model(*model, backend, printed);
  (void)ran;
  return 0;
}
