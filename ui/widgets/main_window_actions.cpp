// MainWindow's actions, menus and toolbars. Each menu has its own action
// maker and menu filler, so a new command is one action here and one line in
// its menu.
#include "ui/widgets/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

#include "ui/evaluation_engine.h"
#include "ui/spec_document.h"
#include "ui/linked_selection.h"
#include "ui/spec_edits.h"
#include "ui/widgets/help_browser.h"
#include "ui/widgets/model_files.h"
#include "ui/widgets/result_compare.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

namespace stridescope::ui {
namespace {

QIcon standard_icon(QStyle::StandardPixmap pixmap, const QString& theme) {
  return QIcon::fromTheme(theme, QApplication::style()->standardIcon(pixmap));
}

// The desktop theme's icon where there is one, else ours (resources/icons).
QIcon themed_icon(const QString& theme, const QString& ours) {
  return QIcon::fromTheme(theme, QIcon(QStringLiteral(":/icons/%1.svg").arg(ours)));
}

}  // namespace

void MainWindow::create_actions() {
  create_file_actions();
  create_edit_actions();
  create_view_actions();
  create_run_actions();
  create_animation_actions();
}

void MainWindow::create_file_actions() {
  new_action_ = new QAction(standard_icon(QStyle::SP_FileIcon, QStringLiteral("document-new")), tr("&New"), this);
  new_action_->setShortcut(QKeySequence::New);
  new_action_->setStatusTip(tr("Start from the slice1 example"));
  connect(new_action_, &QAction::triggered, this, [this] {
    if (maybe_save()) document_->reset(default_spec(), std::nullopt);
  });

  new_window_action_ = new QAction(QIcon::fromTheme(QStringLiteral("window-new")), tr("New &Window"), this);
  new_window_action_->setObjectName(QStringLiteral("newWindowAction"));
  new_window_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
  new_window_action_->setStatusTip(tr("Open a second window with a spec of its own, to compare two side by side"));
  new_window_action_->setEnabled(false);  // until set_backend_maker
  connect(new_window_action_, &QAction::triggered, this, &MainWindow::open_new_window);

  open_action_ = new QAction(standard_icon(QStyle::SP_DialogOpenButton, QStringLiteral("document-open")),
                             tr("&Open\u2026"), this);
  open_action_->setShortcut(QKeySequence::Open);
  open_action_->setStatusTip(tr("Open a spec file or a DxDispatch model"));
  connect(open_action_, &QAction::triggered, this, &MainWindow::on_open);

  save_action_ = new QAction(standard_icon(QStyle::SP_DialogSaveButton, QStringLiteral("document-save")),
                             tr("&Save"), this);
  save_action_->setShortcut(QKeySequence::Save);
  save_action_->setStatusTip(tr("Save the spec (atomically)"));
  connect(save_action_, &QAction::triggered, this, &MainWindow::on_save);

  save_as_action_ = new QAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("Save &As\u2026"), this);
  save_as_action_->setShortcut(QKeySequence::SaveAs);
  connect(save_as_action_, &QAction::triggered, this, &MainWindow::on_save_as);

  // Figures drawn by the figure renderer (ui/figure), the same as
  // `stridescope-cli render` draws, rather than a grab of the widgets.
  export_figure_action_ = new QAction(tr("Export &Figure\u2026"), this);
  export_figure_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  export_figure_action_->setStatusTip(tr("Write the views as a PNG or SVG figure"));
  connect(export_figure_action_, &QAction::triggered, this, [this] { open_export_dialog(false); });
  export_animation_action_ = new QAction(tr("Export &Animation\u2026"), this);
  export_animation_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  export_animation_action_->setStatusTip(tr("Write an animated GIF that selects each output element in turn"));
  connect(export_animation_action_, &QAction::triggered, this, [this] { open_export_dialog(true); });

  quit_action_ = new QAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this);
  quit_action_->setShortcut(QKeySequence::Quit);
  connect(quit_action_, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::create_edit_actions() {
  undo_action_ = document_->undo_stack()->createUndoAction(this, tr("&Undo"));
  undo_action_->setIcon(themed_icon(QStringLiteral("edit-undo"), QStringLiteral("undo")));
  undo_action_->setShortcut(QKeySequence::Undo);
  redo_action_ = document_->undo_stack()->createRedoAction(this, tr("&Redo"));
  redo_action_->setIcon(themed_icon(QStringLiteral("edit-redo"), QStringLiteral("redo")));
  redo_action_->setShortcut(QKeySequence::Redo);
}

void MainWindow::create_view_actions() {
  zoom_in_action_ = new QAction(themed_icon(QStringLiteral("zoom-in"), QStringLiteral("zoom-in")), tr("Zoom &In"), this);
  zoom_in_action_->setShortcut(QKeySequence::ZoomIn);
  zoom_out_action_ = new QAction(themed_icon(QStringLiteral("zoom-out"), QStringLiteral("zoom-out")), tr("Zoom &Out"), this);
  zoom_out_action_->setShortcut(QKeySequence::ZoomOut);
  zoom_fit_action_ = new QAction(themed_icon(QStringLiteral("zoom-fit-best"), QStringLiteral("zoom-fit")), tr("&Fit to View"), this);
  zoom_fit_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  zoom_reset_action_ = new QAction(QIcon::fromTheme(QStringLiteral("zoom-original")), tr("&Actual Size"), this);
  zoom_reset_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
  // Each panel zooms on its own: the menu acts on the grid used last.
  connect(zoom_in_action_, &QAction::triggered, this, [this] { active_grid()->zoom_in(); });
  connect(zoom_out_action_, &QAction::triggered, this, [this] { active_grid()->zoom_out(); });
  connect(zoom_fit_action_, &QAction::triggered, this, [this] { active_grid()->zoom_to_fit(); });
  connect(zoom_reset_action_, &QAction::triggered, this, [this] { active_grid()->reset_zoom(); });

  memory_action_ = new QAction(tr("&Memory Strips"), this);
  memory_action_->setCheckable(true);
  memory_action_->setChecked(true);
  memory_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
  connect(memory_action_, &QAction::toggled, this, [this](bool on) {
    for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) {
      panel->splitter()->widget(1)->setVisible(on);
    }
  });

  palette_group_ = new QActionGroup(this);
  for (ValuePalette palette : {ValuePalette::Viridis, ValuePalette::Cividis}) {
    auto* action = new QAction(to_display_string(palette), palette_group_);
    action->setCheckable(true);
    action->setData(static_cast<int>(palette));
    action->setChecked(palette == palette_);
    connect(action, &QAction::triggered, this, [this, palette] { set_value_palette(palette); });
  }
}

void MainWindow::create_run_actions() {
  compare_action_ = new QAction(QIcon(QStringLiteral(":/icons/compare.svg")), tr("&Compare Backends"), this);
  compare_action_->setCheckable(true);
  compare_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
  compare_action_->setToolTip(tr("Run every available backend and show the elements where they differ"));
  connect(compare_action_, &QAction::toggled, this, &MainWindow::set_compare);

  backend_group_ = new QActionGroup(this);
  for (const BackendInfo& info : engine_->backends()) {
    auto* action = new QAction(info.label, backend_group_);
    action->setCheckable(true);
    action->setData(QString::fromStdString(info.name));
    action->setEnabled(info.available);
    action->setToolTip(info.available ? info.label : tr("Unavailable: %1").arg(info.unavailable_reason));
    action->setChecked(info.name == backend_.toStdString());
    connect(action, &QAction::triggered, this, [this, action] { set_backend(action->data().toString()); });
  }
}

void MainWindow::create_menus() {
  create_file_menu(menuBar()->addMenu(tr("&File")));
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undo_action_);
  edit->addAction(redo_action_);
  create_view_menu(menuBar()->addMenu(tr("&View")));
  QMenu* run = menuBar()->addMenu(tr("&Run"));
  QMenu* backends = run->addMenu(tr("&Backend"));
  backends->addActions(backend_group_->actions());
  run->addAction(compare_action_);
  run->addAction(result_compare_->next_action());
  run->addAction(result_compare_->previous_action());
  create_animation_menu(run);
  create_help_menu(menuBar()->addMenu(tr("&Help")));
}

void MainWindow::create_file_menu(QMenu* file) {
  file->addAction(new_action_);
  file->addAction(new_window_action_);
  file->addAction(open_action_);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  recent_menu_->setObjectName(QStringLiteral("recentMenu"));
  connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::rebuild_recent_menu);
  examples_menu_ = file->addMenu(tr("E&xamples"));
  examples_menu_->setObjectName(QStringLiteral("examplesMenu"));
  file->addSeparator();
  file->addAction(save_action_);
  file->addAction(save_as_action_);
  file->addAction(make_save_model_action(this));
  file->addSeparator();
  file->addAction(export_figure_action_);
  file->addAction(export_animation_action_);
  file->addSeparator();
  file->addAction(result_compare_->open_action());
  file->addAction(result_compare_->clear_action());
  file->addSeparator();
  file->addAction(quit_action_);
  rebuild_examples_menu();
  rebuild_recent_menu();
}

void MainWindow::create_view_menu(QMenu* view) {
  view->addAction(zoom_in_action_);
  view->addAction(zoom_out_action_);
  view->addAction(zoom_fit_action_);
  view->addAction(zoom_reset_action_);
  view->addSeparator();
  QMenu* colours = view->addMenu(tr("&Value Colours"));
  colours->addActions(palette_group_->actions());
  view->addAction(memory_action_);
  view->addSeparator();
  view->addAction(editor_dock_->toggleViewAction());
  view->addAction(explanation_dock_->toggleViewAction());
  view->addAction(code_dock_->toggleViewAction());
  view->addAction(compare_dock_->toggleViewAction());
  view->addAction(result_compare_->dock()->toggleViewAction());
}

void MainWindow::create_help_menu(QMenu* help) {
  for (const HelpBrowser::Page& page : HelpBrowser::pages()) {
    QAction* action = help->addAction(page.title, this, [this, file = page.file] { show_help(file); });
    action->setObjectName(QStringLiteral("help:") + page.file);
    if (page.file == QLatin1String("operators.md")) action->setShortcut(QKeySequence::HelpContents);
  }
  help->addSeparator();
  help->addAction(tr("&About StrideScope"), this, [this] {
    QMessageBox::about(this, tr("About StrideScope"),
                       tr("<h3>StrideScope %1</h3><p>See what DirectML's data-movement operators do to a "
                          "strided tensor, element by element.</p><p>Colours: viridis / cividis for values, "
                          "Okabe\u2013Ito for overlays, so they stay distinguishable with colour-blindness.</p>")
                           .arg(QApplication::applicationVersion()));
  });
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

HelpBrowser* MainWindow::show_help(const QString& file) {
  if (!help_) help_ = new HelpBrowser(this);
  help_->show_page(file);
  help_->show();
  help_->raise();
  return help_;
}

void MainWindow::create_toolbars() {
  QToolBar* file = addToolBar(tr("File"));
  file->setObjectName(QStringLiteral("fileToolBar"));
  file->addAction(new_action_);
  file->addAction(open_action_);
  file->addAction(save_action_);
  QToolBar* edit = addToolBar(tr("Edit"));
  edit->setObjectName(QStringLiteral("editToolBar"));
  edit->addAction(undo_action_);
  edit->addAction(redo_action_);
  create_run_toolbar();
  create_animation_toolbar();
  QToolBar* view = addToolBar(tr("View"));
  view->setObjectName(QStringLiteral("viewToolBar"));
  view->addAction(zoom_out_action_);
  view->addAction(zoom_in_action_);
  view->addAction(zoom_fit_action_);
}

// The backend picker, its entries disabled (with the reason) where a backend
// is unavailable.
void MainWindow::create_run_toolbar() {
  QToolBar* run = addToolBar(tr("Run"));
  run->setObjectName(QStringLiteral("runToolBar"));
  auto* backend_label = new QLabel(tr(" Backend "), run);
  backend_combo_ = new QComboBox(run);
  backend_combo_->setObjectName(QStringLiteral("backendCombo"));
  backend_combo_->setToolTip(tr("Where the operator runs"));
  backend_combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  for (const BackendInfo& info : engine_->backends()) {
    backend_combo_->addItem(info.available ? info.label : tr("%1 (unavailable)").arg(info.label),
                            QString::fromStdString(info.name));
    const int index = backend_combo_->count() - 1;
    if (!info.available) {
      backend_combo_->setItemData(index, 0, Qt::UserRole - 1);  // disabled
      backend_combo_->setItemData(index, info.unavailable_reason, Qt::ToolTipRole);
    }
  }
  connect(backend_combo_, &QComboBox::activated, this,
          [this](int index) { set_backend(backend_combo_->itemData(index).toString()); });
  backend_label->setBuddy(backend_combo_);
  run->addWidget(backend_label);
  run->addWidget(backend_combo_);
  run->addAction(compare_action_);
}

}  // namespace stridescope::ui
