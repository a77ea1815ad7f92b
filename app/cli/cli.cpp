#include "app/cli/cli.h"

#include <cstdio>
#include <string>
#include <system_error>

#include "app/cli/cli_arguments.h"
#include "app/cli/commands.h"

#ifndef STRIDESCOPE_VERSION
#define STRIDESCOPE_VERSION "unknown"
#endif
#ifndef STRIDESCOPE_SOURCE_EXAMPLES_DIR
#define STRIDESCOPE_SOURCE_EXAMPLES_DIR ""
#endif

namespace stridescope::cli {
namespace {

std::filesystem::path installed_examples_dir() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
  const std::filesystem::path candidate = exe.parent_path().parent_path() / "share" / "stridescope" / "examples";
  return std::filesystem::is_directory(candidate, error) ? candidate : std::filesystem::path{};
}

// How many positional arguments a command takes.
struct Arity {
  std::size_t least;
  std::size_t most;
};
Arity positional_arity(const std::string& command) {
  if (command == "layout") return {0, 0};
  if (command == "demo") return {0, 1};
  if (command == "selftest") return {0, 0};
  if (command == "compare") return {1, SIZE_MAX};
  if (command == "check") return {2, 2};
  return {1, 1};
}

}  // namespace

Environment default_environment() {
  Environment env;
  env.compiled_backends = [] { return stridescope::compiled_backends(); };
  env.make_backend = [](std::string_view name, const BackendOptions& options) {
    return stridescope::make_backend(name, options);
  };
  env.examples_dir = installed_examples_dir();
  if (env.examples_dir.empty()) env.examples_dir = STRIDESCOPE_SOURCE_EXAMPLES_DIR;
  return env;
}

int exit_code_for(const Error& error) {
  switch (error.code) {
    case ErrorCode::InvalidSpec: return kExitInvalid;
    case ErrorCode::Io: return kExitInvalid;
    case ErrorCode::BackendUnavailable: return kExitUnavailable;
    case ErrorCode::BackendFailure: return kExitBackendFailure;
  }
  return kExitInvalid;
}

namespace {

// The message may quote the spec's own strings: control characters (an
// escape sequence would recolour the terminal, a newline would split the
// one-line error) are written as \uXXXX, as JSON would write them.
std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    unsigned code = 0x110000;  // none
    std::size_t length = 1;
    if (c < 0x20 || c == 0x7F) {
      code = c;
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      code = static_cast<unsigned char>(text[i + 1]);  // C1 controls, U+0080..U+009F
      length = 2;
    } else if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(text[i + 2]) == 0xA8 || static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      code = 0x2000 + static_cast<unsigned char>(text[i + 2]) - 0x80;  // U+2028, U+2029: line breaks
      length = 3;
    }
    if (code == 0x110000) {
      out += text[i];
      continue;
    }
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\u%04X", code);
    out += escaped;
    i += length - 1;
  }
  return out;
}

}  // namespace

void print_error(std::ostream& err, const Error& error) {
  err << "error: " << printable(error.to_string()) << '\n';
}

int fail(Context& context, const Error& error) {
  print_error(context.err, error);
  return exit_code_for(error);
}

std::string help_text() {
  return R"(usage: stridescope-cli COMMAND [ARGS] [OPTIONS]

Runs and inspects DirectML data-movement operators (slice, slice1, padding,
max_pooling2, identity) described by JSON spec files.

commands:
  run SPEC [--backend cpu|cpu-reference|vulkan] [--out FILE]
      Runs the op and writes the result document (JSON) to stdout, or to FILE.
      SPEC may be a pipe: cat spec.json | stridescope-cli run /dev/stdin
      --out X.npy writes the output buffer as a NumPy .npy file instead, and
      the indices (max_pooling2 with outputIndices) to X.indices.npy. The .npy
      shape is the output sizes when the output is packed row-major; otherwise
      it is the 1-D physical buffer (buffer elements, gaps included), so the
      bytes are the buffer exactly as the result document's "data" lists it.
      SPEC may also be a DxDispatch model (a file with "dispatchables"): its
      commands run in order and its prints print "NAME: v0, v1, ...".
  compare SPEC [SPEC...]
      Runs the op on every available backend (cpu, cpu-reference, vulkan) and
      compares the outputs bit for bit. Backends compiled in but unusable here
      are noted on stderr. Several specs run in one process: a line per spec
      prefixed with its path, then "compared N specs: ..."; the exit code is 1
      if any spec's backends differ, else that of the first spec that failed.
      A DxDispatch model's dispatches run in order on each backend (prints
      and writeFile skipped) and each dispatch's output and indices are
      compared: a line per dispatch, "dispatch K (NAME, DML_OPERATOR_X): ...".
  explain SPEC [--at I,J,...] [--json]
  explain MODEL [--dispatch K] [--at I,J,...] [--json]
      Explains one output element: the input coordinate and buffer offset it
      was read from, the padding rule that made it, or the pooling window and
      its winner, then the arithmetic worked out with the spec's numbers.
      Without --at: how each output size follows from the spec.
      On a DxDispatch model, --dispatch K picks the dispatch command: K is its
      number among the model's dispatch commands, counted from 0 in the
      order they are listed, or the name of a dispatchable dispatched once.
      A model with one dispatch needs no --dispatch. The input is the bound
      buffer as the dispatches before it left it; the text output starts
      with a line naming it: dispatch K (NAME, DML_OPERATOR_X).
  layout --sizes 2,3 [--strides 3,1] [--dataType FLOAT32] [--json]
      Shows a tensor layout: buffer size (DMLCalcBufferTensorSize), the offset
      of every element, which coordinates share each buffer element, and
      whether it is packed, row-major, broadcast, gapped, overlapping or
      permuted.
  demo [DIR]
      Runs every example spec in DIR (default: the bundled examples) on the
      CPU backend and prints each one's op and output as a small grid.
  generate DIR [--count N] [--seed S] [--op OP] [--max-elements E] [--backend B]
      Writes a test corpus for another implementation of these operators:
      N (default 20) random valid specs, DIR/case_NNNN_OP.json, each with its
      input data written out, beside DIR/case_NNNN_OP.result.json, the result
      document backend B (default cpu) gives for it. Every op (or only --op),
      data type, layout (packed, gapped, permuted, broadcast) and parameter
      kind, at most E (default 64) elements per tensor; values include ties,
      signed zeros, infinities, NaN and the type's extremes. The same --seed
      (default 1) writes the same files everywhere; a larger --count extends
      a smaller one.
  check SPEC RESULT [--backend B] [--diagnose [--json]]
      Checks another implementation's result for SPEC against backend B
      (default cpu) bit for bit. RESULT is a result document (JSON, as run
      writes it; a NaN there matches any NaN, since the format drops payloads)
      or X.npy as run --out X.npy writes it (with X.indices.npy for indices).
      Exit 0 when equal; 1 when not, with the first differing element on
      stderr, both values, how many differ and the rule that element follows.
      --diagnose runs every known mistake (reflection that repeats the edge,
      indices per plane, ...) on the spec and prints "diagnosis: ID: ..." for
      each that reproduces RESULT bit for bit (or, when none does, for those
      that explain some of the differing elements, with how many), else
      "diagnosis: unknown" and what the differing elements have in common; a
      RESULT whose sizes do not fit the spec is still exit 2, but a mistake
      that gives those sizes is named. --json prints it as one document.
  selftest [--count N] [--seed S] [--op OP] [--max-elements E] [--device D]
      Runs every bundled example and N (default 200) random specs, drawn as
      generate draws them, on every backend that can run here, and compares
      each with cpu-reference bit for bit. Prints the devices, a line per
      difference (with the generate command that writes the failing case) and
      a summary. Exit 0 when all agree; 1 on any difference; 4 when a backend
      failed to run a case.
  code SPEC --lang numpy|torch|onnx|dml|dxdispatch
      Prints SPEC as code for another framework, exactly: a self-contained
      NumPy or PyTorch program (the logical result in `output`, pooling
      indices in `indices`; run with --print to print them), ONNX, DirectML
      C++ or a DxDispatch model. Where the framework differs from DirectML the
      code says so in a comment and uses an exact workaround; those notes are
      also printed on stderr ("note: ...").
  render SPEC --out FIG.png|FIG.svg|FIG.gif [--panels input,output,indices]
         [--memory] [--plane I,J[:I,J...]|all] [--at I,J,...] [--scale S]
         [--theme light|dark] [--no-legend] [--title TEXT] [--compare-with RESULT]
         [--animate [--fps F] [--order logical|buffer]]
  render SPEC --text [--panels ...] [--at I,J,...]
      Draws the spec's tensors as a figure, with no display needed: the chosen
      panels (default input, output, and indices when there are any), each
      on one plane (--plane: the indices before the last two dimensions; by
      default the plane of the --at element and its source), several planes
      (0,0:0,1) or all (at most 64 a panel), with --memory its buffer strip,
      the overlays the app draws (window, padding regions, and for --at the
      selected element, its source or pooling window and winner), a legend
      (unless --no-legend) and an optional title, at --scale S (0.25 to 8,
      default 1), light or dark. --animate writes a looping GIF, or to a .svg
      an animated SVG that browsers play (SMIL), that selects each output
      element in turn (--order logical, the default, or buffer order) at
      --fps F frames a second (default 4); past 256 elements it takes every
      k-th, k the smallest step leaving at most 256 frames (so at least 128).
      --compare-with RESULT flags the elements where another
      implementation's result (as check reads it) differs. --text prints the
      panels as text grids instead, values as run writes them. Figures need
      the Qt build; --text works in any.

options:
  --max-bytes N        largest buffer a tensor may need (default 1073741824)
  --device NAME|INDEX  Vulkan device, by index or part of its name (default:
                       $STRIDESCOPE_VULKAN_DEVICE, else the best); compare
                       exits 3 when it names no device, rather than noting it
  --force-staging      Vulkan: copy through staging buffers
  --vulkan-validation  Vulkan: enable VK_LAYER_KHRONOS_validation
  --json               machine-readable output (explain, layout, check --diagnose)
  --timings            run, compare: each backend's time on stderr (Vulkan:
                       device timestamps per pass; the CPU backends: the
                       wall-clock time of their run)
  -h, --help           this text
  --version            the version

exit codes:
  0  ok
  1  compare, check: the outputs differ (first differing coordinate on stderr)
  2  invalid spec or bad arguments (including unreadable or unwritable files)
  3  backend unavailable
  4  a backend failed while running
Errors are one line on stderr: "error: <field path>: <message>".
)";
}

int run_cli(std::span<const std::string> raw, std::ostream& out, std::ostream& err, const Environment& env) {
  Expected<CliArguments> parsed = parse_arguments(raw);
  if (!parsed) {
    print_error(err, parsed.error());
    return exit_code_for(parsed.error());
  }
  const CliArguments& args = *parsed;
  if (args.help) {
    out << help_text();
    return kExitOk;
  }
  if (args.version) {
    out << "stridescope-cli " << STRIDESCOPE_VERSION << '\n';
    return kExitOk;
  }
  if (args.command.empty()) {
    print_error(err, invalid("", "missing command (run, compare, explain, layout, demo, generate, check, selftest, code or render; see --help)"));
    return kExitInvalid;
  }

  const Arity arity = positional_arity(args.command);
  if (args.positional.size() > arity.most) {
    print_error(err, invalid(args.positional[arity.most], "unexpected argument to " + args.command));
    return kExitInvalid;
  }
  if (args.positional.size() < arity.least) {
    print_error(err, args.command == "generate" ? invalid("DIR", "generate needs a folder to write the cases to")
                     : args.command == "check" && !args.positional.empty()
                         ? invalid("RESULT", "check needs the result to check after the spec")
                         : invalid("SPEC", args.command + " needs a spec file"));
    return kExitInvalid;
  }

  Context context{args, out, err, env, Limits{args.max_bytes}, BackendOptions{}};
  context.backend_options.vulkan_device = args.device;
  context.backend_options.vulkan_force_staging = args.force_staging;
  context.backend_options.vulkan_validation = args.vulkan_validation;

  if (args.command == "run") return command_run(context);
  if (args.command == "compare") return command_compare(context);
  if (args.command == "explain") return command_explain(context);
  if (args.command == "layout") return command_layout(context);
  if (args.command == "generate") return command_generate(context);
  if (args.command == "check") return command_check(context);
  if (args.command == "selftest") return command_selftest(context);
  if (args.command == "code") return command_code(context);
  if (args.command == "render") return command_render(context);
  return command_demo(context);
}

}  // namespace stridescope::cli
