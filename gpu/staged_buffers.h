// The backend's tensor buffers, grown on demand and kept between runs, and
// the host's way into them: device memory mapped directly where it is
// host-visible, else (the staging path, and always on discrete GPUs) a
// host-visible twin that the recorded commands copy to and from.
#pragma once

#include <cstddef>
#include <span>

#include "core/error.h"
#include "gpu/vk_buffer.h"
#include "gpu/vk_context.h"

namespace stridescope::gpu {

// A tensor's device buffer and, on the staging path, its host-side twin.
struct Slot {
  Buffer device;
  Buffer staging;
};

class StagedBuffers {
 public:
  StagedBuffers(const Context& context, bool staging) : context_(context), staging_(staging) {}

  bool staging() const { return staging_; }

  // Makes `slot` hold at least `bytes` (grows only, in whole MiB); `what`
  // names the buffer in errors.
  Status ensure(Slot& slot, VkDeviceSize bytes, const char* what) const;
  // Host-visible memory standing for the slot's device buffer.
  const Buffer& host_side(const Slot& slot) const { return staging_ ? slot.staging : slot.device; }
  // Host bytes into the host side (then, on the staging path, a recorded copy).
  Status write(const Slot& slot, std::span<const std::byte> bytes) const;
  // The host side's bytes out, after the device's writes reached it.
  Status read(const Slot& slot, std::span<std::byte> bytes) const;

  Slot input, output, indices, meta;
  Slot copy_source, copy_target;  // VulkanBackend::time_copy_buffer's

 private:
  const Context& context_;
  bool staging_;
};

}  // namespace stridescope::gpu
