// stridescope-cli run MODEL.json: a DxDispatch model (recognised by its
// "dispatchables") read, checked whole before anything runs, run command by
// command on the chosen backend, and what its print commands print on stdout
// ("NAME: v0, v1, ...", the buffer in its initializer's type).
#include <system_error>

#include "app/cli/commands.h"
#include "core/codegen/dxdispatch_model.h"
#include "core/io/spec_file.h"
#include "core/io/text_file.h"

namespace stridescope::cli {

// Only a regular file is looked into: a pipe read here could not be read
// again as a spec.
bool is_dxdispatch_model_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  Expected<std::string> text = read_text_file(path, kMaxSpecBytes, "is too long");
  return text && looks_like_dxdispatch_model(*text);
}

int command_run_model(Context& context) {
  const CliArguments& args = context.args;
  const std::filesystem::path file = args.positional[0];
  if (args.out) return fail(context, invalid("--out", "is not supported for DxDispatch models yet"));
  Expected<std::string> text = read_text_file(file, kMaxSpecBytes, "is longer than a model may be");
  if (!text) return fail(context, text.error());
  Expected<DxModel> model = parse_dxdispatch_model(*text, file.parent_path(), context.limits);
  if (!model) return fail(context, model.error());
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend(args.backend, context.backend_options);
  if (!backend) return fail(context, backend.error());
  if (Status s = run_dxdispatch_model(*model, **backend, context.out); !s.ok()) return fail(context, s.error());
  return kExitOk;
}

}  // namespace stridescope::cli
