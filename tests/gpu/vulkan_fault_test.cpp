// Faults lavapipe never has, injected at the Vulkan call boundary
// (gpu/vk_faults.h): a device lost in the middle of a run, device memory
// running out at an allocation, a wait that times out, no loader, no driver.
// Each must be a clear error (the CLI's exit 3 or 4, as the README says),
// never a crash or a hang; the CPU backends keep working in the same
// process; a new Vulkan backend can be made after a lost device.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "core/backend.h"
#include "core/cpu_backend.h"
#include "core/fast/cpu_fast_backend.h"
#include "core/io/spec_file.h"
#include "core/operation.h"
#include "gpu/vk_faults.h"
#include "gpu/vulkan_backend.h"
#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using gpu::ScopedVulkanFaults;
using gpu::VulkanFault;

// The DirectML page's second SLICE1 example (negative strides): small, and a
// gather with index tables, so a run allocates, maps, records and submits.
constexpr const char* kSpec = R"({
  "op": "slice1",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,4], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,2,2] },
  "params": { "inputWindowOffsets": [0,0,0,1], "inputWindowSizes": [1,1,4,3],
              "inputWindowStrides": [1,1,-2,2] }
})";
// Rows 3 and 1 of iota(16), columns 1 and 3, by hand: [14,16,6,8].
const std::vector<float> kExpected = {14, 16, 6, 8};

struct FaultCase {
  Operation op;
  std::vector<std::byte> input;
};

FaultCase make_case() {
  Expected<Spec> spec = parse_spec(kSpec, "");
  EXPECT_TRUE(spec.has_value());
  Expected<Operation> op = Operation::make(spec->request);
  EXPECT_TRUE(op.has_value());
  Expected<std::vector<std::byte>> input = make_input_buffer(*spec, op->input());
  EXPECT_TRUE(input.has_value());
  return {*op, *input};
}

std::vector<float> output_of(const RunResult& result) { return values_of<float>(result.output, 4); }

// Validation off for every backend in a scope: the wrappers hold one driver
// function per entry point (vk_faults.h).
std::unique_ptr<VulkanBackend> make_vulkan() {
  auto made = VulkanBackend::create(VulkanOptions{});
  EXPECT_TRUE(made.has_value()) << made.error().to_string();
  return made ? std::move(*made) : nullptr;
}

void expect_cpu_backends_work(const FaultCase& c) {
  CpuReferenceBackend reference;
  CpuFastBackend fast;
  for (Backend* backend : std::vector<Backend*>{&reference, &fast}) {
    Expected<RunResult> result = run_to_new_buffers(*backend, c.op, c.input);
    ASSERT_TRUE(result.has_value()) << result.error().to_string();
    EXPECT_EQ(output_of(*result), kExpected) << backend->device_name();
  }
}

int run_cli_with(const std::vector<std::string>& args, std::string* err_text) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = cli::run_cli(args, out, err, cli::default_environment());
  *err_text = err.str();
  return code;
}

class VulkanFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (device_exists(&why)) return;
    if (vulkan_required()) FAIL() << "STRIDESCOPE_REQUIRE_VULKAN=1 but no Vulkan device: " << why;
    GTEST_SKIP() << "no Vulkan device: " << why;
  }
  static bool device_exists(std::string* why) {
    auto devices = list_vulkan_devices();
    if (!devices) *why = devices.error().to_string();
    else if (devices->empty()) *why = "the Vulkan loader reports no device";
    return devices && !devices->empty();
  }

  FaultCase case_ = make_case();
};

TEST_F(VulkanFaultTest, DeviceLostAtSubmitIsAnErrorThenRefusesUntilANewBackendIsMade) {
  ScopedVulkanFaults faults;
  std::unique_ptr<VulkanBackend> backend = make_vulkan();
  ASSERT_NE(backend, nullptr);
  Expected<RunResult> before = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_TRUE(before.has_value()) << before.error().to_string();
  EXPECT_EQ(output_of(*before), kExpected);

  faults.inject({"vkQueueSubmit", VK_ERROR_DEVICE_LOST, 0, 1});
  Expected<RunResult> lost = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().code, ErrorCode::BackendFailure);
  EXPECT_EQ(lost.error().to_string(), "the Vulkan device was lost while submitting work (VK_ERROR_DEVICE_LOST)");

  // The fault is spent, but a lost device stays lost: no run pretends otherwise.
  Expected<RunResult> after = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(after.has_value());
  EXPECT_EQ(after.error().code, ErrorCode::BackendFailure);
  EXPECT_NE(after.error().message.find("lost earlier; create a new backend"), std::string::npos)
      << after.error().message;

  expect_cpu_backends_work(case_);
  backend.reset();
  std::unique_ptr<VulkanBackend> again = make_vulkan();
  ASSERT_NE(again, nullptr);
  Expected<RunResult> recovered = run_to_new_buffers(*again, case_.op, case_.input);
  ASSERT_TRUE(recovered.has_value()) << recovered.error().to_string();
  EXPECT_EQ(output_of(*recovered), kExpected);
}

TEST_F(VulkanFaultTest, DeviceLostWhileWaitingForTheWorkIsAnError) {
  ScopedVulkanFaults faults;
  std::unique_ptr<VulkanBackend> backend = make_vulkan();
  ASSERT_NE(backend, nullptr);
  // The first run succeeds; the second run's wait finds the device lost.
  faults.inject({"vkWaitForFences", VK_ERROR_DEVICE_LOST, faults.calls("vkWaitForFences") + 1, 1});
  ASSERT_TRUE(run_to_new_buffers(*backend, case_.op, case_.input).has_value());
  Expected<RunResult> lost = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().to_string(),
            "the Vulkan device was lost while waiting for the device (VK_ERROR_DEVICE_LOST)");
  EXPECT_FALSE(run_to_new_buffers(*backend, case_.op, case_.input).has_value());
  expect_cpu_backends_work(case_);
}

TEST_F(VulkanFaultTest, AWaitThatTimesOutIsAnErrorNotAHang) {
  ScopedVulkanFaults faults;
  std::unique_ptr<VulkanBackend> backend = make_vulkan();
  ASSERT_NE(backend, nullptr);
  faults.inject({"vkWaitForFences", VK_TIMEOUT, 0, 1});
  Expected<RunResult> timed_out = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(timed_out.has_value());
  EXPECT_EQ(timed_out.error().code, ErrorCode::BackendFailure);
  EXPECT_EQ(timed_out.error().to_string(), "the device timed out while waiting for the device (VK_TIMEOUT)");
  // The device may still be running the work: the backend refuses more.
  EXPECT_FALSE(run_to_new_buffers(*backend, case_.op, case_.input).has_value());
}

// A wait may fail with more than a lost device (out of memory, say); the
// work may still be running, so reusing its buffers would race the device.
TEST_F(VulkanFaultTest, AnyFailedWaitRefusesLaterRunsInsteadOfReusingBusyBuffers) {
  ScopedVulkanFaults faults;
  std::unique_ptr<VulkanBackend> backend = make_vulkan();
  ASSERT_NE(backend, nullptr);
  faults.inject({"vkWaitForFences", VK_ERROR_OUT_OF_DEVICE_MEMORY, 0, 1});
  Expected<RunResult> failed = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error().to_string(),
            "out of device memory while waiting for the device (VK_ERROR_OUT_OF_DEVICE_MEMORY)");
  Expected<RunResult> after = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(after.has_value());
  EXPECT_NE(after.error().message.find("create a new backend"), std::string::npos) << after.error().message;
  expect_cpu_backends_work(case_);
}

TEST_F(VulkanFaultTest, OutOfDeviceMemoryAtAnAllocationIsAnErrorAndTheBackendGoesOn) {
  ScopedVulkanFaults faults;
  std::unique_ptr<VulkanBackend> backend = make_vulkan();
  ASSERT_NE(backend, nullptr);
  faults.inject({"vkAllocateMemory", VK_ERROR_OUT_OF_DEVICE_MEMORY, 0, 1});
  Expected<RunResult> refused = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::BackendFailure);
  EXPECT_EQ(refused.error().message.rfind("out of device memory while allocating ", 0), 0u)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("(VK_ERROR_OUT_OF_DEVICE_MEMORY)"), std::string::npos);
  // Memory running out is not a lost device: the next run, with memory, works.
  Expected<RunResult> next = run_to_new_buffers(*backend, case_.op, case_.input);
  ASSERT_TRUE(next.has_value()) << next.error().to_string();
  EXPECT_EQ(output_of(*next), kExpected);
  expect_cpu_backends_work(case_);
}

// Every call that can fail, failing once at its first use, while a backend
// is made and runs twice: each is an error or a correct result, never a crash.
TEST_F(VulkanFaultTest, EveryFailableCallFailingOnceGivesAnErrorOrTheRightResult) {
  std::vector<std::string> functions;
  {
    ScopedVulkanFaults counting;
    std::unique_ptr<VulkanBackend> backend = make_vulkan();
    ASSERT_NE(backend, nullptr);
    ASSERT_TRUE(run_to_new_buffers(*backend, case_.op, case_.input).has_value());
    for (const char* name : {"vkCreateInstance", "vkEnumeratePhysicalDevices", "vkCreateDevice", "vkCreateBuffer",
                             "vkAllocateMemory", "vkBindBufferMemory", "vkMapMemory", "vkCreateShaderModule",
                             "vkCreateDescriptorSetLayout", "vkCreatePipelineLayout", "vkCreateComputePipelines",
                             "vkCreateDescriptorPool", "vkAllocateDescriptorSets", "vkCreateCommandPool",
                             "vkAllocateCommandBuffers", "vkResetCommandPool", "vkBeginCommandBuffer",
                             "vkEndCommandBuffer", "vkCreateFence", "vkResetFences", "vkQueueSubmit",
                             "vkWaitForFences", "vkFlushMappedMemoryRanges", "vkInvalidateMappedMemoryRanges",
                             "vkCreateQueryPool", "vkGetQueryPoolResults", "vkResetDescriptorPool",
                             "vkCreateBufferView"}) {
      if (counting.calls(name) > 0) functions.emplace_back(name);
    }
  }
  ASSERT_GE(functions.size(), 10u);
  for (const std::string& function : functions) {
    for (VkResult result : {VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_ERROR_DEVICE_LOST}) {
      SCOPED_TRACE(function + " " + std::string(result == VK_ERROR_DEVICE_LOST ? "device lost" : "out of memory"));
      ScopedVulkanFaults faults;
      faults.inject({function, result, 0, 1});
      auto made = VulkanBackend::create(VulkanOptions{});
      if (!made) {
        EXPECT_NE(made.error().message.find("VK_ERROR"), std::string::npos) << made.error().message;
        continue;
      }
      for (int run = 0; run < 2; ++run) {
        Expected<RunResult> result_of_run = run_to_new_buffers(**made, case_.op, case_.input);
        if (result_of_run) {
          EXPECT_EQ(output_of(*result_of_run), kExpected);
        } else {
          EXPECT_EQ(result_of_run.error().code, ErrorCode::BackendFailure) << result_of_run.error().message;
        }
      }
    }
  }
  expect_cpu_backends_work(case_);
}

// A discrete GPU stages every transfer through host memory, so each buffer
// is a device buffer and a staging buffer. Failing any one step of making
// them (the k-th call of each, not only the first) must leave no half-made
// buffer that a later run writes through: on an NVIDIA H200 the first failed
// vkMapMemory of a staging buffer made the next run crash.
TEST_F(VulkanFaultTest, AnyBufferStepFailingWhileStagingLeavesNoHalfMadeBufferForTheNextRun) {
  VulkanOptions staged;
  staged.force_staging = true;
  const std::vector<std::string> steps = {"vkCreateBuffer", "vkAllocateMemory", "vkBindBufferMemory", "vkMapMemory"};
  std::vector<uint64_t> calls;
  {
    ScopedVulkanFaults counting;
    auto backend = VulkanBackend::create(staged);
    ASSERT_TRUE(backend.has_value()) << backend.error().to_string();
    ASSERT_TRUE(run_to_new_buffers(**backend, case_.op, case_.input).has_value());
    for (const std::string& step : steps) calls.push_back(counting.calls(step));
  }
  for (size_t i = 0; i < steps.size(); ++i) {
    ASSERT_GT(calls[i], 1u) << steps[i];
    for (uint64_t k = 0; k < calls[i]; ++k) {
      SCOPED_TRACE(steps[i] + " call " + std::to_string(k));
      ScopedVulkanFaults faults;
      faults.inject({steps[i], VK_ERROR_OUT_OF_DEVICE_MEMORY, k, 1});
      auto made = VulkanBackend::create(staged);
      if (!made) continue;
      for (int run = 0; run < 2; ++run) {
        Expected<RunResult> result = run_to_new_buffers(**made, case_.op, case_.input);
        if (result) EXPECT_EQ(output_of(*result), kExpected);
        else EXPECT_EQ(result.error().code, ErrorCode::BackendFailure) << result.error().message;
      }
      // Memory is back: the same backend must now give the right result.
      Expected<RunResult> after = run_to_new_buffers(**made, case_.op, case_.input);
      ASSERT_TRUE(after.has_value()) << after.error().to_string();
      EXPECT_EQ(output_of(*after), kExpected);
    }
  }
}

TEST_F(VulkanFaultTest, NoLoaderIsBackendUnavailable) {
  ScopedVulkanFaults faults;
  faults.set_missing_loader(true);
  auto made = VulkanBackend::create(VulkanOptions{});
  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().code, ErrorCode::BackendUnavailable);
  EXPECT_EQ(made.error().message.rfind("no Vulkan loader: cannot open libvulkan.so.1", 0), 0u)
      << made.error().message;
  expect_cpu_backends_work(case_);
}

TEST_F(VulkanFaultTest, NoDriverIsBackendUnavailable) {
  ScopedVulkanFaults faults;
  faults.inject({"vkCreateInstance", VK_ERROR_INCOMPATIBLE_DRIVER});
  auto made = VulkanBackend::create(VulkanOptions{});
  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().code, ErrorCode::BackendUnavailable);
  EXPECT_EQ(made.error().message.rfind("no usable Vulkan driver while creating the Vulkan instance", 0), 0u)
      << made.error().message;
  expect_cpu_backends_work(case_);
}

// The CLI, in this process, with the real backends: exit 3 for no loader or
// no driver, 4 for a device lost during the run (README, "exit codes"), one
// line on stderr; the CPU backend answers in the same process afterwards.
TEST_F(VulkanFaultTest, CliExitsThreeWithoutLoaderOrDriverAndFourWhenTheDeviceIsLost) {
  const std::string spec = std::string(STRIDESCOPE_FAULT_TEST_EXAMPLES_DIR) + "/slice1_example2_negative_strides.json";
  const std::vector<std::string> on_vulkan = {"run", spec, "--backend", "vulkan"};
  std::string err;
  {
    ScopedVulkanFaults faults;
    faults.set_missing_loader(true);
    EXPECT_EQ(run_cli_with(on_vulkan, &err), cli::kExitUnavailable);
    EXPECT_EQ(err.rfind("error: no Vulkan loader", 0), 0u) << err;
  }
  {
    ScopedVulkanFaults faults;
    faults.inject({"vkCreateInstance", VK_ERROR_INCOMPATIBLE_DRIVER});
    EXPECT_EQ(run_cli_with(on_vulkan, &err), cli::kExitUnavailable);
    EXPECT_EQ(err.rfind("error: no usable Vulkan driver", 0), 0u) << err;
  }
  {
    ScopedVulkanFaults faults;
    faults.inject({"vkQueueSubmit", VK_ERROR_DEVICE_LOST});
    EXPECT_EQ(run_cli_with(on_vulkan, &err), cli::kExitBackendFailure);
    EXPECT_EQ(err, "error: the Vulkan device was lost while submitting work (VK_ERROR_DEVICE_LOST)\n");
    EXPECT_EQ(run_cli_with({"run", spec, "--backend", "cpu"}, &err), cli::kExitOk) << err;
  }
  EXPECT_EQ(run_cli_with(on_vulkan, &err), cli::kExitOk) << err;
}

}  // namespace
}  // namespace stridescope::test
