#include "program_cases.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/codegen/code_writer.h"
#include "core/cpu_backend.h"
#include "core/scalar.h"

namespace stridescope::test {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void write_file(const std::filesystem::path& file, std::string_view bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << file;
}

// The tensor's logical elements in row-major order, each as stored.
std::string logical_bytes(const TensorDesc& desc, std::span<const std::byte> buffer) {
  std::string bytes;
  Coord coord(desc.rank(), 0);
  do {
    const auto* element = reinterpret_cast<const char*>(buffer.data() + desc.offset_of(coord) * desc.element_size());
    bytes.append(element, desc.element_size());
  } while (next_coord(coord, desc.sizes()));
  return bytes;
}

// The indices' logical elements as uint64 values.
std::string logical_indices(const TensorDesc& desc, std::span<const std::byte> buffer) {
  std::string bytes;
  Coord coord(desc.rank(), 0);
  do {
    const uint64_t value =
        read_element_bits(desc.data_type(), buffer.data() + desc.offset_of(coord) * desc.element_size());
    bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  } while (next_coord(coord, desc.sizes()));
  return bytes;
}

std::vector<uint64_t> as_vector(const Sizes& sizes) { return {sizes.begin(), sizes.end()}; }

bool has_nan(const TensorDesc& desc, std::span<const std::byte> buffer) {
  if (!is_floating(desc.data_type())) return false;
  for (uint64_t i = 0; i < desc.buffer_elements(); ++i) {
    if (std::isnan(to_double(read_element(desc.data_type(), buffer.data() + i * desc.element_size())))) return true;
  }
  return false;
}

}  // namespace

std::string Coverage::summary() const {
  std::ostringstream out;
  for (const auto& [what, n] : counts) out << what << ": " << n << "\n";
  return out.str();
}

void ProgramCases::count(const Spec& spec, const Operation& op, std::span<const std::byte> input) {
  coverage_.add("op " + std::string(to_string(op.kind())));
  coverage_.add("type " + std::string(to_string(op.input().data_type())));
  if (const auto* fill = std::get_if<Fill>(&spec.input_source)) {
    coverage_.add(std::holds_alternative<FillIota>(*fill)    ? "source iota"
                  : std::holds_alternative<FillZeros>(*fill) ? "source zeros"
                                                             : "source random");
  } else {
    coverage_.add(std::holds_alternative<std::vector<Scalar>>(spec.input_source) ? "source data" : "source npy");
  }
  if (has_nan(op.input(), input)) coverage_.add("input has NaN");
  if (op.input().layout().broadcast) coverage_.add("input broadcast");
  if (op.input().layout().permuted) coverage_.add("input permuted");
  if (op.input().layout().gapped) coverage_.add("input gapped");
  if (!(op.output().layout().packed && op.output().layout().row_major)) coverage_.add("output strided");
  if (op.kind() == OpKind::Slice1) {
    const auto& p = op.params_as<Slice1Params>();
    for (const int64_t s : p.window_strides) {
      if (s < 0) {
        coverage_.add("slice1 negative stride");
        break;
      }
    }
  }
  if (op.kind() == OpKind::Padding) {
    const auto& p = op.params_as<PaddingParams>();
    coverage_.add("padding " + std::string(to_string(p.mode)));
    for (std::size_t d = 0; d < p.start_padding.size(); ++d) {
      const uint64_t n = op.input().sizes()[d];
      if (p.mode != PaddingMode::Constant && p.mode != PaddingMode::Edge &&
          std::max(p.start_padding[d], p.end_padding[d]) > n) {
        coverage_.add("padding folds more than once");
        break;
      }
    }
  }
  if (op.kind() == OpKind::MaxPooling2) {
    if (op.output_indices()) coverage_.add("pooling indices " + std::string(to_string(op.output_indices()->data_type())));
    if (op.params_as<MaxPooling2Params>().spatial_rank() == 3) coverage_.add("pooling 3-D");
    if (op.params_as<MaxPooling2Params>().start_padding != op.params_as<MaxPooling2Params>().end_padding) {
      coverage_.add("pooling asymmetric padding");
    }
  }
}

void ProgramCases::add(const std::string& name, const Spec& spec) {
  Expected<Operation> op = Operation::make(spec.request);
  ASSERT_TRUE(op.has_value()) << name << ": " << op.error().to_string();
  Expected<std::vector<std::byte>> input = make_input_buffer(spec, op->input());
  ASSERT_TRUE(input.has_value()) << name << ": " << input.error().to_string();
  CpuReferenceBackend backend;
  Expected<RunResult> result = run_to_new_buffers(backend, *op, *input);
  ASSERT_TRUE(result.has_value()) << name << ": " << result.error().to_string();
  count(spec, *op, *input);

  const CodeSource source{spec, *op, *input};
  const GeneratedCode numpy = write_code(CodeLanguage::NumPy, source);
  const GeneratedCode torch = write_code(CodeLanguage::Torch, source);
  const GeneratedCode onnx = write_code(CodeLanguage::Onnx, source);
  write_file(folder_ / (name + ".numpy.py"), numpy.text);
  write_file(folder_ / (name + ".torch.py"), torch.text);
  write_file(folder_ / (name + ".onnx.py"), onnx.text);
  write_file(folder_ / (name + ".out.bin"), logical_bytes(op->output(), result->output));
  if (op->output_indices()) write_file(folder_ / (name + ".idx.bin"), logical_indices(*op->output_indices(), result->indices));
  if (!torch.runnable) coverage_.add("torch refuses the type");
  if (!onnx.runnable) coverage_.add("onnx refuses the type");

  nlohmann::json entry = {{"name", name},
                          {"dtype", lower(to_string(op->output().data_type()))},
                          {"shape", as_vector(op->output().sizes())},
                          {"input_shape", as_vector(op->input().sizes())},
                          {"indices", nullptr},
                          {"programs", {{"numpy", numpy.runnable}, {"torch", torch.runnable}, {"onnx", onnx.runnable}}}};
  if (op->output_indices()) entry["indices"] = lower(to_string(op->output_indices()->data_type()));
  manifest_.push_back(std::move(entry));
}

int ProgramCases::run(std::string& log) const {
  write_file(folder_ / "manifest.json", manifest_.dump(1));
  const std::filesystem::path log_file = folder_ / "log.txt";
  const std::string command = std::string(STRIDESCOPE_PYTHON) + " " + STRIDESCOPE_RUN_PROGRAMS + " '" +
                              folder_.string() + "' > '" + log_file.string() + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log_file);
  log.assign(std::istreambuf_iterator<char>(in), {});
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace stridescope::test
