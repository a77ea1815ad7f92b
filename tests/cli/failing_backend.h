// A test double: a backend whose every run fails as a lost device would.
#pragma once

#include <string>
#include <utility>

#include "core/backend.h"

namespace stridescope::test {

class FailingBackend final : public Backend {
 public:
  explicit FailingBackend(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::string device_name() const override { return "test double"; }
  Expected<RunStats> run(const Operation&, std::span<const std::byte>, std::span<std::byte>,
                         std::span<std::byte>) override {
    return Error{ErrorCode::BackendFailure, "", "device lost"};
  }

 private:
  std::string name_;
};

}  // namespace stridescope::test
