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

// "equal: cpu, cpu-reference and vulkan agree bit for bit on 80 output
// elements", or with one backend "ran: cpu alone on ... (nothing to compare with)".
std::string agreement(const Operation& op, const std::vector<BackendRun>& runs);

// compare on a DxDispatch model (model_compare.cpp): every dispatch run in
// order on each backend, each one's output and indices compared with the
// first backend's. A line per dispatch, each starting with `prefix`; exit 1
// at the first difference, 4 when a backend fails.
int compare_model(Context& context, CompareBackends& backends, const DxModel& model, const std::string& prefix);

// --timings: "timings: vulkan (device): 1.234 ms" and one line per pass, or
// for a backend without device timestamps the wall-clock time of its run.
void print_timings(std::ostream& err, const std::string& backend, const std::string& device, const RunStats& stats);

}  // namespace stridescope::cli
