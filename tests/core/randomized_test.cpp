// Seeded randomized differential tests: core's CpuReferenceBackend against the
// independent reference (tests/reference), bit for bit, over every op, every
// data type, ranks 1 to 8 (max_pooling2 4-D and 5-D), and the layouts the
// DirectML sizes-and-strides page describes:
//   "if a dimension's stride is 0, all elements of the lower dimensions are
//   repeated along the broadcast dimension" (broadcast inputs); strides larger
//   than packed leave padding (gapped inputs and outputs); strides in another
//   order (NHWC-like permutations); overlapping inputs.
// operators.md: "Every op reads and writes through the tensors' strides ... a
// gapped output is legal and must give the same logical result as a packed
// one. An output whose strides make two elements share an offset is invalid."
// Output buffers start filled with a sentinel pattern that must survive in the
// gaps. Values include ties, NaN (quiet and signalling, with payloads), +-0,
// +-inf, denormals and 64-bit integers above 2^53.
//
// The draws come from tests/reference/random_specs.h. Every draw is
// validated by Operation::make AND by an independent statement of the rules
// (reference::expected_validity); the two must agree, so the validator is
// tested on the invalid draws too. A draw that fails prints its seed and the
// spec as JSON. explain() and readers_per_axis are checked the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>

#include "core/provenance.h"
#include "reference/random_specs.h"
#include "test_support.h"

namespace stridescope {
namespace {

using reference::Generator;
using reference::json_array;
using reference::json_spec;
using reference::Layout;
using reference::Rng;
using reference::U64s;

uint64_t product(const U64s& sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), uint64_t{1}, std::multiplies<>());
}

std::string hex(std::span<const std::byte> bytes) {
  std::ostringstream out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out << std::hex << std::setw(2) << std::setfill('0') << std::to_integer<int>(bytes[i]);
    if (i + 1 < bytes.size()) out << (i % 4 == 3 ? " | " : " ");
  }
  return out.str();
}

struct Tally {
  bool stopped = false;  // a case failed; its message says why
  std::map<std::string, int> refusals;  // by the rule that refused, for the message below
  int valid = 0;
  int invalid = 0;
  int compared_elements = 0;
};

// Validates, runs both implementations into sentinel-filled buffers and
// compares every byte. Returns false after the first failure.
bool check_case(const OpRequest& request, uint64_t seed, Tally& tally) {
  const std::string spec = json_spec(request);
  const reference::Validity expected = reference::expected_validity(request);
  auto made = Operation::make(request);
  if (made.has_value() != expected.valid) {
    ADD_FAILURE() << "seed " << seed << ": Operation::make "
                  << (made ? "accepted a spec the rules refuse (" + expected.reason + ")"
                           : "refused a valid spec: " + made.error().to_string())
                  << "\n  spec: " << spec;
    return false;
  }
  if (!made) {
    ++tally.invalid;
    ++tally.refusals[expected.reason];
    if (made.error().code != ErrorCode::InvalidSpec || made.error().path.empty()) {
      ADD_FAILURE() << "seed " << seed << ": refusal without a spec path: " << made.error().to_string()
                    << "\n  spec: " << spec;
      return false;
    }
    return true;
  }
  ++tally.valid;
  const Operation& op = *made;

  // What the validated op says about its tensors, checked against the rules.
  const U64s out_sizes(op.output().sizes().begin(), op.output().sizes().end());
  const U64s out_strides(op.output().strides().begin(), op.output().strides().end());
  const U64s in_strides(op.input().strides().begin(), op.input().strides().end());
  if (in_strides != request.input.strides.value_or(reference::packed_strides(*request.input.sizes))) {
    ADD_FAILURE() << "seed " << seed << ": input strides " << json_array(in_strides) << "\n  spec: " << spec;
    return false;
  }
  if (out_sizes != expected.output_sizes || out_strides != request.output.strides.value_or(reference::packed_strides(out_sizes))) {
    ADD_FAILURE() << "seed " << seed << ": output sizes " << json_array(out_sizes) << " strides "
                  << json_array(out_strides) << ", expected sizes " << json_array(expected.output_sizes)
                  << "\n  spec: " << spec;
    return false;
  }

  Rng rng(seed ^ 0xDA7A);
  std::vector<std::byte> input(op.input().buffer_bytes());
  reference::fill_special(rng, op.input().data_type(), input);
  std::vector<std::byte> core_out(op.output().buffer_bytes()), ref_out(core_out.size());
  reference::fill_sentinel(core_out, static_cast<uint8_t>(seed));
  reference::fill_sentinel(ref_out, static_cast<uint8_t>(seed));
  std::vector<std::byte> core_idx, ref_idx;
  if (op.output_indices()) {
    core_idx.resize(op.output_indices()->buffer_bytes());
    ref_idx.resize(core_idx.size());
    reference::fill_sentinel(core_idx, static_cast<uint8_t>(seed + 1));
    reference::fill_sentinel(ref_idx, static_cast<uint8_t>(seed + 1));
  }

  CpuReferenceBackend backend;
  auto ran = backend.run(op, input, core_out, core_idx);
  if (!ran) {
    ADD_FAILURE() << "seed " << seed << ": cpu backend failed: " << ran.error().to_string() << "\n  spec: " << spec;
    return false;
  }
  const Status ref_ran = reference::run(op, input, ref_out, ref_idx);
  if (!ref_ran) {
    ADD_FAILURE() << "seed " << seed << ": " << ref_ran.error().to_string() << "\n  spec: " << spec;
    return false;
  }
  tally.compared_elements += static_cast<int>(op.output().element_count());

  for (const auto& [what, core, ref] : {std::tuple{"output", &core_out, &ref_out}, std::tuple{"indices", &core_idx, &ref_idx}}) {
    if (*core == *ref) continue;
    std::size_t first = 0;
    while ((*core)[first] == (*ref)[first]) ++first;
    ADD_FAILURE() << "seed " << seed << ": " << what << " differs from the reference at byte " << first
                  << "\n  spec: " << spec << "\n  input:     " << (input.size() <= 512 ? hex(input) : "(large)")
                  << "\n  cpu:       " << (core->size() <= 512 ? hex(*core) : "(large)")
                  << "\n  reference: " << (ref->size() <= 512 ? hex(*ref) : "(large)");
    return false;
  }
  return true;
}

Tally run_cases(Generator generate, uint64_t base_seed, int cases) {
  Tally tally;
  for (int i = 0; i < cases; ++i) {
    const uint64_t seed = base_seed + static_cast<uint64_t>(i);
    Rng rng(seed);
    const DataType type = kAllDataTypes[static_cast<std::size_t>(i) % kAllDataTypes.size()];
    const OpRequest request = generate(rng, type);
    if (!check_case(request, seed, tally)) {
      tally.stopped = true;
      break;
    }
  }
  return tally;
}

// A good share of draws must be valid, or the test would test nothing; some
// must be invalid, or the validator would go untested.
void expect_tally(const Tally& tally, int cases) {
  if (tally.stopped) return;
  std::string summary = "valid " + std::to_string(tally.valid) + ", refused " + std::to_string(tally.invalid) + ":";
  for (const auto& [reason, count] : tally.refusals) summary += " " + reason + " x" + std::to_string(count) + ";";
  std::cout << "[ tally    ] " << summary << "\n";
  EXPECT_GE(tally.valid, cases * 3 / 5) << summary;
  EXPECT_GE(tally.invalid, cases / 50) << summary;
  EXPECT_GT(tally.compared_elements, cases);
}

constexpr int kCases = 3520;  // 320 per data type

TEST(Randomized, IdentityMatchesReference) {
  const Tally tally = run_cases(reference::random_identity, 1000000, kCases);
  expect_tally(tally, kCases);
}

TEST(Randomized, SliceMatchesReference) {
  const Tally tally = run_cases(reference::random_slice, 2000000, kCases);
  expect_tally(tally, kCases);
}

TEST(Randomized, Slice1MatchesReferenceWithNegativeStrides) {
  const Tally tally = run_cases(reference::random_slice1, 3000000, kCases);
  expect_tally(tally, kCases);
}

TEST(Randomized, PaddingMatchesReferenceFoldingBeyondTheInput) {
  const Tally tally = run_cases(reference::random_padding, 4000000, kCases);
  expect_tally(tally, kCases);
}

TEST(Randomized, MaxPoolingMatchesReferenceWithTiesNaNAndPadding) {
  const Tally tally = run_cases(reference::random_pooling, 5000000, kCases);
  expect_tally(tally, kCases);
}

TEST(Randomized, FreshBuffersMatchReferenceWithZeroGaps) {
  // run_to_new_buffers against the reference's own zero-filled buffers.
  const auto& generators = reference::kAllGenerators;
  int compared = 0;
  for (int i = 0; i < 300; ++i) {
    const uint64_t seed = 6000000 + static_cast<uint64_t>(i);
    Rng rng(seed);
    const DataType type = kAllDataTypes[static_cast<std::size_t>(i) % kAllDataTypes.size()];
    const OpRequest request = generators[i % 5](rng, type);
    auto op = Operation::make(request);
    if (!op) continue;
    Rng data(seed);
    std::vector<std::byte> input(op->input().buffer_bytes());
    reference::fill_special(data, op->input().data_type(), input);
    CpuReferenceBackend backend;
    auto core = run_to_new_buffers(backend, *op, input);
    auto ref = reference::run_to_new_buffers(*op, input);
    ASSERT_TRUE(core.has_value()) << core.error().to_string() << "\n  spec: " << json_spec(request);
    ASSERT_TRUE(ref.has_value()) << ref.error().to_string();
    ASSERT_EQ(core->output, ref->output) << "seed " << seed << "\n  spec: " << json_spec(request);
    ASSERT_EQ(core->indices, ref->indices) << "seed " << seed << "\n  spec: " << json_spec(request);
    ++compared;
  }
  EXPECT_GE(compared, 180);
}

// provenance.h: explain names the input element (or padding rule, or pooling
// window) an output element came from; readers_per_axis the other way round.
// Both against the reference's own per-dimension formulas.
void check_explain(const Operation& op, std::span<const std::byte> input, const U64s& o, const std::string& spec) {
  auto p = explain(op, Coord(std::span<const uint64_t>(o)), input);
  ASSERT_TRUE(p.has_value()) << p.error().to_string() << "\n  spec: " << spec;
  const std::string where = "at " + json_array(o) + "\n  spec: " + spec + "\n  rule: " + p->rule;
  const U64s out_strides(op.output().strides().begin(), op.output().strides().end());
  EXPECT_EQ(p->output_offset, reference::element_offset(o, out_strides)) << where;
  const U64s in_strides(op.input().strides().begin(), op.input().strides().end());
  const std::size_t rank = o.size();
  if (op.kind() == OpKind::MaxPooling2) {
    const auto taps = reference::pooling_window(op, o);
    ASSERT_EQ(p->kind, SourceKind::Pooled) << where;
    ASSERT_EQ(p->window.size(), taps.size()) << where;
    for (std::size_t k = 0; k < taps.size(); ++k) {
      ASSERT_EQ(std::vector<int64_t>(p->window[k].coord.begin(), p->window[k].coord.end()), taps[k].coord) << where;
      ASSERT_EQ(p->window[k].padded, taps[k].padded) << where;
      if (!taps[k].padded) {
        const U64s c(taps[k].coord.begin(), taps[k].coord.end());
        ASSERT_EQ(p->window[k].offset, reference::element_offset(c, in_strides)) << where;
      }
    }
    auto winner = reference::pooling_winner(op, input, o);
    ASSERT_TRUE(winner.has_value());
    ASSERT_TRUE(p->winner.has_value() && p->winner_index.has_value()) << where;
    EXPECT_EQ(*p->winner_index, *winner) << where;
    const auto& won = p->window[*p->winner].coord;
    EXPECT_EQ(reference::row_major_position(U64s(won.begin(), won.end()),
                                            U64s(op.input().sizes().begin(), op.input().sizes().end())),
              *winner)
        << where;
    return;
  }
  bool constant = false, folded = false;
  U64s source(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    const auto index = reference::source_index(op, d, o[d]);
    if (!index) {
      constant = true;
      continue;
    }
    source[d] = static_cast<uint64_t>(*index);
    if (op.kind() == OpKind::Padding) {
      const int64_t unfolded = static_cast<int64_t>(o[d]) -
                               static_cast<int64_t>(op.params_as<PaddingParams>().start_padding[d]);
      folded = folded || *index != unfolded;
    }
  }
  if (op.kind() == OpKind::Padding) {
    std::vector<int64_t> unfolded;
    for (std::size_t d = 0; d < rank; ++d) {
      unfolded.push_back(static_cast<int64_t>(o[d]) -
                         static_cast<int64_t>(op.params_as<PaddingParams>().start_padding[d]));
    }
    EXPECT_EQ(std::vector<int64_t>(p->unfolded.begin(), p->unfolded.end()), unfolded) << where;
  }
  if (constant) {
    EXPECT_EQ(p->kind, SourceKind::PaddingConstant) << where;
    EXPECT_FALSE(p->source.has_value()) << where;
    return;
  }
  EXPECT_EQ(p->kind, folded ? SourceKind::PaddingFolded : SourceKind::Copied) << where;
  ASSERT_TRUE(p->source.has_value()) << where;
  EXPECT_EQ(U64s(p->source->begin(), p->source->end()), source) << where;
  EXPECT_EQ(p->source_offset, reference::element_offset(source, in_strides)) << where;
}

void check_readers(const Operation& op, const U64s& in, const std::string& spec) {
  const auto readers = readers_per_axis(op, Coord(std::span<const uint64_t>(in)));
  const Sizes& out = op.output().sizes();
  for (std::size_t d = 0; d < in.size(); ++d) {
    std::vector<uint64_t> expected;
    for (uint64_t o = 0; o < out[d]; ++o) {
      if (op.kind() != OpKind::MaxPooling2) {
        const auto index = reference::source_index(op, d, o);
        if (index && *index == static_cast<int64_t>(in[d])) expected.push_back(o);
      } else if (d < 2) {
        if (o == in[d]) expected.push_back(o);
      } else {
        U64s probe(in.size(), 0);
        probe[d] = o;
        for (const auto& tap : reference::pooling_window(op, probe)) {
          if (tap.coord[d] == static_cast<int64_t>(in[d])) {
            expected.push_back(o);
            break;
          }
        }
      }
    }
    ASSERT_EQ(readers[d], expected) << "dimension " << d << " of input " << json_array(in) << "\n  spec: " << spec;
  }
}

TEST(Randomized, ExplainAndReadersMatchReference) {
  const auto& generators = reference::kAllGenerators;
  int explained = 0;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t seed = 8000000 + static_cast<uint64_t>(i);
    Rng rng(seed);
    const DataType type = kAllDataTypes[static_cast<std::size_t>(i) % kAllDataTypes.size()];
    const OpRequest request = generators[i % 5](rng, type);
    auto op = Operation::make(request);
    if (!op) continue;
    const std::string spec = "seed " + std::to_string(seed) + " " + json_spec(request);
    std::vector<std::byte> input(op->input().buffer_bytes());
    reference::fill_special(rng, op->input().data_type(), input);
    for (int sample = 0; sample < 3; ++sample) {
      U64s o, in;
      for (uint64_t size : op->output().sizes()) o.push_back(rng.below(size));
      for (uint64_t size : op->input().sizes()) in.push_back(rng.below(size));
      check_explain(*op, input, o, spec);
      check_readers(*op, in, spec);
      if (::testing::Test::HasFatalFailure()) return;
    }
    ++explained;
  }
  EXPECT_GE(explained, 700);
}

TEST(Randomized, ReferenceAgreesWithItselfAcrossLayouts) {
  // Sanity of the harness: the reference gives the same logical output for
  // a packed and a re-laid-out copy of the same logical input.
  for (int i = 0; i < 200; ++i) {
    Rng rng(7000000 + static_cast<uint64_t>(i));
    const DataType type = kAllDataTypes[static_cast<std::size_t>(i) % kAllDataTypes.size()];
    const U64s in = reference::random_sizes(rng, rng.range(1, 6), 64);
    const auto strides = reference::random_strides(rng, in, rng.chance(0.5) ? Layout::PermutedGapped : Layout::Gapped);
    OpRequest packed_req{TensorRequest{type, in, std::nullopt}, TensorRequest{}, std::nullopt, IdentityRequest{}};
    OpRequest strided_req{TensorRequest{type, in, strides}, TensorRequest{}, std::nullopt, IdentityRequest{}};
    SS_ASSERT_MAKE(packed_op, packed_req);
    SS_ASSERT_MAKE(strided_op, strided_req);
    std::vector<std::byte> packed_in(packed_op.input().buffer_bytes());
    reference::fill_special(rng, type, packed_in);
    // Scatter the packed values into the strided buffer by hand.
    std::vector<std::byte> strided_in(strided_op.input().buffer_bytes(), std::byte{0});
    const std::size_t size = element_size(type);
    std::vector<uint64_t> coord(in.size(), 0);
    for (uint64_t flat = 0; flat < product(in); ++flat) {
      uint64_t rest = flat;
      for (std::size_t d = in.size(); d-- > 0;) coord[d] = rest % in[d], rest /= in[d];
      const uint64_t at = reference::element_offset(coord, *strides);
      std::memcpy(strided_in.data() + at * size, packed_in.data() + flat * size, size);
    }
    auto a = reference::run_to_new_buffers(packed_op, packed_in);
    auto b = reference::run_to_new_buffers(strided_op, strided_in);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(a->output, b->output) << i;
    const auto used = static_cast<std::ptrdiff_t>(product(in) * size);
    ASSERT_TRUE(std::equal(packed_in.begin(), packed_in.begin() + used, a->output.begin())) << i;
  }
}

}  // namespace
}  // namespace stridescope
