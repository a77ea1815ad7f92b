// Shared by the Vulkan tests: one backend for the whole test program (with
// the validation layer on, so pipelines compile once), the fixture that
// skips only where no Vulkan device exists and fails on any validation
// message, and the bit-for-bit comparison with the CPU reference backend
// (and, for small tensors, with the independent reference of tests/reference).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/operation.h"
#include "gpu/run_plan.h"
#include "gpu/vulkan_backend.h"
#include "reference/rng.h"

namespace stridescope::test {

// The process-wide backend (validation on), or nullptr with `why` set.
VulkanBackend* shared_vulkan_backend(std::string* why);

// STRIDESCOPE_REQUIRE_VULKAN=1: a missing device fails instead of skipping.
bool vulkan_required();

// Whether the tests' backends run the validation layer: always, unless
// STRIDESCOPE_TEST_VULKAN_VALIDATION=0. `./dev asan` turns it off: the layer
// is not instrumented, so under ASan it only adds time (half of the Vulkan
// tests' time on lavapipe), and the plain build's run of the same tests
// already checks every command with it.
bool vulkan_validation_wanted();

// Skips when no device exists (fails instead under STRIDESCOPE_REQUIRE_VULKAN=1
// or when devices exist but the backend cannot be made); after each test,
// fails when the validation layer reported anything.
class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Gives up the test unless a device exists: for tests making their own backend.
  static bool device_exists(std::string* why);

  VulkanBackend* backend_ = nullptr;
};

using Rng = reference::Rng;

// Fills the tensor's whole buffer with element bits chosen to find bugs:
// a small palette (ties), special floats (NaN payloads, +-0, +-inf,
// denormals, extremes) and 64-bit integers beyond 2^53.
std::vector<std::byte> random_input(const TensorDesc& desc, Rng& rng);

// "FLOAT16", ...: a test name for a suite instantiated over data types.
inline std::string data_type_name(const ::testing::TestParamInfo<DataType>& info) {
  return std::string(to_string(info.param));
}

// "slice1 INT8 input{sizes [2,3] strides [3,1]} output{...} params{...}".
std::string describe(const Operation& op);

// Runs `op` on the CPU reference and on `gpu` with identical output buffers
// pre-filled with random bytes (plus slack past the end), and compares every
// byte: addressed elements must match the CPU bit for bit, gaps and slack
// must keep the pre-filled bytes.
::testing::AssertionResult matches_cpu(VulkanBackend& gpu, const Operation& op,
                                       std::span<const std::byte> input, uint64_t seed);

// matches_cpu, and the CPU's buffers must also equal those of the independent
// reference (reference::run, tests/reference/reference_ops.h), which shares
// no index arithmetic with core. For small tensors: the reference is slow.
::testing::AssertionResult matches_cpu_and_reference(VulkanBackend& gpu, const Operation& op,
                                                     std::span<const std::byte> input, uint64_t seed);

// matches_cpu_and_reference for each request, on random input (seeds
// first_seed + 1, + 2, ...); a failure names the op.
void expect_each_matches_cpu_and_reference(VulkanBackend& gpu, const std::vector<OpRequest>& requests,
                                           uint64_t first_seed);

// For a run of the store build the backend's limits now pick (pairs: 64-bit
// pairs): whole quads against the CPU and the reference, pairs against the
// CPU only, with the same inputs (the reference has checked the CPU's bits).
void expect_each_matches_in_store_build(VulkanBackend& gpu, const std::vector<OpRequest>& requests,
                                        uint64_t first_seed, bool pairs);

// Under `limits`, quads stored whole, then as 64-bit pairs (where the device
// has shaderInt64), each through expect_each_matches_in_store_build; the
// limits stay set (the fixture's TearDown clears them).
void expect_each_matches_with_both_stores(VulkanBackend& gpu, VulkanBackend::TestingLimits limits,
                                          const std::vector<OpRequest>& requests, uint64_t first_seed);

// Device limits that split nothing: 128 MiB bindings, the rest as defaults.
gpu::DeviceLimits roomy_limits();

// The plan of `request` under `limits`, or nullopt (the test fails) where
// the request or the plan is refused or the plan has no shader pass.
std::optional<gpu::RunPlan> planned_compute(const OpRequest& request,
                                            const gpu::DeviceLimits& limits = roomy_limits());
// Its shader pass alone.
std::optional<gpu::ComputePass> planned_pass(const OpRequest& request,
                                             const gpu::DeviceLimits& limits = roomy_limits());

// That `request` plans `shader` with whole-quad stores under roomy limits and
// its pairs build (shaders/quad_stores.glsl) once the limits ask for pairs.
void expect_pairs_build_where_limits_say(const OpRequest& request, gpu::ShaderId shader);

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> bytes((values.size() * sizeof(T) + 3) / 4 * 4, std::byte{0});
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), values.size() * sizeof(T));  // data() may be null
  return bytes;
}

template <class T>
std::vector<T> values_of(std::span<const std::byte> bytes, std::size_t count) {
  std::vector<T> values(count);
  if (count > 0) std::memcpy(values.data(), bytes.data(), count * sizeof(T));  // data() may be null
  return values;
}

}  // namespace stridescope::test
