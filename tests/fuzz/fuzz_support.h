// Shared by the fuzz targets. Each target is one LLVMFuzzerTestOneInput; the
// same sources build two ways (CMakeLists.txt here): with libFuzzer under
// ASan + UBSan (`./dev fuzz`), and as ordinary programs with replay_main.cpp
// that run the kept inputs (regressions/, seeds/) in `./dev test`.
//
// An input that a reader refuses with an Error is a pass: refusing is the
// job. A crash, a sanitizer report, a leak, a timeout, running out of memory
// or a broken property (FUZZ_CHECK) is a failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

// A property every accepted input must have (a round trip, two backends
// agreeing): abort, so libFuzzer keeps the input as a crash.
#define FUZZ_CHECK(condition, what)                                                   \
  do {                                                                               \
    if (!(condition)) {                                                              \
      std::fprintf(stderr, "fuzz property broken at %s:%d: %s\n", __FILE__, __LINE__, \
                   what);                                                            \
      std::abort();                                                                  \
    }                                                                                \
  } while (false)

namespace stridescope::fuzz {

inline std::string_view as_text(const uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Small enough that one input runs in milliseconds, large enough for every
// layout and operator (the fuzz targets' `--max-bytes`).
inline constexpr uint64_t kFuzzMaxBytes = 64 * 1024;

}  // namespace stridescope::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);
