// MainWindow's File > New Window: more windows in one process, each with its
// own spec, undo history, backends and autosave, so two specs can be
// compared side by side.
#include "ui/widgets/main_window.h"

#include <QAction>
#include <QStatusBar>

#include "ui/autosave.h"
#include "ui/widgets/window_geometry.h"

namespace stridescope::ui {

void MainWindow::set_backend_maker(std::function<BackendSet()> maker) {
  backend_maker_ = std::move(maker);
  new_window_action_->setEnabled(static_cast<bool>(backend_maker_));
}

MainWindow* MainWindow::open_new_window() {
  if (!backend_maker_) return nullptr;
  // Windows opened this way are numbered for their autosave folders; the
  // first window keeps the app's own (the one offered back after a crash).
  static int opened = 1;
  auto* window = new MainWindow(backend_maker_());
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->set_backend_maker(backend_maker_);
  window->use_autosave_folder(Autosave::default_folder() + QStringLiteral("/window-%1").arg(++opened));
  window->set_backend(backend_);
  // Beside this one where the screen has room, else cascaded: never off it.
  window->resize(size());
  window->move(pos() + QPoint(frameGeometry().width() / 2, 40));
  keep_on_screen(window);
  window->show();
  return window;
}

void MainWindow::use_autosave_folder(const QString& folder) {
  delete autosave_;
  autosave_ = new Autosave(document_, folder, this);
  connect(autosave_, &Autosave::failed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 8000);
  });
}

}  // namespace stridescope::ui
