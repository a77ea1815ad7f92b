// core/diagnosis: each catalogued mistake is found from a result made
// independently of the variant code: hand-written from the DirectML rules
// (and, for NumPy's fold, by stepping through np.pad's chunked algorithm by
// hand). The exact result is the independent reference's (tests/reference).
// Every case states the mistake's rule and both results.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/diagnosis/diagnose.h"
#include "core/diagnosis/mistake_catalogue.h"
#include "test_support.h"

namespace stridescope::test {
namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType U32 = DataType::UInt32;

struct Case {
  std::string name;
  MistakeId mistake;
  OpRequest request;
  std::vector<std::byte> input;
  std::vector<std::byte> mistaken_output;   // physical buffer
  std::vector<std::byte> mistaken_indices;  // empty when the op has none
};

OpRequest gather(TensorRequest input, ParamsRequest params, TensorRequest output = {}) {
  return OpRequest{std::move(input), std::move(output), std::nullopt, std::move(params)};
}

OpRequest pooling(TensorRequest input, MaxPooling2Request params, bool indices) {
  std::optional<TensorRequest> index_tensor;
  if (indices) index_tensor = TensorRequest{U32, std::nullopt, std::nullopt};
  return OpRequest{std::move(input), TensorRequest{}, index_tensor, std::move(params)};
}

MaxPooling2Request window(U64s size, U64s strides = {}, U64s start = {}, U64s end = {}, U64s dilations = {}) {
  const auto opt = [](U64s v) { return v.empty() ? std::nullopt : std::optional<U64s>(std::move(v)); };
  return MaxPooling2Request{std::move(size), opt(std::move(strides)), opt(std::move(start)), opt(std::move(end)),
                            opt(std::move(dilations))};
}

PaddingRequest pad(PaddingMode mode, U64s start, U64s end, Scalar value = int64_t{0}) {
  return PaddingRequest{mode, value, std::move(start), std::move(end)};
}

std::vector<Case> cases() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<Case> c;
  // Window [3,6) stride -1 reads 5,4,3 (values 6,5,4); from the offset: 3,2,1.
  c.push_back({"slice1_from_offset", MistakeId::Slice1NegativeStrideFromOffset,
               gather(tensor(F32, {1, 1, 1, 6}), Slice1Request{{0, 0, 0, 3}, {1, 1, 1, 3}, {1, 1, 1, -1}}),
               bytes_of(iota_floats(6)), bytes_of<float>({4, 3, 2}), {}});
  // REFLECTION of 1 2 3 4 by 2: 3 2 |1 2 3 4| 3 2; repeating the edge: 2 1 |...| 4 3.
  c.push_back({"reflection_repeats_edge", MistakeId::ReflectionRepeatsEdge,
               gather(tensor(F32, {1, 1, 1, 4}), pad(PaddingMode::Reflection, {0, 0, 0, 2}, {0, 0, 0, 2})),
               bytes_of(iota_floats(4)), bytes_of<float>({2, 1, 1, 2, 3, 4, 4, 3}), {}});
  // SYMMETRIC of 1 2 3 4 by 2: 2 1 |1 2 3 4| 4 3; without the edge: 3 2 |...| 3 2.
  c.push_back({"symmetric_skips_edge", MistakeId::SymmetricSkipsEdge,
               gather(tensor(F32, {1, 1, 1, 4}), pad(PaddingMode::Symmetric, {0, 0, 0, 2}, {0, 0, 0, 2})),
               bytes_of(iota_floats(4)), bytes_of<float>({3, 2, 1, 2, 3, 4, 3, 2}), {}});
  // REFLECTION of 1 2 3 by 5 at the start folds with period 4: 2 1 2 3 2 |1 2 3|;
  // mirrored once then clamped: 3 3 3 3 2 |1 2 3|.
  c.push_back({"no_periodic_fold", MistakeId::NoPeriodicFold,
               gather(tensor(F32, {1, 1, 1, 3}), pad(PaddingMode::Reflection, {0, 0, 0, 5}, {0, 0, 0, 0})),
               bytes_of(iota_floats(3)), bytes_of<float>({3, 3, 3, 3, 2, 1, 2, 3}), {}});
  // REFLECTION of 1 2 3 by 8 and 1: periodic 1 2 3 2 1 2 3 2 |1 2 3| 2. np.pad(reflect) fills
  // chunks of 2 (left) and 1 (right), then 5 more on the left reflected about position 6,
  // then 1 about position 1: 3 2 3 2 1 2 3 2 |1 2 3| 2 (stepped through by hand).
  c.push_back({"numpy_nonperiodic_fold", MistakeId::NumpyNonperiodicFold,
               gather(tensor(F32, {1, 1, 1, 3}), pad(PaddingMode::Reflection, {0, 0, 0, 8}, {0, 0, 0, 1})),
               bytes_of(iota_floats(3)), bytes_of<float>({3, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2}), {}});
  // INT32 paddingValue 10.6 truncates to 10 (opspec); rounded: 11.
  c.push_back({"padding_value_rounded", MistakeId::PaddingValueRounded,
               gather(tensor(DataType::Int32, {1, 1, 1, 2}), pad(PaddingMode::Constant, {0, 0, 0, 1}, {0, 0, 0, 0}, 10.6)),
               bytes_of<int32_t>({5, 6}), bytes_of<int32_t>({11, 5, 6}), {}});
  // 16777217 = 2^24 + 1 is exact in INT32 but not in float32, which rounds it to 2^24.
  c.push_back({"padding_value_through_float32", MistakeId::PaddingValueThroughFloat32,
               gather(tensor(DataType::Int32, {1, 1, 1, 2}),
                      pad(PaddingMode::Constant, {0, 0, 0, 1}, {0, 0, 0, 0}, int64_t{16777217})),
               bytes_of<int32_t>({5, 6}), bytes_of<int32_t>({16777216, 5, 6}), {}});
  // 2^53 + 1 through a double becomes 2^53.
  c.push_back({"int64_through_double", MistakeId::Int64ThroughDouble,
               gather(tensor(DataType::Int64, {2}), IdentityRequest{}),
               bytes_of<int64_t>({9007199254740993, 5}), bytes_of<int64_t>({9007199254740992, 5}), {}});
  // 0.1 through float32 is 0.100000001490116119384765625; 1e300 overflows to infinity.
  c.push_back({"float64_through_float32", MistakeId::Float64ThroughFloat32,
               gather(tensor(DataType::Float64, {2}), IdentityRequest{}), bytes_of<double>({0.1, 1e300}),
               bytes_of<double>({0.100000001490116119384765625, std::numeric_limits<double>::infinity()}), {}});
  // A column-major 2x2 input (strides 1,2) over buffer 1 2 3 4 holds rows (1 3) (2 4);
  // read as packed it is (1 2) (3 4).
  c.push_back({"input_strides_ignored", MistakeId::InputStridesIgnored,
               gather(tensor(F32, {2, 2}, U64s{1, 2}), IdentityRequest{}), bytes_of<float>({1, 2, 3, 4}),
               bytes_of<float>({1, 2, 3, 4}), {}});
  // Rows (1 2) (3 4) into a column-major output buffer: 1 3 2 4; written packed: 1 2 3 4.
  c.push_back({"output_strides_ignored", MistakeId::OutputStridesIgnored,
               gather(tensor(F32, {2, 2}), IdentityRequest{}, tensor(F32, {2, 2}, U64s{1, 2})),
               bytes_of<float>({1, 2, 3, 4}), bytes_of<float>({1, 2, 3, 4}), {}});
  // Two channels 1..4 and 5..8, a 2x2 window each: maxima 4 and 8 at flat 3 and 7;
  // counted within each plane both are 3.
  c.push_back({"indices_per_plane", MistakeId::IndicesPerPlane, pooling(tensor(F32, {1, 2, 2, 2}), window({2, 2}), true),
               bytes_of(iota_floats(8)), bytes_of<float>({4, 8}), bytes_of<uint32_t>({3, 3})});
  // A 2x2 input with row pitch 4 (strides 8,8,4,1), rows (1 3) (2 4): the maximum 4 is
  // logical element 3 at buffer offset 5.
  c.push_back({"indices_as_buffer_offsets", MistakeId::IndicesAsBufferOffsets,
               pooling(tensor(F32, {1, 1, 2, 2}, U64s{8, 8, 4, 1}), window({2, 2}), true),
               bytes_of<float>({1, 3, 0, 0, 2, 4}), bytes_of<float>({4}), bytes_of<uint32_t>({5})});
  // Rows (1 2) (3 4), a 1x2 window: maxima at [0,1] and [1,1], row-major 1 and 3;
  // column-major (h + w * 2) 2 and 3.
  c.push_back({"indices_column_major", MistakeId::IndicesColumnMajor,
               pooling(tensor(F32, {1, 1, 2, 2}), window({1, 2}), true), bytes_of(iota_floats(4)),
               bytes_of<float>({2, 4}), bytes_of<uint32_t>({2, 3})});
  // Windows (5 5) and (1 1): the first maximum is at 0 and 2; the last at 1 and 3.
  c.push_back({"last_maximum_wins", MistakeId::LastMaximumWins,
               pooling(tensor(F32, {1, 1, 1, 4}), window({1, 2}, {1, 2}), true), bytes_of<float>({5, 5, 1, 1}),
               bytes_of<float>({5, 1}), bytes_of<uint32_t>({1, 3})});
  // -5 -7 with one padded column in front, windows (pad -5) and (-5 -7): the maximum
  // of what lies in the input is -5 twice; padding as 0 wins the first window.
  c.push_back({"padding_takes_part", MistakeId::PaddingTakesPart,
               pooling(tensor(DataType::Int32, {1, 1, 1, 2}), window({1, 2}, {}, {0, 1}, {0, 0}), false),
               bytes_of<int32_t>({-5, -7}), bytes_of<int32_t>({0, -5}), {}});
  // Window (3 NaN): the NaN wins, index 1; ignoring NaN gives 3, index 0.
  c.push_back({"nan_ignored", MistakeId::NanIgnored, pooling(tensor(F32, {1, 1, 1, 2}), window({1, 2}), true),
               bytes_of<float>({3, nan}), bytes_of<float>({3}), bytes_of<uint32_t>({0})});
  return c;
}

class MistakeCase : public ::testing::TestWithParam<Case> {};

TEST_P(MistakeCase, DiagnosisNamesExactlyThisMistake) {
  const Case& c = GetParam();
  SS_ASSERT_MAKE(op, c.request);
  const Outputs exact = run_reference(op, c.input);
  ASSERT_EQ(c.mistaken_output.size(), op.output().buffer_bytes());
  ASSERT_EQ(c.mistaken_indices.size(), op.output_indices() ? op.output_indices()->buffer_bytes() : 0);

  const Diagnosis d = diagnose(op, c.input, {exact.output, exact.indices}, {c.mistaken_output, c.mistaken_indices});
  ASSERT_GT(d.differing, 0u) << "the mistaken result must differ from the exact one";
  std::string found;
  for (const Finding& f : d.findings) found += std::string(mistake(f.id).name) + (f.complete ? " " : " (partial) ");
  ASSERT_EQ(d.findings.size(), 1u) << "found: " << found << ::testing::PrintToString(d.in_common);
  EXPECT_EQ(mistake(d.findings[0].id).name, mistake(c.mistake).name);
  EXPECT_TRUE(d.findings[0].complete);
  EXPECT_EQ(d.findings[0].explained, d.differing);
  EXPECT_TRUE(d.in_common.empty());
}

TEST_P(MistakeCase, ExactResultHasNoDiagnosis) {
  const Case& c = GetParam();
  SS_ASSERT_MAKE(op, c.request);
  const Outputs exact = run_reference(op, c.input);
  const Diagnosis d = diagnose(op, c.input, {exact.output, exact.indices}, {exact.output, exact.indices});
  EXPECT_EQ(d.differing, 0u);
  EXPECT_TRUE(d.findings.empty());
  EXPECT_TRUE(d.in_common.empty());
}

INSTANTIATE_TEST_SUITE_P(Catalogue, MistakeCase, ::testing::ValuesIn(cases()),
                         [](const auto& row) { return row.param.name; });

TEST(MistakeCatalogue, EveryMistakeHasACaseAndTheIssuesIds) {
  std::set<std::string> covered;
  for (const Case& c : cases()) covered.insert(std::string(mistake(c.mistake).name));
  covered.insert("undilated-output-size");  // a result of other sizes: its own test below
  std::set<std::string> catalogued;
  for (const Mistake& m : mistake_catalogue()) {
    catalogued.insert(std::string(m.name));
    EXPECT_EQ(mistake(m.id).name, m.name);
    EXPECT_EQ(parse_mistake_id(m.name), m.id);
    EXPECT_FALSE(m.explanation.empty());
  }
  EXPECT_EQ(covered, catalogued);
  for (const char* id : {"slice1-negative-stride-from-offset", "reflection-repeats-edge", "symmetric-skips-edge",
                         "no-periodic-fold", "numpy-nonperiodic-fold", "padding-value-rounded",
                         "padding-value-through-float32", "int64-through-double", "float64-through-float32",
                         "input-strides-ignored", "output-strides-ignored", "indices-per-plane",
                         "indices-as-buffer-offsets", "indices-column-major", "last-maximum-wins",
                         "padding-takes-part", "nan-ignored", "undilated-output-size"}) {
    EXPECT_TRUE(parse_mistake_id(id).has_value()) << id;
  }
}

// DirectML's page sizes the output (In + Start + End - Window) / Stride + 1, without
// Dilations. 1 2 3 4 5, window 2 dilated by 2 (taps o and o + 2): the exact output has
// (5 - 3) / 1 + 1 = 3 elements, 3 4 5; the page's formula gives 4, the last window
// (4, past the end) giving 4.
TEST(UndilatedOutputSize, AResultOfThePagesSizesIsReproduced) {
  SS_ASSERT_MAKE(op, pooling(tensor(F32, {1, 1, 1, 5}), window({1, 2}, {}, {}, {}, {1, 2}), false));
  const std::vector<std::byte> input = bytes_of(iota_floats(5));
  const std::vector<Reshape> shapes = mistaken_shapes(op);
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0].id, MistakeId::UndilatedOutputSize);
  EXPECT_EQ(shapes[0].output.sizes(), (Sizes{1, 1, 1, 4}));
  const std::vector<std::byte> theirs = bytes_of<float>({3, 4, 5, 4});
  EXPECT_TRUE(reproduces(op, input, shapes[0], {theirs, {}}));
  const std::vector<std::byte> other = bytes_of<float>({3, 4, 5, 5});
  EXPECT_FALSE(reproduces(op, input, shapes[0], {other, {}}));
}

TEST(UndilatedOutputSize, NoShapeWithoutDilation) {
  SS_ASSERT_MAKE(op, pooling(tensor(F32, {1, 1, 1, 5}), window({1, 2}), false));
  EXPECT_TRUE(mistaken_shapes(op).empty());
}

// Every fold of sizes 2 to 5 with paddings 0 to 11 where NumPy's np.pad is not
// periodic, as NumPy 1.24.2 printed it (np.pad(np.arange(n), (start, end), mode)):
// the diagnosis names numpy-nonperiodic-fold for each.
struct NumpyFold {
  PaddingMode mode;
  uint64_t n, start, end;
  std::vector<float> padded;  // the input indices np.pad gives, as values
};

TEST(NumpyNonperiodicFold, EveryNonPeriodicNumpyPadResultIsNamed) {
  const std::vector<NumpyFold> folds = {
      {PaddingMode::Reflection, 3, 1, 8, {1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 0}},
      {PaddingMode::Reflection, 3, 1, 9, {1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 0, 1}},
      {PaddingMode::Reflection, 3, 1, 10, {1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 0, 1, 2}},
      {PaddingMode::Reflection, 3, 1, 11, {1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 0, 1, 2, 1}},
      {PaddingMode::Reflection, 3, 8, 1, {2, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}},
      {PaddingMode::Reflection, 3, 9, 1, {1, 2, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}},
      {PaddingMode::Reflection, 3, 10, 1, {0, 1, 2, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}},
      {PaddingMode::Reflection, 3, 11, 1, {1, 0, 1, 2, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1}},
      {PaddingMode::Reflection, 4, 1, 11, {1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 0}},
      {PaddingMode::Reflection, 4, 11, 1, {3, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2}},
      {PaddingMode::Symmetric, 2, 1, 8, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0}},
      {PaddingMode::Symmetric, 2, 1, 9, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0}},
      {PaddingMode::Symmetric, 2, 1, 10, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1}},
      {PaddingMode::Symmetric, 2, 1, 11, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1}},
      {PaddingMode::Symmetric, 2, 8, 1, {1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}},
      {PaddingMode::Symmetric, 2, 9, 1, {1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}},
      {PaddingMode::Symmetric, 2, 10, 1, {0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}},
      {PaddingMode::Symmetric, 2, 11, 1, {0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}},
      {PaddingMode::Symmetric, 3, 1, 11, {0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 0}},
      {PaddingMode::Symmetric, 3, 11, 1, {2, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2}},
  };
  for (const NumpyFold& f : folds) {
    SS_ASSERT_MAKE(op, gather(tensor(F32, {f.n}), pad(f.mode, {f.start}, {f.end})));
    std::vector<float> values(f.n);
    for (uint64_t i = 0; i < f.n; ++i) values[i] = static_cast<float>(i);
    const std::vector<std::byte> input = bytes_of(values);
    const Outputs exact = run_reference(op, input);
    const std::vector<std::byte> theirs = bytes_of(f.padded);
    const Diagnosis d = diagnose(op, input, {exact.output, {}}, {theirs, {}});
    bool named = false;
    for (const Finding& found : d.findings) named = named || (found.id == MistakeId::NumpyNonperiodicFold && found.complete);
    EXPECT_TRUE(named) << to_string(f.mode) << " n=" << f.n << " start=" << f.start << " end=" << f.end;
  }
}

// Two mistakes at once (per-plane indices and the last maximum): neither
// reproduces the result; each explains the elements it made.
TEST(Diagnose, TwoMistakesAtOnceArePartialExplanations) {
  SS_ASSERT_MAKE(op, pooling(tensor(F32, {1, 2, 1, 4}), window({1, 2}, {1, 2}), true));
  // Plane 0: 5 5 1 2 (windows tie, then 2 at flat 3); plane 1: 1 2 3 4 (flat 5, 7).
  const std::vector<std::byte> input = bytes_of<float>({5, 5, 1, 2, 1, 2, 3, 4});
  const Outputs exact = run_reference(op, input);
  // The last maximum in plane 0's first window (1, not 0), and plane 1 counted per plane (1, 3).
  const std::vector<std::byte> output = bytes_of<float>({5, 2, 2, 4});
  const std::vector<std::byte> indices = bytes_of<uint32_t>({1, 3, 1, 3});
  const Diagnosis d = diagnose(op, input, {exact.output, exact.indices}, {output, indices});
  EXPECT_EQ(d.differing, 3u);
  ASSERT_EQ(d.findings.size(), 2u);
  EXPECT_EQ(d.findings[0].id, MistakeId::IndicesPerPlane);
  EXPECT_EQ(d.findings[0].explained, 2u);
  EXPECT_FALSE(d.findings[0].complete);
  EXPECT_EQ(d.findings[1].id, MistakeId::LastMaximumWins);
  EXPECT_EQ(d.findings[1].explained, 1u);
}

// A result document has no NaN payloads: with nan_matches_any_nan a NaN of
// other bits is no difference.
TEST(Diagnose, NanPayloadsMatchWhenAsked) {
  SS_ASSERT_MAKE(op, gather(tensor(F32, {2}), IdentityRequest{}));
  const std::vector<std::byte> input = bytes_of<float>({std::numeric_limits<float>::quiet_NaN(), 1});
  const Outputs exact = run_reference(op, input);
  const std::vector<std::byte> theirs = bytes_of<float>({-std::numeric_limits<float>::quiet_NaN(), 1});
  EXPECT_EQ(diagnose(op, input, {exact.output, {}}, {theirs, {}}).differing, 1u);
  EXPECT_EQ(diagnose(op, input, {exact.output, {}}, {theirs, {}}, {.nan_matches_any_nan = true}).differing, 0u);
}

// What unknown differences share: one padded element of one axis.
TEST(Diagnose, UnknownSaysWhatTheDifferencesShare) {
  SS_ASSERT_MAKE(op, gather(tensor(F32, {1, 1, 2, 2}), pad(PaddingMode::Edge, {0, 0, 0, 1}, {0, 0, 0, 0})));
  const std::vector<std::byte> input = bytes_of(iota_floats(4));
  const Outputs exact = run_reference(op, input);  // 1 1 2 / 3 3 4
  const std::vector<std::byte> theirs = bytes_of<float>({1, 1, 2, 9, 3, 4});
  const Diagnosis d = diagnose(op, input, {exact.output, {}}, {theirs, {}});
  EXPECT_TRUE(d.findings.empty());
  const std::set<std::string> traits(d.in_common.begin(), d.in_common.end());
  EXPECT_TRUE(traits.count("only one position: [0,0,1,0]")) << ::testing::PrintToString(d.in_common);
  EXPECT_TRUE(traits.count("only padded positions"));
  EXPECT_TRUE(traits.count("only the padding of axis 3"));
}

}  // namespace
}  // namespace stridescope::test
