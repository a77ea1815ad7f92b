// Runs the built stridescope-cli (path injected by CMake as STRIDESCOPE_CLI)
// and captures its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "app/backend_factory.h"
#include "cli_result.h"
#include "temp_folder.h"

namespace stridescope::test {

inline std::string shell_quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

// `piped_stdin`: a file whose text reaches the CLI's standard input through a
// pipe (cat FILE | stridescope-cli ...).
inline CliResult run_cli_binary(const std::vector<std::string>& args,
                                const std::filesystem::path& piped_stdin = {}) {
  TempFolder scratch;
  const auto err_file = scratch / "stderr.txt";
  std::string command = piped_stdin.empty() ? std::string() : "cat " + shell_quote(piped_stdin.string()) + " | ";
  command += shell_quote(STRIDESCOPE_CLI);
  for (const std::string& arg : args) command += " " + shell_quote(arg);
  command += " 2>" + shell_quote(err_file.string());

  CliResult result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "popen failed: " << command;
    return result;
  }
  std::array<char, 4096> chunk{};
  std::size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) result.out.append(chunk.data(), got);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = read_text(err_file);
  return result;
}

inline std::string example(const std::string& name) {
  return (std::filesystem::path(STRIDESCOPE_EXAMPLES_DIR) / name).string();
}

inline bool has_vulkan() {
  const auto names = compiled_backends();
  return std::find(names.begin(), names.end(), "vulkan") != names.end();
}

// The text itself when it is one line ending in a newline (the contract's
// error line), else a marker that fails any comparison and shows the text.
inline std::string one_line(const std::string& text) {
  return text.empty() || text.find('\n') != text.size() - 1 ? "<not one line: " + text + ">" : text;
}

// Writes `text` as `name` in `folder` and returns its path.
inline std::string spec_file(const TempFolder& folder, std::string_view text, const std::string& name = "spec.json") {
  write_text(folder / name, text);
  return (folder / name).string();
}

}  // namespace stridescope::test
