// Running one operation on several backends and comparing their buffers bit
// for bit: what compare does for each spec and selftest for each case.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/commands.h"
#include "core/backend.h"

namespace stridescope::cli {

// The backends a comparison runs on, made once, and what it says about the
// ones it could not make.
struct CompareBackends {
  std::vector<std::pair<std::string, std::unique_ptr<Backend>>> ready;
  std::vector<std::string> notes;  // for stderr, one line each
};

// Every compiled backend that can be made here. A missing Vulkan is a note;
// a --device that names no device is an error (exit 3), as is having none.
Expected<CompareBackends> make_compare_backends(const Context& context);

struct BackendRun {
  std::string name;
  RunResult result;
};

// The first element where `other` differs from `reference` (output, then
// indices), as an error naming it: "output[0,1]: vulkan differs from cpu at
// offset 1 (cpu gives 6, vulkan gives 7); 1 of 4 elements differ".
std::optional<Error> first_mismatch(const Operation& op, const BackendRun& reference, const BackendRun& other);

}  // namespace stridescope::cli
