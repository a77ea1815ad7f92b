// main() for a fuzz target built without libFuzzer: runs
// LLVMFuzzerTestOneInput once over each file named, or each file under each
// folder named (README files excepted), so `./dev test` replays every input
// that ever crashed a fuzzer, and the seeds, in an ordinary build.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_support.h"

namespace {

std::vector<std::filesystem::path> inputs_under(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(path)) return {path};
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
    if (entry.is_regular_file() && entry.path().filename().string().rfind("README", 0) != 0) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());  // the same order on every run
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::filesystem::exists(argv[i])) {
      std::fprintf(stderr, "error: %s: no such file or folder\n", argv[i]);
      return 2;
    }
    for (const std::filesystem::path& file : inputs_under(argv[i])) {
      std::ifstream stream(file, std::ios::binary);
      const std::vector<char> bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
      if (!stream.eof() && stream.fail()) {
        std::fprintf(stderr, "error: %s: unreadable\n", file.c_str());
        return 2;
      }
      std::fprintf(stderr, "%s\n", file.c_str());  // the input at fault when one aborts
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      ++count;
    }
  }
  std::printf("%zu inputs ran\n", count);
  return 0;
}
