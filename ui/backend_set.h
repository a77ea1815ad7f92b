// The backends the app can run on, made once at start-up by the entry point
// (app/gui_main.cpp asks app/backend_factory.h) and handed to the app. The UI
// sees only core/backend.h: it never includes a gpu/ header.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "core/backend.h"

namespace stridescope::ui {

// Makes a backend by its CLI name ("cpu", "vulkan").
using BackendFactory = std::function<Expected<std::unique_ptr<Backend>>(std::string_view name)>;

// What the UI shows about one backend.
struct BackendInfo {
  std::string name;    // "cpu", "vulkan"
  QString label;       // "CPU", "Vulkan (llvmpipe (LLVM 15.0.6, 256 bits))"
  bool available = false;
  QString unavailable_reason;  // the factory's error when not available
};

// "CPU" for the reference backend, otherwise "Name (device)".
QString backend_label(std::string_view name, const std::string& device_name);

// Owns the backends. Moved into the evaluation engine, whose worker thread is
// the only one that runs them.
class BackendSet {
 public:
  BackendSet() = default;
  BackendSet(BackendSet&&) noexcept = default;
  BackendSet& operator=(BackendSet&&) noexcept = default;

  // Calls `factory` for every name; a name that fails stays listed as unavailable.
  static BackendSet create(const std::vector<std::string>& names, const BackendFactory& factory);

  // Adds `backend` under `name`, or under the name it gives itself (a test
  // or a tool serves the reference backend as "cpu", as a build without the
  // fast CPU backend does).
  void add(std::unique_ptr<Backend> backend, std::optional<std::string> name = std::nullopt);

  const std::vector<BackendInfo>& infos() const { return infos_; }
  // nullptr when `name` is unknown or unavailable.
  Backend* find(std::string_view name) const;
  // Available backends in preference order (the CPU reference first).
  std::vector<Backend*> available() const;
  // The name and label `backend` is listed under (it must be one of this set's).
  const BackendInfo& info_of(const Backend& backend) const;

 private:
  std::vector<BackendInfo> infos_;
  std::vector<std::unique_ptr<Backend>> backends_;  // parallel to infos_, null when unavailable
};

}  // namespace stridescope::ui
