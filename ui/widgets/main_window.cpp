#include "ui/widgets/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QScrollArea>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QSvgGenerator>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

#include "ui/diff_model.h"
#include "ui/evaluation_engine.h"
#include "ui/examples.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/export_figure_dialog.h"
#include "ui/widgets/legend_bar.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

namespace stridescope::ui {
namespace {

constexpr int kMaxRecentFiles = 8;
const QString kRecentKey = QStringLiteral("recentFiles");

std::filesystem::path to_path(const QString& path) { return std::filesystem::path(path.toStdString()); }

QString message_of(const Error& error) { return QString::fromStdString(error.to_string()); }

QIcon standard_icon(QStyle::StandardPixmap pixmap, const QString& theme) {
  return QIcon::fromTheme(theme, QApplication::style()->standardIcon(pixmap));
}

// The desktop theme's icon where there is one, else ours (resources/icons).
QIcon themed_icon(const QString& theme, const QString& ours) {
  return QIcon::fromTheme(theme, QIcon(QStringLiteral(":/icons/%1.svg").arg(ours)));
}

}  // namespace

MainWindow::MainWindow(BackendSet backends, QWidget* parent)
    : QMainWindow(parent), document_(new SpecDocument(default_spec(), this)),
      engine_(new EvaluationEngine(std::move(backends), this)) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/stridescope.svg")));
  create_models();
  create_central();
  create_docks();
  create_actions();
  create_menus();
  create_toolbars();
  connect_views();

  connect(engine_, &EvaluationEngine::evaluated, this, &MainWindow::on_evaluated);
  connect(document_, &SpecDocument::replaced, this, [this] {
    document_first_serial_ = engine_->last_submitted() + 1;  // specChanged submits it next
    selection_->select_output(std::nullopt);
    select_first_output_ = true;
  });
  connect(document_, &SpecDocument::specChanged, this, &MainWindow::submit);
  connect(document_, &SpecDocument::fileChanged, this, &MainWindow::update_title);
  connect(document_, &SpecDocument::modifiedChanged, this, &MainWindow::update_title);

  rule_label_ = new QLabel(this);
  rule_label_->setObjectName(QStringLiteral("ruleLabel"));
  rule_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  rule_label_->setMinimumWidth(200);
  backend_label_ = new QLabel(this);
  backend_label_->setObjectName(QStringLiteral("backendLabel"));
  statusBar()->addWidget(rule_label_, 1);
  statusBar()->addPermanentWidget(backend_label_);
  connect(selection_, &LinkedSelection::statusChanged, rule_label_, [this](const QString& text) {
    rule_label_->setText(text);
    rule_label_->setToolTip(text);  // the whole rule where the status bar cuts it
  });

  restore_settings();
  update_title();
  submit();
}

MainWindow::~MainWindow() = default;

void MainWindow::create_models() {
  input_model_ = new TensorPlaneModel(TensorRole::Input, this);
  output_model_ = new TensorPlaneModel(TensorRole::Output, this);
  indices_model_ = new IndicesModel(this);
  input_memory_ = new MemoryStripModel(TensorRole::Input, this);
  output_memory_ = new MemoryStripModel(TensorRole::Output, this);
  indices_memory_ = new MemoryStripModel(TensorRole::Indices, this);
  diff_model_ = new DiffModel(this);
  selection_ = new LinkedSelection(
      {input_model_, output_model_, indices_model_, input_memory_, output_memory_, indices_memory_}, this);
  connect(input_model_, &TensorPlaneModel::valueEdited, this, &MainWindow::on_value_typed);
}

void MainWindow::create_central() {
  views_ = new QWidget(this);
  views_->setObjectName(QStringLiteral("views"));
  auto* layout = new QVBoxLayout(views_);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(2);
  panels_splitter_ = new QSplitter(Qt::Horizontal, views_);
  panels_splitter_->setObjectName(QStringLiteral("panelsSplitter"));
  panels_splitter_->setChildrenCollapsible(false);
  input_panel_ = new TensorPanel(input_model_, input_memory_, panels_splitter_);
  output_panel_ = new TensorPanel(output_model_, output_memory_, panels_splitter_);
  indices_panel_ = new TensorPanel(indices_model_, indices_memory_, panels_splitter_);
  panels_splitter_->addWidget(input_panel_);
  panels_splitter_->addWidget(output_panel_);
  panels_splitter_->addWidget(indices_panel_);
  legend_ = new LegendBar(views_);
  layout->addWidget(panels_splitter_, 1);
  layout->addWidget(legend_);
  setCentralWidget(views_);
}

void MainWindow::create_docks() {
  editor_ = new SpecEditor(document_, this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(editor_);
  scroll->setWidgetResizable(true);
  // Where the dock is narrower than the form (a small screen), it scrolls
  // sideways rather than clip a column of fields.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  editor_dock_ = new QDockWidget(tr("Spec"), this);
  editor_dock_->setObjectName(QStringLiteral("editorDock"));
  editor_dock_->setWidget(scroll);
  addDockWidget(Qt::LeftDockWidgetArea, editor_dock_);
  connect(editor_, &SpecEditor::npyFileRequested, this, &MainWindow::on_npy_requested);
  // The form grows a column per parameter (max_pooling2 has five): the dock
  // is kept wide enough for all of them, up to 40% of the window. Queued:
  // the editor rebuilds its rows on the same signal, its layout settles after.
  editor_scroll_ = scroll;
  connect(document_, &SpecDocument::specChanged, this, &MainWindow::fit_editor_width, Qt::QueuedConnection);

  auto* compare = new QWidget(this);
  auto* compare_layout = new QVBoxLayout(compare);
  compare_summary_ = new QLabel(compare);
  compare_summary_->setObjectName(QStringLiteral("compareSummary"));
  compare_summary_->setWordWrap(true);
  compare_table_ = new QTableView(compare);
  compare_table_->setObjectName(QStringLiteral("compareTable"));
  compare_table_->setModel(diff_model_);
  compare_table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  compare_table_->horizontalHeader()->setStretchLastSection(true);
  compare_table_->verticalHeader()->hide();
  compare_layout->addWidget(compare_summary_);
  compare_layout->addWidget(compare_table_, 1);
  compare_dock_ = new QDockWidget(tr("Compare"), this);
  compare_dock_->setObjectName(QStringLiteral("compareDock"));
  compare_dock_->setWidget(compare);
  addDockWidget(Qt::BottomDockWidgetArea, compare_dock_);
  compare_dock_->hide();
  connect(compare_table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (const auto coord = diff_model_->coord_of_row(index.row())) selection_->select_output(*coord);
  });
}

void MainWindow::create_actions() {
  new_action_ = new QAction(standard_icon(QStyle::SP_FileIcon, QStringLiteral("document-new")), tr("&New"), this);
  new_action_->setShortcut(QKeySequence::New);
  new_action_->setStatusTip(tr("Start from the slice1 example"));
  connect(new_action_, &QAction::triggered, this, [this] {
    if (maybe_save()) document_->reset(default_spec(), std::nullopt);
  });

  open_action_ = new QAction(standard_icon(QStyle::SP_DialogOpenButton, QStringLiteral("document-open")),
                             tr("&Open\u2026"), this);
  open_action_->setShortcut(QKeySequence::Open);
  open_action_->setStatusTip(tr("Open a spec file"));
  connect(open_action_, &QAction::triggered, this, &MainWindow::on_open);

  save_action_ = new QAction(standard_icon(QStyle::SP_DialogSaveButton, QStringLiteral("document-save")),
                             tr("&Save"), this);
  save_action_->setShortcut(QKeySequence::Save);
  save_action_->setStatusTip(tr("Save the spec (atomically)"));
  connect(save_action_, &QAction::triggered, this, &MainWindow::on_save);

  save_as_action_ = new QAction(QIcon::fromTheme(QStringLiteral("document-save-as")), tr("Save &As\u2026"), this);
  save_as_action_->setShortcut(QKeySequence::SaveAs);
  connect(save_as_action_, &QAction::triggered, this, &MainWindow::on_save_as);

  export_png_action_ = new QAction(tr("Export Views as &PNG\u2026"), this);
  export_png_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  connect(export_png_action_, &QAction::triggered, this, [this] { on_export(QStringLiteral("png")); });
  export_svg_action_ = new QAction(tr("Export Views as S&VG\u2026"), this);
  export_svg_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  connect(export_svg_action_, &QAction::triggered, this, [this] { on_export(QStringLiteral("svg")); });

  quit_action_ = new QAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this);
  quit_action_->setShortcut(QKeySequence::Quit);
  connect(quit_action_, &QAction::triggered, this, &QWidget::close);

  undo_action_ = document_->undo_stack()->createUndoAction(this, tr("&Undo"));
  undo_action_->setIcon(themed_icon(QStringLiteral("edit-undo"), QStringLiteral("undo")));
  undo_action_->setShortcut(QKeySequence::Undo);
  redo_action_ = document_->undo_stack()->createRedoAction(this, tr("&Redo"));
  redo_action_->setIcon(themed_icon(QStringLiteral("edit-redo"), QStringLiteral("redo")));
  redo_action_->setShortcut(QKeySequence::Redo);

  compare_action_ = new QAction(QIcon(QStringLiteral(":/icons/compare.svg")), tr("&Compare Backends"), this);
  compare_action_->setCheckable(true);
  compare_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
  compare_action_->setToolTip(tr("Run every available backend and show the elements where they differ"));
  connect(compare_action_, &QAction::toggled, this, &MainWindow::set_compare);

  zoom_in_action_ = new QAction(themed_icon(QStringLiteral("zoom-in"), QStringLiteral("zoom-in")), tr("Zoom &In"), this);
  zoom_in_action_->setShortcut(QKeySequence::ZoomIn);
  zoom_out_action_ = new QAction(themed_icon(QStringLiteral("zoom-out"), QStringLiteral("zoom-out")), tr("Zoom &Out"), this);
  zoom_out_action_->setShortcut(QKeySequence::ZoomOut);
  zoom_fit_action_ = new QAction(themed_icon(QStringLiteral("zoom-fit-best"), QStringLiteral("zoom-fit")), tr("&Fit to View"), this);
  zoom_fit_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  zoom_reset_action_ = new QAction(QIcon::fromTheme(QStringLiteral("zoom-original")), tr("&Actual Size"), this);
  zoom_reset_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
  connect(zoom_in_action_, &QAction::triggered, this, [this] { for_each_grid([](TensorGridView* v) { v->zoom_in(); }); });
  connect(zoom_out_action_, &QAction::triggered, this, [this] { for_each_grid([](TensorGridView* v) { v->zoom_out(); }); });
  connect(zoom_fit_action_, &QAction::triggered, this, [this] { for_each_grid([](TensorGridView* v) { v->zoom_to_fit(); }); });
  connect(zoom_reset_action_, &QAction::triggered, this, [this] { for_each_grid([](TensorGridView* v) { v->reset_zoom(); }); });

  memory_action_ = new QAction(tr("&Memory Strips"), this);
  memory_action_->setCheckable(true);
  memory_action_->setChecked(true);
  memory_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
  connect(memory_action_, &QAction::toggled, this, [this](bool on) {
    for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) {
      panel->splitter()->widget(1)->setVisible(on);
    }
  });

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

  palette_group_ = new QActionGroup(this);
  for (ValuePalette palette : {ValuePalette::Viridis, ValuePalette::Cividis}) {
    auto* action = new QAction(to_display_string(palette), palette_group_);
    action->setCheckable(true);
    action->setData(static_cast<int>(palette));
    action->setChecked(palette == palette_);
    connect(action, &QAction::triggered, this, [this, palette] { set_value_palette(palette); });
  }
}

void MainWindow::create_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(new_action_);
  file->addAction(open_action_);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  recent_menu_->setObjectName(QStringLiteral("recentMenu"));
  connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::rebuild_recent_menu);
  examples_menu_ = file->addMenu(tr("E&xamples"));
  examples_menu_->setObjectName(QStringLiteral("examplesMenu"));
  file->addSeparator();
  file->addAction(save_action_);
  file->addAction(save_as_action_);
  file->addSeparator();
  file->addAction(export_png_action_);
  file->addAction(export_svg_action_);
  file->addAction(tr("Export &Figure\u2026"), this, [this] {
    ExportFigureDialog(shown_evaluation(), selection_->selected_output(), this).exec();
  });
  file->addSeparator();
  file->addAction(quit_action_);
  rebuild_examples_menu();
  rebuild_recent_menu();

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undo_action_);
  edit->addAction(redo_action_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
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
  view->addAction(compare_dock_->toggleViewAction());

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  QMenu* backends = run->addMenu(tr("&Backend"));
  backends->addActions(backend_group_->actions());
  run->addAction(compare_action_);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About StrideScope"), this, [this] {
    QMessageBox::about(this, tr("About StrideScope"),
                       tr("<h3>StrideScope %1</h3><p>See what DirectML's data-movement operators do to a "
                          "strided tensor, element by element.</p><p>Colours: viridis / cividis for values, "
                          "Okabe\u2013Ito for overlays, so they stay distinguishable with colour-blindness.</p>")
                           .arg(QApplication::applicationVersion()));
  });
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
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
  QToolBar* view = addToolBar(tr("View"));
  view->setObjectName(QStringLiteral("viewToolBar"));
  view->addAction(zoom_out_action_);
  view->addAction(zoom_in_action_);
  view->addAction(zoom_fit_action_);
}

void MainWindow::connect_views() {
  const auto plane_hover = [this](TensorPlaneModel* model, bool output) {
    return [this, model, output](int row, int column) {
      if (row < 0) {
        selection_->clear_hover();
      } else if (output) {
        selection_->hover_output(model->coord_at(row, column));
      } else {
        selection_->hover_input(model->signed_coord_at(row, column));
      }
    };
  };
  connect(input_panel_->grid(), &TensorGridView::cellHovered, this, plane_hover(input_model_, false));
  connect(output_panel_->grid(), &TensorGridView::cellHovered, this, plane_hover(output_model_, true));
  connect(indices_panel_->grid(), &TensorGridView::cellHovered, this, plane_hover(indices_model_, true));
  for (TensorPlaneModel* model : {output_model_, static_cast<TensorPlaneModel*>(indices_model_)}) {
    TensorGridView* grid = model == output_model_ ? output_panel_->grid() : indices_panel_->grid();
    connect(grid, &TensorGridView::cellClicked, this,
            [this, model](int row, int column) { selection_->select_output(model->coord_at(row, column)); });
  }
  for (MemoryStripModel* memory : {input_memory_, output_memory_, indices_memory_}) {
    TensorPanel* panel = memory == input_memory_ ? input_panel_ : memory == output_memory_ ? output_panel_ : indices_panel_;
    connect(panel->memory_view(), &TensorGridView::cellHovered, this, [this, memory](int row, int column) {
      if (row < 0) {
        selection_->clear_hover();
      } else {
        selection_->hover_memory(memory->role(), memory->offset_at(row, column));
      }
    });
  }
}

void MainWindow::for_each_grid(const std::function<void(TensorGridView*)>& action) {
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) action(panel->grid());
}

TensorPanel* MainWindow::panel(TensorRole role) const {
  return role == TensorRole::Input ? input_panel_ : role == TensorRole::Output ? output_panel_ : indices_panel_;
}

TensorPlaneModel* MainWindow::plane_model(TensorRole role) const {
  return role == TensorRole::Input ? input_model_ : role == TensorRole::Output ? output_model_ : indices_model_;
}

MemoryStripModel* MainWindow::memory_model(TensorRole role) const {
  return role == TensorRole::Input ? input_memory_ : role == TensorRole::Output ? output_memory_ : indices_memory_;
}

bool MainWindow::settled() const {
  return engine_->idle() && last_shown_serial_ == engine_->last_submitted();
}

QString MainWindow::status_text() const { return rule_label_->text(); }

void MainWindow::submit() {
  EvaluationRequest request;
  request.spec = document_->spec();
  request.backend = backend_.toStdString();
  request.compare = compare_;
  engine_->submit(std::move(request));
}

void MainWindow::on_evaluated(const EvaluationOutcome& outcome) {
  // Results of an earlier document (still running when a file was opened)
  // are not this document's.
  if (outcome.serial < last_shown_serial_ || outcome.serial < document_first_serial_) return;
  last_shown_serial_ = outcome.serial;
  if (outcome.error) {
    current_error_ = outcome.error;
    editor_->show_error(current_error_);
    editor_->summarise_invalid_spec();
    // The last valid result stands in while a spec is edited, never for
    // another file's spec.
    if (shown_ && shown_serial_ < document_first_serial_) {
      show_evaluation(nullptr);
      legend_->set_op(document_->spec().request.kind(), false);
    }
    for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->set_stale(shown_ != nullptr);
    statusBar()->showMessage(tr("error: %1").arg(message_of(*current_error_)), 8000);
    return;
  }
  current_error_.reset();
  editor_->show_error(std::nullopt);
  statusBar()->clearMessage();
  const bool first = !has_shown_once_;
  has_shown_once_ = true;
  show_evaluation(outcome.evaluation);
  shown_serial_ = outcome.serial;
  if (select_first_output_) {
    // A newly opened spec starts with its first output element selected, so
    // its source (or pooling window) and rule show before any click.
    select_first_output_ = false;
    if (!selection_->selected_output()) selection_->select_output(Coord(shown_->op().output().rank(), 0));
  }
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->set_stale(false);
  update_panels_visibility();
  legend_->set_op(shown_->op().kind(), shown_->compare.has_value());

  QString timing = tr("%1 \u00b7 run %2 ms").arg(shown_->backend_label).arg(shown_->wall_milliseconds, 0, 'f', 2);
  if (shown_->stats.gpu_milliseconds) timing += tr(" \u00b7 GPU %1 ms").arg(*shown_->stats.gpu_milliseconds, 0, 'f', 3);
  backend_label_->setText(timing);
  QStringList passes;
  for (const PassTiming& pass : shown_->stats.passes) {
    passes << tr("%1 ms  %2").arg(pass.milliseconds, 8, 'f', 3).arg(QString::fromStdString(pass.label));
  }
  backend_label_->setToolTip(passes.isEmpty() ? QString() : tr("Device time per pass:\n") + passes.join('\n'));
  if (shown_->compare) {
    compare_summary_->setText(diff_model_->summary());
    if (!compare_dock_->isVisible()) {
      compare_dock_->show();
      resizeDocks({compare_dock_}, {fontMetrics().height() * 9}, Qt::Vertical);
    }
  }
  if (first) rule_label_->setText(selection_->status_text());
}

void MainWindow::fit_editor_width() {
  editor_->layout()->activate();
  const int form = editor_->sizeHint().width() + editor_scroll_->verticalScrollBar()->sizeHint().width() +
                   2 * editor_scroll_->frameWidth();
  editor_scroll_->setMinimumWidth(std::min(form, std::max(300, width() * 2 / 5)));
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  fit_editor_width();
}

void MainWindow::show_evaluation(EvaluationPtr evaluation) {
  shown_ = std::move(evaluation);
  for (TensorPlaneModel* model : {input_model_, output_model_, static_cast<TensorPlaneModel*>(indices_model_)}) {
    model->set_evaluation(shown_);
  }
  for (MemoryStripModel* memory : {input_memory_, output_memory_, indices_memory_}) memory->set_evaluation(shown_);
  input_model_->set_editable(shown_ && std::holds_alternative<std::vector<Scalar>>(shown_->spec().input_source));
  selection_->set_evaluation(shown_);
  if (shown_) editor_->set_evaluation(shown_);
  diff_model_->set_evaluation(shown_);
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->refresh();
}

void MainWindow::update_panels_visibility() {
  if (!shown_) return;
  const Operation& op = shown_->op();
  indices_panel_->setVisible(op.output_indices().has_value());
  // "Layout only" shows the output only when its own strides are worth seeing.
  output_panel_->setVisible(op.kind() != OpKind::Identity || shown_->spec().request.output.strides.has_value());
}

void MainWindow::set_backend(const QString& name) {
  backend_ = name;
  for (QAction* action : backend_group_->actions()) action->setChecked(action->data().toString() == name);
  const int index = backend_combo_->findData(name);
  if (index >= 0) backend_combo_->setCurrentIndex(index);
  submit();
}

void MainWindow::set_compare(bool on) {
  if (compare_ == on) return;
  compare_ = on;
  compare_action_->setChecked(on);
  if (!on) {
    compare_dock_->hide();
  }
  submit();
}

void MainWindow::set_value_palette(ValuePalette palette) {
  palette_ = palette;
  for (QAction* action : palette_group_->actions()) action->setChecked(action->data().toInt() == static_cast<int>(palette));
  for (TensorPlaneModel* model : {input_model_, output_model_, static_cast<TensorPlaneModel*>(indices_model_)}) {
    model->set_palette(palette);
  }
  for (MemoryStripModel* memory : {input_memory_, output_memory_, indices_memory_}) memory->set_palette(palette);
  legend_->set_palette(palette);
}

Status MainWindow::open_file(const QString& path) {
  Status status = document_->open(to_path(path));
  if (status) add_recent(QFileInfo(path).absoluteFilePath());
  return status;
}

Status MainWindow::save_file(const QString& path) {
  Status status = document_->save(to_path(path));
  if (status) add_recent(QFileInfo(path).absoluteFilePath());
  return status;
}

Status MainWindow::export_views(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("svg")) {
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(views_->size());
    generator.setViewBox(QRect(QPoint(0, 0), views_->size()));
    generator.setTitle(tr("StrideScope \u2014 %1").arg(document_->display_name()));
    generator.setDescription(status_text());
    QPainter painter;
    if (!painter.begin(&generator)) return Error{ErrorCode::Io, "", "cannot write " + path.toStdString()};
    views_->render(&painter);
    painter.end();
    if (!QFileInfo::exists(path)) return Error{ErrorCode::Io, "", "cannot write " + path.toStdString()};
    return {};
  }
  if (suffix == QLatin1String("png")) {
    if (!views_->grab().save(path, "PNG")) return Error{ErrorCode::Io, "", "cannot write " + path.toStdString()};
    return {};
  }
  return Error{ErrorCode::Io, "", "export needs a .png or .svg file name, not " + path.toStdString()};
}

void MainWindow::on_value_typed(quint64 offset, const QString& text) {
  Expected<std::vector<Scalar>> parsed = parse_values(text.toStdString());
  if (!parsed || parsed->size() != 1) {
    statusBar()->showMessage(tr("error: input.data[%1]: '%2' is not a number").arg(offset).arg(text), 8000);
    return;
  }
  Spec next = document_->spec();
  auto* values = std::get_if<std::vector<Scalar>>(&next.input_source);
  if (!values) return;
  if (offset >= values->size()) values->resize(offset + 1, int64_t{0});
  (*values)[offset] = parsed->front();
  document_->edit(std::move(next), tr("Type input value at offset %1").arg(offset));
}

void MainWindow::update_title() {
  setWindowTitle(tr("%1[*] \u2014 StrideScope").arg(document_->display_name()));
  setWindowModified(document_->modified());
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
                                                    tr("Spec files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue("lastDirectory", QFileInfo(path).absolutePath());
  open_interactively(path);
}

bool MainWindow::on_save() {
  if (!document_->file()) return on_save_as();
  const Status status = save_file(QString::fromStdString(document_->file()->string()));
  if (!status) QMessageBox::warning(this, tr("Save spec"), message_of(status.error()));
  return status.ok();
}

bool MainWindow::on_save_as() {
  QSettings settings;
  QString path = QFileDialog::getSaveFileName(this, tr("Save spec"), settings.value("lastDirectory").toString(),
                                              tr("Spec files (*.json)"));
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  settings.setValue("lastDirectory", QFileInfo(path).absolutePath());
  const Status status = save_file(path);
  if (!status) QMessageBox::warning(this, tr("Save spec"), message_of(status.error()));
  return status.ok();
}

void MainWindow::on_export(const QString& suffix) {
  QSettings settings;
  const QString filter = suffix == QLatin1String("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)");
  QString path = QFileDialog::getSaveFileName(this, tr("Export views"), settings.value("lastDirectory").toString(), filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffix;
  const Status status = export_views(path);
  if (!status) {
    QMessageBox::warning(this, tr("Export views"), message_of(status.error()));
  } else {
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  }
}

void MainWindow::on_npy_requested() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(this, tr("Input values from a .npy file"),
                                                    settings.value("lastDirectory").toString(),
                                                    tr("NumPy arrays (*.npy)"));
  editor_->set_npy_file(path);
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
    action->setToolTip(example.path);
    action->setStatusTip(example.path);
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
  settings.setValue("window/geometry", saveGeometry());
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
  event->accept();
}

}  // namespace stridescope::ui
