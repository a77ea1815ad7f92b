// Spec text -> parse_spec -> Operation::make, as `run`, `check` and the app
// read a spec. An accepted spec must also survive write_spec: the text it
// writes parses again and writes the same text (what Save then Open does).
#include <string>

#include "core/io/spec_file.h"
#include "core/operation.h"
#include "tests/fuzz/fuzz_support.h"

namespace stridescope::fuzz {
namespace {

void round_trip(const Spec& spec) {
  const std::string written = write_spec(spec);
  Expected<Spec> again = parse_spec(written, "");
  FUZZ_CHECK(again.has_value(), "write_spec's text parses again");
  FUZZ_CHECK(write_spec(*again) == written, "write_spec(parse_spec(write_spec(s))) == write_spec(s)");
}

}  // namespace
}  // namespace stridescope::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace stridescope;
  Expected<Spec> spec = parse_spec(fuzz::as_text(data, size), "");
  if (!spec) return 0;
  fuzz::round_trip(*spec);
  Expected<Operation> op = Operation::make(spec->request, Limits{fuzz::kFuzzMaxBytes});
  (void)op;
  return 0;
}
