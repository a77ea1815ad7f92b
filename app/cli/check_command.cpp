// stridescope-cli check SPEC RESULT: is another implementation's result for
// SPEC (a result document, or .npy files as `run --out X.npy` writes them)
// the one StrideScope gives, bit for bit? When not, the first element that
// differs and where its value should have come from; with --diagnose, the
// known mistakes that explain the difference (core/diagnosis).
#include "app/cli/commands.h"
#include "app/cli/diagnosis_text.h"
#include "app/cli/tensor_text.h"
#include "core/compare.h"
#include "core/diagnosis/diagnose.h"
#include "core/io/result_file.h"
#include "core/provenance.h"

namespace stridescope::cli {
namespace {

// "output[0,0,1,0]: result.json has 7, cpu gives 6 (1 of 4 elements differ)" and the rule.
void report(Context& context, std::string_view part, const TensorDesc& desc, const Mismatch& mismatch,
            std::span<const std::byte> ours, std::span<const std::byte> theirs, const LoadedSpec& loaded) {
  const CliArguments& args = context.args;
  const std::size_t offset = mismatch.first_offset * desc.element_size();
  context.err << part << format_coord(mismatch.first) << ": " << args.positional[1] << " has "
              << format_element(desc.data_type(), theirs.data() + offset) << ", " << args.backend << " gives "
              << format_element(desc.data_type(), ours.data() + offset) << " (" << mismatch.count << " of "
              << desc.element_count() << (desc.element_count() == 1 ? " element" : " elements") << " differ)\n";
  if (Expected<Provenance> why = explain(loaded.op, mismatch.first, loaded.input, 0)) {
    context.err << "  " << why->rule << '\n';
  }
}

const TensorDesc* indices_of(const Operation& op) {
  return op.output_indices() ? &*op.output_indices() : nullptr;
}

// --diagnose for a result that does not fit the spec: the mistakes whose
// result has its sizes and reproduces it. Still exit 2, as without --diagnose.
int diagnose_misfit(Context& context, const LoadedSpec& loaded, const Error& misfit) {
  const std::string& file = context.args.positional[1];
  const int code = fail(context, misfit);
  // Only a result of other sizes (or another element count) may be a mistake's shape.
  const std::string text = misfit.to_string();
  const bool about_shape =
      text.find("sizes: are ") != std::string::npos || text.find("; the buffer has ") != std::string::npos;
  if (misfit.code != ErrorCode::InvalidSpec || !about_shape) return code;
  Diagnosis diagnosis;
  const DiagnoseOptions options{.nan_matches_any_nan = !is_npy_file(file)};
  for (const Reshape& shape : mistaken_shapes(loaded.op)) {
    const TensorDesc* indices = shape.indices ? &*shape.indices : nullptr;
    Expected<ResultDocument> theirs = read_result_file(file, shape.output, indices, context.limits.max_bytes);
    if (theirs && reproduces(loaded.op, loaded.input, shape, {theirs->output, theirs->indices}, options)) {
      diagnosis.findings.push_back(Finding{shape.id, true, 0, 0});
    }
  }
  if (diagnosis.findings.empty()) diagnosis.in_common.push_back("the result's sizes, which no known mistake gives");
  print_diagnosis(context.out, diagnosis, context.args.json, misfit.to_string());
  return code;
}

}  // namespace

int command_check(Context& context) {
  const CliArguments& args = context.args;
  Expected<LoadedSpec> loaded = load_validated(args.positional[0], context.limits);
  if (!loaded) return fail(context, loaded.error());
  const Operation& op = loaded->op;
  Expected<ResultDocument> theirs =
      read_result_file(args.positional[1], op.output(), indices_of(op), context.limits.max_bytes);
  if (!theirs) return args.diagnose ? diagnose_misfit(context, *loaded, theirs.error()) : fail(context, theirs.error());
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend(args.backend, context.backend_options);
  if (!backend) return fail(context, backend.error());
  Expected<RunResult> ours = run_to_new_buffers(**backend, loaded->op, loaded->input);
  if (!ours) return fail(context, ours.error());

  const bool from_json = !is_npy_file(args.positional[1]);
  struct Part {
    std::string_view name;
    const TensorDesc* desc;
    std::span<const std::byte> ours;
    std::span<std::byte> theirs;
  };
  std::vector<Part> parts = {{"output", &loaded->op.output(), ours->output, theirs->output}};
  if (loaded->op.output_indices()) {
    parts.push_back({"outputIndices", &*loaded->op.output_indices(), ours->indices, theirs->indices});
  }
  bool equal = true;
  uint64_t nan_matches = 0;
  for (const Part& part : parts) {
    if (from_json) nan_matches += match_nan_to_nan(*part.desc, part.ours, part.theirs);
    if (const std::optional<Mismatch> mismatch = compare_tensors(*part.desc, part.ours, part.theirs)) {
      report(context, part.name, *part.desc, *mismatch, part.ours, part.theirs, *loaded);
      equal = false;
    }
  }
  if (args.diagnose) {
    const Diagnosis diagnosis = diagnose(op, loaded->input, {ours->output, ours->indices},
                                         {theirs->output, theirs->indices}, {.nan_matches_any_nan = from_json});
    if (!equal || args.json) print_diagnosis(context.out, diagnosis, args.json);
    if (args.json) return equal ? kExitOk : kExitMismatch;
  }
  if (!equal) return kExitMismatch;
  const uint64_t elements = loaded->op.output().element_count();
  context.out << "equal: " << args.positional[1] << " matches " << args.backend << " bit for bit on " << elements
              << (elements == 1 ? " output element" : " output elements")
              << (loaded->op.output_indices() ? " and their indices" : "")
              << (nan_matches > 0 ? " (a result document has no NaN payloads: its NaNs matched NaNs)" : "") << '\n';
  return kExitOk;
}

}  // namespace stridescope::cli
