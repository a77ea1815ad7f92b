// run and compare: executing a spec on backends.
#include <algorithm>
#include <cctype>
#include <iomanip>
#include <optional>
#include <ostream>

#include "app/cli/backend_comparison.h"
#include "app/cli/commands.h"
#include "app/cli/tensor_text.h"
#include "core/compare.h"
#include "core/io/atomic_file.h"
#include "core/io/npy.h"
#include "core/io/result_document.h"
#include "core/io/result_file.h"

namespace stridescope::cli {
namespace {

// The .npy shape of a result buffer: the logical sizes when the buffer is
// exactly the packed row-major tensor, else the flat physical buffer.
std::vector<uint64_t> npy_shape(const TensorDesc& desc) {
  if (desc.layout().packed && desc.layout().row_major) return {desc.sizes().begin(), desc.sizes().end()};
  return {desc.buffer_elements()};
}

Expected<std::vector<std::byte>> encode_buffer_npy(const TensorDesc& desc, std::span<const std::byte> buffer) {
  const std::vector<uint64_t> shape = npy_shape(desc);
  return encode_npy(desc.data_type(), shape, buffer.first(desc.buffer_elements() * desc.element_size()));
}

std::string_view as_chars(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// X.npy, and X.indices.npy when the op has indices: both are written before
// either replaces an earlier run's file, so a failure never leaves a new
// output beside old indices.
Status write_npy_outputs(const std::filesystem::path& file, const Operation& op, const RunResult& result) {
  struct Part {
    std::filesystem::path file;
    const TensorDesc& desc;
    std::span<const std::byte> buffer;
  };
  std::vector<Part> parts{{file, op.output(), result.output}};
  if (op.output_indices()) parts.push_back({indices_npy_path(file), *op.output_indices(), result.indices});
  std::vector<std::vector<std::byte>> encoded;  // what `files` point into
  std::vector<FileContents> files;
  for (const Part& part : parts) {
    Expected<std::vector<std::byte>> bytes = encode_buffer_npy(part.desc, part.buffer);
    if (!bytes) return Error{bytes.error().code, part.file.string(), bytes.error().to_string()};
    encoded.push_back(std::move(*bytes));  // moving a vector keeps its elements where they are
    files.push_back({part.file, as_chars(encoded.back())});
  }
  return write_files_atomically(files);
}

Status write_outputs(const CliArguments& args, std::string_view backend, const Operation& op,
                     const RunResult& result, std::ostream& out) {
  if (!args.out) {
    write_result_document(out, backend, op, result.output, result.indices);
    return {};
  }
  const std::filesystem::path file(*args.out);
  if (is_npy_file(*args.out)) return write_npy_outputs(file, op, result);
  return write_file_atomically(file, [&](std::ostream& stream) {
    write_result_document(stream, backend, op, result.output, result.indices);
    return static_cast<bool>(stream);
  });
}

}  // namespace

Expected<LoadedSpec> validate_spec(Spec spec, const Limits& limits) {
  SS_ASSIGN_OR_RETURN(Operation op, Operation::make(spec.request, limits));
  SS_ASSIGN_OR_RETURN(std::vector<std::byte> input, make_input_buffer(spec, op.input(), limits));
  return LoadedSpec{std::move(spec), std::move(op), std::move(input)};
}

Expected<LoadedSpec> load_validated(const std::filesystem::path& file, const Limits& limits) {
  SS_ASSIGN_OR_RETURN(Spec spec, load_spec_file(file));
  return validate_spec(std::move(spec), limits);
}

// --timings: for the CPU backends "timings: cpu (device): 0.412 ms wall clock".
void print_timings(std::ostream& err, const std::string& backend, const std::string& device, const RunStats& stats) {
  err << "timings: " << backend << " (" << device << "): ";
  const std::ios_base::fmtflags flags = err.flags();
  const std::streamsize precision = err.precision();
  err << std::fixed << std::setprecision(3);
  if (stats.gpu_milliseconds) {
    err << *stats.gpu_milliseconds << " ms\n";
    for (const PassTiming& pass : stats.passes) err << "  " << pass.milliseconds << " ms  " << pass.label << '\n';
  } else if (stats.host_milliseconds) {
    err << *stats.host_milliseconds << " ms wall clock\n";
  } else {
    err << "not measured\n";
  }
  err.flags(flags);
  err.precision(precision);
}

int command_run(Context& context) {
  const CliArguments& args = context.args;
  if (is_dxdispatch_model_file(args.positional[0])) return command_run_model(context);
  // Validation comes first: an invalid spec exits 2 whatever backend was asked for.
  Expected<LoadedSpec> loaded = load_validated(args.positional[0], context.limits);
  if (!loaded) return fail(context, loaded.error());
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend(args.backend, context.backend_options);
  if (!backend) return fail(context, backend.error());
  Expected<RunResult> result = run_to_new_buffers(**backend, loaded->op, loaded->input);
  if (!result) return fail(context, result.error());
  // Named as asked: a build without the fast backend serves "cpu" with the
  // reference, and the document still says "cpu" as the contract's default.
  if (args.timings) print_timings(context.err, args.backend, (*backend)->device_name(), result->stats);
  if (Status s = write_outputs(args, args.backend, loaded->op, *result, context.out); !s.ok()) {
    return fail(context, s.error());
  }
  return kExitOk;
}

namespace {

// Runs one spec on every backend and compares with the first. Lines start
// with `prefix` (the spec's path when several are compared).
int compare_spec(Context& context, CompareBackends& backends, const LoadedSpec& loaded, const std::string& prefix) {
  const Operation& op = loaded.op;
  std::vector<BackendRun> runs;
  for (auto& [name, backend] : backends.ready) {
    Expected<RunResult> result = run_to_new_buffers(*backend, op, loaded.input);
    if (!result) {
      Error error = result.error();
      error.message = name + ": " + error.message;
      context.err << prefix;
      return fail(context, error);
    }
    if (context.args.timings) {
      context.err << prefix;
      print_timings(context.err, name, backend->device_name(), result->stats);
    }
    runs.push_back({name, std::move(*result)});
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    if (auto mismatch = first_mismatch(op, runs.front(), runs[i])) {
      context.err << prefix;
      print_error(context.err, *mismatch);
      return kExitMismatch;
    }
  }
  context.out << prefix << agreement(op, runs) << '\n';
  return kExitOk;
}

void print_notes(Context& context, const CompareBackends& backends) {
  for (const std::string& note : backends.notes) context.err << note << '\n';
}

// Several specs in one process (the backends are made once): a line per
// spec, then a summary. Exit 1 when any spec's backends differ, else the
// exit code of the first spec that failed, else 0.
int compare_specs(Context& context) {
  Expected<CompareBackends> backends = make_compare_backends(context);
  if (!backends) return fail(context, backends.error());
  print_notes(context, *backends);
  int first_failure = kExitOk;
  std::size_t equal = 0;
  std::size_t differ = 0;
  for (const std::string& file : context.args.positional) {
    const std::string prefix = file + ": ";
    int code = kExitOk;
    if (is_dxdispatch_model_file(file)) {
      Expected<DxModel> model = read_model_file(file, context.limits);
      if (!model) {
        context.err << prefix;
        code = fail(context, model.error());
      } else {
        code = compare_model(context, *backends, *model, prefix);
      }
    } else if (Expected<LoadedSpec> loaded = load_validated(file, context.limits); !loaded) {
      context.err << prefix;
      code = fail(context, loaded.error());
    } else {
      code = compare_spec(context, *backends, *loaded, prefix);
    }
    equal += code == kExitOk;
    differ += code == kExitMismatch;
    if (code != kExitOk && first_failure == kExitOk) first_failure = code;
  }
  const std::size_t total = context.args.positional.size();
  context.out << "compared " << total << " specs: " << equal << " equal, " << differ << " differ, "
              << total - equal - differ << " failed\n";
  return differ > 0 ? kExitMismatch : first_failure;
}

}  // namespace

int command_compare(Context& context) {
  if (context.args.positional.size() > 1) return compare_specs(context);
  if (is_dxdispatch_model_file(context.args.positional[0])) {
    Expected<DxModel> model = read_model_file(context.args.positional[0], context.limits);
    if (!model) return fail(context, model.error());
    Expected<CompareBackends> backends = make_compare_backends(context);
    if (!backends) return fail(context, backends.error());
    print_notes(context, *backends);
    return compare_model(context, *backends, *model, "");
  }
  // Validation comes first: an invalid spec exits 2 whatever backends exist.
  Expected<LoadedSpec> loaded = load_validated(context.args.positional[0], context.limits);
  if (!loaded) return fail(context, loaded.error());
  Expected<CompareBackends> backends = make_compare_backends(context);
  if (!backends) return fail(context, backends.error());
  print_notes(context, *backends);
  return compare_spec(context, *backends, *loaded, "");
}

}  // namespace stridescope::cli
