// The fast CPU backend on the suite's shared random specs
// (tests/reference/random_specs.h), compared bit for bit with the naive
// reference written from the DirectML pages (tests/reference/reference_ops.h),
// which shares nothing with core's index plans, and with CpuReferenceBackend.
// Every generator, every data type; gaps of gapped outputs must keep the
// sentinel bytes the buffers start with.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/operation.h"
#include "reference/random_specs.h"
#include "reference/reference_ops.h"

namespace stridescope {
namespace {

struct Buffers {
  std::vector<std::byte> output, indices;
};

Buffers sentinel_buffers(const Operation& op) {
  Buffers b;
  b.output.resize(op.output().buffer_bytes());
  reference::fill_sentinel(b.output, 0x3c);
  if (op.output_indices()) {
    b.indices.resize(op.output_indices()->buffer_bytes());
    reference::fill_sentinel(b.indices, 0xc3);
  }
  return b;
}

TEST(CpuFastBackendSharedSpecs, EveryGeneratorAndTypeMatchesTheIndependentReference) {
  std::vector<std::unique_ptr<CpuFastBackend>> backends;
  backends.push_back(std::make_unique<CpuFastBackend>());
  for (fast::SimdLevel level : {fast::SimdLevel::Baseline, fast::SimdLevel::Avx2, fast::SimdLevel::Avx512}) {
    if (!fast::simd_level_supported(level)) continue;
    CpuFastOptions forced;
    forced.threads = 2;
    forced.simd = level;
    forced.parallel_min_bytes = 0;
    forced.stream_min_output_bytes = 1;
    backends.push_back(std::make_unique<CpuFastBackend>(forced));
  }
  CpuReferenceBackend core_reference;
  reference::Rng rng(0xfa57);
  int drawn = 0, valid = 0, failures = 0;
  for (reference::Generator generator : reference::kAllGenerators) {
    for (DataType type : kAllDataTypes) {
      for (int i = 0; i < 40 && failures < 5; ++i) {
        const OpRequest request = generator(rng, type);
        ++drawn;
        auto op = Operation::make(request);
        if (!op) continue;
        ++valid;
        std::vector<std::byte> input(op->input().buffer_bytes());
        reference::fill_special(rng, type, input);

        Buffers expected = sentinel_buffers(*op);
        ASSERT_TRUE(reference::run(*op, input, expected.output, expected.indices).ok());
        Buffers core = sentinel_buffers(*op);
        ASSERT_TRUE(core_reference.run(*op, input, core.output, core.indices).has_value());
        if (core.output != expected.output || core.indices != expected.indices) {
          // Not the fast backend's business, but worth saying.
          ADD_FAILURE() << "CpuReferenceBackend and the independent reference differ for "
                        << reference::json_spec(request);
        }
        for (auto& backend : backends) {
          Buffers got = sentinel_buffers(*op);
          ASSERT_TRUE(backend->run(*op, input, got.output, got.indices).has_value());
          if (got.output != expected.output || got.indices != expected.indices) {
            ++failures;
            ADD_FAILURE() << backend->device_name() << " differs from the independent reference for "
                          << reference::json_spec(request);
          }
        }
      }
    }
  }
  std::cout << "  " << valid << " valid of " << drawn << " drawn\n";
  EXPECT_GE(valid, drawn / 2) << "too few valid draws: " << valid << " of " << drawn;
}

}  // namespace
}  // namespace stridescope
