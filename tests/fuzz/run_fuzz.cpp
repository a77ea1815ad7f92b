// The whole of `stridescope-cli run --max-bytes 65536 SPEC`: spec text ->
// parse_spec -> Operation::make -> the input buffer -> the CPU backends ->
// the result document. Both CPU backends run every accepted spec and must
// agree bit for bit (the fast one is a different implementation of the same
// rules), and the document `run` prints must read back to their output.
// A spec's `npy` input is replaced by iota: the fuzzer must not read files.
// Pooling with more window taps than kMaxFuzzTaps is validated but not run:
// Operation::make allows up to 2^33 taps (minutes of CPU by design; a
// broadcast 1-element input with a 4096x4096 window, regressions/run/,
// took 13 s of CPU under ASan), so running them finds only timeouts.
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "core/backend.h"
#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/io/result_document.h"
#include "core/io/spec_file.h"
#include "core/max_pooling.h"
#include "core/operation.h"
#include "tests/fuzz/fuzz_support.h"

namespace stridescope::fuzz {
namespace {

constexpr uint64_t kMaxFuzzTaps = uint64_t{1} << 20;

// Output elements times window elements (no overflow: make bounds it by 2^33).
uint64_t pooling_taps(const Operation& op) {
  if (!std::holds_alternative<MaxPooling2Params>(op.params())) return 0;
  uint64_t taps = op.output().element_count();
  for (uint64_t window : op.params_as<MaxPooling2Params>().window_size) taps *= window;
  return taps;
}

// One of each for the whole process, as the CLI and the app keep theirs.
CpuFastOptions one_thread() {
  CpuFastOptions options;
  options.threads = 1;
  return options;
}

CpuFastBackend& fast_backend() {
  static CpuFastBackend backend(one_thread());
  return backend;
}

void run_both(const Operation& op, const std::vector<std::byte>& input) {
  CpuReferenceBackend reference;
  Expected<RunResult> expected = run_to_new_buffers(reference, op, input);
  Expected<RunResult> fast = run_to_new_buffers(fast_backend(), op, input);
  FUZZ_CHECK(expected.has_value() == fast.has_value(), "both CPU backends run the op, or neither");
  if (!expected) return;
  FUZZ_CHECK(expected->output == fast->output, "the fast CPU backend's output is the reference's, bit for bit");
  FUZZ_CHECK(expected->indices == fast->indices, "the fast CPU backend's indices are the reference's");

  std::ostringstream document;
  write_result_document(document, "cpu", op, expected->output, expected->indices);
  Expected<ResultDocument> read = read_result_document(document.str(), op);
  FUZZ_CHECK(read.has_value(), "run's result document reads back");
}

}  // namespace
}  // namespace stridescope::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace stridescope;
  Expected<Spec> spec = parse_spec(fuzz::as_text(data, size), "");
  if (!spec) return 0;
  if (std::holds_alternative<std::filesystem::path>(spec->input_source)) spec->input_source = Fill{FillIota{}};
  const Limits limits{fuzz::kFuzzMaxBytes};
  Expected<Operation> op = Operation::make(spec->request, limits);
  if (!op || fuzz::pooling_taps(*op) > fuzz::kMaxFuzzTaps) return 0;
  Expected<std::vector<std::byte>> input = make_input_buffer(*spec, op->input(), limits);
  if (!input) return 0;
  fuzz::run_both(*op, *input);
  return 0;
}
