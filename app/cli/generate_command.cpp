// stridescope-cli generate DIR: a corpus of random valid specs, each beside
// the result document a backend gives for it, for testing another
// implementation of these operators against StrideScope.
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "core/io/atomic_file.h"
#include "core/io/random_spec.h"
#include "core/io/result_document.h"
#include "core/split_mix64.h"

namespace stridescope::cli {
namespace {

constexpr uint64_t kDefaultCases = 20;

// "case_0007_slice1": the number (at least four digits) and what it holds.
// It depends on the index alone, so a larger corpus names its first cases as
// a smaller one does.
std::string case_name(uint64_t index, OpKind op) {
  std::string number = std::to_string(index);
  if (number.size() < 4) number.insert(0, 4 - number.size(), '0');
  return "case_" + number + "_" + std::string(to_string(op));
}

// The spec and its result, written as a pair: neither replaces an earlier
// corpus's file unless both can.
Status write_case(const std::filesystem::path& folder, const std::string& name, const Spec& spec, Backend& backend,
                  const std::string& backend_name, const Limits& limits) {
  SS_ASSIGN_OR_RETURN(const LoadedSpec loaded, validate_spec(spec, limits));
  SS_ASSIGN_OR_RETURN(const RunResult result, run_to_new_buffers(backend, loaded.op, loaded.input));
  const std::string spec_text = write_spec(spec);
  const std::string result_text = write_result_document(backend_name, loaded.op, result.output, result.indices);
  const std::vector<FileContents> files{{folder / (name + ".json"), spec_text},
                                        {folder / (name + ".result.json"), result_text}};
  return write_files_atomically(files);
}

}  // namespace

int command_generate(Context& context) {
  const CliArguments& args = context.args;
  const std::filesystem::path folder(args.positional[0]);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) return fail(context, Error{ErrorCode::Io, folder.string(), "cannot create the folder: " + error.message()});
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend(args.backend, context.backend_options);
  if (!backend) return fail(context, backend.error());

  RandomSpecOptions options;
  options.op = args.generate_op;
  options.max_elements = args.max_elements;
  // Case i's seed depends only on --seed and i: a longer corpus extends a shorter one.
  SplitMix64 seeds(args.seed);
  const uint64_t count = args.count.value_or(kDefaultCases);
  for (uint64_t i = 0; i < count; ++i) {
    Expected<Spec> spec = random_spec(seeds.next(), options);
    if (!spec) return fail(context, spec.error());
    const std::string name = case_name(i, spec->request.kind());
    if (Status s = write_case(folder, name, *spec, **backend, args.backend, context.limits); !s.ok()) {
      return fail(context, s.error());
    }
  }
  context.out << "wrote " << count << (count == 1 ? " case" : " cases") << " to " << folder.string()
              << " (seed " << args.seed << ", results from " << args.backend
              << "): case_NNNN_OP.json, the spec, and case_NNNN_OP.result.json, its result document\n";
  return kExitOk;
}

}  // namespace stridescope::cli
