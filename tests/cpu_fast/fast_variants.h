// The fast CPU backend in every configuration a test compares: as shipped,
// on one thread, and for each instruction set this CPU runs with threads and
// non-temporal stores forced even for tiny work (so that every split and
// store path runs on small, hand-checkable cases).
// Also the one make_op the fast-backend suites share.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/fast/cpu_fast_backend.h"
#include "core/operation.h"

namespace stridescope::testing {

struct FastVariant {
  std::string name;
  std::unique_ptr<CpuFastBackend> backend;
};

inline std::vector<FastVariant> fast_variants() {
  std::vector<FastVariant> variants;
  variants.push_back({"default", std::make_unique<CpuFastBackend>()});
  CpuFastOptions one;
  one.threads = 1;
  variants.push_back({"one thread", std::make_unique<CpuFastBackend>(one)});
  for (fast::SimdLevel level : {fast::SimdLevel::Baseline, fast::SimdLevel::Avx2, fast::SimdLevel::Avx512}) {
    if (!fast::simd_level_supported(level)) continue;
    CpuFastOptions forced;
    forced.threads = 3;
    forced.simd = level;
    forced.parallel_min_bytes = 0;       // threads even for tiny work
    forced.stream_min_output_bytes = 1;  // non-temporal stores wherever the kernels allow
    variants.push_back({std::string(fast::to_string(level)) + " forced threads+streaming",
                        std::make_unique<CpuFastBackend>(forced)});
  }
  return variants;
}

// The operation a test's request describes; the test fails if it is invalid.
inline Operation make_op(const OpRequest& request) {
  auto op = Operation::make(request);
  EXPECT_TRUE(op.has_value()) << (op ? "" : op.error().to_string());
  return std::move(*op);
}

}  // namespace stridescope::testing
