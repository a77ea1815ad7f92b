// stridescope-cli code SPEC --lang L: the spec as code for another framework
// (core/codegen), printed to stdout; where the framework differs from
// DirectML, a note on stderr.
#include "app/cli/commands.h"
#include "core/codegen/code_writer.h"

namespace stridescope::cli {

int command_code(Context& context) {
  const CliArguments& args = context.args;
  if (!args.lang) return fail(context, invalid("--lang", "code needs --lang numpy, torch, onnx, dml or dxdispatch"));
  const std::optional<CodeLanguage> language = parse_code_language(*args.lang);
  if (!language) {
    return fail(context, invalid("--lang", "expected numpy, torch, onnx, dml or dxdispatch, got '" + *args.lang + "'"));
  }
  Expected<LoadedSpec> loaded = load_validated(args.positional[0], context.limits);
  if (!loaded) return fail(context, loaded.error());
  const GeneratedCode code = write_code(*language, CodeSource{loaded->spec, loaded->op, loaded->input});
  context.out << code.text;
  for (const std::string& note : code.notes) context.err << "note: " << note << '\n';
  return kExitOk;
}

}  // namespace stridescope::cli
