// Keeping a window on the screen: a geometry remembered from another monitor,
// a larger screen or a crash must not put the window where nobody can reach
// it, and one that lies off every screen is not remembered.
#pragma once

#include <QList>
#include <QRect>

class QWidget;

namespace stridescope::ui {

// `window` moved, and shrunk where it is larger, so that it lies inside
// `available` (a screen's available geometry). A window already inside is
// returned unchanged.
QRect fit_inside(const QRect& window, const QRect& available);

// Whether `window` can be reached on one of `screens`: its top left corner,
// where the title bar starts, lies on one (give or take a few pixels of
// frame, which a maximised window hangs past its screen on some systems).
bool lies_on_a_screen(const QRect& window, const QList<QRect>& screens);

// The available geometries of every screen the application has.
QList<QRect> available_screens();

// Moves and shrinks `window` (a top-level widget) into the available area of
// the screen its centre is on, or of the primary screen when it is on none.
void keep_on_screen(QWidget* window);

}  // namespace stridescope::ui
