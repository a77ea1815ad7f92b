// The NumPy and PyTorch programs of core/codegen, run by python3, leave in
// `output` (and `indices`) exactly what StrideScope's CPU reference backend
// computes, bit for bit: every example of resources/examples, and random
// specs (core/io/random_spec.h) over every op, data type, layout, negative
// slice1 strides, every padding mode with folds past the edge, pooling with
// padding, dilation and indices, and values with ties, signed zeros, NaN.
// PyTorch 1.13 has no UINT16/32/64: those programs must raise instead.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/codegen/code_writer.h"
#include "core/io/npy.h"
#include "core/io/random_spec.h"
#include "program_cases.h"
#include "temp_folder.h"

namespace stridescope::test {
namespace {

constexpr uint64_t kRandomSpecs = 400;

Spec load(const std::filesystem::path& file) {
  Expected<Spec> spec = load_spec_file(file);
  EXPECT_TRUE(spec.has_value()) << file << ": " << (spec.has_value() ? "" : spec.error().to_string());
  return spec.has_value() ? *spec : Spec{};
}

TEST(PythonPrograms, EveryExampleGivesStrideScopesResult) {
  TempFolder folder;
  ProgramCases cases(folder.path());
  for (const auto& entry : std::filesystem::directory_iterator(STRIDESCOPE_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    cases.add(entry.path().stem().string(), load(entry.path()));
  }
  ASSERT_GE(cases.size(), 16u);
  std::string log;
  EXPECT_EQ(cases.run(log), 0) << log;
  std::cout << log;
}

// The random spec's own data, or (every few seeds) a fill, so iota, zeros
// and the random fill's drawn values are written by the programs too.
void vary_source(Spec& spec, uint64_t seed) {
  const Expected<Operation> op = Operation::make(spec.request);
  if (!op.has_value()) return;
  const DataType type = op->input().data_type();
  switch (seed % 8) {
    case 1: spec.input_source = Fill{FillIota{}}; break;
    case 2: spec.input_source = Fill{FillZeros{}}; break;
    case 3: {
      const FillRandom fill = is_floating(type) ? FillRandom{seed, -2, 2} : FillRandom{seed, -100, 100};
      if (check_fill(fill, type, "").ok()) spec.input_source = Fill{fill};
      break;
    }
    default: break;
  }
}

TEST(PythonPrograms, RandomSpecsGiveStrideScopesResult) {
  TempFolder folder;
  ProgramCases cases(folder.path());
  constexpr OpKind kOps[] = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding, OpKind::MaxPooling2};
  for (uint64_t seed = 0; seed < kRandomSpecs; ++seed) {
    RandomSpecOptions options;
    options.op = kOps[seed % 5];
    Expected<Spec> spec = random_spec(seed, options);
    ASSERT_TRUE(spec.has_value()) << spec.error().to_string();
    vary_source(*spec, seed);
    cases.add("random_" + std::to_string(seed), *spec);
  }
  const Coverage& coverage = cases.coverage();
  std::cout << coverage.summary();
  for (const DataType type : kAllDataTypes) EXPECT_GT(coverage["type " + std::string(to_string(type))], 0) << to_string(type);
  for (const char* op : {"identity", "slice", "slice1", "padding", "max_pooling2"}) {
    EXPECT_GT(coverage[std::string("op ") + op], 0) << op;
  }
  for (const char* what : {"padding CONSTANT", "padding EDGE", "padding REFLECTION", "padding SYMMETRIC",
                           "padding folds more than once", "slice1 negative stride", "pooling indices UINT32",
                           "pooling indices UINT64", "pooling 3-D", "pooling asymmetric padding", "input has NaN",
                           "input broadcast", "input permuted", "input gapped", "output strided", "source iota",
                           "source zeros", "source random", "source data", "torch refuses the type",
                           "onnx refuses the type"}) {
    EXPECT_GT(coverage[what], 0) << what;
  }
  std::string log;
  EXPECT_EQ(cases.run(log), 0) << log;
  std::cout << log;
}

// A .npy input is read from the absolute path written into the program, so
// the program runs from any folder; it prints only with --print.
TEST(PythonPrograms, NpyInputRunsFromAnyFolderAndPrintsOnlyWhenAsked) {
  TempFolder folder;
  std::filesystem::create_directories(folder / "spec");
  const std::vector<float> values = {3, -1, 0.5f, 7, 2, 9, -4, 8, 1, 6, 5, 0};
  ASSERT_TRUE(write_npy(folder / "spec" / "values.npy", DataType::Float32, std::vector<uint64_t>{12},
                        std::as_bytes(std::span(values)))
                  .ok());
  const std::string text = R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [3,4], "npy": "values.npy"},
    "params": {"inputWindowOffsets": [0,0], "inputWindowSizes": [3,4], "inputWindowStrides": [-1,-2]}})";
  Expected<Spec> spec = parse_spec(text, folder / "spec");
  ASSERT_TRUE(spec.has_value()) << spec.error().to_string();

  ProgramCases cases(folder.path());
  cases.add("npy", *spec);
  std::string log;
  EXPECT_EQ(cases.run(log), 0) << log;

  for (const char* language : {"numpy", "torch"}) {
    const std::filesystem::path program = folder / (std::string("npy.") + language + ".py");
    const std::filesystem::path quiet = folder / "quiet.txt";
    const std::filesystem::path printed = folder / "printed.txt";
    const std::string run = "cd / && " + std::string(STRIDESCOPE_PYTHON) + " '" + program.string() + "'";
    ASSERT_EQ(std::system((run + " > '" + quiet.string() + "' 2>&1").c_str()), 0) << language;
    ASSERT_EQ(std::system((run + " --print > '" + printed.string() + "' 2>&1").c_str()), 0) << language;
    EXPECT_EQ(std::filesystem::file_size(quiet), 0u) << language;
    std::ifstream in(printed);
    const std::string out(std::istreambuf_iterator<char>(in), {});
    EXPECT_NE(out.find("output"), std::string::npos) << out;
    // out = [[in[2,3], in[2,1]], [in[1,3], in[1,1]], [in[0,3], in[0,1]]] = [[0, 6], [8, 9], [7, -1]]
    EXPECT_NE(out.find("-1."), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace stridescope::test
