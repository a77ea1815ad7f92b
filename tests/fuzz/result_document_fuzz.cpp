// A result document -> read_result_document, as `check SPEC RESULT` reads
// it. The input is the spec's text, a NUL byte, then the document (no NUL:
// the whole input is the document, for a built-in max_pooling2 spec with
// indices). Documents longer than `check` would read are skipped, as it
// refuses them unread. An accepted document's buffers, written again by
// write_result_document, must read back to the same bytes.
#include <algorithm>
#include <string>
#include <string_view>

#include "core/io/result_document.h"
#include "core/io/spec_file.h"
#include "core/operation.h"
#include "tests/fuzz/fuzz_support.h"

namespace stridescope::fuzz {
namespace {

constexpr std::string_view kDefaultSpec = R"({
  "op": "max_pooling2",
  "input": { "dataType": "FLOAT16", "sizes": [1, 1, 3, 3] },
  "outputIndices": {},
  "params": { "windowSize": [2, 2] }
})";

// As check_command.cpp's longest_result_document.
uint64_t longest_result_document(const Operation& op) {
  uint64_t values = op.output().buffer_elements();
  if (op.output_indices()) values += op.output_indices()->buffer_elements();
  return values * 48 + (uint64_t{1} << 16);
}

void check_document(const Operation& op, std::string_view document) {
  if (document.size() > longest_result_document(op)) return;
  Expected<ResultDocument> read = read_result_document(document, op);
  if (!read) return;
  FUZZ_CHECK(read->output.size() >= op.output().buffer_bytes(), "the output buffer is whole");
  if (op.output_indices()) {
    FUZZ_CHECK(read->indices.size() >= op.output_indices()->buffer_bytes(), "the indices buffer is whole");
  }
  const std::string written = write_result_document(read->backend, op, read->output, read->indices);
  Expected<ResultDocument> again = read_result_document(written, op);
  FUZZ_CHECK(again.has_value(), "write_result_document's text reads back");
  FUZZ_CHECK(again->output == read->output && again->indices == read->indices,
             "a document written from read buffers reads back to the same bytes");
}

}  // namespace
}  // namespace stridescope::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace stridescope;
  const std::string_view input = fuzz::as_text(data, size);
  const std::size_t nul = input.find('\0');
  const std::string_view spec_text = nul == std::string_view::npos ? fuzz::kDefaultSpec : input.substr(0, nul);
  const std::string_view document = nul == std::string_view::npos ? input : input.substr(nul + 1);
  Expected<Spec> spec = parse_spec(spec_text, "");
  if (!spec) return 0;
  Expected<Operation> op = Operation::make(spec->request, Limits{fuzz::kFuzzMaxBytes});
  if (!op) return 0;
  fuzz::check_document(*op, document);
  return 0;
}
