// What one stridescope-cli command line gave: its exit code and what it
// printed. The same for the built binary (cli_runner.h) and for the entry
// point run in the test's process (cli_in_process.h).
#pragma once

#include <string>

namespace stridescope::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

}  // namespace stridescope::test
