// One dispatch of a DxDispatch model as a spec (core/codegen/dxdispatch_dispatch.h):
// dispatches are counted from 0 among the dispatch commands or named by
// their dispatchable, and a dispatch's input is what the dispatches before
// it left in its buffer.
#include <gtest/gtest.h>

#include "core/codegen/dxdispatch_dispatch.h"
#include "core/cpu_backend.h"

#include <cstring>

namespace stridescope::test {
namespace {

// "rev" reads a = 1..6 from the end by -2: 6, 4, 2 into b; "pad" reflects b
// by 1 into c. A print sits between them (not a dispatch: not counted).
constexpr const char* kModel = R"({
  "resources": {
    "a": { "initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3, 4, 5, 6] },
    "b": { "initialValuesDataType": "FLOAT32", "initialValues": [9, 9, 9, 9] },
    "c": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 5, "value": 0 } }
  },
  "dispatchables": {
    "rev": { "type": "DML_OPERATOR_SLICE1", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [6] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [3] },
      "DimensionCount": 1, "InputWindowOffsets": [0], "InputWindowSizes": [6], "InputWindowStrides": [-2] } },
    "pad": { "type": "PADDING", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [3] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [5] },
      "PaddingMode": "REFLECTION", "PaddingValue": 0, "DimensionCount": 1, "StartPadding": [1], "EndPadding": [1] } }
  },
  "commands": [
    { "type": "dispatch", "dispatchable": "rev", "bindings": { "InputTensor": "a", "OutputTensor": "b" } },
    { "type": "print", "resource": "b" },
    { "type": "dispatch", "dispatchable": "pad", "bindings": { "InputTensor": "b", "OutputTensor": "c" } }
  ]
})";

DxModel model() {
  Expected<DxModel> m = parse_dxdispatch_model(kModel, {});
  EXPECT_TRUE(m.has_value()) << m.error().to_string();
  return m ? *m : DxModel{};
}

TEST(DxDispatchDispatch, DispatchesAreCountedAmongTheDispatchCommands) {
  const DxModel m = model();
  EXPECT_EQ(dispatch_commands(m), (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(describe_dispatch(m, 1), "dispatch 1 (pad, DML_OPERATOR_PADDING)");
  EXPECT_EQ(*select_dispatch(m, "1", "--dispatch"), 1u);
  EXPECT_EQ(*select_dispatch(m, "rev", "--dispatch"), 0u);
  EXPECT_EQ(select_dispatch(m, std::nullopt, "--dispatch").error().to_string(),
            "--dispatch: the model has 2 dispatches: pick one, by number from 0 or by name; the model's dispatches "
            "are 0 (rev), 1 (pad)");
}

TEST(DxDispatchDispatch, ADispatchsSpecReadsWhatTheEarlierDispatchesLeft) {
  const DxModel m = model();
  CpuReferenceBackend backend;
  Expected<DispatchSpec> d = dispatch_spec(m, 1, backend);
  ASSERT_TRUE(d.has_value()) << d.error().to_string();
  // b after rev: 6, 4, 2 (its fourth element, past the [3] tensor's 12 bytes, is not the input's).
  EXPECT_EQ(std::get<std::vector<Scalar>>(d->spec.input_source), (std::vector<Scalar>{6.0, 4.0, 2.0}));
  PaddingRequest expected;
  expected.padding_mode = PaddingMode::Reflection;
  expected.padding_value = 0.0;
  expected.start_padding = {1};
  expected.end_padding = {1};
  EXPECT_EQ(std::get<PaddingRequest>(d->spec.request.params), expected);
  EXPECT_EQ(d->spec.request.output.sizes, (std::vector<uint64_t>{5}));
  // The spec stands on its own: validated and run, it gives 4 | 6, 4, 2 | 4.
  Expected<Operation> op = Operation::make(d->spec.request);
  ASSERT_TRUE(op.has_value());
  Expected<std::vector<std::byte>> input = make_input_buffer(d->spec, op->input());
  ASSERT_TRUE(input.has_value());
  EXPECT_EQ(*input, d->input);
  Expected<RunResult> result = run_to_new_buffers(backend, *op, *input);
  ASSERT_TRUE(result.has_value());
  const std::vector<float> want = {4, 6, 4, 2, 4};
  EXPECT_EQ(result->output, std::vector<std::byte>(reinterpret_cast<const std::byte*>(want.data()),
                                                   reinterpret_cast<const std::byte*>(want.data() + want.size())));
  // The model itself is left as it was.
  EXPECT_EQ(m.resources[1].bytes.size(), 16u);
  float b0 = 0;
  std::memcpy(&b0, m.resources[1].bytes.data(), 4);
  EXPECT_EQ(b0, 9.0f);
}

}  // namespace
}  // namespace stridescope::test
