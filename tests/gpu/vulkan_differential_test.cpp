// The Vulkan backend against the CPU reference backend and the independent
// reference (tests/reference/reference_ops.h), bit for bit, on the suite's
// shared random specs (tests/reference/random_specs.h): every operator x
// every data type, ranks 1 to 8 (max_pooling2: 4-D and 5-D), inputs packed,
// broadcast, gapped, permuted or overlapping, outputs packed, gapped or
// permuted, negative slice1 strides, paddings beyond the input size, pooling
// with dilations, asymmetric padding and UINT32/UINT64 indices, ties and
// special values. One identity or max_pooling2 draw in three is widened
// (shared_spec_draws.h) so its output spans several workgroups. Seeded:
// STRIDESCOPE_TEST_SEED replays a run; each failure prints its seed and its
// spec as JSON. 55 cases x 24 specs = 1,320 random specs per run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gpu_test_support.h"
#include "shared_spec_draws.h"

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
  reference::Rng rng(seed);
  int valid = 0;
  for (int i = 0; i < kSpecsPerCase; ++i) {
    OpRequest request;
    auto op = draw_for_gpu(c.op, c.type, rng, &request);
    if (!op) continue;
    ++valid;
    const std::vector<std::byte> input = special_input(op->input(), rng);
    EXPECT_TRUE(matches_cpu_and_reference(*backend_, *op, input, seed + static_cast<uint64_t>(i)))
        << "seed " << seed << " spec " << i << ": " << reference::json_spec(request);
    if (HasFailure()) break;  // one reproducible failure is enough
  }
  // The shared generator must actually produce specs for this case.
  EXPECT_EQ(valid, kSpecsPerCase) << "too many invalid draws";
}

INSTANTIATE_TEST_SUITE_P(AllOpsAllTypes, VulkanMatchesCpu, ::testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace stridescope::test
