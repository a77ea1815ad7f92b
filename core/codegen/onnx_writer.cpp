// The spec as a Python program that builds a one-node ONNX model with
// onnx.helper (opset 13), checks it (onnx.checker, full check) and runs
// shape inference, requiring the inferred output sizes to be the spec's.
// ONNX tensors are dense: strides are the caller's layout, so the program
// also builds the logical input a runtime would be fed.
#include <cstdint>
#include <limits>

#include "core/codegen/python_text.h"
#include "core/codegen/writers.h"

namespace stridescope::codegen {
namespace {

constexpr int kOpset = 13;

std::string onnx_type(DataType type) {
  switch (type) {
    case DataType::Float16: return "TensorProto.FLOAT16";
    case DataType::Float32: return "TensorProto.FLOAT";
    case DataType::Float64: return "TensorProto.DOUBLE";
    case DataType::Int8: return "TensorProto.INT8";
    case DataType::Int16: return "TensorProto.INT16";
    case DataType::Int32: return "TensorProto.INT32";
    case DataType::Int64: return "TensorProto.INT64";
    case DataType::UInt8: return "TensorProto.UINT8";
    case DataType::UInt16: return "TensorProto.UINT16";
    case DataType::UInt32: return "TensorProto.UINT32";
    case DataType::UInt64: return "TensorProto.UINT64";
  }
  return "?";
}

// MaxPool (opset 12 and later) takes these element types only.
bool max_pool_takes(DataType type) {
  return is_floating(type) || type == DataType::Int8 || type == DataType::UInt8;
}

std::string int64_initializer(const std::string& name, const std::vector<int64_t>& values) {
  std::vector<std::string> items;
  for (const int64_t v : values) items.push_back(std::to_string(v));
  return "    numpy_helper.from_array(np.array(" + python_list(items, 8) + ", dtype=np.int64), " + python_string(name) +
         "),\n";
}

std::vector<int64_t> signed_of(const Sizes& sizes) { return {sizes.begin(), sizes.end()}; }

struct Graph {
  std::string initializers;
  std::string nodes;
  std::string comments;
};

Graph slice_graph(const Operation& op) {
  Graph g;
  std::vector<int64_t> starts, ends, axes, steps;
  const Sizes& out = op.output().sizes();
  for (std::size_t d = 0; d < out.size(); ++d) {
    int64_t start = 0;
    int64_t step = 0;
    if (op.kind() == OpKind::Slice) {
      const auto& p = op.params_as<SliceParams>();
      start = static_cast<int64_t>(p.offsets[d]);
      step = static_cast<int64_t>(p.strides[d]);
    } else {
      const auto& p = op.params_as<Slice1Params>();
      start = p.copy_start(d);
      step = p.window_strides[d];
    }
    const int64_t last = start + step * static_cast<int64_t>(out[d] - 1);
    int64_t end = last + (step > 0 ? 1 : -1);
    // A negative end counts from the back in ONNX: "before index 0" is INT64_MIN.
    if (end < 0) end = std::numeric_limits<int64_t>::min();
    starts.push_back(start);
    ends.push_back(end);
    axes.push_back(static_cast<int64_t>(d));
    steps.push_back(step);
  }
  g.initializers = int64_initializer("starts", starts) + int64_initializer("ends", ends) +
                   int64_initializer("axes", axes) + int64_initializer("steps", steps);
  g.nodes = "    helper.make_node(\"Slice\", [\"input\", \"starts\", \"ends\", \"axes\", \"steps\"], [\"output\"]),\n";
  if (op.kind() == OpKind::Slice1) {
    g.comments = "# slice1: CopyStart = InputWindowOffsets, plus InputWindowSizes - 1 where the stride is\n"
                 "# negative. ONNX Slice takes negative steps as they are; an end before index 0\n"
                 "# is INT64_MIN, since a negative end would count from the back.\n";
  } else {
    g.comments = "# slice: Output[o] = Input[Offsets + Strides * o]; ends = offset + stride * (size - 1) + 1.\n";
  }
  return g;
}

bool onnx_reflect_folds_once(const PaddingParams& p, const Sizes& in) {
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (in[d] < 2 || p.start_padding[d] > in[d] - 1 || p.end_padding[d] > in[d] - 1) return false;
  }
  return true;
}

Graph padding_graph(const Operation& op, std::vector<std::string>& notes) {
  const auto& p = op.params_as<PaddingParams>();
  const Sizes& in = op.input().sizes();
  Graph g;
  g.comments = "# padding: " + std::string(to_string(p.mode)) + ", StartPadding " + bracket_list(p.start_padding) +
               ", EndPadding " + bracket_list(p.end_padding) + "\n";
  const bool gather = p.mode == PaddingMode::Symmetric ||
                      (p.mode == PaddingMode::Reflection && !onnx_reflect_folds_once(p, in));
  if (!gather) {
    std::vector<int64_t> pads = signed_of(p.start_padding);
    for (const uint64_t e : p.end_padding) pads.push_back(static_cast<int64_t>(e));
    g.initializers = int64_initializer("pads", pads);
    std::string inputs = "[\"input\", \"pads\"]";
    if (p.mode == PaddingMode::Constant) {
      g.comments += "# paddingValue converted to the output type, as DirectML converts it.\n";
      g.initializers += "    numpy_helper.from_array(np.array(" +
                        numpy_scalar_code(op.output().data_type(), p.value_bits) + "), \"constant_value\"),\n";
      inputs = "[\"input\", \"pads\", \"constant_value\"]";
    }
    const char* mode = p.mode == PaddingMode::Constant ? "constant" : p.mode == PaddingMode::Edge ? "edge" : "reflect";
    g.nodes = "    helper.make_node(\"Pad\", " + inputs + ", [\"output\"], mode=\"" + mode + "\"),\n";
    return g;
  }
  const std::string why = p.mode == PaddingMode::Symmetric
                              ? "ONNX Pad has no symmetric mode"
                              : "ONNX Pad's reflect is defined only while a pad is smaller than the size";
  notes.push_back(why + ": one Gather per padded dimension, with the input index each output index reads, "
                        "gives the exact result.");
  g.comments += "# " + why + ". So each padded dimension is a Gather of the input index\n"
                "# every output index reads, folded as DirectML folds it (periodic).\n";
  std::string previous = "input";
  std::vector<std::size_t> padded;
  for (std::size_t d = 0; d < in.size(); ++d) {
    if (p.start_padding[d] + p.end_padding[d] > 0) padded.push_back(d);
  }
  if (padded.empty()) {
    g.nodes = "    helper.make_node(\"Identity\", [\"input\"], [\"output\"]),\n";
    return g;
  }
  for (std::size_t k = 0; k < padded.size(); ++k) {
    const std::size_t d = padded[k];
    const std::string index = "sources_" + std::to_string(d);
    const std::string next = k + 1 == padded.size() ? "output" : "padded_" + std::to_string(d);
    g.initializers += int64_initializer(index, padding_sources(p, in, d, op.output().sizes()[d]));
    g.nodes += "    helper.make_node(\"Gather\", [\"" + previous + "\", \"" + index + "\"], [\"" + next +
               "\"], axis=" + std::to_string(d) + "),\n";
    previous = next;
  }
  return g;
}

Graph pooling_graph(const Operation& op, std::vector<std::string>& notes) {
  const auto& p = op.params_as<MaxPooling2Params>();
  Graph g;
  std::vector<int64_t> pads = signed_of(p.start_padding);
  for (const uint64_t e : p.end_padding) pads.push_back(static_cast<int64_t>(e));
  g.comments = "# max_pooling2 as MaxPool. Its Indices are DirectML's: the row-major position in the\n"
               "# whole input, padding not counted (storage_order 0). ONNX does not say which maximum\n"
               "# wins a tie or how NaN compares; StrideScope takes the first maximum, and a NaN wins\n"
               "# (the first NaN met): a runtime may differ there.\n";
  notes.push_back("ONNX MaxPool does not define ties or NaN: StrideScope's first-maximum and NaN-wins rules "
                  "may differ in a runtime.");
  std::string outputs = "[\"output\"]";
  if (op.output_indices()) outputs = "[\"output\", \"indices_int64\"]";
  g.nodes = "    helper.make_node(\"MaxPool\", [\"input\"], " + outputs + ", kernel_shape=" +
            python_tuple(p.window_size) + ", strides=" + python_tuple(p.strides) + ", pads=" + python_tuple(pads) +
            ", dilations=" + python_tuple(p.dilations) + "),\n";
  if (op.output_indices()) {
    const std::string type(to_string(op.output_indices()->data_type()));
    g.comments += "# ONNX gives Indices as INT64; a Cast makes them " + type + " as DirectML's are.\n";
    g.nodes += "    helper.make_node(\"Cast\", [\"indices_int64\"], [\"indices\"], to=" +
               onnx_type(op.output_indices()->data_type()) + "),\n";
  }
  return g;
}

std::string refused_program(const Operation& op, const std::string& message, std::vector<std::string>& notes) {
  notes.push_back(message + ".");
  return "#!/usr/bin/env python3\n\"\"\"A StrideScope spec (" + std::string(to_string(op.kind())) +
         ") as ONNX: not expressible.\"\"\"\n# " + message + ".\nraise NotImplementedError(" + python_string(message) +
         ")\n";
}

std::string header(const Operation& op) {
  return "#!/usr/bin/env python3\n\"\"\"A StrideScope spec (" + std::string(to_string(op.kind())) +
         ") as an ONNX model, built with onnx.helper.\n\n"
         "Leaves the model in `model`, checked by onnx.checker (full check) and shape inference,\n"
         "and the logical input a runtime is fed in `feeds`. Run with --save FILE.onnx to write\n"
         "the model, --print to print its graph; otherwise it prints nothing.\n\"\"\"\n"
         "import math  # noqa: F401 (math.inf, math.nan in literals)\nimport sys\n\nimport numpy as np\nimport onnx\n"
         "from numpy.lib.stride_tricks import as_strided\nfrom onnx import TensorProto, helper, numpy_helper\n\n";
}

std::string expected_outputs(const Operation& op) {
  std::string text = "expected = {\"output\": " + python_tuple(op.output().sizes());
  if (op.output_indices()) text += ", \"indices\": " + python_tuple(op.output_indices()->sizes());
  return text + "}\n";
}

}  // namespace

GeneratedCode write_onnx(const CodeSource& source) {
  GeneratedCode code;
  const Operation& op = source.op;
  const DataType type = op.input().data_type();
  if (op.kind() == OpKind::MaxPooling2 && !max_pool_takes(type)) {
    code.text = refused_program(op, "ONNX MaxPool takes no " + std::string(to_string(type)) +
                                        " tensors (only FLOAT16, FLOAT32, FLOAT64, INT8 and UINT8)", code.notes);
    code.runnable = false;
    return code;
  }
  Graph g;
  switch (op.kind()) {
    case OpKind::Identity:
      g.comments = "# identity: the output takes the input's logical elements.\n";
      g.nodes = "    helper.make_node(\"Identity\", [\"input\"], [\"output\"]),\n";
      break;
    case OpKind::Slice:
    case OpKind::Slice1: g = slice_graph(op); break;
    case OpKind::Padding: g = padding_graph(op, code.notes); break;
    case OpKind::MaxPooling2: g = pooling_graph(op, code.notes); break;
  }
  code.notes.insert(code.notes.begin(), "ONNX tensors have no strides: the input and output strides are the "
                                        "caller's layout, and a runtime is fed the logical input.");
  std::string& text = code.text;
  text = header(op);
  text += numpy_input_code(source);
  text += "# ONNX tensors are dense, with no strides: a runtime is fed the logical input, and the\n"
          "# spec's input and output strides are how the caller lays out its buffers.\n"
          "feeds = {\"input\": np.ascontiguousarray(x)}\n\n";
  text += g.comments;
  text += "initializers = [\n" + g.initializers + "]\nnodes = [\n" + g.nodes + "]\n";
  std::string rank_none = "(";  // every output size unknown until inferred
  for (std::size_t d = 0; d < op.output().rank(); ++d) rank_none += d == 0 ? "None" : ", None";
  rank_none += op.output().rank() == 1 ? ",)" : ")";
  text += "inputs = [helper.make_tensor_value_info(\"input\", " + onnx_type(type) + ", " +
          python_tuple(op.input().sizes()) + ")]\n";
  text += "# Output sizes are left to shape inference, then checked against the spec's below.\n";
  text += "outputs = [helper.make_tensor_value_info(\"output\", " + onnx_type(type) + ", " + rank_none + ")";
  if (op.output_indices()) {
    text += ",\n           helper.make_tensor_value_info(\"indices\", " + onnx_type(op.output_indices()->data_type()) +
            ", " + rank_none + ")";
  }
  text += "]\n";
  text += "graph = helper.make_graph(nodes, \"stridescope_" + std::string(to_string(op.kind())) +
          "\", inputs, outputs, initializers)\n";
  text += "model = helper.make_model(graph, opset_imports=[helper.make_opsetid(\"\", " + std::to_string(kOpset) +
          ")], producer_name=\"StrideScope\")\n";
  text += "onnx.checker.check_model(model, full_check=True)\n";
  text += "model = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)\n";
  text += expected_outputs(op);
  text += "for value in model.graph.output:\n"
          "    inferred = tuple(d.dim_value for d in value.type.tensor_type.shape.dim)\n"
          "    if inferred != expected[value.name]:\n"
          "        raise AssertionError(\"%s: ONNX infers %s, the spec says %s\" % (value.name, inferred, "
          "expected[value.name]))\n\n";
  text += "if \"--print\" in sys.argv[1:]:\n    print(helper.printable_graph(model.graph))\n"
          "if \"--save\" in sys.argv[1:]:\n    onnx.save(model, sys.argv[sys.argv.index(\"--save\") + 1])\n";
  return code;
}

}  // namespace stridescope::codegen
