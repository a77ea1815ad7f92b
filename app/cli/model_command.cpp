// stridescope-cli run MODEL.json: a DxDispatch model (recognised by its
// "dispatchables") read, checked whole before anything runs, run command by
// command on the chosen backend, and what its print commands print on stdout
// ("NAME: v0, v1, ...", the buffer in its initializer's type). With --out
// RESULT.json it also writes the final contents of every resource:
//   {"resources": {NAME: {"dataType": T, "data": [...]}, ...}}
// in the model's resource order, each buffer's elements in buffer order,
// numbers written as the result document writes them.
// Also the model reading that compare and explain share, and explain's
// dispatch taken on its own as a spec.
#include <system_error>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "core/codegen/dxdispatch_dispatch.h"
#include "core/codegen/dxdispatch_model.h"
#include "core/cpu_backend.h"
#include "core/io/atomic_file.h"
#include "core/io/json_number.h"
#include "core/io/spec_file.h"
#include "core/io/text_file.h"

namespace stridescope::cli {
namespace {

void write_resources_document(std::ostream& out, const DxModel& model) {
  out << "{\n  \"resources\": {";
  const char* separator = "\n";
  for (const DxResource& resource : model.resources) {
    std::string data;
    const std::size_t size = element_size(resource.type);
    for (uint64_t i = 0; i < resource.count; ++i) {
      if (i > 0) data += ',';
      append_json_element(data, resource.type, resource.bytes.data() + i * size);
    }
    out << separator << "    " << nlohmann::json(resource.name).dump() << ": {\"dataType\": \""
        << to_string(resource.type) << "\", \"data\": [" << data << "]}";
    separator = ",\n";
  }
  out << "\n  }\n}\n";
}

}  // namespace

// Only a regular file is looked into: a pipe read here could not be read
// again as a spec.
bool is_dxdispatch_model_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  Expected<std::string> text = read_text_file(path, kMaxSpecBytes, "is too long");
  return text && looks_like_dxdispatch_model(*text);
}

Expected<DxModel> read_model_file(const std::filesystem::path& file, const Limits& limits) {
  SS_ASSIGN_OR_RETURN(const std::string text, read_text_file(file, kMaxSpecBytes, "is longer than a model may be"));
  return parse_dxdispatch_model(text, file.parent_path(), limits);
}

// The dispatches before the chosen one run on the CPU reference: explain
// states the reference semantics, and needs no device.
Expected<ModelDispatch> load_model_dispatch(const Context& context, const std::filesystem::path& file) {
  SS_ASSIGN_OR_RETURN(const DxModel model, read_model_file(file, context.limits));
  const std::optional<std::string_view> picked =
      context.args.dispatch ? std::optional<std::string_view>(*context.args.dispatch) : std::nullopt;
  SS_ASSIGN_OR_RETURN(const std::size_t dispatch, select_dispatch(model, picked, "--dispatch"));
  CpuReferenceBackend reference;
  SS_ASSIGN_OR_RETURN(DispatchSpec d, dispatch_spec(model, dispatch, reference));
  return ModelDispatch{LoadedSpec{std::move(d.spec), std::move(d.op), std::move(d.input)},
                       describe_dispatch(model, dispatch)};
}

int command_run_model(Context& context) {
  const CliArguments& args = context.args;
  const std::filesystem::path file = args.positional[0];
  if (args.out && is_npy_file(*args.out)) {
    return fail(context, invalid("--out", "a model's result is a JSON document of its resources, not .npy"));
  }
  Expected<DxModel> model = read_model_file(file, context.limits);
  if (!model) return fail(context, model.error());
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend(args.backend, context.backend_options);
  if (!backend) return fail(context, backend.error());
  if (Status s = run_dxdispatch_model(*model, **backend, context.out); !s.ok()) return fail(context, s.error());
  if (args.out) {
    const Status written = write_file_atomically(*args.out, [&](std::ostream& stream) {
      write_resources_document(stream, *model);
      return static_cast<bool>(stream);
    });
    if (!written.ok()) return fail(context, written.error());
  }
  return kExitOk;
}

}  // namespace stridescope::cli
