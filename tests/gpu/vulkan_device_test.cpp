// Device choice, errors and reporting of the Vulkan backend (gpu/vulkan_backend.h,
// gpu/vk_context.h): discrete > integrated > virtual > CPU by default; an index
// or a case-insensitive name part picks one; a wrong choice or a missing
// loader is BackendUnavailable with a message that says why, never a crash.
#include <gtest/gtest.h>

#include <cstdlib>

#include "gpu/vk_context.h"
#include "gpu_test_support.h"

namespace stridescope::test {
namespace {

using gpu::choose_device;

std::vector<VulkanDeviceInfo> fake_devices() {
  return {{0, "llvmpipe (LLVM 15.0.6, 256 bits)", "cpu", 0, true},
          {1, "Intel(R) UHD Graphics 620", "integrated", 0, true},
          {2, "NVIDIA GeForce RTX 4090", "discrete", 0, true},
          {3, "Some Display Controller", "discrete", 0, false}};
}

TEST(ChooseDevice, PrefersDiscreteThenIntegratedThenCpu) {
  auto devices = fake_devices();
  EXPECT_EQ(choose_device(devices, std::nullopt).value(), 2u);
  devices.erase(devices.begin() + 2);
  EXPECT_EQ(choose_device(devices, std::nullopt).value(), 1u);
  devices.erase(devices.begin() + 1);
  EXPECT_EQ(choose_device(devices, std::nullopt).value(), 0u);
}

TEST(ChooseDevice, SkipsDevicesWithoutCompute) {
  std::vector<VulkanDeviceInfo> devices = {fake_devices()[3], fake_devices()[0]};
  EXPECT_EQ(choose_device(devices, std::nullopt).value(), 1u);
}

TEST(ChooseDevice, IndexPicksThatDevice) { EXPECT_EQ(choose_device(fake_devices(), "1").value(), 1u); }

TEST(ChooseDevice, NamePartPicksIgnoringCase) {
  EXPECT_EQ(choose_device(fake_devices(), "LLVMpipe").value(), 0u);
  EXPECT_EQ(choose_device(fake_devices(), "rtx").value(), 2u);
}

TEST(ChooseDevice, UnknownChoiceIsUnavailableAndListsTheDevices) {
  for (const char* request : {"7", "radeon", "99999999999999999999"}) {
    auto chosen = choose_device(fake_devices(), std::string(request));
    ASSERT_FALSE(chosen) << request;
    EXPECT_EQ(chosen.error().code, ErrorCode::BackendUnavailable);
    EXPECT_NE(chosen.error().message.find("NVIDIA GeForce RTX 4090"), std::string::npos) << chosen.error().message;
  }
}

TEST(ChooseDevice, DeviceWithoutComputeCannotBeChosen) {
  auto chosen = choose_device(fake_devices(), "3");
  ASSERT_FALSE(chosen);
  EXPECT_NE(chosen.error().message.find("no compute"), std::string::npos);
}

TEST(ChooseDevice, NoDeviceIsUnavailable) {
  auto chosen = choose_device({}, std::nullopt);
  ASSERT_FALSE(chosen);
  EXPECT_EQ(chosen.error().code, ErrorCode::BackendUnavailable);
}

TEST(VulkanLoader, MissingLoaderIsUnavailableWithAClearMessage) {
  auto backend = VulkanBackend::create(VulkanOptions{}, "libvulkan-that-does-not-exist.so.1");
  ASSERT_FALSE(backend);
  EXPECT_EQ(backend.error().code, ErrorCode::BackendUnavailable);
  EXPECT_NE(backend.error().message.find("no Vulkan loader"), std::string::npos) << backend.error().message;
}

class VulkanDevice : public VulkanTest {};

TEST_F(VulkanDevice, ReportsItsNameAndTheChosenDevice) {
  EXPECT_EQ(backend_->name(), "vulkan");
  auto devices = list_vulkan_devices();
  ASSERT_TRUE(devices);
  ASSERT_FALSE(devices->empty());
  bool listed = false;
  for (const VulkanDeviceInfo& d : *devices) listed = listed || d.name == backend_->device_name();
  EXPECT_TRUE(listed) << backend_->device_name();
  EXPECT_EQ(backend_->device_info().name, backend_->device_name());
}

TEST_F(VulkanDevice, DeviceCanBePickedByIndexAndByName) {
  VulkanOptions by_index;
  by_index.device = std::to_string(backend_->device_info().index);
  auto a = VulkanBackend::create(by_index);
  ASSERT_TRUE(a) << a.error().to_string();
  EXPECT_EQ((*a)->device_name(), backend_->device_name());
  VulkanOptions by_name;
  std::string part = backend_->device_name().substr(0, 5);
  for (char& c : part) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  by_name.device = part;
  auto b = VulkanBackend::create(by_name);
  ASSERT_TRUE(b) << b.error().to_string();
  EXPECT_EQ((*b)->device_name(), backend_->device_name());
}

TEST_F(VulkanDevice, UnknownDeviceNameIsUnavailableAndListsDevices) {
  VulkanOptions options;
  options.device = "no-such-gpu-anywhere";
  auto backend = make_vulkan_backend(options);
  ASSERT_FALSE(backend);
  EXPECT_EQ(backend.error().code, ErrorCode::BackendUnavailable);
  EXPECT_EQ(backend.error().path, "--device");  // asked for, not merely absent: compare exits 3 on it
  EXPECT_NE(backend.error().message.find(backend_->device_name()), std::string::npos) << backend.error().message;
}

TEST_F(VulkanDevice, EnvironmentVariableChoosesTheDevice) {
  ::setenv("STRIDESCOPE_VULKAN_DEVICE", "no-such-gpu-anywhere", 1);
  auto from_env = VulkanBackend::create(VulkanOptions{});
  VulkanOptions explicit_choice;
  explicit_choice.device = std::to_string(backend_->device_info().index);
  auto option_wins = VulkanBackend::create(explicit_choice);
  ::unsetenv("STRIDESCOPE_VULKAN_DEVICE");
  EXPECT_FALSE(from_env);
  EXPECT_TRUE(option_wins);
}

TEST_F(VulkanDevice, ForceStagingEnvironmentVariableTurnsStagingOn) {
  ::setenv("STRIDESCOPE_VULKAN_FORCE_STAGING", "1", 1);
  auto backend = VulkanBackend::create(VulkanOptions{});
  ::unsetenv("STRIDESCOPE_VULKAN_FORCE_STAGING");
  ASSERT_TRUE(backend) << backend.error().to_string();
  EXPECT_TRUE((*backend)->uses_staging());
}

TEST_F(VulkanDevice, RunReportsGpuTimeAndPerDispatchTimings) {
  OpRequest r;
  r.input = TensorRequest{DataType::UInt8, std::vector<uint64_t>{64, 64}, std::nullopt};
  r.params = SliceRequest{{0, 1}, {64, 31}, {1, 2}};
  auto op = Operation::make(r);
  ASSERT_TRUE(op);
  std::vector<std::byte> input(op->input().buffer_bytes());
  auto result = run_to_new_buffers(*backend_, *op, input);
  ASSERT_TRUE(result) << result.error().to_string();
  ASSERT_TRUE(result->stats.gpu_milliseconds);
  EXPECT_GT(*result->stats.gpu_milliseconds, 0.0);
  const std::vector<DispatchTiming> timings = backend_->last_timings();
  ASSERT_FALSE(timings.empty());
  EXPECT_NE(timings[0].label.find("gather"), std::string::npos) << timings[0].label;
}

TEST_F(VulkanDevice, TooSmallBuffersAreRefusedByField) {
  OpRequest r;
  r.input = TensorRequest{DataType::Float32, std::vector<uint64_t>{8}, std::nullopt};
  r.params = IdentityRequest{};
  auto op = Operation::make(r);
  ASSERT_TRUE(op);
  std::vector<std::byte> input(16);
  std::vector<std::byte> output(32);
  auto stats = backend_->run(*op, input, output, {});
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().path, "input");
}

TEST_F(VulkanDevice, CopyBufferYardstickIsTimed) {
  auto ms = backend_->time_copy_buffer(1 << 20);
  ASSERT_TRUE(ms) << ms.error().to_string();
  EXPECT_GT(*ms, 0.0);
}

}  // namespace
}  // namespace stridescope::test
