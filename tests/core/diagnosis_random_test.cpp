// core/diagnosis on random specs (core/io/random_spec.h): the exact result
// (the independent reference's) is never diagnosed, a single corrupted
// element is `unknown`, and every mistake's own result names that mistake.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "core/diagnosis/diagnose.h"
#include "core/io/random_spec.h"
#include "core/io/spec_file.h"
#include "core/split_mix64.h"
#include "test_support.h"

namespace stridescope::test {
namespace {

constexpr uint64_t kSpecs = 1000;

struct Drawn {
  Operation op;
  std::vector<std::byte> input;
  Outputs exact;
};

std::optional<Drawn> draw(uint64_t seed) {
  Expected<Spec> spec = random_spec(seed, RandomSpecOptions{std::nullopt, 48});
  if (!spec) return std::nullopt;
  Expected<Operation> op = Operation::make(spec->request);
  if (!op) return std::nullopt;
  Expected<std::vector<std::byte>> input = make_input_buffer(*spec, op->input());
  if (!input) return std::nullopt;
  Outputs exact = run_reference(*op, *input);
  return Drawn{*op, *input, std::move(exact)};
}

// Flips some bits of one element (its low byte, or the indices' low byte) at a
// random logical coordinate.
void corrupt_one(const Drawn& d, uint64_t seed, std::vector<std::byte>& output, std::vector<std::byte>& indices) {
  SplitMix64 rng(seed * 7919 + 1);
  const bool in_indices = d.op.output_indices() && rng.next() % 2 == 0;
  const TensorDesc& desc = in_indices ? *d.op.output_indices() : d.op.output();
  const Coord coord = desc.coord_of_flat_index(rng.next() % desc.element_count());
  std::byte* at = (in_indices ? indices : output).data() + desc.offset_of(coord) * desc.element_size();
  at[0] ^= std::byte{0x5A};
}

TEST(DiagnoseRandom, ExactResultsAreNeverDiagnosed) {
  for (uint64_t seed = 1; seed <= kSpecs; ++seed) {
    const std::optional<Drawn> d = draw(seed);
    ASSERT_TRUE(d) << "seed " << seed;
    const Diagnosis diagnosis =
        diagnose(d->op, d->input, {d->exact.output, d->exact.indices}, {d->exact.output, d->exact.indices});
    EXPECT_EQ(diagnosis.differing, 0u) << "seed " << seed;
    EXPECT_TRUE(diagnosis.findings.empty()) << "seed " << seed;
  }
}

TEST(DiagnoseRandom, OneCorruptedElementIsUnknown) {
  for (uint64_t seed = 1; seed <= kSpecs; ++seed) {
    const std::optional<Drawn> d = draw(seed);
    ASSERT_TRUE(d) << "seed " << seed;
    std::vector<std::byte> output = d->exact.output;
    std::vector<std::byte> indices = d->exact.indices;
    corrupt_one(*d, seed, output, indices);
    const Diagnosis diagnosis = diagnose(d->op, d->input, {d->exact.output, d->exact.indices}, {output, indices});
    EXPECT_EQ(diagnosis.differing, 1u) << "seed " << seed;
    std::string found;
    for (const Finding& f : diagnosis.findings) found += std::string(mistake(f.id).name) + " ";
    EXPECT_TRUE(diagnosis.findings.empty()) << "seed " << seed << ": " << found;
    EXPECT_FALSE(diagnosis.in_common.empty()) << "seed " << seed;
  }
}

// Where a mistake shows on a random spec, its own result is diagnosed as that
// mistake, completely (perhaps beside others that give the same result), and
// the catalogue's first complete finding is never an inapplicable mistake.
TEST(DiagnoseRandom, EveryMistakesOwnResultNamesIt) {
  uint64_t shown = 0;
  for (uint64_t seed = 1; seed <= kSpecs; ++seed) {
    const std::optional<Drawn> d = draw(seed);
    ASSERT_TRUE(d) << "seed " << seed;
    for (const Mistake& m : mistake_catalogue()) {
      for (const VariantResult& v : run_mistaken(m.id, d->op, d->input)) {
        // Only results laid out as the op's tensors can stand for another implementation's.
        if (!(v.output == d->op.output()) || v.indices != d->op.output_indices() || !v.undefined_indices.empty()) {
          continue;
        }
        const Diagnosis diagnosis =
            diagnose(d->op, d->input, {d->exact.output, d->exact.indices}, {v.output_buffer, v.indices_buffer});
        if (diagnosis.differing == 0) continue;
        ++shown;
        bool named = false;
        for (const Finding& f : diagnosis.findings) named = named || (f.id == m.id && f.complete);
        EXPECT_TRUE(named) << "seed " << seed << ": " << m.name;
      }
    }
  }
  EXPECT_GT(shown, 50u);
}

}  // namespace
}  // namespace stridescope::test
