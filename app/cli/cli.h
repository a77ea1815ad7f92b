// stridescope-cli: the headless front end (resources/docs/cli.md).
//
//   run SPEC [--backend cpu|vulkan] [--out FILE]   result document, or .npy files
//   compare SPEC                                   every available backend, bit for bit
//   explain SPEC --at I,J,... [--json]             where one output element came from
//   layout --sizes ... [--strides ...] [--dataType T] [--json]
//   demo [DIR]                                     every example spec, as small grids
//
// Exit codes: 0 ok; 1 compare found a mismatch; 2 invalid spec or bad
// arguments (including files that cannot be read or written); 3 backend
// unavailable; 4 a backend failed while running. Every error is one line on
// stderr: "error: <field path>: <message>".
//
// The command logic lives here, apart from main(), so tests can run it in
// process with their own backends and streams.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/backend_factory.h"
#include "app/cli/render_figure.h"
#include "core/backend.h"

namespace stridescope::cli {

// What the CLI needs from the world, replaceable in tests.
struct Environment {
  std::function<std::vector<std::string>()> compiled_backends;
  std::function<Expected<std::unique_ptr<Backend>>(std::string_view, const BackendOptions&)> make_backend;
  std::filesystem::path examples_dir;  // demo's default folder
  // Draws render's figures (render_figure.h); empty where this process has no
  // Qt, and then render says which binary draws them (render --text still works).
  std::function<Status(const Spec&, const RenderRequest&, std::unique_ptr<Backend>)> draw_figure;
};

// The real backends (app/backend_factory.h) and the examples folder: the
// installed share/stridescope/examples beside the executable when present,
// else the source tree's resources/examples. No figure drawer: the binaries
// that link render_figure set it.
Environment default_environment();

// Runs one command line (without the program name); returns the exit code.
int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err, const Environment& env);

enum ExitCode : int {
  kExitOk = 0,
  kExitMismatch = 1,
  kExitInvalid = 2,
  kExitUnavailable = 3,
  kExitBackendFailure = 4,
};

int exit_code_for(const Error& error);

// Prints "error: path: message" as one line.
void print_error(std::ostream& err, const Error& error);

std::string help_text();

}  // namespace stridescope::cli
