#include "gpu_test_support.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <utility>

#include "core/compare.h"
#include "core/cpu_backend.h"
#include "core/scalar.h"
#include "reference/reference_ops.h"

namespace stridescope::test {

namespace {

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "\n  " + line;
  return text;
}

template <class Container>
std::string list(const Container& values) {
  std::ostringstream out;
  out << "[";
  bool first = true;
  for (const auto& v : values) {
    out << (first ? "" : ",") << v;
    first = false;
  }
  out << "]";
  return out.str();
}

std::string tensor_text(const TensorDesc& desc) {
  return std::string(to_string(desc.data_type())) + "{sizes " + list(desc.sizes()) + " strides " +
         list(desc.strides()) + "}";
}

uint64_t bits_from_double(DataType type, double value) {
  auto bits = encode_scalar(Scalar{value}, type, "test");
  return bits ? *bits : 0;
}

}  // namespace

bool vulkan_required() {
  const char* value = std::getenv("STRIDESCOPE_REQUIRE_VULKAN");
  return value != nullptr && std::string(value) == "1";
}

bool vulkan_validation_wanted() {
  const char* value = std::getenv("STRIDESCOPE_TEST_VULKAN_VALIDATION");
  return value == nullptr || std::string(value) != "0";
}

VulkanBackend* shared_vulkan_backend(std::string* why) {
  static std::string error;
  static std::unique_ptr<VulkanBackend> backend = [] {
    VulkanOptions options;
    options.enable_validation = vulkan_validation_wanted();
    auto made = VulkanBackend::create(options);
    if (!made) {
      error = made.error().to_string();
      return std::unique_ptr<VulkanBackend>();
    }
    return std::move(*made);
  }();
  if (!backend && why != nullptr) *why = error;
  return backend.get();
}

bool VulkanTest::device_exists(std::string* why) {
  auto devices = list_vulkan_devices();
  if (!devices) {
    *why = devices.error().to_string();
    return false;
  }
  if (devices->empty()) {
    *why = "the Vulkan loader reports no device";
    return false;
  }
  return true;
}

void VulkanTest::SetUp() {
  std::string why;
  backend_ = shared_vulkan_backend(&why);
  if (backend_ != nullptr) {
    backend_->clear_validation_messages();
    return;
  }
  std::string no_device;
  if (!device_exists(&no_device)) {
    if (vulkan_required()) FAIL() << "STRIDESCOPE_REQUIRE_VULKAN=1 but no Vulkan device: " << no_device;
    GTEST_SKIP() << "no Vulkan device: " << no_device;
  }
  FAIL() << "a Vulkan device exists but the backend could not be made: " << why;
}

void VulkanTest::TearDown() {
  if (backend_ == nullptr) return;
  const std::vector<std::string> messages = backend_->validation_messages();
  EXPECT_TRUE(messages.empty()) << "validation layer messages:" << join(messages);
  backend_->clear_validation_messages();
}

std::vector<std::byte> random_input(const TensorDesc& desc, Rng& rng) {
  const DataType type = desc.data_type();
  const std::size_t size = desc.element_size();
  const uint64_t bits_mask = size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1;

  // Values worth meeting: extremes and the cases the rules single out.
  std::vector<uint64_t> special;
  switch (type) {
    case DataType::Float16:
      special = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0x7FFF, 0x0001, 0x8001, 0x03FF,
                 0x83FF, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00};
      break;
    case DataType::Float32:
      special = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                 0x7FFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF,
                 0x3F800000, 0xBF800000};
      break;
    case DataType::Float64:
      special = {0x0000000000000000, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
                 0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, 0x7FF0000100000000,
                 0x0000000000000001, 0x8000000000000001, 0x000FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF,
                 0xFFEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000, 0x0000000100000000};
      break;
    case DataType::Int64:
    case DataType::UInt64:
      // 2^53 and 2^53 + 1 are one double apart from nothing: a compare through
      // double would call them equal.
      special = {0x0020000000000000, 0x0020000000000001, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000,
                 0xFFFFFFFFFFFFFFFF, 0xFFDFFFFFFFFFFFFF, 0xFFE0000000000000, 0x0000000100000000,
                 0x00000000FFFFFFFF, 0x0000000080000000, 0xFFFFFFFF00000000, 0x0000000000000000, 1};
      break;
    default:
      special = {0, 1, bits_mask, bits_mask >> 1, (bits_mask >> 1) + 1, 2, bits_mask - 1};
      break;
  }
  // A palette makes ties likely; sometimes every element is fully random.
  const bool palette_only = rng.chance(0.6);
  std::vector<uint64_t> palette(1 + rng.below(6));
  for (uint64_t& p : palette) {
    if (rng.chance(0.4)) {
      p = special[rng.below(special.size())];
    } else if (is_floating(type) && rng.chance(0.7)) {
      p = bits_from_double(type, static_cast<double>(rng.between(-8, 8)) / 2.0);
    } else {
      p = rng.next() & bits_mask;
    }
  }
  std::vector<std::byte> bytes(desc.buffer_bytes());
  for (uint64_t e = 0; e < desc.buffer_elements(); ++e) {
    uint64_t bits = 0;
    if (palette_only || rng.chance(0.5)) {
      bits = palette[rng.below(palette.size())];
    } else if (rng.chance(0.2)) {
      bits = special[rng.below(special.size())];
    } else {
      bits = rng.next() & bits_mask;
    }
    std::memcpy(bytes.data() + e * size, &bits, size);  // little-endian: the low bytes
  }
  for (std::size_t i = desc.buffer_elements() * size; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::byte>(rng.next());
  }
  return bytes;
}

std::string describe(const Operation& op) {
  std::ostringstream out;
  out << to_string(op.kind()) << " input " << tensor_text(op.input()) << " output " << tensor_text(op.output());
  if (op.output_indices()) out << " indices " << tensor_text(*op.output_indices());
  std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, SliceParams>) {
          out << " offsets " << list(p.offsets) << " sizes " << list(p.sizes) << " strides " << list(p.strides);
        } else if constexpr (std::is_same_v<P, Slice1Params>) {
          out << " windowOffsets " << list(p.window_offsets) << " windowSizes " << list(p.window_sizes)
              << " windowStrides " << list(p.window_strides);
        } else if constexpr (std::is_same_v<P, PaddingParams>) {
          out << " mode " << to_string(p.mode) << " value " << format_scalar(p.value) << " (bits 0x" << std::hex
              << p.value_bits << std::dec << ") start " << list(p.start_padding) << " end " << list(p.end_padding);
        } else if constexpr (std::is_same_v<P, MaxPooling2Params>) {
          out << " window " << list(p.window_size) << " strides " << list(p.strides) << " start "
              << list(p.start_padding) << " end " << list(p.end_padding) << " dilations " << list(p.dilations);
        }
      },
      op.params());
  return out.str();
}

namespace {

// First difference between the `cpu` and `gpu` buffers of `desc`, in words;
// `names` label the two buffers (the expected one first).
std::string first_difference(const TensorDesc& desc, std::span<const std::byte> cpu, std::span<const std::byte> gpu,
                             std::span<const std::byte> before,
                             std::pair<const char*, const char*> names = {"cpu", "gpu"}) {
  if (auto mismatch = compare_tensors(desc, cpu, gpu)) {
    std::ostringstream out;
    const std::size_t size = desc.element_size();
    uint64_t cpu_bits = 0;
    uint64_t gpu_bits = 0;
    std::memcpy(&cpu_bits, cpu.data() + mismatch->first_offset * size, size);
    std::memcpy(&gpu_bits, gpu.data() + mismatch->first_offset * size, size);
    out << mismatch->count << " elements differ; first at " << format_coord(mismatch->first) << " (offset "
        << mismatch->first_offset << "): " << names.first << " 0x" << std::hex << cpu_bits << " " << names.second
        << " 0x" << gpu_bits;
    return out.str();
  }
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    if (cpu[i] != gpu[i]) {
      std::ostringstream out;
      out << "byte " << i << " outside the tensor's elements changed: it was 0x" << std::hex
          << static_cast<int>(before[i]) << ", " << names.first << " left 0x" << static_cast<int>(cpu[i]) << ", "
          << names.second << " wrote 0x" << static_cast<int>(gpu[i]);
      return out.str();
    }
  }
  return "no difference";
}

::testing::AssertionResult compare_with_cpu(VulkanBackend& gpu, const Operation& op, std::span<const std::byte> input,
                                            uint64_t seed, bool also_reference) {
  Rng rng(seed ^ 0x5EEDu);
  constexpr std::size_t kSlack = 12;  // bytes past the tensor that nobody may touch
  auto canary = [&](uint64_t bytes) {
    std::vector<std::byte> buffer(bytes + kSlack);
    for (std::byte& b : buffer) b = static_cast<std::byte>(rng.next());
    return buffer;
  };
  const std::vector<std::byte> out_before = canary(op.output().buffer_bytes());
  const std::vector<std::byte> idx_before =
      op.output_indices() ? canary(op.output_indices()->buffer_bytes()) : std::vector<std::byte>{};
  std::vector<std::byte> cpu_out = out_before, gpu_out = out_before;
  std::vector<std::byte> cpu_idx = idx_before, gpu_idx = idx_before;

  CpuReferenceBackend cpu;
  auto cpu_stats = cpu.run(op, input, cpu_out, cpu_idx);
  if (!cpu_stats) return ::testing::AssertionFailure() << "cpu failed: " << cpu_stats.error().to_string();
  auto gpu_stats = gpu.run(op, input, gpu_out, gpu_idx);
  if (!gpu_stats) return ::testing::AssertionFailure() << "vulkan failed: " << gpu_stats.error().to_string();
  if (cpu_out != gpu_out) {
    return ::testing::AssertionFailure() << "output: " << first_difference(op.output(), cpu_out, gpu_out, out_before);
  }
  if (cpu_idx != gpu_idx) {
    return ::testing::AssertionFailure() << "indices: "
                                         << first_difference(*op.output_indices(), cpu_idx, gpu_idx, idx_before);
  }
  if (!gpu_stats->gpu_milliseconds) return ::testing::AssertionFailure() << "no GPU time reported";
  if (also_reference) {
    // Same pre-filled buffers: gaps and slack must survive there too.
    std::vector<std::byte> ref_out = out_before, ref_idx = idx_before;
    const Status ref = reference::run(op, input, ref_out, ref_idx);
    if (!ref) return ::testing::AssertionFailure() << "reference failed: " << ref.error().to_string();
    if (ref_out != cpu_out) {
      return ::testing::AssertionFailure() << "cpu and gpu agree, the independent reference differs: output: "
                                           << first_difference(op.output(), ref_out, cpu_out, out_before,
                                                               {"reference", "cpu"});
    }
    if (ref_idx != cpu_idx) {
      return ::testing::AssertionFailure() << "cpu and gpu agree, the independent reference differs: indices: "
                                           << first_difference(*op.output_indices(), ref_idx, cpu_idx, idx_before,
                                                               {"reference", "cpu"});
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

::testing::AssertionResult matches_cpu(VulkanBackend& gpu, const Operation& op, std::span<const std::byte> input,
                                       uint64_t seed) {
  return compare_with_cpu(gpu, op, input, seed, false);
}

::testing::AssertionResult matches_cpu_and_reference(VulkanBackend& gpu, const Operation& op,
                                                     std::span<const std::byte> input, uint64_t seed) {
  return compare_with_cpu(gpu, op, input, seed, true);
}

namespace {

void expect_each_matches(VulkanBackend& gpu, const std::vector<OpRequest>& requests, uint64_t first_seed,
                         bool also_reference) {
  uint64_t seed = first_seed;
  for (const OpRequest& request : requests) {
    auto op = Operation::make(request);
    ASSERT_TRUE(op) << op.error().to_string();
    Rng rng(++seed);
    const std::vector<std::byte> input = random_input(op->input(), rng);
    EXPECT_TRUE(compare_with_cpu(gpu, *op, input, seed, also_reference)) << describe(*op);
  }
}

}  // namespace

void expect_each_matches_cpu_and_reference(VulkanBackend& gpu, const std::vector<OpRequest>& requests,
                                           uint64_t first_seed) {
  expect_each_matches(gpu, requests, first_seed, true);
}

gpu::DeviceLimits roomy_limits() {
  gpu::DeviceLimits limits;
  limits.max_storage_range = uint64_t{128} << 20;
  return limits;
}

std::optional<gpu::RunPlan> planned_compute(const OpRequest& request, const gpu::DeviceLimits& limits) {
  auto op = Operation::make(request);
  EXPECT_TRUE(op) << op.error().to_string();
  if (!op) return std::nullopt;
  auto plan = gpu::plan_run(*op, limits);
  EXPECT_TRUE(plan) << plan.error().to_string();
  if (!plan || !plan->compute) return std::nullopt;
  return std::move(*plan);
}

std::optional<gpu::ComputePass> planned_pass(const OpRequest& request, const gpu::DeviceLimits& limits) {
  auto plan = planned_compute(request, limits);
  if (!plan) return std::nullopt;
  return std::move(*plan->compute);
}

void expect_each_matches_in_store_build(VulkanBackend& gpu, const std::vector<OpRequest>& requests,
                                        uint64_t first_seed, bool pairs) {
  // The same inputs in both builds: the reference checks the CPU's bits once.
  expect_each_matches(gpu, requests, first_seed, !pairs);
}

void expect_each_matches_with_both_stores(VulkanBackend& gpu, VulkanBackend::TestingLimits limits,
                                          const std::vector<OpRequest>& requests, uint64_t first_seed) {
  for (bool pairs : {false, true}) {
    SCOPED_TRACE(pairs ? "64-bit pairs" : "whole quads");
    limits.store_pairs = pairs;
    gpu.set_testing_limits(limits);
    expect_each_matches_in_store_build(gpu, requests, first_seed, pairs);
  }
}

void expect_pairs_build_where_limits_say(const OpRequest& request, gpu::ShaderId shader) {
  gpu::DeviceLimits limits = roomy_limits();
  auto quads = planned_pass(request, limits);
  limits.store_pairs = true;
  auto pairs = planned_pass(request, limits);
  ASSERT_TRUE(quads && pairs);
  EXPECT_FALSE(quads->key.store_pairs);
  EXPECT_TRUE(pairs->key.store_pairs);
  EXPECT_EQ(pairs->key.shader, shader);
}

}  // namespace stridescope::test
