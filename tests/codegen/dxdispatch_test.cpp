// DxDispatch models (DirectML's DxDispatch guide): the public model
// dml_slice.json runs and prints what DxDispatch prints (7, 9, 12, 14, 17,
// 19); models StrideScope cannot run are refused naming the JSON path; and
// every spec written as a model (code --lang dxdispatch) reads back to the
// same operation and, run, gives the buffers the spec gives.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/codegen/code_writer.h"
#include "core/codegen/dxdispatch_model.h"
#include "core/cpu_backend.h"
#include "core/io/npy.h"
#include "core/io/random_spec.h"
#include "temp_folder.h"

namespace stridescope::test {
namespace {

const std::filesystem::path kModels = std::filesystem::path(STRIDESCOPE_CODEGEN_TESTS) / "dxdispatch_models";

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string run_model(const std::string& text, const std::filesystem::path& base = {}) {
  Expected<DxModel> model = parse_dxdispatch_model(text, base);
  EXPECT_TRUE(model.has_value()) << (model ? "" : model.error().to_string());
  if (!model) return "";
  CpuReferenceBackend backend;
  std::ostringstream out;
  const Status s = run_dxdispatch_model(*model, backend, out);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  return out.str();
}

std::string error_of(const std::string& text) {
  Expected<DxModel> model = parse_dxdispatch_model(text, {});
  return model ? "(no error)" : model.error().to_string();
}

TEST(DxDispatchModel, ThePublicSliceModelPrintsWhatDxDispatchPrints) {
  EXPECT_EQ(run_model(read(kModels / "dml_slice.json")), "output: 7, 9, 12, 14, 17, 19\n");
}

TEST(DxDispatchModel, PublicModelsStrideScopeCannotRunAreRefusedNamingThePath) {
  EXPECT_EQ(error_of(read(kModels / "microsoft_dml_element_wise_identity.json")),
            "dispatchables.identity.desc.ScaleBias: is not supported: StrideScope's identity has no ScaleBias");
  EXPECT_NE(error_of(read(kModels / "jstoecker_dml_element_wise_identity.json")).find(".ScaleBias: is not supported"),
            std::string::npos);
  // The graph files: the DML_GRAPH_DESC dispatchable, or (met first, in key
  // order) a ScaleBias identity among its nodes.
  for (const char* graph : {"dml_graph_quadratic.59635f47.json", "dml_graph_quadratic.0d5bc75c.json"}) {
    const std::string error = error_of(read(kModels / graph));
    EXPECT_EQ(error.rfind("dispatchables.", 0), 0u) << graph << ": " << error;
    EXPECT_TRUE(error.find(".type: StrideScope runs DML_OPERATOR_SLICE") != std::string::npos ||
                error.find(".ScaleBias: is not supported") != std::string::npos)
        << graph << ": " << error;
  }
}

// Comments, trailing commas, full and short enum names, "nan" strings, a
// FLOAT16 sequence accumulated in half, an elementOffset binding, two
// dispatches sharing a buffer, and a .npy source beside the model.
TEST(DxDispatchModel, ReadsTheFormatsFeatures) {
  TempFolder folder;
  const std::vector<int32_t> npy = {5, 6, 7, 8};
  ASSERT_TRUE(write_npy(folder / "four.npy", DataType::Int32, std::vector<uint64_t>{4}, std::as_bytes(std::span(npy))).ok());
  const std::string text = R"({
    // resources
    "resources": {
      "a": { "initialValuesDataType": "DML_TENSOR_DATA_TYPE_FLOAT32", "initialValues": [1, "NaN", "-inf", 4, ], },
      "h": { "initialValuesDataType": "FLOAT16", "initialValues": { "valueCount": 3, "valueStart": 2047, "valueDelta": 1 } },
      "n": { "initialValues": { "sourcePath": "four.npy" } },
      "out": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 6, "value": -1 } },
      "nout": { "initialValuesDataType": "INT32", "initialValues": { "valueCount": 2, "value": 0 } }
    },
    /* two dispatchables, one inline, one long-form tensors */
    "dispatchables": {
      "rev": { "type": "DML_OPERATOR_SLICE1", "Desc": {
        "InputTensor": { "DataType": "FLOAT32", "Sizes": [4] },
        "OutputTensor": { "Type": "DML_TENSOR_TYPE_BUFFER", "Desc": { "DataType": "FLOAT32", "Sizes": [2], "Strides": [2] } },
        "DimensionCount": 1, "InputWindowOffsets": [0], "InputWindowSizes": [4], "InputWindowStrides": [-2] } },
      "pick": { "type": "SLICE", "InputTensor": { "DataType": "INT32", "Sizes": [2] },
        "OutputTensor": { "DataType": "INT32", "Sizes": [2] }, "DimensionCount": 1,
        "Offsets": [0], "Sizes": [2], "Strides": [1] },
    },
    "commands": [
      { "type": "dispatch", "dispatchable": "rev", "bindings": { "InputTensor": "a", "OutputTensor": "out" } },
      { "type": "dispatch", "dispatchable": "rev", "bindings": { "InputTensor": "a", "OutputTensor": { "name": "out", "elementOffset": 3 } } },
      { "type": "dispatch", "dispatchable": "pick", "bindings": { "InputTensor": { "name": "n", "elementOffset": 2 }, "OutputTensor": "nout" } },
      { "type": "Print", "resource": "out" },
      { "type": "print", "resource": "h" },
      { "type": "print", "resource": "nout" },
    ],
  })";
  // slice1 from the window end by -2: a[3], a[1] = 4, NaN; written at out[0], out[2], then at out[3], out[5].
  // FLOAT16 2047 + 1 = 2048, + 1 = 2049 rounds to 2048 (ties to even) in half.
  EXPECT_EQ(run_model(text, folder.path()), "out: 4, -1, NaN, 4, -1, NaN\nh: 2047, 2048, 2048\nnout: 7, 8\n");
}

TEST(DxDispatchModel, RefusesWhatItCannotRunNamingThePath) {
  const std::string base = R"("resources": { "in": { "initialValuesDataType": "FLOAT32", "initialValues": [1,2,3,4] },
                                             "out": { "initialValuesDataType": "FLOAT32", "initialValues": [0,0] } },)";
  const std::string slice = R"("dispatchables": { "s": { "type": "DML_OPERATOR_SLICE", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [4] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [2] },
      "DimensionCount": 1, "Offsets": [1], "Sizes": [2], "Strides": [1] } } },)";
  const auto model = [&](const std::string& dispatchables, const std::string& commands) {
    return "{" + base + dispatchables + "\"commands\": [" + commands + "]}";
  };
  const std::string dispatch = R"({ "type": "dispatch", "dispatchable": "s", "bindings": { "InputTensor": "in", "OutputTensor": "out" } })";
  EXPECT_EQ(error_of(model(slice, dispatch)), "(no error)");
  EXPECT_EQ(error_of(model(slice, R"({ "type": "dispatch", "dispatchable": "s", "bindings": { "InputTensor": "nope", "OutputTensor": "out" } })")),
            "commands[0].bindings.InputTensor: names no resource ('nope')");
  EXPECT_EQ(error_of(model(slice, R"({ "type": "dispatch", "dispatchable": "s", "bindings": { "InputTensor": "out", "OutputTensor": "out" } })")),
            "commands[0].bindings.InputTensor: resource 'out' has 8 bytes from its offset; the tensor needs 16 (TotalTensorSizeInBytes)");
  EXPECT_EQ(error_of(model(slice, R"({ "type": "printInitTemporary" })")),
            "commands[0].type: unknown command 'printInitTemporary' (dispatch, print, writeFile)");
  std::string bad_enum = slice;
  bad_enum.replace(bad_enum.find("\"DataType\": \"FLOAT32\""), 21, "\"DataType\": \"FLOAT33\"");
  EXPECT_EQ(error_of(model(bad_enum, dispatch)), "dispatchables.s.desc.InputTensor.DataType: unknown data type 'FLOAT33'");
  EXPECT_EQ(error_of(model(R"("dispatchables": { "s": { "type": "hlsl", "sourcePath": "x.hlsl" } },)", "")),
            "dispatchables.s.type: StrideScope runs DML_OPERATOR_SLICE, SLICE1, PADDING, PADDING1, MAX_POOLING2 and "
            "ELEMENT_WISE_IDENTITY, not '\"hlsl\"'");
  std::string bad_window = slice;
  bad_window.replace(bad_window.find("\"Offsets\": [1]"), 14, "\"Offsets\": [3]");
  EXPECT_EQ(error_of(model(bad_window, dispatch)),
            "dispatchables.s.desc: params.sizes[0]: slice reads input index 4, past input size 4 "
            "(offset + (size - 1) * stride must be < size; size at most 1 with this offset and stride)");
}

// DxDispatch takes an array of bindings at every bind point (JOIN's inputs
// need one); a one-element array binds as its element does.
TEST(DxDispatchModel, AOneElementBindingArrayBindsAsItsElement) {
  const std::string model = R"({
    "resources": { "in": { "initialValuesDataType": "INT32", "initialValues": [1, 2, 3, 4] },
                   "out": { "initialValuesDataType": "INT32", "initialValues": [0, 0, 0] } },
    "dispatchables": { "s": { "type": "SLICE", "desc": {
      "InputTensor": { "DataType": "INT32", "Sizes": [2] }, "OutputTensor": { "DataType": "INT32", "Sizes": [2] },
      "DimensionCount": 1, "Offsets": [0], "Sizes": [2], "Strides": [1] } } },
    "commands": [ { "type": "dispatch", "dispatchable": "s",
                    "bindings": { "InputTensor": ["in"], "OutputTensor": [{ "name": "out", "elementOffset": 1 }] } },
                  { "type": "print", "resource": "out" } ] })";
  // in[0], in[1] = 1, 2 written from out's element 1 on.
  EXPECT_EQ(run_model(model), "out: 0, 1, 2\n");
  std::string two = model;
  two.replace(two.find("[\"in\"]"), 6, "[\"in\", \"out\"]");
  EXPECT_EQ(error_of(two), "commands[0].bindings.InputTensor: binds 2 resources; this bind point takes one tensor");
  std::string nested = model;
  nested.replace(nested.find("[\"in\"]"), 6, "[\"nope\"]");
  EXPECT_EQ(error_of(nested), "commands[0].bindings.InputTensor[0]: names no resource ('nope')");
}

// spec -> model -> operation: the same tensors and parameters, and running
// the model leaves the spec's input, output and indices in its buffers.
void expect_round_trip(const Spec& spec, const std::string& name) {
  Expected<Operation> op = Operation::make(spec.request);
  ASSERT_TRUE(op.has_value()) << name;
  Expected<std::vector<std::byte>> input = make_input_buffer(spec, op->input());
  ASSERT_TRUE(input.has_value()) << name;
  const GeneratedCode code = write_code(CodeLanguage::DxDispatch, CodeSource{spec, *op, *input});
  Expected<DxModel> model = parse_dxdispatch_model(code.text, {});
  ASSERT_TRUE(model.has_value()) << name << ": " << model.error().to_string() << "\n" << code.text;
  ASSERT_EQ(model->dispatchables.size(), 1u) << name;
  const Operation& back = model->dispatchables[0].op;
  EXPECT_EQ(back.input(), op->input()) << name;
  EXPECT_EQ(back.output(), op->output()) << name;
  EXPECT_EQ(back.output_indices(), op->output_indices()) << name;
  if (op->kind() == OpKind::Padding) {
    PaddingParams a = op->params_as<PaddingParams>(), b = back.params_as<PaddingParams>();
    EXPECT_EQ(a.value_bits, b.value_bits) << name;
    a.value = b.value;  // written differently (a FLOAT, a union member), the same once converted
    EXPECT_EQ(a, b) << name;
  } else {
    EXPECT_EQ(back.params(), op->params()) << name;
  }
  CpuReferenceBackend backend;
  Expected<RunResult> expected = run_to_new_buffers(backend, *op, *input);
  ASSERT_TRUE(expected.has_value()) << name;
  std::ostringstream printed;
  ASSERT_TRUE(run_dxdispatch_model(*model, backend, printed).ok()) << name;
  const auto resource = [&](const char* wanted) -> const std::vector<std::byte>& {
    for (const DxResource& r : model->resources) {
      if (r.name == wanted) return r.bytes;
    }
    ADD_FAILURE() << name << ": no resource " << wanted;
    return model->resources[0].bytes;
  };
  const auto bytes_of = [](const std::vector<std::byte>& bytes, const TensorDesc& desc) {
    return std::vector<std::byte>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(desc.buffer_elements() * desc.element_size()));
  };
  EXPECT_EQ(bytes_of(resource("input"), op->input()), bytes_of(*input, op->input())) << name;
  EXPECT_EQ(bytes_of(resource("output"), op->output()), bytes_of(expected->output, op->output())) << name;
  if (op->output_indices()) {
    EXPECT_EQ(bytes_of(resource("indices"), *op->output_indices()), bytes_of(expected->indices, *op->output_indices()))
        << name;
  }
}

TEST(DxDispatchModel, EverySpecWrittenAsAModelReadsBackAndRunsTheSame) {
  int cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    Expected<Spec> spec = load_spec_file(entry.path());
    ASSERT_TRUE(spec.has_value());
    expect_round_trip(*spec, entry.path().filename().string());
    ++cases;
  }
  constexpr OpKind kOps[] = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding, OpKind::MaxPooling2};
  for (uint64_t seed = 0; seed < 300; ++seed) {
    RandomSpecOptions options;
    options.op = kOps[seed % 5];
    Expected<Spec> spec = random_spec(seed, options);
    ASSERT_TRUE(spec.has_value());
    if (seed % 4 == 1) spec->input_source = Fill{FillIota{}};  // written as a sequence where that is exact
    expect_round_trip(*spec, "random seed " + std::to_string(seed));
    ++cases;
  }
  EXPECT_GE(cases, 316);
}

}  // namespace
}  // namespace stridescope::test
