#include "app/cli/backend_comparison.h"

#include "app/cli/tensor_text.h"
#include "core/compare.h"

namespace stridescope::cli {
namespace {

// "cpu gives 6, vulkan gives 7" for the element at `offset`.
std::string values_at(const TensorDesc& desc, uint64_t offset, const BackendRun& a, const BackendRun& b,
                      bool indices) {
  const std::size_t size = desc.element_size();
  const auto& buffer_a = indices ? a.result.indices : a.result.output;
  const auto& buffer_b = indices ? b.result.indices : b.result.output;
  return a.name + " gives " + format_element(desc.data_type(), buffer_a.data() + offset * size) + ", " + b.name +
         " gives " + format_element(desc.data_type(), buffer_b.data() + offset * size);
}

}  // namespace

Expected<CompareBackends> make_compare_backends(const Context& context) {
  CompareBackends backends;
  std::vector<std::string> unavailable;
  for (const std::string& name : context.env.compiled_backends()) {
    Expected<std::unique_ptr<Backend>> backend = context.env.make_backend(name, context.backend_options);
    if (!backend) {
      if (backend.error().code != ErrorCode::BackendUnavailable) return backend.error();
      // A device asked for by name (the error is at --device) that is missing
      // is an error, not a note.
      if (backend.error().path == "--device") return backend.error();
      unavailable.push_back(name + " backend unavailable (" + backend.error().to_string() + ")");
      continue;
    }
    backends.ready.emplace_back(name, std::move(*backend));
  }
  if (backends.ready.empty()) return Error{ErrorCode::BackendUnavailable, "", "no backend is available"};
  const std::string& first = backends.ready.front().first;
  for (const std::string& note : unavailable) {
    backends.notes.push_back("note: " + note + "; compared " + first +
                             (backends.ready.size() > 1 ? " with the others" : " alone"));
  }
  if (backends.ready.size() == 1 && unavailable.empty()) {
    backends.notes.push_back("note: this build has only the " + first + " backend; compared " + first + " alone");
  }
  return backends;
}

std::optional<Error> first_mismatch(const Operation& op, const BackendRun& reference, const BackendRun& other) {
  struct Part {
    const char* name;
    const TensorDesc* desc;
    bool indices;
  };
  std::vector<Part> parts = {{"output", &op.output(), false}};
  if (op.output_indices()) parts.push_back({"outputIndices", &*op.output_indices(), true});
  for (const Part& part : parts) {
    const auto& a = part.indices ? reference.result.indices : reference.result.output;
    const auto& b = part.indices ? other.result.indices : other.result.output;
    if (auto mismatch = compare_tensors(*part.desc, a, b)) {
      return invalid(std::string(part.name) + format_coord(mismatch->first),
                     other.name + " differs from " + reference.name + " at offset " +
                         std::to_string(mismatch->first_offset) + " (" +
                         values_at(*part.desc, mismatch->first_offset, reference, other, part.indices) + "); " +
                         std::to_string(mismatch->count) + " of " + std::to_string(part.desc->element_count()) +
                         " elements differ");
    }
  }
  return std::nullopt;
}

std::string agreement(const Operation& op, const std::vector<BackendRun>& runs) {
  std::string names;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    names += (i == 0 ? "" : i + 1 == runs.size() ? " and " : ", ") + runs[i].name;
  }
  const uint64_t count = op.output().element_count();
  const std::string what = std::to_string(count) + (count == 1 ? " output element" : " output elements") +
                           (op.output_indices() ? (count == 1 ? " and its index" : " and their indices") : "");
  if (runs.size() > 1) return "equal: " + names + " agree bit for bit on " + what;
  return "ran: " + names + " alone on " + what + " (nothing to compare with)";
}

}  // namespace stridescope::cli
