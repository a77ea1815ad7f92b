// Renders the main window to PNG files: one per example spec (with a
// representative output element selected, so its overlays show), plus an
// invalid edit, a layout, and a 1x3x1024x1024 tensor zoomed out to a heat map.
// What `stridescope --screenshot DIR` runs.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>

#include "core/error.h"

namespace stridescope::ui {

class MainWindow;

// Processes events until the window shows the newest evaluation; false on timeout.
bool wait_until_settled(MainWindow& window, int timeout_ms = 20000);

// Selects a representative output element of the shown evaluation:
// the first element for padding and pooling (where padding shows), else the last row's first element.
void select_representative_element(MainWindow& window);

struct ScreenshotOptions {
  QString directory;
  QStringList specs;   // spec files; the examples when empty
  QSize size{1680, 1020};
  // The scenario shots after the specs': hovering an input, the animation,
  // all planes, comparing with a result and between backends, an invalid
  // edit and a large tensor.
  bool extras = true;
};

// Writes the PNGs; `written` receives their paths.
Status write_screenshots(MainWindow& window, const ScreenshotOptions& options, QStringList* written);

}  // namespace stridescope::ui
