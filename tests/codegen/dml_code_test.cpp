// The DirectML C++ that core/codegen writes compiles against a stand-in
// DirectML.h (dml_stub/, written from the DirectML documentation) and, run
// against a device that records the DML_OPERATOR_DESC it is given, carries
// the spec's values: each DML_BUFFER_TENSOR_DESC's data type, sizes,
// strides and TotalTensorSizeInBytes (DMLCalcBufferTensorSize: the last
// element's offset + 1, times the element size, rounded up to 4 bytes), and
// the operator's parameters. A paddingValue a FLOAT cannot hold goes into
// DML_PADDING1_OPERATOR_DESC in the output's own type.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/codegen/code_writer.h"
#include "core/io/random_spec.h"
#include "core/scalar.h"
#include "temp_folder.h"

namespace stridescope::test {
namespace {

using json = nlohmann::json;

// DML_TENSOR_DATA_TYPE's values, from DirectML.h.
int dml_type_code(DataType type) {
  switch (type) {
    case DataType::Float32: return 1;
    case DataType::Float16: return 2;
    case DataType::UInt32: return 3;
    case DataType::UInt16: return 4;
    case DataType::UInt8: return 5;
    case DataType::Int32: return 6;
    case DataType::Int16: return 7;
    case DataType::Int8: return 8;
    case DataType::Float64: return 9;
    case DataType::UInt64: return 10;
    case DataType::Int64: return 11;
  }
  return 0;
}

template <class V>
std::vector<int64_t> as_ints(const V& values) {
  return {values.begin(), values.end()};
}

// DMLCalcBufferTensorSize, worked out here from its definition.
uint64_t calc_buffer_tensor_size(const TensorDesc& desc) {
  uint64_t last = 0;
  for (std::size_t d = 0; d < desc.rank(); ++d) last += (desc.sizes()[d] - 1) * desc.strides()[d];
  const uint64_t bytes = (last + 1) * desc.element_size();
  return (bytes + 3) / 4 * 4;
}

void expect_tensor(const json& got, const TensorDesc& desc, const std::string& what) {
  EXPECT_EQ(got["dataType"], dml_type_code(desc.data_type())) << what;
  EXPECT_EQ(got["flags"], 0) << what;
  EXPECT_EQ(got["sizes"].get<std::vector<int64_t>>(), as_ints(desc.sizes())) << what;
  EXPECT_EQ(got["strides"].get<std::vector<int64_t>>(), as_ints(desc.strides())) << what;
  EXPECT_EQ(got["bytes"], calc_buffer_tensor_size(desc)) << what;
}

void expect_padding_value(const json& got, const Operation& op, const std::string& what) {
  const auto& p = op.params_as<PaddingParams>();
  const DataType type = op.output().data_type();
  if (got["op"] == "padding1") {
    EXPECT_EQ(got["valueType"], dml_type_code(type)) << what;
    EXPECT_EQ(got["valueBits"].get<uint64_t>(), p.value_bits) << what;
    return;
  }
  // A FLOAT that converts to the value in the output type.
  const uint32_t float_bits = static_cast<uint32_t>(got["valueFloatBits"].get<uint64_t>());
  float value = 0;
  std::memcpy(&value, &float_bits, 4);
  if (std::isnan(value)) {
    std::byte bytes[8] = {};
    write_element_bits(type, p.value_bits, bytes);
    EXPECT_TRUE(std::isnan(to_double(read_element(type, bytes)))) << what;
    return;
  }
  const Expected<uint64_t> converted = encode_scalar(static_cast<double>(value), type, "");
  ASSERT_TRUE(converted.has_value()) << what;
  EXPECT_EQ(*converted, p.value_bits) << what << " (PaddingValue " << value << ")";
}

void expect_op(const json& got, const Operation& op, const std::string& what) {
  expect_tensor(got["input"], op.input(), what + " input");
  expect_tensor(got["output"], op.output(), what + " output");
  switch (op.kind()) {
    case OpKind::Identity:
      EXPECT_EQ(got["op"], "identity") << what;
      EXPECT_EQ(got["scaleBias"], false) << what;
      break;
    case OpKind::Slice: {
      const auto& p = op.params_as<SliceParams>();
      EXPECT_EQ(got["op"], "slice") << what;
      EXPECT_EQ(got["offsets"].get<std::vector<int64_t>>(), as_ints(p.offsets)) << what;
      EXPECT_EQ(got["sizes"].get<std::vector<int64_t>>(), as_ints(p.sizes)) << what;
      EXPECT_EQ(got["strides"].get<std::vector<int64_t>>(), as_ints(p.strides)) << what;
      break;
    }
    case OpKind::Slice1: {
      const auto& p = op.params_as<Slice1Params>();
      EXPECT_EQ(got["op"], "slice1") << what;
      EXPECT_EQ(got["offsets"].get<std::vector<int64_t>>(), as_ints(p.window_offsets)) << what;
      EXPECT_EQ(got["sizes"].get<std::vector<int64_t>>(), as_ints(p.window_sizes)) << what;
      EXPECT_EQ(got["strides"].get<std::vector<int64_t>>(), as_ints(p.window_strides)) << what;
      break;
    }
    case OpKind::Padding: {
      const auto& p = op.params_as<PaddingParams>();
      EXPECT_TRUE(got["op"] == "padding" || got["op"] == "padding1") << what;
      EXPECT_EQ(got["mode"], static_cast<int>(p.mode)) << what;  // CONSTANT, EDGE, REFLECTION, SYMMETRIC: 0..3
      EXPECT_EQ(got["start"].get<std::vector<int64_t>>(), as_ints(p.start_padding)) << what;
      EXPECT_EQ(got["end"].get<std::vector<int64_t>>(), as_ints(p.end_padding)) << what;
      expect_padding_value(got, op, what);
      break;
    }
    case OpKind::MaxPooling2: {
      const auto& p = op.params_as<MaxPooling2Params>();
      EXPECT_EQ(got["op"], "max_pooling2") << what;
      EXPECT_EQ(got["strides"].get<std::vector<int64_t>>(), as_ints(p.strides)) << what;
      EXPECT_EQ(got["window"].get<std::vector<int64_t>>(), as_ints(p.window_size)) << what;
      EXPECT_EQ(got["start"].get<std::vector<int64_t>>(), as_ints(p.start_padding)) << what;
      EXPECT_EQ(got["end"].get<std::vector<int64_t>>(), as_ints(p.end_padding)) << what;
      EXPECT_EQ(got["dilations"].get<std::vector<int64_t>>(), as_ints(p.dilations)) << what;
      if (op.output_indices()) {
        expect_tensor(got["indices"], *op.output_indices(), what + " indices");
      } else {
        EXPECT_TRUE(got["indices"].is_null()) << what;
      }
      break;
    }
  }
}

struct DmlCase {
  std::string name;
  Spec spec;
};

Spec padding_spec(const char* type, const char* value) {
  const std::string text = std::string(R"({"op": "padding", "input": {"dataType": ")") + type +
                           R"(", "sizes": [2,3]}, "params": {"paddingMode": "CONSTANT", "paddingValue": )" + value +
                           R"(, "startPadding": [1,0], "endPadding": [0,2]}})";
  Expected<Spec> spec = parse_spec(text, {});
  EXPECT_TRUE(spec.has_value()) << text;
  return spec.has_value() ? *spec : Spec{};
}

std::vector<DmlCase> cases() {
  std::vector<DmlCase> all;
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    Expected<Spec> spec = load_spec_file(entry.path());
    if (spec.has_value()) all.push_back({entry.path().stem().string(), *spec});
  }
  constexpr OpKind kOps[] = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding, OpKind::MaxPooling2};
  for (uint64_t seed = 0; seed < 150; ++seed) {
    RandomSpecOptions options;
    options.op = kOps[seed % 5];
    Expected<Spec> spec = random_spec(seed, options);
    if (spec.has_value()) all.push_back({"random_" + std::to_string(seed), *spec});
  }
  // Values a FLOAT holds (and so DML_PADDING), and values it does not (DML_PADDING1).
  all.push_back({"pad_f16_nan", padding_spec("FLOAT16", "\"NaN\"")});
  all.push_back({"pad_i8_minus5", padding_spec("INT8", "-5")});
  all.push_back({"pad_f64_tenth", padding_spec("FLOAT64", "0.1")});
  all.push_back({"pad_i64_big", padding_spec("INT64", "1152921504606846977")});
  all.push_back({"pad_u64_max", padding_spec("UINT64", "18446744073709551615")});
  all.push_back({"pad_i32_odd", padding_spec("INT32", "-16777217")});
  all.push_back({"pad_u32_max", padding_spec("UINT32", "4294967295")});
  return all;
}

TEST(DmlCode, CompilesAgainstTheDirectMLStructsAndCarriesTheSpecsValues) {
  TempFolder folder;
  const std::vector<DmlCase> all = cases();
  ASSERT_GE(all.size(), 150u);
  std::vector<Operation> ops;
  std::ostringstream main_cpp;
  main_cpp << "#include <cstdio>\n#include <limits>\n#include \"DirectML.h\"\n#include \"dml_dump.h\"\n";
  int padding1 = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    Expected<Operation> op = Operation::make(all[i].spec.request);
    ASSERT_TRUE(op.has_value()) << all[i].name;
    Expected<std::vector<std::byte>> input = make_input_buffer(all[i].spec, op->input());
    ASSERT_TRUE(input.has_value()) << all[i].name;
    const GeneratedCode code = write_code(CodeLanguage::Dml, CodeSource{all[i].spec, *op, *input});
    ASSERT_TRUE(code.runnable) << all[i].name;
    if (code.text.find("DML_PADDING1_OPERATOR_DESC padding") != std::string::npos) ++padding1;
    std::ofstream(folder / ("case_" + std::to_string(i) + ".cpp")) << code.text;
    main_cpp << "namespace case_" << i << " {\n#include \"case_" << i << ".cpp\"\n}\n";
    ops.push_back(std::move(*op));
  }
  EXPECT_EQ(padding1, 5);  // f64 0.1, i64 2^60+1, u64 max, i32 -(2^24+1), u32 max
  main_cpp << "int main() {\n  dml_dump::RecordingDevice device;\n  IDMLOperator* op = nullptr;\n";
  for (std::size_t i = 0; i < all.size(); ++i) {
    main_cpp << "  case_" << i << "::CreateStrideScopeOperator(&device, &op);\n  std::printf(\"%s\\n\", device.last.c_str());\n";
  }
  main_cpp << "}\n";
  std::ofstream(folder / "main.cpp") << main_cpp.str();

  const std::string compile = std::string(STRIDESCOPE_CXX) + " -std=c++17 -Wall -Werror -I" + STRIDESCOPE_DML_STUB +
                              " '" + (folder / "main.cpp").string() + "' -o '" + (folder / "main").string() + "' 2>&1";
  ASSERT_EQ(std::system((compile + " > '" + (folder / "compile.txt").string() + "'").c_str()), 0)
      << std::ifstream(folder / "compile.txt").rdbuf();
  ASSERT_EQ(std::system(("'" + (folder / "main").string() + "' > '" + (folder / "out.txt").string() + "'").c_str()), 0);

  std::ifstream out(folder / "out.txt");
  std::string line;
  std::size_t i = 0;
  for (; std::getline(out, line) && i < all.size(); ++i) {
    const json got = json::parse(line);
    expect_op(got, ops[i], all[i].name);
  }
  EXPECT_EQ(i, all.size());
}

}  // namespace
}  // namespace stridescope::test
