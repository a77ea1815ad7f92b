// MainWindow's files: open (specs, and DxDispatch models through
// model_files.h), save (never over a bundled example or a model, never losing
// the document when the disk refuses), export, recent files, examples, the
// window's remembered layout, and recovering an autosave after an unclean exit.
#include "ui/widgets/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include "ui/autosave.h"
#include "ui/examples.h"
#include "ui/file_path.h"
#include "ui/linked_selection.h"
#include "ui/spec_document.h"
#include "ui/widgets/export_figure_dialog.h"
#include "ui/widgets/model_files.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_panel.h"
#include "ui/widgets/window_geometry.h"

namespace stridescope::ui {
namespace {

constexpr int kMaxRecentFiles = 8;
const QString kRecentKey = QStringLiteral("recentFiles");

QString message_of(const Error& error) { return QString::fromStdString(error.to_string()); }

}  // namespace

Status MainWindow::open_file(const QString& path) {
  // A DxDispatch model opens one of its dispatches (model_files.h).
  Status status = is_model_file(path) ? open_model(*document_, path, unattended_ ? nullptr : this) : document_->open(to_path(path));
  if (status && document_->file() == to_path(path)) add_recent(QFileInfo(path).absoluteFilePath());
  return status;
}

Status MainWindow::save_file(const QString& path) {
  if (is_bundled_example(path)) {
    return Error{ErrorCode::Io, path.toStdString(),
                 "is a bundled example, which StrideScope never overwrites; save a copy elsewhere (Save As)"};
  }
  if (is_model_file(path)) {
    return Error{ErrorCode::Io, path.toStdString(),
                 "is a DxDispatch model, which Save never replaces with a spec; save the spec elsewhere (Save As), "
                 "or use Save As DxDispatch Model"};
  }
  Status status = document_->save(to_path(path));
  if (status) add_recent(QFileInfo(path).absoluteFilePath());
  return status;
}

bool MainWindow::save_needs_new_file() const {
  if (!document_->file()) return true;
  const QString file = QString::fromStdString(document_->file()->string());
  return is_bundled_example(file) || is_model_file(file);
}

bool MainWindow::maybe_save() {
  if (!document_->modified()) return true;
  const auto answer = QMessageBox::warning(this, tr("StrideScope"),
                                           tr("%1 has unsaved changes. Save them?").arg(document_->display_name()),
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
  if (answer == QMessageBox::Save) return on_save();
  return answer == QMessageBox::Discard;
}

void MainWindow::open_interactively(const QString& path) {
  if (!maybe_save()) return;
  const Status status = open_file(path);
  if (!status) {
    QMessageBox::warning(this, tr("Open spec"), tr("Could not open %1:\n%2").arg(path, message_of(status.error())));
  }
}

void MainWindow::on_open() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open spec"), settings.value("lastDirectory").toString(),
                                                    tr("Specs and DxDispatch models (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue("lastDirectory", QFileInfo(path).absolutePath());
  open_interactively(path);
}

bool MainWindow::on_save() {
  // A new document has no file yet; an example's file is not the person's.
  if (save_needs_new_file()) return on_save_as();
  return save_and_report(QString::fromStdString(document_->file()->string()));
}

bool MainWindow::on_save_as() {
  QSettings settings;
  QString path = QFileDialog::getSaveFileName(this, tr("Save spec"), settings.value("lastDirectory").toString(),
                                              tr("Spec files (*.json)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  settings.setValue("lastDirectory", QFileInfo(path).absolutePath());
  return save_and_report(path);
}

// A refused save (read-only folder, full disk, an example) changes nothing:
// the spec stays open and marked unsaved, the file on disk stays as it was,
// and the autosave keeps its copy. The person is told why and what to do.
bool MainWindow::save_and_report(const QString& path) {
  const Status status = save_file(path);
  if (status) return true;
  statusBar()->showMessage(tr("Not saved: %1").arg(message_of(status.error())));
  QMessageBox::warning(this, tr("Save spec"),
                       tr("Could not save %1:\n%2\n\nNothing is lost: the spec stays open with its unsaved changes. "
                          "Use Save As to choose another file or folder.")
                           .arg(QFileInfo(path).fileName(), message_of(status.error())));
  return false;
}

// File > Export Figure... and Export Animation...: one dialog, the latter
// with its Animate (GIF) option on.
void MainWindow::open_export_dialog(bool animate) {
  ExportFigureDialog dialog(shown_evaluation(), selection_->selected_output(), this);
  dialog.set_animate(animate);
  dialog.exec();
}

void MainWindow::on_npy_requested() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(this, tr("Input values from a .npy file"),
                                                    settings.value("lastDirectory").toString(),
                                                    tr("NumPy arrays (*.npy)"));
  editor_->set_npy_file(path);
}

bool MainWindow::recover_autosave() {
  auto pending = autosave_->pending();
  if (!pending || !*pending) return false;
  Autosave::Recovered recovered = std::move(pending->value());
  document_->restore(std::move(recovered.spec), std::move(recovered.file));
  (void)autosave_->write_now();  // the copy is this session's now, kept current from here
  statusBar()->showMessage(tr("Recovered the unsaved changes of the last session"), 8000);
  return true;
}

void MainWindow::offer_recovery() {
  const auto pending = autosave_->pending();
  if (!pending) return;
  if (!*pending) {
    QMessageBox::warning(this, tr("Recover unsaved spec"),
                         tr("StrideScope did not close cleanly last time, and its autosaved spec cannot be read:\n%1")
                             .arg(message_of(pending->error())));
    return;  // left in place: the person may want to look at the file
  }
  const QString name = (*pending)->file ? QString::fromStdString((*pending)->file->filename().string()) : tr("Untitled");
  const auto answer = QMessageBox::question(
      this, tr("Recover unsaved spec"),
      tr("StrideScope did not close cleanly last time. Recover the unsaved changes to %1?").arg(name),
      QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
  if (answer == QMessageBox::Yes) {
    recover_autosave();
  } else {
    autosave_->discard();
  }
}

void MainWindow::add_recent(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(kRecentKey).toStringList();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings.setValue(kRecentKey, files);
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList files = QSettings().value(kRecentKey).toStringList();
  int number = 1;
  for (const QString& file : files) {
    QAction* action = recent_menu_->addAction(QStringLiteral("&%1 %2").arg(number++).arg(QFileInfo(file).fileName()));
    action->setToolTip(file);
    action->setStatusTip(file);
    connect(action, &QAction::triggered, this, [this, file] { open_interactively(file); });
  }
  if (files.isEmpty()) recent_menu_->addAction(tr("(none)"))->setEnabled(false);
  recent_menu_->addSeparator();
  recent_menu_->addAction(tr("&Clear List"), this, [] { QSettings().remove(kRecentKey); });
}

void MainWindow::rebuild_examples_menu() {
  examples_menu_->clear();
  const QList<Example> examples = list_examples();
  for (const Example& example : examples) {
    QAction* action = examples_menu_->addAction(example.title);
    action->setToolTip(example.description.isEmpty() ? example.path : example.description);
    action->setStatusTip(example.description.isEmpty() ? example.path : example.description);
    const QString path = example.path;
    connect(action, &QAction::triggered, this, [this, path] { open_interactively(path); });
  }
  if (examples.isEmpty()) examples_menu_->addAction(tr("(no examples found)"))->setEnabled(false);
}

void MainWindow::restore_settings() {
  QSettings settings;
  if (!restoreGeometry(settings.value("window/geometry").toByteArray())) {
    // 1500x900, or what the screen has room for (a 1366x768 laptop).
    const QSize room = screen() ? screen()->availableGeometry().size() * 0.95 : QSize(1500, 900);
    resize(std::min(1500, room.width()), std::min(900, room.height()));
  }
  keep_on_screen(this);  // saved on a larger or a detached monitor
  restoreState(settings.value("window/state").toByteArray());
  panels_splitter_->restoreState(settings.value("window/panels").toByteArray());
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) {
    panel->splitter()->restoreState(settings.value("window/" + panel->objectName()).toByteArray());
  }
  const int palette = settings.value("view/palette", static_cast<int>(ValuePalette::Viridis)).toInt();
  set_value_palette(palette == static_cast<int>(ValuePalette::Cividis) ? ValuePalette::Cividis : ValuePalette::Viridis);
  memory_action_->setChecked(settings.value("view/memory", true).toBool());
}

void MainWindow::save_settings() {
  QSettings settings;
  // A window left off every screen is not remembered: the next start uses the default size.
  if (isMaximized() || isFullScreen() || lies_on_a_screen(frameGeometry(), available_screens())) {
    settings.setValue("window/geometry", saveGeometry());
  } else {
    settings.remove("window/geometry");
  }
  settings.setValue("window/state", saveState());
  settings.setValue("window/panels", panels_splitter_->saveState());
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) {
    settings.setValue("window/" + panel->objectName(), panel->splitter()->saveState());
  }
  settings.setValue("view/palette", static_cast<int>(palette_));
  settings.setValue("view/memory", memory_action_->isChecked());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybe_save()) {
    event->ignore();
    return;
  }
  save_settings();
  autosave_->discard();  // a clean exit: nothing to offer back next time
  event->accept();
}

}  // namespace stridescope::ui
