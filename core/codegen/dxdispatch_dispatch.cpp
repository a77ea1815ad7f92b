#include "core/codegen/dxdispatch_dispatch.h"

#include <charconv>
#include <system_error>
#include <sstream>

#include "core/scalar.h"

namespace stridescope {
namespace {

// "0 (slice), 1 (pad)": what there is to pick, for an error message.
std::string dispatch_list(const DxModel& model, const std::vector<std::size_t>& dispatches) {
  std::string text;
  for (std::size_t i = 0; i < dispatches.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(i) + " (" + model.dispatchables[model.commands[dispatches[i]].dispatchable].name + ")";
  }
  return text;
}

}  // namespace

std::vector<std::size_t> dispatch_commands(const DxModel& model) {
  std::vector<std::size_t> dispatches;
  for (std::size_t c = 0; c < model.commands.size(); ++c) {
    if (model.commands[c].kind == DxCommand::Kind::Dispatch) dispatches.push_back(c);
  }
  return dispatches;
}

std::string describe_dispatch(const DxModel& model, std::size_t dispatch) {
  const DxDispatchable& d = model.dispatchables[model.commands[dispatch_commands(model).at(dispatch)].dispatchable];
  return "dispatch " + std::to_string(dispatch) + " (" + d.name + ", " + d.type + ")";
}

Expected<std::size_t> select_dispatch(const DxModel& model, std::optional<std::string_view> picked,
                                      const std::string& path) {
  const std::vector<std::size_t> dispatches = dispatch_commands(model);
  if (dispatches.empty()) return invalid(path, "the model has no dispatch command");
  const std::string choices = "the model's dispatches are " + dispatch_list(model, dispatches);
  if (!picked) {
    if (dispatches.size() == 1) return std::size_t{0};
    return invalid(path, "the model has " + std::to_string(dispatches.size()) +
                             " dispatches: pick one, by number from 0 or by name; " + choices);
  }
  const std::string_view which = *picked;
  std::size_t number = 0;
  const auto [end, error] = std::from_chars(which.data(), which.data() + which.size(), number);
  if (!which.empty() && error == std::errc() && end == which.data() + which.size()) {
    if (number < dispatches.size()) return number;
    return invalid(path, "there is no dispatch " + std::string(which) + " (counted from 0): " + choices);
  }
  std::vector<std::size_t> named;
  for (std::size_t i = 0; i < dispatches.size(); ++i) {
    if (model.dispatchables[model.commands[dispatches[i]].dispatchable].name == which) named.push_back(i);
  }
  if (named.size() == 1) return named.front();
  if (named.empty()) return invalid(path, "names no dispatch ('" + std::string(which) + "'): " + choices);
  return invalid(path, "'" + std::string(which) + "' is dispatched " + std::to_string(named.size()) +
                           " times: pick one by its number; " + choices);
}

Expected<DispatchSpec> dispatch_spec(const DxModel& model, std::size_t dispatch, Backend& backend) {
  const std::size_t index = dispatch_commands(model).at(dispatch);
  DxModel state = model;  // the caller's buffers stay as they were
  DxRunOptions options;
  options.stop_before = index;
  options.print_and_write = false;
  std::ostringstream unused;
  SS_RETURN_IF_ERROR(run_dxdispatch_model(state, backend, unused, options));

  const DxCommand& command = state.commands[index];
  const DxDispatchable& d = state.dispatchables[command.dispatchable];
  const TensorDesc& input = d.op.input();
  const std::vector<std::byte>& bytes = state.resources[command.input.resource].bytes;
  const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(command.input.byte_offset);
  std::vector<std::byte> buffer(begin, begin + static_cast<std::ptrdiff_t>(input.buffer_bytes()));
  std::vector<Scalar> values;
  values.reserve(input.buffer_elements());
  for (uint64_t i = 0; i < input.buffer_elements(); ++i) {
    values.push_back(read_element(input.data_type(), buffer.data() + i * input.element_size()));
  }
  Spec spec;
  spec.request = d.request;
  spec.input_source = std::move(values);
  return DispatchSpec{std::move(spec), d.op, std::move(buffer)};
}

}  // namespace stridescope
