// The Vulkan backend against the CPU reference, bit for bit: every operator x
// every data type, ranks 1 to 8 (max_pooling2: 4-D and 5-D), every layout
// class of input (packed, broadcast, gapped, permuted, overlapping) and output
// (packed, gapped, permuted), negative slice1 strides, paddings beyond the
// input size, pooling with dilations, asymmetric padding, ties and special
// values. Seeded: STRIDESCOPE_TEST_SEED replays a run; each failure prints its
// spec. 55 cases x 24 specs = 1,320 random specs per run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "gpu_test_support.h"
#include "random_spec.h"

namespace stridescope::test {
namespace {

constexpr int kSpecsPerCase = 24;

uint64_t base_seed() {
  const char* env = std::getenv("STRIDESCOPE_TEST_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 0) : 20240611u;
}

struct Case {
  OpKind op;
  DataType type;
};

void PrintTo(const Case& c, std::ostream* os) { *os << to_string(c.op) << " " << to_string(c.type); }

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::string(to_string(info.param.op)) + "_" + std::string(to_string(info.param.type));
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (OpKind op : {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding, OpKind::MaxPooling2}) {
    for (DataType type : kAllDataTypes) cases.push_back({op, type});
  }
  return cases;
}

class VulkanMatchesCpu : public VulkanTest, public ::testing::WithParamInterface<Case> {};

TEST_P(VulkanMatchesCpu, RandomSpecsGiveIdenticalBits) {
  const Case c = GetParam();
  const uint64_t seed = base_seed() * 1000003u + static_cast<uint64_t>(c.op) * 131u + static_cast<uint64_t>(c.type);
  Rng rng(seed);
  std::map<std::string, int> layouts_seen;
  int valid = 0;
  for (int i = 0; i < kSpecsPerCase; ++i) {
    RandomSpec spec;
    const std::size_t rank = 1 + static_cast<std::size_t>(i % 8);
    auto op = random_operation(c.op, c.type, rank, rng, &spec);
    if (!op) continue;
    ++valid;
    layouts_seen[std::string(to_string(spec.input_layout))]++;
    const std::vector<std::byte> input = random_input(op->input(), rng);
    EXPECT_TRUE(matches_cpu(*backend_, *op, input, seed + static_cast<uint64_t>(i)))
        << "seed " << seed << " spec " << i << ": " << describe(*op);
    if (HasFailure()) break;  // one reproducible failure is enough
  }
  // The generator must actually produce specs for this case.
  EXPECT_GE(valid, kSpecsPerCase * 3 / 4) << "too many invalid draws";
}

INSTANTIATE_TEST_SUITE_P(AllOpsAllTypes, VulkanMatchesCpu, ::testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace stridescope::test
