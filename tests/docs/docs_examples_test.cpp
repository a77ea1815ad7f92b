// The worked examples of resources/docs/ stay true: every ```console block
// that runs stridescope-cli is run again, from the project's folder, and must
// print exactly what the page shows after the command (stdout and stderr).
// A command is the "$ " line, minus a trailing "# comment", plus the lines of
// a <<'EOF' heredoc. Blocks whose output depends on the machine (timings, a
// file the reader makes first) are named in kNotRun and only listed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// Commands whose output a page shows but that cannot be rerun as they stand.
constexpr std::array<const char*, 5> kNotRun = {
    "--timings",        // device times differ on every run
    "selftest",         // names this machine's devices
    "generate corpus",  // writes a folder into the project
    "theirs.json",      // needs the reader's own file
    "bad.json",         // likewise
};

struct Example {
  std::string page;
  std::string command;   // for bash, without the "$ "
  std::string expected;  // what the page prints after it
};

std::string trim_trailing_newlines(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream stream(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// The command of a block starting at lines[i] ("$ stridescope-cli ..."); advances i past it.
std::string command_at(const std::vector<std::string>& lines, std::size_t& i) {
  std::string first = lines[i].substr(2);
  if (const std::size_t comment = first.find("  #"); comment != std::string::npos) first.resize(comment);
  std::string command = first;
  const bool heredoc = first.find("<<'EOF'") != std::string::npos;
  ++i;
  while (heredoc && i < lines.size()) {
    command += '\n' + lines[i];
    if (lines[i++] == "EOF") break;
  }
  return command;
}

std::vector<Example> examples_in(const fs::path& page) {
  const std::vector<std::string> lines = lines_of(page);
  std::vector<Example> examples;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] != "```console" || i + 1 >= lines.size()) continue;
    ++i;
    if (lines[i].rfind("$ stridescope-cli", 0) != 0) continue;
    Example example{page.filename().string(), command_at(lines, i), ""};
    for (; i < lines.size() && lines[i] != "```"; ++i) example.expected += lines[i] + '\n';
    example.expected = trim_trailing_newlines(example.expected);
    examples.push_back(std::move(example));
  }
  return examples;
}

bool is_run(const Example& example) {
  return std::none_of(kNotRun.begin(), kNotRun.end(),
                      [&](const char* marker) { return example.command.find(marker) != std::string::npos; });
}

// Runs `command` with bash in the project's folder; stdout and stderr together.
std::string run(const std::string& command, const fs::path& scratch) {
  const fs::path script = scratch / "example.sh";
  std::ofstream(script) << "cd '" << STRIDESCOPE_SOURCE_DIR << "' || exit 99\n{ " << command << "\n} 2>&1\n";
  FILE* pipe = popen(("bash '" + script.string() + "'").c_str(), "r");
  if (!pipe) return "(could not start bash)";
  std::string output;
  std::array<char, 4096> buffer;
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  pclose(pipe);
  return trim_trailing_newlines(output);
}

// A page may show the Vulkan backend where this machine has none; such an
// example is skipped unless CI says Vulkan must be there.
bool vulkan_missing_here(const Example& example, const std::string& output) {
  if (example.expected.find("vulkan") == std::string::npos) return false;
  if (!STRIDESCOPE_DOCS_VULKAN_BUILT) return true;  // a build without gpu/
  const char* required = std::getenv("STRIDESCOPE_REQUIRE_VULKAN");
  if (required && std::string(required) == "1") return false;
  return output.find("vulkan backend unavailable") != std::string::npos ||
         output.find("only the cpu") != std::string::npos;
}

TEST(DocsExamples, EveryCommandShownPrintsWhatItsPageShows) {
  const fs::path cli(STRIDESCOPE_CLI);
  const std::string path = cli.parent_path().string() + ":" + std::getenv("PATH");
  ASSERT_EQ(setenv("PATH", path.c_str(), 1), 0);
  const fs::path scratch = fs::temp_directory_path() / ("stridescope_docs_" + std::to_string(getpid()));
  fs::create_directories(scratch);

  std::vector<fs::path> pages;
  for (const auto& entry : fs::directory_iterator(fs::path(STRIDESCOPE_SOURCE_DIR) / "resources" / "docs")) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  std::sort(pages.begin(), pages.end());
  ASSERT_FALSE(pages.empty());

  int checked = 0;
  for (const fs::path& page : pages) {
    for (const Example& example : examples_in(page)) {
      if (!is_run(example)) continue;
      const std::string output = run(example.command, scratch);
      if (vulkan_missing_here(example, output)) continue;
      EXPECT_EQ(output, example.expected) << example.page << ": $ " << example.command;
      ++checked;
    }
  }
  fs::remove_all(scratch);
  EXPECT_GE(checked, 15) << "the pages show fewer runnable examples than they did";
}

}  // namespace
