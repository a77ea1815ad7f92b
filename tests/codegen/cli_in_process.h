// Runs stridescope-cli's entry point (cli::run_cli) in the test's process and
// keeps what it printed: quicker than starting the binary, for the suites that
// check a command's output rather than the executable.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

namespace stridescope::test {

struct InProcessCliResult {
  int code;
  std::string out;
  std::string err;
};

inline InProcessCliResult run_cli_in_process(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = cli::run_cli(args, out, err, cli::default_environment());
  return {code, out.str(), err.str()};
}

}  // namespace stridescope::test
