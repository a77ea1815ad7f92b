// compare on a DxDispatch model: its dispatches run in order on every
// backend (prints and writeFile skipped: compare looks at buffers, and must
// not write the model's files once per backend), and each dispatch's output
// and indices are compared bit for bit with the first backend's. Each backend
// runs the whole model, so a later dispatch reads what that backend wrote.
#include <sstream>

#include "app/cli/backend_comparison.h"
#include "core/codegen/dxdispatch_dispatch.h"
#include "core/codegen/dxdispatch_model.h"

namespace stridescope::cli {

int compare_model(Context& context, CompareBackends& backends, const DxModel& model, const std::string& prefix) {
  const std::vector<std::size_t> dispatches = dispatch_commands(model);
  if (dispatches.empty()) {
    context.out << prefix << "nothing to compare: the model has no dispatch command\n";
    return kExitOk;
  }
  std::vector<std::vector<BackendRun>> runs(dispatches.size());  // [dispatch][backend]
  for (auto& [name, backend] : backends.ready) {
    DxModel state = model;
    std::size_t dispatch = 0;
    DxRunOptions options;
    options.print_and_write = false;
    // A plain reference: clang before 16 cannot capture a structured binding.
    const std::string& backend_name = name;
    options.after_dispatch = [&](std::size_t, const RunResult& result) {
      runs[dispatch++].push_back({backend_name, result});
    };
    std::ostringstream unused;
    if (Status s = run_dxdispatch_model(state, *backend, unused, options); !s.ok()) {
      Error error = s.error();
      error.message = name + ": " + error.message;
      context.err << prefix;
      return fail(context, error);
    }
  }
  for (std::size_t d = 0; d < dispatches.size(); ++d) {
    const Operation& op = model.dispatchables[model.commands[dispatches[d]].dispatchable].op;
    const std::string line = prefix + describe_dispatch(model, d) + ": ";
    for (std::size_t b = 0; context.args.timings && b < runs[d].size(); ++b) {
      context.err << line;
      print_timings(context.err, runs[d][b].name, backends.ready[b].second->device_name(), runs[d][b].result.stats);
    }
    for (std::size_t b = 1; b < runs[d].size(); ++b) {
      if (auto mismatch = first_mismatch(op, runs[d].front(), runs[d][b])) {
        context.err << line;
        print_error(context.err, *mismatch);
        return kExitMismatch;
      }
    }
    context.out << line << agreement(op, runs[d]) << '\n';
  }
  return kExitOk;
}

}  // namespace stridescope::cli
