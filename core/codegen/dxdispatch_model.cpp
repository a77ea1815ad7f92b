#include "core/codegen/dxdispatch_model.h"

#include <chrono>
#include <cstring>
#include <tuple>

#include "core/codegen/dxdispatch_reading.h"
#include "core/io/json_reading.h"
#include "core/io/npy.h"
#include "core/io/spec_file.h"
#include "core/scalar.h"

namespace stridescope {
namespace {

using json = nlohmann::json;
using namespace json_reading;
using dxdispatch::lower;
using dxdispatch::read_dispatchable;
using dxdispatch::read_resource;

// DxDispatch's JSON (rapidjson) allows comments and trailing commas; the
// strict parser does not, so both are blanked out first (strings kept).
std::string strip_comments_and_trailing_commas(std::string_view text) {
  std::string out(text);
  bool in_string = false;
  std::size_t pending_comma = std::string::npos;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '/' && i + 1 < out.size() && (out[i + 1] == '/' || out[i + 1] == '*')) {
      const bool line = out[i + 1] == '/';
      std::size_t end = line ? out.find('\n', i) : out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : (line ? end : end + 2);
      for (std::size_t k = i; k < end; ++k) if (out[k] != '\n') out[k] = ' ';
      i = end - 1;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ',') {
      pending_comma = i;
      continue;
    }
    if ((c == '}' || c == ']') && pending_comma != std::string::npos) out[pending_comma] = ' ';
    if (!std::isspace(static_cast<unsigned char>(c))) pending_comma = std::string::npos;
  }
  return out;
}

bool is_npy_path(const std::string& file) {
  return file.size() >= 4 && (file.substr(file.size() - 4) == ".npy" || file.substr(file.size() - 4) == ".NPY");
}

Expected<std::size_t> resource_index(const DxModel& model, const std::string& name, const std::string& path) {
  for (std::size_t i = 0; i < model.resources.size(); ++i) {
    if (model.resources[i].name == name) return i;
  }
  return invalid(path, "names no resource ('" + name + "')");
}

Expected<DxBinding> read_binding(const DxModel& model, const json& b, const std::string& path, const TensorDesc& desc) {
  // DxDispatch takes an array at every bind point (for array bind points
  // such as JOIN's inputs); a single tensor's bind point holds one.
  if (b.is_array()) {
    if (b.size() != 1) {
      return invalid(path, "binds " + std::to_string(b.size()) + " resources; this bind point takes one tensor");
    }
    return read_binding(model, b[0], indexed(path, 0), desc);
  }
  DxBinding binding;
  std::string name;
  if (b.is_string()) {
    name = b.get<std::string>();
  } else if (b.is_object()) {
    const json* n = find(b, "name");
    if (!n) return missing(field(path, "name"));
    SS_ASSIGN_OR_RETURN(name, read_string(*n, field(path, "name")));
  } else {
    return wrong_type(path, "a resource name, {name, elementOffset} or an array of one of them", b);
  }
  SS_ASSIGN_OR_RETURN(binding.resource, resource_index(model, name, path));
  const DxResource& resource = model.resources[binding.resource];
  if (b.is_object()) {
    if (const json* offset = find(b, "elementOffset")) {
      SS_ASSIGN_OR_RETURN(const uint64_t elements, read_uint(*offset, field(path, "elementOffset")));
      if (elements > resource.bytes.size()) return invalid(field(path, "elementOffset"), "lies past the buffer");
      binding.byte_offset = elements * element_size(resource.type);
    }
  }
  const uint64_t room = binding.byte_offset > resource.bytes.size() ? 0 : resource.bytes.size() - binding.byte_offset;
  if (room < desc.buffer_bytes()) {
    return invalid(path, "resource '" + name + "' has " + std::to_string(room) + " bytes from its offset; the tensor needs " +
                             std::to_string(desc.buffer_bytes()) + " (TotalTensorSizeInBytes)");
  }
  return binding;
}

Expected<DxCommand> read_command(const DxModel& model, const json& c, const std::string& path) {
  if (!c.is_object()) return wrong_type(path, "an object", c);
  const json* type = find(c, "type");
  if (!type) return missing(field(path, "type"));
  SS_ASSIGN_OR_RETURN(const std::string kind, read_string(*type, field(path, "type")));
  DxCommand command;
  const std::string k = lower(kind);
  if (k == "print" || k == "writefile") {
    command.kind = k == "print" ? DxCommand::Kind::Print : DxCommand::Kind::WriteFile;
    const json* r = find(c, "resource");
    if (!r) return missing(field(path, "resource"));
    SS_ASSIGN_OR_RETURN(const std::string name, read_string(*r, field(path, "resource")));
    SS_ASSIGN_OR_RETURN(command.resource, resource_index(model, name, field(path, "resource")));
    if (command.kind == DxCommand::Kind::WriteFile) {
      const json* target = find(c, "targetPath");
      if (!target) return missing(field(path, "targetPath"));
      SS_ASSIGN_OR_RETURN(const std::string file, read_string(*target, field(path, "targetPath")));
      if (!is_npy_path(file)) return invalid(field(path, "targetPath"), "StrideScope writes .npy files only");
      command.target = file;
    }
    return command;
  }
  if (k != "dispatch") return invalid(field(path, "type"), "unknown command '" + kind + "' (dispatch, print, writeFile)");
  command.kind = DxCommand::Kind::Dispatch;
  const json* name = find(c, "dispatchable");
  if (!name) return missing(field(path, "dispatchable"));
  SS_ASSIGN_OR_RETURN(const std::string d, read_string(*name, field(path, "dispatchable")));
  std::size_t index = model.dispatchables.size();
  for (std::size_t i = 0; i < model.dispatchables.size(); ++i) {
    if (model.dispatchables[i].name == d) index = i;
  }
  if (index == model.dispatchables.size()) return invalid(field(path, "dispatchable"), "names no dispatchable ('" + d + "')");
  command.dispatchable = index;
  const Operation& op = model.dispatchables[index].op;
  const json* bindings = find(c, "bindings");
  if (!bindings || !bindings->is_object()) return missing(field(path, "bindings"));
  const std::string bpath = field(path, "bindings");
  for (const auto& [point, value] : bindings->items()) {
    if (point != "InputTensor" && point != "OutputTensor" && !(point == "OutputIndicesTensor" && op.output_indices())) {
      return invalid(field(bpath, point), "is not a bind point of this dispatchable");
    }
  }
  for (auto [point, target, desc] : {std::tuple{"InputTensor", &command.input, &op.input()},
                                     {"OutputTensor", &command.output, &op.output()}}) {
    const json* b = find(*bindings, point);
    if (!b) return missing(field(bpath, point));
    SS_ASSIGN_OR_RETURN(*target, read_binding(model, *b, field(bpath, point), *desc));
  }
  if (op.output_indices()) {
    const json* b = find(*bindings, "OutputIndicesTensor");
    if (!b) return missing(field(bpath, "OutputIndicesTensor"));
    SS_ASSIGN_OR_RETURN(command.indices, read_binding(model, *b, field(bpath, "OutputIndicesTensor"), *op.output_indices()));
  }
  return command;
}

}  // namespace

bool looks_like_dxdispatch_model(std::string_view text) { return text.find("\"dispatchables\"") != std::string_view::npos; }

Expected<DxModel> parse_dxdispatch_model(std::string_view text, const std::filesystem::path& base_dir,
                                         const Limits& limits) {
  SS_ASSIGN_OR_RETURN(const json root, parse_json(strip_comments_and_trailing_commas(text)));
  if (!root.is_object()) return wrong_type("", "an object", root);
  for (const char* key : {"resources", "dispatchables", "commands"}) {
    if (!find(root, key)) return missing(key);
  }
  DxModel model;
  const json& resources = root["resources"];
  if (!resources.is_object()) return wrong_type("resources", "an object", resources);
  for (const auto& [name, value] : resources.items()) {
    SS_ASSIGN_OR_RETURN(DxResource resource, read_resource(name, value, base_dir, limits));
    model.resources.push_back(std::move(resource));
  }
  const json& dispatchables = root["dispatchables"];
  if (!dispatchables.is_object()) return wrong_type("dispatchables", "an object", dispatchables);
  for (const auto& [name, value] : dispatchables.items()) {
    SS_ASSIGN_OR_RETURN(DxDispatchable d, read_dispatchable(name, value, limits));
    model.dispatchables.push_back(std::move(d));
  }
  const json& commands = root["commands"];
  if (!commands.is_array()) return wrong_type("commands", "an array", commands);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    SS_ASSIGN_OR_RETURN(DxCommand command, read_command(model, commands[i], indexed("commands", i)));
    model.commands.push_back(std::move(command));
  }
  return model;
}

namespace {

// The tensor's buffer from a binding, TotalTensorSizeInBytes long.
std::vector<std::byte> bound_bytes(const DxModel& model, const DxBinding& b, const TensorDesc& desc) {
  const std::vector<std::byte>& bytes = model.resources[b.resource].bytes;
  return {bytes.begin() + static_cast<std::ptrdiff_t>(b.byte_offset),
          bytes.begin() + static_cast<std::ptrdiff_t>(b.byte_offset + desc.buffer_bytes())};
}

void store(DxModel& model, const DxBinding& b, const std::vector<std::byte>& data, const TensorDesc& desc) {
  std::vector<std::byte>& bytes = model.resources[b.resource].bytes;
  std::memcpy(bytes.data() + b.byte_offset, data.data(), desc.buffer_elements() * desc.element_size());
}

}  // namespace

Status run_dxdispatch_model(DxModel& model, Backend& backend, std::ostream& out, const DxRunOptions& options) {
  for (std::size_t c = 0; c < model.commands.size() && c < options.stop_before; ++c) {
    const DxCommand& command = model.commands[c];
    if (command.kind == DxCommand::Kind::Dispatch) {
      const Operation& op = model.dispatchables[command.dispatchable].op;
      const std::vector<std::byte> input = bound_bytes(model, command.input, op.input());
      RunResult result;
      result.output = bound_bytes(model, command.output, op.output());
      if (command.indices) result.indices = bound_bytes(model, *command.indices, *op.output_indices());
      const auto start = std::chrono::steady_clock::now();
      auto stats = backend.run(op, input, result.output, result.indices);
      const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
      SS_ASSIGN_OR_RETURN(result.stats, std::move(stats));
      result.stats.host_milliseconds = elapsed.count();
      store(model, command.output, result.output, op.output());
      if (command.indices) store(model, *command.indices, result.indices, *op.output_indices());
      if (options.after_dispatch) options.after_dispatch(c, result);
      continue;
    }
    if (!options.print_and_write) continue;
    const DxResource& resource = model.resources[command.resource];
    if (command.kind == DxCommand::Kind::WriteFile) {
      const uint64_t shape[] = {resource.count};
      SS_RETURN_IF_ERROR(write_npy(command.target, resource.type, shape,
                                   std::span(resource.bytes).first(resource.count * element_size(resource.type))));
      continue;
    }
    out << resource.name << ":";
    for (uint64_t i = 0; i < resource.count; ++i) {
      out << (i ? ", " : " ") << format_scalar(read_element(resource.type, resource.bytes.data() + i * element_size(resource.type)));
    }
    out << '\n';
  }
  return {};
}

}  // namespace stridescope
