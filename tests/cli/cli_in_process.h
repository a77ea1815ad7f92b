// Runs stridescope-cli's entry point (cli::run_cli) in the test's process and
// keeps what it printed: quicker than starting the binary, and the way to put
// test doubles (backends that mismatch, are missing or fail) under a command
// through an Environment. Suites that check the executable itself use
// cli_runner.h.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "tests/cli/cli_result.h"

namespace stridescope::test {

inline CliResult run_in_process(const std::vector<std::string>& args,
                                const cli::Environment& env = cli::default_environment()) {
  std::ostringstream out, err;
  const int code = cli::run_cli(args, out, err, env);
  return {code, out.str(), err.str()};
}

}  // namespace stridescope::test
