// The spec as a NumPy program: the input buffer viewed through
// np.lib.stride_tricks.as_strided (byte strides), the op as basic slicing,
// np.pad or an index array, max pooling as a tap-by-tap gather, and the
// result written through a strided view of the output buffer.
#include <filesystem>
#include <variant>

#include "core/codegen/python_text.h"
#include "core/codegen/writers.h"

namespace stridescope::codegen {

std::string numpy_scalar_code(DataType type, uint64_t bits);

namespace {

std::string numpy_dtype(DataType type) {
  switch (type) {
    case DataType::Float16: return "np.float16";
    case DataType::Float32: return "np.float32";
    case DataType::Float64: return "np.float64";
    case DataType::Int8: return "np.int8";
    case DataType::Int16: return "np.int16";
    case DataType::Int32: return "np.int32";
    case DataType::Int64: return "np.int64";
    case DataType::UInt8: return "np.uint8";
    case DataType::UInt16: return "np.uint16";
    case DataType::UInt32: return "np.uint32";
    case DataType::UInt64: return "np.uint64";
  }
  return "?";
}

// The unsigned type of the same width, whose bits a float's NaN payload is written in.
std::string numpy_bits_dtype(DataType type) {
  switch (element_size(type)) {
    case 2: return "np.uint16";
    case 4: return "np.uint32";
    default: return "np.uint64";
  }
}

std::string byte_strides(const TensorDesc& desc) {
  Strides bytes = desc.strides();
  for (uint64_t& stride : bytes) stride *= desc.element_size();
  return python_tuple(bytes);
}

std::string literal_array(DataType type, std::span<const std::byte> buffer, uint64_t count) {
  const PythonValues values = python_values(type, buffer, count, false);
  if (!values.as_bits) return "np.array(" + python_list(values.items, 4) + ", dtype=" + numpy_dtype(type) + ")";
  return "np.array(" + python_list(values.items, 4) + ", dtype=" + numpy_bits_dtype(type) + ").view(" +
         numpy_dtype(type) + ")  # bit patterns: a NaN's payload has no literal";
}

std::string numpy_input_buffer_code(const CodeSource& source) {
  const TensorDesc& input = source.op.input();
  const DataType type = input.data_type();
  const std::string n = std::to_string(input.buffer_elements());
  if (const auto* file = std::get_if<std::filesystem::path>(&source.spec.input_source)) {
    const std::string path = std::filesystem::absolute(*file).lexically_normal().string();
    return "input_buffer = np.load(" + python_string(path) + ").reshape(-1)[:" + n + "]\n";
  }
  if (const auto* fill = std::get_if<Fill>(&source.spec.input_source)) {
    if (std::holds_alternative<FillZeros>(*fill)) return "input_buffer = np.zeros(" + n + ", dtype=" + numpy_dtype(type) + ")\n";
    if (std::holds_alternative<FillIota>(*fill)) {
      if (type == DataType::Float64 || type == DataType::Int64 || type == DataType::UInt64) {
        return "input_buffer = np.arange(1, " + n + " + 1, dtype=" + numpy_dtype(type) + ")\n";
      }
      // Counted exactly in 64 bits, then converted once: floats round to
      // nearest, integers wrap modulo 2^bits, as StrideScope's iota does.
      const std::string wide = is_floating(type) ? "np.float64" : "np.int64";
      return "input_buffer = np.arange(1, " + n + " + 1, dtype=" + wide + ").astype(" + numpy_dtype(type) + ")\n";
    }
  }
  return "input_buffer = " + literal_array(type, source.input_buffer, input.buffer_elements()) + "\n";
}

std::string slice1_code(const Operation& op) {
  const auto& p = op.params_as<Slice1Params>();
  std::string text =
      "# slice1: CopyStart = InputWindowOffsets, plus InputWindowSizes - 1 where the stride is\n"
      "# negative (it starts at the window end); Output[o] = Input[CopyStart + InputWindowStrides * o].\n"
      "# InputWindowOffsets " + bracket_list(p.window_offsets) + ", InputWindowSizes " + bracket_list(p.window_sizes) +
      ", InputWindowStrides " + python_tuple(p.window_strides) + "\nresult = x[";
  for (std::size_t d = 0; d < p.window_offsets.size(); ++d) {
    if (d > 0) text += ", ";
    text += python_slice(p.copy_start(d), p.window_strides[d], op.output().sizes()[d]);
  }
  return text + "]\n";
}

std::string pad_width(const PaddingParams& p) {
  std::string text = "(";
  for (std::size_t d = 0; d < p.start_padding.size(); ++d) {
    if (d > 0) text += ", ";
    text += "(" + std::to_string(p.start_padding[d]) + ", " + std::to_string(p.end_padding[d]) + ")";
  }
  return text + (p.start_padding.size() == 1 ? ",)" : ")");
}

// np.pad's reflect and symmetric agree with DirectML while no side folds
// more than once (and reflect needs two elements to mirror).
bool np_pad_folds_once(const PaddingParams& p, const Sizes& input_sizes) {
  for (std::size_t d = 0; d < input_sizes.size(); ++d) {
    const uint64_t n = input_sizes[d];
    const uint64_t most = p.mode == PaddingMode::Reflection ? n - 1 : n;
    if (p.start_padding[d] > most || p.end_padding[d] > most) return false;
  }
  return true;
}

std::string numpy_padding_code(const Operation& op, std::vector<std::string>& notes) {
  const auto& p = op.params_as<PaddingParams>();
  const Sizes& in = op.input().sizes();
  std::string text = "# padding: " + std::string(to_string(p.mode)) + ", StartPadding " +
                     bracket_list(p.start_padding) + ", EndPadding " + bracket_list(p.end_padding) + "\n";
  switch (p.mode) {
    case PaddingMode::Constant:
      return text + "# paddingValue converted to the output type, as DirectML converts it\npad_value = " +
             numpy_scalar_code(op.output().data_type(), p.value_bits) + "\nresult = np.pad(x, " + pad_width(p) +
             ", mode=\"constant\", constant_values=pad_value)\n";
    case PaddingMode::Edge:
      return text + "result = np.pad(x, " + pad_width(p) + ", mode=\"edge\")\n";
    case PaddingMode::Reflection:
    case PaddingMode::Symmetric:
      break;
  }
  const char* np_mode = p.mode == PaddingMode::Reflection ? "reflect" : "symmetric";
  if (np_pad_folds_once(p, in)) {
    return text + "result = np.pad(x, " + pad_width(p) + ", mode=\"" + np_mode + "\")\n";
  }
  notes.push_back(std::string("np.pad(mode=\"") + np_mode +
                  "\") is not DirectML's periodic fold once a side folds more than once (or, for reflect, "
                  "a dimension has one element): an index array gives the exact result.");
  text += "# np.pad(mode=\"" + std::string(np_mode) +
          "\") differs here: DirectML's fold is periodic, and a side of this\n"
          "# spec folds more than once (or reflects a one-element dimension). So each dimension\n"
          "# gathers the input index every output index reads, folded as DirectML folds it.\n"
          "sources = [\n";
  for (std::size_t d = 0; d < in.size(); ++d) {
    const std::vector<int64_t> sources = padding_sources(p, in, d, op.output().sizes()[d]);
    std::vector<std::string> items;
    for (const int64_t s : sources) items.push_back(std::to_string(s));
    text += "    " + python_list(items, 5) + ",\n";
  }
  return text + "]\nresult = x[np.ix_(*sources)]\n";
}

std::string output_code(const std::string& name, const std::string& result, const TensorDesc& desc) {
  return tensor_comment(name, desc) + "# The result is written through a strided view of the " + name +
         " buffer, as DirectML writes it.\n" + name + "_buffer = np.zeros(" + std::to_string(desc.buffer_elements()) +
         ", dtype=" + numpy_dtype(desc.data_type()) + ")\n" + name + " = as_strided(" + name +
         "_buffer, shape=" + python_tuple(desc.sizes()) + ", strides=" + byte_strides(desc) + ")\n" + name +
         "[...] = " + result + "\n";
}

}  // namespace

std::string numpy_input_code(const CodeSource& source) {
  const TensorDesc& input = source.op.input();
  std::string text = tensor_comment("input", input);
  text += "# values: " + input_source_comment(source.spec.input_source) + "\n";
  text += numpy_input_buffer_code(source);
  text += "# as_strided takes strides in bytes: the spec's element strides times " +
          std::to_string(input.element_size()) + ".\n";
  text += "x = as_strided(input_buffer, shape=" + python_tuple(input.sizes()) + ", strides=" + byte_strides(input) +
          ", writeable=False)\n";
  return text;
}

std::string numpy_scalar_code(DataType type, uint64_t bits) {
  std::vector<std::byte> bytes(8);
  write_element_bits(type, bits, bytes.data());
  const std::optional<std::string> literal = python_element(type, bits);
  if (literal) return numpy_dtype(type) + "(" + *literal + ")";
  return literal_array(type, bytes, 1) + "[0]";
}

std::string numpy_type_name(DataType type) { return numpy_dtype(type); }

GeneratedCode write_numpy(const CodeSource& source) {
  GeneratedCode code;
  const Operation& op = source.op;
  std::string& text = code.text;
  text = python_header("NumPy", op);
  text += "import math  # noqa: F401 (math.inf, math.nan in literals)\nimport sys\n\nimport numpy as np\n"
          "from numpy.lib.stride_tricks import as_strided\n\n";
  text += numpy_input_code(source) + "\n";
  switch (op.kind()) {
    case OpKind::Identity: text += "# identity: the output takes the input's logical elements.\nresult = x\n"; break;
    case OpKind::Slice: text += python_slice_code(op); break;
    case OpKind::Slice1: text += slice1_code(op); break;
    case OpKind::Padding: text += numpy_padding_code(op, code.notes); break;
    case OpKind::MaxPooling2:
      text += numpy_pooling_code(op);
      code.notes.push_back("NumPy has no max pooling: the window maximum is a tap-by-tap gather that follows "
                           "StrideScope's tie and NaN rules exactly.");
      break;
  }
  text += "\n" + output_code("output", "result", op.output());
  if (op.output_indices()) {
    text += "\n" + output_code("indices", "flat_index.astype(" + numpy_dtype(op.output_indices()->data_type()) + ")",
                               *op.output_indices());
  }
  text += "\nif \"--print\" in sys.argv[1:]:\n    print(\"output\", output.dtype, output.shape)\n    print(output)\n";
  if (op.output_indices()) text += "    print(\"indices\", indices.dtype, indices.shape)\n    print(indices)\n";
  return code;
}

}  // namespace stridescope::codegen
