#include "ui/widgets/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/animation_player.h"
#include "ui/autosave.h"
#include "ui/diff_model.h"
#include "ui/evaluation_engine.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/code_panel.h"
#include "ui/widgets/explanation_panel.h"
#include "ui/widgets/help_browser.h"
#include "ui/widgets/legend_bar.h"
#include "ui/widgets/result_compare.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/status_rule.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

namespace stridescope::ui {

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
    player_->clear();  // a new tensor: the animation starts over at its first element
    select_first_output_ = true;
  });
  connect(document_, &SpecDocument::specChanged, this, &MainWindow::submit);
  connect(document_, &SpecDocument::fileChanged, this, &MainWindow::update_title);
  connect(document_, &SpecDocument::modifiedChanged, this, &MainWindow::update_title);

  create_status_bar();

  autosave_ = new Autosave(document_, Autosave::default_folder(), this);
  connect(autosave_, &Autosave::failed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 8000);
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
  indices_memory_->set_index_colours([indices = indices_model_](uint64_t flat) { return indices->index_rgb(flat); });
  connect(indices_model_, &IndicesModel::indexColoursChanged, indices_memory_, &MemoryStripModel::refresh_index_colours);
  diff_model_ = new DiffModel(this);
  selection_ = new LinkedSelection(
      {input_model_, output_model_, indices_model_, input_memory_, output_memory_, indices_memory_}, this);
  connect(input_model_, &TensorPlaneModel::valueEdited, this, &MainWindow::on_value_typed);
  player_ = new AnimationPlayer(this);
}

void MainWindow::create_status_bar() {
  rule_label_ = new StatusRule(this);
  backend_label_ = new QLabel(this);
  backend_label_->setObjectName(QStringLiteral("backendLabel"));
  statusBar()->addWidget(rule_label_, 1);
  statusBar()->addPermanentWidget(backend_label_);
  connect(selection_, &LinkedSelection::statusChanged, rule_label_, [this](const QString& text) {
    rule_label_->set_text(text);
  });
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
  // is widened to hold all of them where the views leave room. Queued:
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
  connect(compare_table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (const auto coord = diff_model_->coord_of_row(index.row())) selection_->select_output(*coord);
  });
  create_teaching_docks();
  result_compare_ = new ResultCompare(this, selection_);
  addDockWidget(Qt::BottomDockWidgetArea, result_compare_->dock());
  tabifyDockWidget(explanation_dock_, result_compare_->dock());
  result_compare_->dock()->hide();
  explanation_dock_->raise();  // hiding the tab tabified last leaves its neighbour (Code) in front
  connect(result_compare_, &ResultCompare::otherChanged, this, &MainWindow::submit);
}

// Below the views, one tab each: Worked Out (on show), Code, and Compare
// (hidden until Run > Compare).
void MainWindow::create_teaching_docks() {
  const auto add_bottom_dock = [this](const QString& title, const QString& name, QWidget* content) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(content);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    return dock;
  };
  explanation_ = new ExplanationPanel(this);
  explanation_dock_ = add_bottom_dock(tr("Worked Out"), QStringLiteral("explanationDock"), explanation_);
  code_ = new CodePanel(this);
  code_dock_ = add_bottom_dock(tr("Code"), QStringLiteral("codeDock"), code_);
  tabifyDockWidget(explanation_dock_, code_dock_);
  tabifyDockWidget(explanation_dock_, compare_dock_);
  compare_dock_->hide();
  explanation_dock_->raise();
  // A few lines by default: the views keep most of the height, the panel scrolls.
  resizeDocks({explanation_dock_}, {fontMetrics().height() * 7}, Qt::Vertical);
  connect(explanation_, &ExplanationPanel::helpRequested, this, &MainWindow::show_help);
  // The status line and the explanation follow the same hover and selection.
  connect(selection_, &LinkedSelection::statusChanged, this,
          [this] { explanation_->show_explanation(shown_, selection_->shown_provenance()); });
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
            [this, model](int row, int column) {
              const std::optional<Coord> coord = model->coord_at(row, column);
              selection_->select_output(coord);
            });
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

TensorGridView* MainWindow::active_grid() const {
  TensorGridView* active = output_panel_->grid();
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) {
    if (panel->isVisible() && panel->grid()->last_used() > active->last_used()) active = panel->grid();
  }
  return active;
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
  request.other_result = result_compare_->other();
  engine_->submit(std::move(request));
}

void MainWindow::on_evaluated(const EvaluationOutcome& outcome) {
  // Results of an earlier document (still running when a file was opened)
  // are not this document's.
  if (outcome.serial < last_shown_serial_ || outcome.serial < document_first_serial_) return;
  last_shown_serial_ = outcome.serial;
  if (outcome.error && is_backend_fault(*outcome.error)) {
    show_backend_fault(*outcome.error);
    return;
  }
  if (outcome.error) {
    current_error_ = outcome.error;
    editor_->show_error(current_error_);
    editor_->summarise_invalid_spec();
    explanation_->set_refusal(current_error_, document_->spec().request.kind(), spec_rank(document_->spec()));
    // The last valid result stands in while a spec is edited, never for
    // another file's spec.
    if (shown_ && shown_serial_ < document_first_serial_) {
      show_evaluation(nullptr);
      legend_->set_op(document_->spec().request.kind(), false);
    }
    for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->set_stale(shown_ != nullptr);
    statusBar()->showMessage(tr("error: %1").arg(QString::fromStdString(current_error_->to_string())), 8000);
    result_compare_->show_invalid_spec();
    return;
  }
  current_error_.reset();
  editor_->show_error(std::nullopt);
  explanation_->set_refusal(std::nullopt, OpKind::Identity, 0);
  statusBar()->clearMessage();
  const bool first = !has_shown_once_;
  has_shown_once_ = true;
  show_evaluation(outcome.evaluation);
  shown_serial_ = outcome.serial;
  if (select_first_output_) {
    // A newly opened spec starts with its first output element selected, so
    // its source (or pooling window) and rule show before any click.
    select_first_output_ = false;
    // The animation's first element, which in buffer order need not be the
    // first in logical order.
    if (!selection_->selected_output()) {
      selection_->select_output(player_->current().value_or(Coord(shown_->op().output().rank(), 0)));
    }
  }
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->set_stale(false);
  update_panels_visibility();
  legend_->set_op(shown_->op().kind(), any_differing(*shown_));
  result_compare_->show_evaluation(shown_);

  QString timing = tr("%1 \u00b7 run %2 ms").arg(shown_->backend_label).arg(shown_->wall_milliseconds, 0, 'f', 2);
  if (shown_->stats.gpu_milliseconds) timing += tr(" \u00b7 GPU %1 ms").arg(*shown_->stats.gpu_milliseconds, 0, 'f', 3);
  backend_label_->setText(timing);
  QStringList passes;
  for (const PassTiming& pass : shown_->stats.passes) {
    passes << tr("%1 ms  %2").arg(pass.milliseconds, 8, 'f', 3).arg(QString::fromStdString(pass.label));
  }
  backend_label_->setToolTip(passes.isEmpty() ? QString() : tr("Device time per pass:\n") + passes.join('\n'));
  if (shown_->compare) {
    report_compare_failures(*shown_->compare);
    compare_summary_->setText(diff_model_->summary());
    // Shown once per Compare (a tab beside Worked Out); the person may then
    // switch tabs without each new result taking the tab back.
    if (compare_dock_->isHidden()) {
      compare_dock_->show();
      compare_dock_->raise();
      resizeDocks({compare_dock_}, {fontMetrics().height() * 9}, Qt::Vertical);
    }
  }
  if (first) rule_label_->set_text(selection_->status_text());
}

bool MainWindow::is_backend_fault(const Error& error) {
  return error.code == ErrorCode::BackendFailure || error.code == ErrorCode::BackendUnavailable;
}

void MainWindow::show_backend_fault(const Error& error) {
  // The spec is not at fault: its fields stay unmarked, the document keeps
  // every edit, and the last result stays on show (greyed) until a backend
  // that works runs it again.
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->set_stale(shown_ != nullptr);
  statusBar()->showMessage(tr("%1 failed: %2. The spec is unchanged; choose another backend to run it.")
                               .arg(backend_combo_->currentText(), QString::fromStdString(error.to_string())));
}

void MainWindow::report_compare_failures(const CompareReport& report) {
  QStringList failures;
  for (const BackendComparison& other : report.others) {
    if (other.error) failures << tr("%1 failed: %2").arg(other.label, QString::fromStdString(other.error->to_string()));
  }
  if (!failures.isEmpty()) statusBar()->showMessage(tr("Compare: %1").arg(failures.join(QStringLiteral("; "))));
}

void MainWindow::fit_editor_width() {
  editor_->layout()->activate();
  const int chrome = editor_scroll_->verticalScrollBar()->sizeHint().width() + 2 * editor_scroll_->frameWidth();
  const int form = editor_->sizeHint().width() + chrome;
  const int needed = editor_->minimumSizeHint().width() + chrome;  // any narrower scrolls sideways
  // The minimum never follows the window's width: a window made wide once
  // (maximised on a monitor) must still shrink to a 1024-pixel projector.
  constexpr int kNarrowest = 300;
  editor_scroll_->setMinimumWidth(std::min(form, kNarrowest));
  if (!editor_dock_->isVisible() || editor_dock_->isFloating()) return;
  // The width: the form as it would be, up to a third of the window (the
  // views keep the most room; 400 pixels on a small screen, where a third
  // holds no form), at least what its fields need, and never squeezing the
  // views below their minimum.
  constexpr int kSmallScreenShare = 400;
  const int share = std::max(width() / 3, kSmallScreenShare);
  const int views = centralWidget()->minimumSizeHint().width() +
                    style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this);
  const int room = width() - views - (editor_dock_->width() - editor_scroll_->width());
  const int wanted = std::min(std::max(std::min(form, share), needed), room);
  // Widened where narrower; narrowed where the main window, following the
  // form's size hint, gave it more than its share.
  const int current = editor_scroll_->width();
  if (current < wanted || current > std::max(wanted, share)) {
    resizeDocks({editor_dock_}, {editor_dock_->width() + wanted - current}, Qt::Horizontal);
  }
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
  if (shown_) {
    player_->set_tensor(shown_->op().output());
  } else {
    player_->clear();
  }
  if (shown_) editor_->set_evaluation(shown_);
  diff_model_->set_evaluation(shown_);
  explanation_->show_explanation(shown_, selection_->shown_provenance());
  code_->set_evaluation(shown_);
  for (TensorPanel* panel : {input_panel_, output_panel_, indices_panel_}) panel->refresh();
}

void MainWindow::update_panels_visibility() {
  if (!shown_) return;
  const Operation& op = shown_->op();
  indices_panel_->setVisible(op.output_indices().has_value());
  // "Layout only" shows the output too, packed or not: a layout lesson (column-major
  // into row-major) needs both memory orders side by side.
  output_panel_->setVisible(true);
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

}  // namespace stridescope::ui
