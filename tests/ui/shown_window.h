// The app's main window as it opens (the slice1 example), shown at a
// desktop size and settled, for the suites that look at one part of it.
#pragma once

#include <QTest>

#include <memory>

#include "ui/backend_set.h"
#include "ui/widgets/main_window.h"

namespace stridescope::ui::testing {

// Null when the first evaluation did not arrive within 20 s.
inline std::unique_ptr<MainWindow> open_shown_window(BackendSet backends) {
  auto window = std::make_unique<MainWindow>(std::move(backends));
  window->resize(1400, 900);
  window->show();
  if (!QTest::qWaitFor([&] { return window->settled(); }, 20000)) return nullptr;
  return window;
}

}  // namespace stridescope::ui::testing
