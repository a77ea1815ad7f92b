// random_spec.h: every spec it draws is valid, survives its own file, is the
// same for the same seed, and together they cover what a test corpus must
// (every op, data type and layout, special values). The results the corpus
// ships are checked against the tests' independent reference implementation.
// Then random_request.h, the generator beneath it and beneath every
// randomized test.
#include "core/io/random_spec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/cpu_backend.h"
#include "core/io/random_request.h"
#include "core/operation.h"
#include "reference/reference_ops.h"

namespace stridescope {
namespace {

constexpr uint64_t kSeeds = 600;

Spec draw(uint64_t seed, const RandomSpecOptions& options = {}) {
  Expected<Spec> spec = random_spec(seed, options);
  if (!spec) ADD_FAILURE() << "seed " << seed << ": " << spec.error().to_string();
  return spec ? *spec : Spec{};
}

TEST(RandomSpec, EverySpecIsValidAndReadsBackFromItsFile) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Spec spec = draw(seed);
    Expected<Operation> op = Operation::make(spec.request);
    ASSERT_TRUE(op.has_value()) << "seed " << seed << ": " << op.error().to_string() << "\n" << write_spec(spec);
    const std::string text = write_spec(spec);
    Expected<Spec> read = parse_spec(text, {});
    ASSERT_TRUE(read.has_value()) << read.error().to_string() << "\n" << text;
    // Text, not Spec ==: a NaN value is never equal to itself.
    EXPECT_EQ(write_spec(*read), text);
    // The input data is written out whole, one value per buffer element.
    const auto* data = std::get_if<std::vector<Scalar>>(&spec.input_source);
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(data->size(), op->input().buffer_elements());
  }
}

TEST(RandomSpec, TheSameSeedDrawsTheSameSpecAndOthersDiffer) {
  EXPECT_EQ(write_spec(draw(42)), write_spec(draw(42)));
  std::set<std::string> texts;
  for (uint64_t seed = 0; seed < 50; ++seed) texts.insert(write_spec(draw(seed)));
  EXPECT_EQ(texts.size(), 50u);
}

TEST(RandomSpec, TheOpAndElementLimitAsked) {
  RandomSpecOptions options;
  options.op = OpKind::Padding;
  options.max_elements = 8;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const Spec spec = draw(seed, options);
    EXPECT_EQ(spec.request.kind(), OpKind::Padding);
    const Expected<Operation> op = Operation::make(spec.request);
    ASSERT_TRUE(op.has_value());
    EXPECT_LE(op->input().element_count(), 8u);
    EXPECT_LE(op->output().element_count(), 8u);
  }
  options.max_elements = 0;
  EXPECT_FALSE(random_spec(1, options).has_value());
}

TEST(RandomSpec, ACorpusCoversEveryOpTypeLayoutAndSpecialValue) {
  std::set<OpKind> ops;
  std::set<DataType> types;
  std::set<PaddingMode> modes;
  bool broadcast = false, permuted = false, gapped_output = false, negative_stride = false;
  bool indices = false, dilation = false, omitted_pooling_array = false, nan = false, infinity = false;
  bool negative_zero = false, rank_above_4 = false, single_element = false, many_elements = false;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Spec spec = draw(seed);
    const OpRequest& request = spec.request;
    const Operation op = *Operation::make(request);
    ops.insert(request.kind());
    types.insert(op.input().data_type());
    const auto& in = op.input();
    for (std::size_t d = 0; d < in.rank(); ++d) broadcast |= in.strides()[d] == 0 && in.sizes()[d] > 1;
    permuted |= !in.layout().row_major && !in.layout().broadcast;
    gapped_output |= !op.output().layout().packed;
    rank_above_4 |= in.rank() > 4;
    single_element |= op.output().element_count() == 1;
    many_elements |= op.output().element_count() >= 32;
    if (const auto* s1 = std::get_if<Slice1Request>(&request.params)) {
      for (int64_t stride : s1->input_window_strides) negative_stride |= stride < 0;
    }
    if (const auto* pad = std::get_if<PaddingRequest>(&request.params)) modes.insert(pad->padding_mode);
    if (const auto* pool = std::get_if<MaxPooling2Request>(&request.params)) {
      indices |= request.output_indices.has_value();
      omitted_pooling_array |= !pool->dilations || !pool->strides || !pool->start_padding;
      if (pool->dilations) {
        for (uint64_t d : *pool->dilations) dilation |= d > 1;
      }
    }
    for (const Scalar& value : std::get<std::vector<Scalar>>(spec.input_source)) {
      const double x = to_double(value);
      nan |= std::isnan(x);
      infinity |= std::isinf(x);
      negative_zero |= x == 0 && std::signbit(x);
    }
  }
  EXPECT_EQ(ops.size(), 5u);
  EXPECT_EQ(types.size(), kAllDataTypes.size());
  EXPECT_EQ(modes.size(), 4u);
  EXPECT_TRUE(broadcast && permuted && gapped_output && negative_stride);
  EXPECT_TRUE(indices && dilation && omitted_pooling_array);
  EXPECT_TRUE(nan && infinity && negative_zero);
  EXPECT_TRUE(rank_above_4 && single_element && many_elements);
}

// What `generate` ships beside each spec is the CPU backend's result; here it
// must equal the independent reference's, bit for bit, gaps included.
TEST(RandomSpec, TheCpuResultOfEverySpecIsTheReferenceResult) {
  CpuReferenceBackend cpu;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Spec spec = draw(seed);
    const Operation op = *Operation::make(spec.request);
    Expected<std::vector<std::byte>> input = make_input_buffer(spec, op.input());
    ASSERT_TRUE(input.has_value()) << input.error().to_string();
    Expected<RunResult> ours = run_to_new_buffers(cpu, op, *input);
    Expected<reference::Buffers> theirs = reference::run_to_new_buffers(op, *input);
    ASSERT_TRUE(ours.has_value() && theirs.has_value()) << "seed " << seed;
    EXPECT_EQ(ours->output, theirs->output) << "seed " << seed << "\n" << write_spec(spec);
    EXPECT_EQ(ours->indices, theirs->indices) << "seed " << seed << "\n" << write_spec(spec);
  }
}

// random_request.h, the one generator behind random_spec and every
// randomized test: a seed and options name one request, the options asked
// are honoured, and only a draw spoiled on purpose is invalid.
std::string fingerprint(const OpRequest& request) {
  Spec spec;
  spec.request = request;
  return write_spec(spec);
}

TEST(RandomRequest, TheSameSeedAndOptionsDrawTheSameRequest) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    random::DrawOptions options;
    options.spoil = seed % 2 == 0;
    options.overlapping_inputs = seed % 3 == 0;
    options.size_class = seed % 5 == 0 ? random::SizeClass::Big : random::SizeClass::Small;
    SplitMix64 a(seed), b(seed);
    EXPECT_EQ(fingerprint(random::random_request(a, options)), fingerprint(random::random_request(b, options)));
    EXPECT_EQ(a.next(), b.next()) << "seed " << seed;
  }
}

TEST(RandomRequest, UnspoiledDrawsAreValidAndHonourTheOptions) {
  SplitMix64 rng(7);
  for (const auto size_class : {random::SizeClass::Small, random::SizeClass::Big}) {
    uint64_t largest = 0;
    for (int i = 0; i < 500; ++i) {
      random::DrawOptions options;
      options.op = static_cast<OpKind>(i % kOpKindCount);
      options.type = kAllDataTypes[static_cast<std::size_t>(i) % kAllDataTypes.size()];
      options.size_class = size_class;
      options.overlapping_inputs = i % 2 == 0;
      const OpRequest request = random::random_request(rng, options);
      EXPECT_EQ(request.kind(), *options.op);
      EXPECT_EQ(request.input.data_type, options.type);
      const Expected<Operation> op = Operation::make(request);
      ASSERT_TRUE(op.has_value()) << op.error().to_string() << "\n" << fingerprint(request);
      largest = std::max(largest, op->input().element_count());
    }
    if (size_class == random::SizeClass::Big) {
      EXPECT_GE(largest, 10000u);  // rows for the vector paths
    } else {
      EXPECT_LE(largest, 384u);
    }
  }
}

TEST(RandomRequest, SpoiledDrawsAreSometimesInvalid) {
  SplitMix64 rng(8);
  random::DrawOptions options;
  options.spoil = true;
  int invalid = 0;
  for (int i = 0; i < 1000; ++i) invalid += Operation::make(random::random_request(rng, options)).has_value() ? 0 : 1;
  EXPECT_GE(invalid, 20);
  EXPECT_LE(invalid, 400);
}

}  // namespace
}  // namespace stridescope
