#include "ui/widgets/result_compare.h"

#include <algorithm>

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/diagnosis/diagnosis_text.h"
#include "core/io/result_file.h"
#include "ui/linked_selection.h"

namespace stridescope::ui {
namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

QString file_name(const std::string& path) { return QFileInfo(qs(path)).fileName(); }

QString count_text(uint64_t differing, uint64_t of, const QString& what) {
  return QObject::tr("%1 of %2 %3 differ").arg(differing).arg(of).arg(what);
}

QLabel* panel_label(const QString& name, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  label->setWordWrap(true);
  label->setTextFormat(Qt::PlainText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

ResultCompare::ResultCompare(QMainWindow* window, LinkedSelection* selection)
    : QObject(window), window_(window), selection_(selection) {
  setObjectName(QStringLiteral("resultCompare"));
  create_actions();
  dock_ = new QDockWidget(tr("Result Comparison"), window);
  dock_->setObjectName(QStringLiteral("resultCompareDock"));
  dock_->setWidget(create_panel());
  connect(selection_, &LinkedSelection::outputSelected, this, &ResultCompare::update_position);
  show_nothing_compared();
}

void ResultCompare::create_actions() {
  open_action_ = new QAction(tr("Compare with &Result\u2026"), this);
  open_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
  open_action_->setStatusTip(
      tr("Open another implementation's result (a result document or a .npy) and mark where it differs"));
  connect(open_action_, &QAction::triggered, this, &ResultCompare::on_open);
  next_action_ = new QAction(tr("&Next Difference"), this);
  next_action_->setShortcut(QKeySequence(Qt::Key_F8));
  next_action_->setStatusTip(tr("Select the next output element where the compared result differs"));
  connect(next_action_, &QAction::triggered, this, [this] { go_to_difference(true); });
  previous_action_ = new QAction(tr("&Previous Difference"), this);
  previous_action_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
  previous_action_->setStatusTip(tr("Select the previous output element where the compared result differs"));
  connect(previous_action_, &QAction::triggered, this, [this] { go_to_difference(false); });
  clear_action_ = new QAction(tr("C&lear Comparison"), this);
  clear_action_->setStatusTip(tr("Stop comparing with the result file"));
  connect(clear_action_, &QAction::triggered, this, &ResultCompare::clear);
  // The window owns the shortcuts, so they work wherever the focus is.
  window_->addActions({open_action_, next_action_, previous_action_, clear_action_});
}

QWidget* ResultCompare::create_panel() {
  auto* panel = new QWidget(window_);
  panel->setObjectName(QStringLiteral("resultComparePanel"));
  auto* layout = new QVBoxLayout(panel);
  file_label_ = panel_label(QStringLiteral("resultCompareFile"), panel);
  summary_label_ = panel_label(QStringLiteral("resultCompareSummary"), panel);
  QFont bold = summary_label_->font();
  bold.setBold(true);
  summary_label_->setFont(bold);
  diagnosis_label_ = panel_label(QStringLiteral("resultCompareDiagnosis"), panel);
  position_label_ = panel_label(QStringLiteral("resultComparePosition"), panel);
  auto* buttons = new QHBoxLayout;
  for (QAction* action : {previous_action_, next_action_, clear_action_, open_action_}) {
    auto* button = new QToolButton(panel);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    buttons->addWidget(button);
  }
  buttons->addStretch(1);
  layout->addWidget(file_label_);
  layout->addWidget(summary_label_);
  layout->addWidget(diagnosis_label_);
  layout->addWidget(position_label_);
  layout->addLayout(buttons);
  layout->addStretch(1);
  return panel;
}

void ResultCompare::on_open() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      window_, tr("Compare with Result"), settings.value("lastResultDirectory").toString(),
      tr("Results (*.json *.npy);;Result documents (*.json);;NumPy arrays (*.npy);;All files (*)"));
  if (path.isEmpty()) return;
  settings.setValue("lastResultDirectory", QFileInfo(path).absolutePath());
  const Status status = compare_with(path);
  if (!status) {
    QMessageBox::warning(window_, tr("Compare with Result"),
                         tr("Could not read %1:\n%2").arg(QFileInfo(path).fileName(), qs(status.error().to_string())));
  }
}

Status ResultCompare::compare_with(const QString& path) {
  Expected<std::shared_ptr<const OtherResult>> loaded = load_other_result(path.toStdString(), Limits{}.max_bytes);
  dock_->show();
  dock_->raise();
  if (!loaded) {
    other_.reset();
    show_error(tr("Could not read %1: %2").arg(QFileInfo(path).fileName(), qs(loaded.error().to_string())));
    file_label_->clear();
    window_->statusBar()->showMessage(tr("Compare with Result: %1").arg(qs(loaded.error().to_string())), 8000);
    emit otherChanged();
    return loaded.error();
  }
  other_ = std::move(*loaded);
  file_label_->setText(tr("Comparing with %1 (%2)")
                           .arg(QFileInfo(path).fileName(), other_->npy ? tr("NumPy array") : tr("result document")));
  file_label_->setToolTip(path);
  summary_label_->setStyleSheet(QString());
  summary_label_->setText(tr("Comparing\u2026"));
  diagnosis_label_->clear();
  position_label_->clear();
  emit otherChanged();
  return {};
}

void ResultCompare::clear() {
  if (!other_) return;
  other_.reset();
  show_nothing_compared();
  window_->statusBar()->showMessage(tr("Comparison cleared"), 4000);
  emit otherChanged();
}

void ResultCompare::show_evaluation(const EvaluationPtr& evaluation) {
  shown_ = evaluation;
  if (!other_) return show_nothing_compared();
  if (!evaluation || !evaluation->result_comparison) return;  // one compared with it is on its way
  const ResultComparison& comparison = *evaluation->result_comparison;
  if (comparison.error) {
    return show_error(tr("Does not fit the spec: %1").arg(qs(comparison.error->to_string())));
  }
  show_comparison(comparison, evaluation->op());
}

void ResultCompare::show_invalid_spec() {
  if (!other_) return;
  enable_navigation(false);
  summary_label_->setStyleSheet(QString());
  summary_label_->setText(tr("The spec is invalid: the comparison is made again once it is valid."));
  diagnosis_label_->clear();
  position_label_->clear();
}

void ResultCompare::show_comparison(const ResultComparison& comparison, const Operation& op) {
  summary_label_->setStyleSheet(QString());
  const QString name = file_name(comparison.file);
  if (comparison.differing() == 0) {
    summary_label_->setText(tr("No differences: %1 matches StrideScope bit for bit on all %2 output elements%3.")
                                .arg(name)
                                .arg(comparison.output_elements)
                                .arg(comparison.indices_compared ? tr(" and their indices") : QString()));
  } else {
    QStringList parts{count_text(comparison.output_differing, comparison.output_elements, tr("output elements"))};
    if (comparison.indices_compared) {
      parts << count_text(comparison.indices_differing, comparison.output_elements, tr("indices"));
    }
    summary_label_->setText(parts.join(QStringLiteral("; ")));
  }
  QStringList notes;
  if (op.output_indices() && !comparison.indices_compared) {
    notes << tr("(indices not compared: no %1 beside it)")
                 .arg(qs(indices_npy_path(comparison.file).filename().string()));
  }
  QStringList lines;
  for (const std::string& line : diagnosis_lines(comparison.diagnosis)) lines << qs(line);
  diagnosis_label_->setText((lines + notes).join(QLatin1Char('\n')));
  enable_navigation(!comparison.stops.empty());
  update_position();
}

void ResultCompare::show_nothing_compared() {
  enable_navigation(false);
  clear_action_->setEnabled(false);
  file_label_->clear();
  summary_label_->setStyleSheet(QString());
  summary_label_->setText(tr("No result compared. File > Compare with Result\u2026 opens another implementation's "
                             "result (a result document or a .npy) for this spec."));
  diagnosis_label_->clear();
  position_label_->clear();
}

void ResultCompare::show_error(const QString& text) {
  enable_navigation(false);
  clear_action_->setEnabled(other_ != nullptr);
  summary_label_->setStyleSheet(QStringLiteral("color: #b00020;"));
  summary_label_->setText(text);
  diagnosis_label_->clear();
  position_label_->clear();
}

void ResultCompare::enable_navigation(bool on) {
  next_action_->setEnabled(on);
  previous_action_->setEnabled(on);
  clear_action_->setEnabled(other_ != nullptr);
}

bool ResultCompare::go_to_difference(bool forward) {
  if (!other_ || !shown_ || !shown_->result_comparison) return false;
  const std::optional<Coord> stop = next_stop(shown_->result_comparison->stops, selection_->selected_output(), forward);
  if (!stop) return false;
  selection_->select_output(*stop);
  return true;
}

// "Difference 2 of 4: out[0,0,0,1]: r.json has 1, StrideScope gives 2".
void ResultCompare::update_position() {
  position_label_->clear();
  if (!other_ || !shown_ || !shown_->result_comparison || shown_->result_comparison->error) return;
  const ResultComparison& comparison = *shown_->result_comparison;
  const std::optional<Coord>& selected = selection_->selected_output();
  if (comparison.stops.empty() || !selected) return;
  const auto at = std::find(comparison.stops.begin(), comparison.stops.end(), *selected);
  if (at == comparison.stops.end()) {
    position_label_->setText(tr("out%1 is the same in both; Next Difference (F8) goes to one that is not.")
                                 .arg(qs(format_coord(*selected))));
    return;
  }
  const Operation& op = shown_->op();
  const QString name = file_name(comparison.file);
  QStringList parts;
  for (const bool indices : {false, true}) {
    const std::optional<Scalar> theirs = their_value(comparison, op, indices, *selected);
    if (!theirs) continue;
    const TensorDesc& desc = indices ? *op.output_indices() : op.output();
    const std::vector<std::byte>& ours = indices ? shown_->indices : shown_->output;
    const Scalar exact = element_at(desc, ours, *selected);
    if (format_scalar(exact) == format_scalar(*theirs)) continue;
    parts << tr("%1%2: %3 has %4, StrideScope gives %5")
                 .arg(indices ? tr("indices") : tr("out"), qs(format_coord(*selected)), name,
                      qs(format_scalar(*theirs)), qs(format_scalar(exact)));
  }
  position_label_->setText(tr("Difference %1 of %2: %3")
                               .arg(at - comparison.stops.begin() + 1)
                               .arg(comparison.stops.size())
                               .arg(parts.join(QStringLiteral("; "))));
}

QString ResultCompare::summary_text() const { return summary_label_->text(); }
QString ResultCompare::diagnosis_text() const { return diagnosis_label_->text(); }
QString ResultCompare::position_text() const { return position_label_->text(); }

}  // namespace stridescope::ui
