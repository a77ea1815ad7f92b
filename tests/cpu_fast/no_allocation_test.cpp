// cpu_fast_backend.h: "smaller work stays on the calling thread and a
// prepared plan runs it without allocating". Counted by replacing the global
// operator new in this test binary.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "core/fast/cpu_fast_backend.h"
#include "core/operation.h"

namespace {
std::atomic<uint64_t> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace stridescope {
namespace {

uint64_t allocations_during(const auto& work) {
  const uint64_t before = allocations.load();
  work();
  return allocations.load() - before;
}

TEST(CpuFastBackendHotPath, SmallPreparedRunsDoNotAllocate) {
  OpRequest padding;
  padding.input.data_type = DataType::Float32;
  padding.input.sizes = std::vector<uint64_t>{1, 1, 8, 8};
  padding.params = PaddingRequest{PaddingMode::Reflection, int64_t{0}, {0, 0, 3, 5}, {0, 0, 7, 2}};
  OpRequest pooling;
  pooling.input.data_type = DataType::Float32;
  pooling.input.sizes = std::vector<uint64_t>{1, 1, 8, 8};
  pooling.output_indices = TensorRequest{DataType::UInt32, std::nullopt, std::nullopt};
  pooling.params = MaxPooling2Request{{3, 3}, std::vector<uint64_t>{2, 2}, std::vector<uint64_t>{1, 1},
                                      std::vector<uint64_t>{1, 1}, std::nullopt};
  CpuFastBackend backend;
  for (const OpRequest& request : {padding, pooling}) {
    auto op = Operation::make(request);
    ASSERT_TRUE(op.has_value()) << op.error().to_string();
    CpuFastPlan plan = backend.prepare(*op);
    EXPECT_FALSE(plan.parallel());
    std::vector<std::byte> in(op->input().buffer_bytes()), out(op->output().buffer_bytes());
    std::vector<std::byte> idx(op->output_indices() ? op->output_indices()->buffer_bytes() : 0);
    ASSERT_TRUE(backend.run(plan, in, out, idx).ok());  // warm
    EXPECT_EQ(allocations_during([&] {
                for (int i = 0; i < 100; ++i) ASSERT_TRUE(backend.run(plan, in, out, idx).ok());
              }),
              0u);
    // Backend::run keeps the last plan: running the same op again plans nothing.
    ASSERT_TRUE(backend.run(*op, in, out, idx).has_value());
    EXPECT_EQ(allocations_during([&] { ASSERT_TRUE(backend.run(*op, in, out, idx).has_value()); }), 0u);
  }
}

}  // namespace
}  // namespace stridescope
