// demo: every example spec run on the CPU backend and printed as small grids;
// what `./dev run` shows where there is no display.
#include <algorithm>
#include <system_error>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/tensor_text.h"

namespace stridescope::cli {
namespace {

constexpr uint64_t kMaxGridElements = 256;

std::vector<std::filesystem::path> spec_files(const std::filesystem::path& folder, std::error_code& error) {
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == ".json") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// "inputWindowOffsets [0,0,0,1], inputWindowSizes [1,1,4,3], ..." from the spec as written.
std::string params_text(const Spec& spec) {
  const auto document = nlohmann::ordered_json::parse(write_spec(spec));
  const auto params = document.find("params");
  if (params == document.end()) return "";
  std::string text;
  for (const auto& [key, value] : params->items()) {
    if (!text.empty()) text += ", ";
    text += key + " " + value.dump();
  }
  return text;
}

bool show_example(Context& context, Backend& backend, const std::filesystem::path& file) {
  std::ostream& out = context.out;
  out << "== " << file.stem().string() << " ==\n";
  Expected<LoadedSpec> loaded = load_validated(file, context.limits);
  if (!loaded) {
    out << "  error: " << loaded.error().to_string() << "\n\n";
    return false;
  }
  const Operation& op = loaded->op;
  out << to_string(op.kind());
  if (const std::string params = params_text(loaded->spec); !params.empty()) out << ": " << params;
  out << '\n';
  out << tensor_line("input ", op.input()) << '\n';
  if (!(op.input().layout().packed && op.input().layout().row_major)) {
    out << "  buffer:" << buffer_text(op.input(), loaded->input, kMaxGridElements) << '\n';
  }
  out << format_grid(op.input(), loaded->input, "  ", kMaxGridElements);
  Expected<RunResult> result = run_to_new_buffers(backend, op, loaded->input);
  if (!result) {
    out << "  error: " << result.error().to_string() << "\n\n";
    return false;
  }
  out << tensor_line("output", op.output()) << '\n' << format_grid(op.output(), result->output, "  ", kMaxGridElements);
  if (op.output_indices()) {
    out << tensor_line("outputIndices", *op.output_indices()) << '\n'
        << format_grid(*op.output_indices(), result->indices, "  ", kMaxGridElements);
  }
  out << '\n';
  return true;
}

}  // namespace

int command_demo(Context& context) {
  const std::filesystem::path folder =
      context.args.positional.empty() ? context.env.examples_dir : std::filesystem::path(context.args.positional[0]);
  std::error_code error;
  const std::vector<std::filesystem::path> files = spec_files(folder, error);
  if (error) return fail(context, Error{ErrorCode::Io, folder.string(), "cannot list examples: " + error.message()});
  if (files.empty()) return fail(context, invalid(folder.string(), "holds no .json spec files"));

  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend("cpu", context.backend_options);
  if (!backend) return fail(context, backend.error());
  std::size_t failed = 0;
  for (const std::filesystem::path& file : files) {
    if (!show_example(context, **backend, file)) ++failed;
  }
  context.out << files.size() - failed << " of " << files.size() << " examples ran\n";
  if (failed > 0) {
    return fail(context, invalid(folder.string(), std::to_string(failed) + " example(s) failed; see above"));
  }
  return kExitOk;
}

}  // namespace stridescope::cli
