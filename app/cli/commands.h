// The commands of stridescope-cli (cli.h), one function each, and what they share.
#pragma once

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "app/backend_factory.h"
#include "app/cli/cli.h"
#include "app/cli/cli_arguments.h"
#include "core/io/result_file.h"  // is_npy_file, indices_npy_path
#include "core/io/spec_file.h"
#include "core/codegen/dxdispatch_model.h"
#include "core/operation.h"

namespace stridescope::cli {

struct Context {
  const CliArguments& args;
  std::ostream& out;
  std::ostream& err;
  const Environment& env;
  Limits limits;
  BackendOptions backend_options;
};

int command_run(Context& context);
int command_compare(Context& context);
int command_explain(Context& context);
int command_layout(Context& context);
int command_demo(Context& context);
int command_generate(Context& context);
int command_check(Context& context);
int command_selftest(Context& context);
int command_code(Context& context);
// run on a DxDispatch model (model_command.cpp).
bool is_dxdispatch_model_file(const std::string& path);
int command_run_model(Context& context);
int command_render(Context& context);

// A spec loaded, validated, with its input buffer built: what run, compare,
// explain and demo all start from.
struct LoadedSpec {
  Spec spec;
  Operation op;
  std::vector<std::byte> input;
};
Expected<LoadedSpec> load_validated(const std::filesystem::path& file, const Limits& limits);
// The same for a spec already in memory (a generated one).
Expected<LoadedSpec> validate_spec(Spec spec, const Limits& limits);

// explain on a DxDispatch model (model_command.cpp): the dispatch --dispatch
// picks (without it, the model's only one) as a spec, its input buffer as
// the dispatches before it left it, and its name for the first line.
struct ModelDispatch {
  LoadedSpec loaded;
  std::string description;  // "dispatch 0 (slice, DML_OPERATOR_SLICE)"
};
// A DxDispatch model read and checked whole; sourcePath files are looked up next to it.
Expected<DxModel> read_model_file(const std::filesystem::path& file, const Limits& limits);
Expected<ModelDispatch> load_model_dispatch(const Context& context, const std::filesystem::path& file);


// Prints the error, returns its exit code.
int fail(Context& context, const Error& error);

}  // namespace stridescope::cli
