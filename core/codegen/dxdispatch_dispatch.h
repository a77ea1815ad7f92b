// One dispatch command of a DxDispatch model taken on its own, as a spec:
// what `stridescope-cli explain MODEL --dispatch K` explains and what the app
// opens. A dispatch reads its input buffer as the commands before it left it,
// so the dispatches before it run first (prints and writeFile do not).
//
// Dispatches are counted among the dispatch commands only, from 0, in the
// order the model lists them; a dispatch is also named by its dispatchable
// when the model dispatches that dispatchable once.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend.h"
#include "core/codegen/dxdispatch_model.h"
#include "core/io/spec_file.h"

namespace stridescope {

// The dispatch commands' indices into DxModel::commands, in order.
std::vector<std::size_t> dispatch_commands(const DxModel& model);

// "dispatch 1 (pad, DML_OPERATOR_PADDING)": how the CLI and the app name a dispatch.
std::string describe_dispatch(const DxModel& model, std::size_t dispatch);

// The dispatch `which` picks: a 0-based number among the dispatch commands,
// or a dispatchable's name that exactly one dispatch command names; with no
// `which`, the model's only dispatch. Errors are at `path` (the CLI's
// --dispatch) and list what there is to pick.
Expected<std::size_t> select_dispatch(const DxModel& model, std::optional<std::string_view> which,
                                      const std::string& path);

// Dispatch `dispatch` as a spec: its dispatchable's request, and as input
// data the bound input buffer's elements (TotalTensorSizeInBytes from the
// binding's offset) as the dispatches before it, run on `backend`, left them.
// NaN payloads read back as the data type's NaN (a spec's data holds values).
struct DispatchSpec {
  Spec spec;
  Operation op;
  std::vector<std::byte> input;  // the input buffer exactly, payloads kept
};
Expected<DispatchSpec> dispatch_spec(const DxModel& model, std::size_t dispatch, Backend& backend);

}  // namespace stridescope
