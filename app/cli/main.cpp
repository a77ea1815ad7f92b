// stridescope-cli: see app/cli/cli.h.
//
// `render` draws with Qt, and loading Qt's libraries costs every process start
// about 5 ms (1 ms without them). Scripts and the test suites start this
// binary thousands of times for the other commands, so it links no Qt: render
// runs in stridescope-render, built beside it from the same command code
// (render_main.cpp), which this binary becomes with the same arguments.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/cli.h"
#include "app/cli/cli_arguments.h"

namespace {

// Replaces this process with stridescope-render when the command is render and
// the renderer sits beside this binary; returns when it does not (render
// --text and the "no figures in this build" error then run here).
void become_renderer_for_render(const std::vector<std::string>& args, char** argv) {
  const auto parsed = stridescope::cli::parse_arguments(args);
  if (!parsed || parsed->command != "render") return;
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return;
  const std::filesystem::path renderer = self.parent_path() / "stridescope-render";
  if (::access(renderer.c_str(), X_OK) != 0) return;
  ::execv(renderer.c_str(), argv);  // returns only if it could not start
  std::cerr << "warning: cannot start " << renderer.string() << "; drawing no figures\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  become_renderer_for_render(args, argv);
  return stridescope::cli::run_cli(args, std::cout, std::cerr, stridescope::cli::default_environment());
}
