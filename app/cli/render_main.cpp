// stridescope-render: stridescope-cli's commands with figures drawn (Qt). Users
// run `stridescope-cli render ...`, which becomes this binary (main.cpp says
// why); run directly it takes the same command lines.
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "app/cli/render_figure.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  stridescope::cli::Environment env = stridescope::cli::default_environment();
  env.draw_figure = stridescope::cli::render_figure;
  return stridescope::cli::run_cli(args, std::cout, std::cerr, env);
}
