// The spec as a PyTorch program: torch.as_strided views over the buffers
// (element strides), slicing (flipped first where a step is negative),
// F.pad for constant padding, per-dimension index_select for the folding
// modes, and max pooling as a tap-by-tap gather. Written for PyTorch 1.13
// (Debian 12), which has no uint16, uint32 or uint64 tensors.
#include <filesystem>
#include <variant>

#include "core/codegen/python_text.h"
#include "core/codegen/writers.h"

namespace stridescope::codegen {
namespace {

// nullopt where PyTorch has no such type.
std::optional<std::string> torch_dtype(DataType type) {
  switch (type) {
    case DataType::Float16: return "torch.float16";
    case DataType::Float32: return "torch.float32";
    case DataType::Float64: return "torch.float64";
    case DataType::Int8: return "torch.int8";
    case DataType::Int16: return "torch.int16";
    case DataType::Int32: return "torch.int32";
    case DataType::Int64: return "torch.int64";
    case DataType::UInt8: return "torch.uint8";
    default: return std::nullopt;
  }
}

// PyTorch has no unsigned 16-64 bit types: a float's bits go through the signed type of its width.
std::string torch_bits_dtype(DataType type) {
  switch (element_size(type)) {
    case 2: return "torch.int16";
    case 4: return "torch.int32";
    default: return "torch.int64";
  }
}

std::string literal_tensor(DataType type, std::span<const std::byte> buffer, uint64_t count) {
  const PythonValues values = python_values(type, buffer, count, true);
  if (!values.as_bits) return "torch.tensor(" + python_list(values.items, 4) + ", dtype=" + *torch_dtype(type) + ")";
  return "torch.tensor(" + python_list(values.items, 4) + ", dtype=" + torch_bits_dtype(type) + ").view(" +
         *torch_dtype(type) + ")  # bit patterns: a NaN's payload has no literal";
}

std::string torch_input_buffer_code(const CodeSource& source) {
  const TensorDesc& input = source.op.input();
  const DataType type = input.data_type();
  const std::string dtype = *torch_dtype(type);
  const std::string n = std::to_string(input.buffer_elements());
  if (const auto* file = std::get_if<std::filesystem::path>(&source.spec.input_source)) {
    const std::string path = std::filesystem::absolute(*file).lexically_normal().string();
    return "import numpy as np  # PyTorch reads no .npy itself\n\ninput_buffer = torch.from_numpy(np.load(" +
           python_string(path) + ").reshape(-1)[:" + n + "].copy())\n";
  }
  if (const auto* fill = std::get_if<Fill>(&source.spec.input_source)) {
    if (std::holds_alternative<FillZeros>(*fill)) return "input_buffer = torch.zeros(" + n + ", dtype=" + dtype + ")\n";
    if (std::holds_alternative<FillIota>(*fill)) {
      if (type == DataType::Float64 || type == DataType::Int64) {
        return "input_buffer = torch.arange(1, " + n + " + 1, dtype=" + dtype + ")\n";
      }
      // Counted exactly in 64 bits, then converted once: floats round to
      // nearest, integers wrap modulo 2^bits, as StrideScope's iota does.
      const std::string wide = is_floating(type) ? "torch.float64" : "torch.int64";
      return "input_buffer = torch.arange(1, " + n + " + 1, dtype=" + wide + ").to(" + dtype + ")\n";
    }
  }
  return "input_buffer = " + literal_tensor(type, source.input_buffer, input.buffer_elements()) + "\n";
}

std::string slice1_code(const Operation& op, std::vector<std::string>& notes) {
  const auto& p = op.params_as<Slice1Params>();
  const Sizes& in = op.input().sizes();
  std::string text =
      "# slice1: CopyStart = InputWindowOffsets, plus InputWindowSizes - 1 where the stride is\n"
      "# negative (it starts at the window end); Output[o] = Input[CopyStart + InputWindowStrides * o].\n"
      "# InputWindowOffsets " + bracket_list(p.window_offsets) + ", InputWindowSizes " + bracket_list(p.window_sizes) +
      ", InputWindowStrides " + python_tuple(p.window_strides) + "\n";
  std::vector<int64_t> flipped;
  std::string index;
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (d > 0) index += ", ";
    int64_t start = p.copy_start(d);
    int64_t step = p.window_strides[d];
    if (step < 0) {
      flipped.push_back(static_cast<int64_t>(d));
      start = static_cast<int64_t>(in[d]) - 1 - start;  // index i of x is n-1-i of the flipped x
      step = -step;
    }
    index += python_slice(start, step, op.output().sizes()[d]);
  }
  if (flipped.empty()) return text + "result = x[" + index + "]\n";
  notes.push_back("PyTorch slicing takes no negative step: the dimensions with a negative stride are flipped, "
                  "then sliced with the positive step.");
  return text +
         "# PyTorch slicing takes no negative step: the dimensions with a negative stride are\n"
         "# flipped first (index i becomes n-1-i), then sliced with the positive step.\n"
         "result = x.flip(" + python_tuple(flipped) + ")[" + index + "]\n";
}

std::string pad_list(const PaddingParams& p) {
  std::vector<uint64_t> pads;  // F.pad: the last dimension first, (start, end) each
  for (std::size_t d = p.start_padding.size(); d-- > 0;) {
    pads.push_back(p.start_padding[d]);
    pads.push_back(p.end_padding[d]);
  }
  return python_tuple(pads);
}

std::string torch_padding_code(const Operation& op, std::vector<std::string>& notes) {
  const auto& p = op.params_as<PaddingParams>();
  const Sizes& in = op.input().sizes();
  const DataType type = op.output().data_type();
  std::string text = "# padding: " + std::string(to_string(p.mode)) + ", StartPadding " +
                     bracket_list(p.start_padding) + ", EndPadding " + bracket_list(p.end_padding) + "\n";
  if (p.mode == PaddingMode::Constant) {
    const std::optional<std::string> value = python_element(type, p.value_bits, true);
    // F.pad's value goes through a double: exact for every float and for
    // integers within 2^53, not for larger INT64 values.
    const int64_t as_int = static_cast<int64_t>(p.value_bits);
    const bool through_double =
        type != DataType::Int64 || (as_int >= -(int64_t{1} << 53) && as_int <= (int64_t{1} << 53));
    if (value && through_double) {
      return text + "# paddingValue converted to the output type, as DirectML converts it; F.pad lists\n"
                    "# (start, end) pairs from the last dimension to the first.\nresult = F.pad(x, " +
             pad_list(p) + ", mode=\"constant\", value=" + *value + ")\n";
    }
    std::vector<std::byte> bytes(8);
    write_element_bits(type, p.value_bits, bytes.data());
    std::string center;
    for (std::size_t d = 0; d < in.size(); ++d) {
      if (d > 0) center += ", ";
      center += python_slice(static_cast<int64_t>(p.start_padding[d]), 1, in[d]);
    }
    const std::string why = value ? "an INT64 beyond 2^53, which F.pad's value (a double) cannot hold exactly"
                                  : "a NaN whose payload F.pad's value cannot carry";
    notes.push_back("paddingValue is " + why + ": the output is filled with it, then the input copied in.");
    return text + "# paddingValue is " + why + ":\n# fill the output with it, then copy the input in.\n"
                  "pad_value = " + literal_tensor(type, bytes, 1) + "\nresult = pad_value.expand(" +
           python_tuple(op.output().sizes()) + ").clone()\nresult[" + center + "] = x\n";
  }
  notes.push_back("PyTorch's F.pad has 'replicate' and 'reflect' only for the last 1 to 3 dimensions of "
                  "floating tensors ('reflect' only while a pad is smaller than the size) and no symmetric "
                  "mode: each dimension is gathered with index_select instead.");
  text += "# F.pad offers 'replicate' and 'reflect' only for the last 1 to 3 dimensions of floating\n"
          "# tensors ('reflect' only while a pad is smaller than the size) and has no symmetric mode.\n"
          "# So each dimension gathers the input index every output index reads, folded as\n"
          "# DirectML folds it (periodic, however far the padding reaches).\nsources = [\n";
  for (std::size_t d = 0; d < in.size(); ++d) {
    std::vector<std::string> items;
    for (const int64_t s : padding_sources(p, in, d, op.output().sizes()[d])) items.push_back(std::to_string(s));
    text += "    " + python_list(items, 5) + ",\n";
  }
  return text + "]\nresult = x\nfor dim, index in enumerate(sources):\n"
                "    result = result.index_select(dim, torch.tensor(index))\n";
}

std::string output_code(const std::string& name, const std::string& result, const TensorDesc& desc,
                        const std::string& dtype) {
  return tensor_comment(name, desc) + "# The result is written through a strided view of the " + name +
         " buffer, as DirectML writes it.\n" + name + "_buffer = torch.zeros(" +
         std::to_string(desc.buffer_elements()) + ", dtype=" + dtype + ")\n" + name + " = torch.as_strided(" + name +
         "_buffer, " + python_tuple(desc.sizes()) + ", " + python_tuple(desc.strides()) + ")\n" + name +
         ".copy_(" + result + ")\n";
}

std::string missing_type_program(const Operation& op, DataType type, std::vector<std::string>& notes) {
  const std::string name(to_string(type));
  const std::string message = "PyTorch 1.13 has no " + name + " tensors, so this spec (" +
                              std::string(to_string(op.kind())) + " on " + name + ") cannot be written in it";
  notes.push_back(message + ".");
  return python_header("PyTorch", op) + "# " + message + ".\n" +
         "raise NotImplementedError(" + python_string(message) + ")\n";
}

}  // namespace

GeneratedCode write_torch(const CodeSource& source) {
  GeneratedCode code;
  const Operation& op = source.op;
  const TensorDesc& input = op.input();
  if (!torch_dtype(input.data_type())) {
    code.text = missing_type_program(op, input.data_type(), code.notes);
    code.runnable = false;
    return code;
  }
  const std::string dtype = *torch_dtype(input.data_type());
  std::string& text = code.text;
  text = python_header("PyTorch", op);
  text += "import itertools  # noqa: F401 (max pooling's taps)\nimport math  # noqa: F401 (math.inf, math.nan)\n"
          "import sys\n\nimport torch\nimport torch.nn.functional as F  # noqa: F401\n\n";
  text += tensor_comment("input", input);
  text += "# values: " + input_source_comment(source.spec.input_source) + "\n";
  text += torch_input_buffer_code(source);
  text += "x = torch.as_strided(input_buffer, " + python_tuple(input.sizes()) + ", " + python_tuple(input.strides()) +
          ")  # strides in elements, as DirectML's\n\n";
  switch (op.kind()) {
    case OpKind::Identity: text += "# identity: the output takes the input's logical elements.\nresult = x\n"; break;
    case OpKind::Slice: text += python_slice_code(op); break;
    case OpKind::Slice1: text += slice1_code(op, code.notes); break;
    case OpKind::Padding: text += torch_padding_code(op, code.notes); break;
    case OpKind::MaxPooling2:
      text += torch_pooling_code(op);
      code.notes.push_back("F.max_pool2d/3d cannot state DirectML's padding and indices or StrideScope's tie "
                           "and NaN rules: the window maximum is an exact tap-by-tap gather.");
      break;
  }
  text += "\n" + output_code("output", "result", op.output(), dtype);
  if (op.output_indices()) {
    const std::string indices_type(to_string(op.output_indices()->data_type()));
    code.notes.push_back("PyTorch 1.13 has no " + indices_type + ": the indices are int64 holding the same values.");
    text += "\n# PyTorch 1.13 has no " + indices_type + ": the indices are int64, holding the same values.\n" +
            output_code("indices", "flat_index", *op.output_indices(), "torch.int64");
  }
  text += "\nif \"--print\" in sys.argv[1:]:\n    print(\"output\", output.dtype, tuple(output.shape))\n"
          "    print(output)\n";
  if (op.output_indices()) {
    text += "    print(\"indices\", indices.dtype, tuple(indices.shape))\n    print(indices)\n";
  }
  return code;
}

}  // namespace stridescope::codegen
