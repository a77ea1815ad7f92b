// stridescope-cli: see app/cli/cli.h.
#include <iostream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return stridescope::cli::run_cli(args, std::cout, std::cerr, stridescope::cli::default_environment());
}
