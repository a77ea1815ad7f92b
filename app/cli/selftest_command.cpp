// stridescope-cli selftest: every bundled example and N random specs on every
// backend that can run here, each compared bit for bit with the reference
// backend. How an engineer checks a new GPU or driver in one command.
#include <algorithm>

#include "app/cli/backend_comparison.h"
#include "core/io/random_spec.h"
#include "core/split_mix64.h"

namespace stridescope::cli {
namespace {

constexpr std::string_view kReference = "cpu-reference";
constexpr uint64_t kDefaultRandomSpecs = 200;

struct Tally {
  std::size_t equal = 0;
  std::size_t differ = 0;
  std::size_t failed = 0;  // a backend could not run the case
};

// Runs one case on every backend; a line on stderr for what went wrong.
void check_case(Context& context, CompareBackends& backends, std::size_t reference, const Operation& op,
                const std::vector<std::byte>& input, const std::string& label, Tally& tally) {
  std::vector<BackendRun> runs;
  for (auto& [name, backend] : backends.ready) {
    Expected<RunResult> result = run_to_new_buffers(*backend, op, input);
    if (!result) {
      context.err << "failed: " << label << ": " << name << ": " << result.error().to_string() << '\n';
      ++tally.failed;
      return;
    }
    runs.push_back({name, std::move(*result)});
  }
  bool same = true;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i == reference) continue;
    if (std::optional<Error> mismatch = first_mismatch(op, runs[reference], runs[i])) {
      context.err << "differ: " << label << ": " << mismatch->to_string() << '\n';
      same = false;
    }
  }
  ++(same ? tally.equal : tally.differ);
}

std::vector<std::filesystem::path> example_files(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == ".json") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void check_examples(Context& context, CompareBackends& backends, std::size_t reference, Tally& tally) {
  for (const std::filesystem::path& file : example_files(context.env.examples_dir)) {
    Expected<LoadedSpec> loaded = load_validated(file, context.limits);
    if (!loaded) {
      context.err << "failed: " << file.string() << ": " << loaded.error().to_string() << '\n';
      ++tally.failed;
      continue;
    }
    check_case(context, backends, reference, loaded->op, loaded->input, file.filename().string(), tally);
  }
}

// The command that writes random case `index` as a file (the last one it
// writes), so a difference can be reproduced and shared.
std::string generate_command(const CliArguments& args, uint64_t index) {
  std::string command = "stridescope-cli generate DIR --seed " + std::to_string(args.seed) + " --count " +
                        std::to_string(index + 1);
  if (args.generate_op) command += " --op " + std::string(to_string(*args.generate_op));
  if (args.max_elements != RandomSpecOptions{}.max_elements) {
    command += " --max-elements " + std::to_string(args.max_elements);
  }
  return command;
}

// Case i is the spec generate_command(i) writes last.
void check_random_specs(Context& context, CompareBackends& backends, std::size_t reference, uint64_t count,
                        Tally& tally) {
  RandomSpecOptions options;
  options.op = context.args.generate_op;
  options.max_elements = context.args.max_elements;
  SplitMix64 seeds(context.args.seed);
  for (uint64_t i = 0; i < count; ++i) {
    const std::string label = "random case " + std::to_string(i) + " (" + generate_command(context.args, i) + ")";
    Expected<Spec> spec = random_spec(seeds.next(), options);
    Expected<LoadedSpec> loaded = spec ? validate_spec(std::move(*spec), context.limits) : spec.error();
    if (!loaded) {
      context.err << "failed: " << label << ": " << loaded.error().to_string() << '\n';
      ++tally.failed;
      continue;
    }
    check_case(context, backends, reference, loaded->op, loaded->input, label, tally);
  }
}

}  // namespace

int command_selftest(Context& context) {
  Expected<CompareBackends> backends = make_compare_backends(context);
  if (!backends) return fail(context, backends.error());
  for (const std::string& note : backends->notes) context.err << note << '\n';
  const auto& ready = backends->ready;
  const auto found = std::find_if(ready.begin(), ready.end(), [](const auto& b) { return b.first == kReference; });
  if (found == ready.end()) {
    return fail(context, Error{ErrorCode::BackendUnavailable, "", "this build has no cpu-reference backend"});
  }
  const auto reference = static_cast<std::size_t>(found - ready.begin());
  context.out << "reference: " << kReference << " (" << found->second->device_name() << ")\n";
  std::string tested;
  for (const auto& [name, backend] : ready) {
    if (name == kReference) continue;
    context.out << "testing:   " << name << " (" << backend->device_name() << ")\n";
    tested += (tested.empty() ? "" : ", ") + name;
  }
  const uint64_t count = context.args.count.value_or(kDefaultRandomSpecs);
  Tally tally;
  check_examples(context, *backends, reference, tally);
  check_random_specs(context, *backends, reference, count, tally);
  context.out << "selftest: " << (tally.equal + tally.differ + tally.failed) << " cases (the bundled examples and "
              << count << " random specs, seed " << context.args.seed << ") on " << (tested.empty() ? "no other backend" : tested)
              << " against " << kReference << ": " << tally.equal << " equal, " << tally.differ << " differ, "
              << tally.failed << " failed\n";
  if (tally.differ > 0) return kExitMismatch;
  return tally.failed > 0 ? kExitBackendFailure : kExitOk;
}

}  // namespace stridescope::cli
