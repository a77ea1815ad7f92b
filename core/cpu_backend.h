// The reference CPU backend: a plain loop over output coordinates that follows
// core's index plans (index_plan.h). Simple on purpose; it is what faster
// backends are tested against.
#pragma once

#include "backend.h"

namespace stridescope {

class CpuReferenceBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpu-reference"; }
  std::string device_name() const override { return "CPU reference"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input,
                         std::span<std::byte> output, std::span<std::byte> indices) override;
};

}  // namespace stridescope
