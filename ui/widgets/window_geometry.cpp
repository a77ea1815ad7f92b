#include "ui/widgets/window_geometry.h"

#include <algorithm>

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace stridescope::ui {
namespace {

constexpr int kFrameSlack = 16;

}  // namespace

QRect fit_inside(const QRect& window, const QRect& available) {
  if (available.isEmpty()) return window;
  QRect fitted = window;
  fitted.setWidth(std::min(window.width(), available.width()));
  fitted.setHeight(std::min(window.height(), available.height()));
  const int left = std::clamp(fitted.left(), available.left(), available.right() - fitted.width() + 1);
  const int top = std::clamp(fitted.top(), available.top(), available.bottom() - fitted.height() + 1);
  fitted.moveTopLeft({left, top});
  return fitted;
}

bool lies_on_a_screen(const QRect& window, const QList<QRect>& screens) {
  return std::any_of(screens.begin(), screens.end(), [&](const QRect& screen) {
    const QRect corner(window.topLeft(), QSize(std::min(window.width(), 100), std::min(window.height(), 30)));
    return screen.adjusted(-kFrameSlack, -kFrameSlack, kFrameSlack, kFrameSlack).contains(corner);
  });
}

QList<QRect> available_screens() {
  QList<QRect> screens;
  for (const QScreen* screen : QGuiApplication::screens()) screens << screen->availableGeometry();
  return screens;
}

void keep_on_screen(QWidget* window) {
  if (window->isMaximized() || window->isFullScreen()) return;
  const QScreen* screen = QGuiApplication::screenAt(window->frameGeometry().center());
  if (!screen) screen = QGuiApplication::primaryScreen();
  if (!screen) return;
  const QRect frame = window->frameGeometry();
  const QRect fitted = fit_inside(frame, screen->availableGeometry());
  if (fitted == frame) return;
  // The frame (title bar, borders) is outside the client area that resize()
  // and move() set: keep its margins.
  const QSize margins = frame.size() - window->geometry().size();
  window->resize(fitted.size() - margins);
  window->move(fitted.topLeft());
}

}  // namespace stridescope::ui
