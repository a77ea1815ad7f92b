#include "ui/widgets/spec_editor.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QPalette>
#include <QStackedLayout>
#include <QVBoxLayout>

#include "core/operation.h"
#include "ui/widgets/document_undo_keys.h"
#include "ui/widgets/field_label.h"
#include "ui/widgets/input_values_form.h"
#include "ui/widgets/op_picker.h"
#include "ui/widgets/param_table.h"
#include "ui/widgets/tensor_form.h"

namespace stridescope::ui {

SpecEditor::SpecEditor(SpecDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("specEditor"));
  build();
  connect(document_, &SpecDocument::fileChanged, this, [this] {
    input_->forget_custom_choice();
    output_->forget_custom_choice();
  });
  connect(document_, &SpecDocument::specChanged, this, &SpecEditor::sync_from_spec);
  sync_from_spec();
}

void SpecEditor::build() {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);

  layout->addWidget(build_status_line());
  description_ = new QLabel(this);
  description_->setObjectName(QStringLiteral("specDescription"));
  description_->setWordWrap(true);
  description_->setTextFormat(Qt::PlainText);
  description_->setStyleSheet(QStringLiteral("QLabel { font-style: italic; }"));
  layout->addWidget(description_);
  new DocumentUndoKeys(this);

  op_picker_ = new OpPicker(this, this);
  input_ = new TensorForm(TensorForm::Role::Input, this, this);
  values_ = new InputValuesForm(this, input_);
  input_->add_row(tr("&Values"), values_->source());
  input_->add_row(values_->details());
  params_ = new ParamTable(this, this);
  output_ = new TensorForm(TensorForm::Role::Output, this, this);
  layout->addWidget(op_picker_);
  layout->addWidget(input_);
  layout->addWidget(params_);
  layout->addWidget(output_);
  layout->addStretch(1);
  connect(values_, &InputValuesForm::npyFileRequested, this, &SpecEditor::npyFileRequested);
}

// The error banner lives in a slot of fixed height, shown or not: a spec
// turning invalid while the person types must not push the form (and the
// field under the cursor) down. Three lines hold every rule's message at the
// dock's width; a longer one is clipped and whole in the tooltip. A valid
// spec shows a quiet line in the same place.
QWidget* SpecEditor::build_status_line() {
  auto* slot = new QWidget(this);
  slot->setObjectName(QStringLiteral("errorBannerSlot"));
  auto* stack = new QStackedLayout(slot);
  stack->setContentsMargins(0, 0, 0, 0);
  error_banner_ = new QLabel(slot);
  error_banner_->setObjectName(QStringLiteral("errorBanner"));
  error_banner_->setWordWrap(true);
  error_banner_->setTextFormat(Qt::RichText);
  error_banner_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  error_banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_banner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #fce3d5; color: #000; border: 1px solid #d55e00; border-radius: 3px; padding: 4px; }"));
  valid_note_ = new QLabel(tr("\u2713 The spec is valid."), slot);
  valid_note_->setObjectName(QStringLiteral("validNote"));
  valid_note_->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  valid_note_->setForegroundRole(QPalette::PlaceholderText);
  valid_note_->setContentsMargins(4, 4, 4, 4);
  stack->addWidget(valid_note_);
  stack->addWidget(error_banner_);
  slot->setFixedHeight(3 * fontMetrics().lineSpacing() + 12);
  return slot;
}

QString SpecEditor::structure_key() const {
  const Spec& spec = document_->spec();
  return QStringLiteral("%1|%2|%3|%4|%5")
      .arg(static_cast<int>(spec.request.kind()))
      .arg(spec_rank(spec))
      .arg(input_->preset() == StridePreset::Custom)
      .arg(output_->preset() == StridePreset::Custom)
      .arg(spec.request.output.sizes.has_value() && spec.request.kind() == OpKind::Slice1);
}

void SpecEditor::sync_from_spec() {
  syncing_ = true;
  if (const QString key = structure_key(); key != built_key_) {
    built_key_ = key;
    unmark();
    input_->rebuild_rows();
    params_->rebuild_rows();
    output_->rebuild_rows();
  }
  const std::string& description = document_->spec().description;
  description_->setText(q(description));
  description_->setVisible(!description.empty());
  op_picker_->sync(document_->spec().request.kind());
  input_->sync();
  values_->sync();
  params_->sync();
  output_->sync();
  syncing_ = false;
  refresh_error();
}

void SpecEditor::set_evaluation(EvaluationPtr evaluation) {
  evaluation_ = std::move(evaluation);
  values_->set_evaluation(evaluation_);
  if (!evaluation_) return;
  const Operation& op = evaluation_->op();
  input_->set_summary(&op.input());
  output_->set_summary(&op.output());
}

void SpecEditor::summarise_invalid_spec() {
  // The input may be valid on its own; the output depends on the whole op.
  const Expected<TensorDesc> input = validate_input(document_->spec().request);
  input_->set_summary(input ? &*input : nullptr);
  output_->set_summary(nullptr);
}

void SpecEditor::edit(Spec next, const QString& text, const QString& merge_key) {
  if (syncing_) return;
  local_error_.reset();
  // Sizes the operator determines follow its parameters: a spec that spelled
  // them out (as the examples do) must not turn invalid when an edit moves them.
  if (next.request.kind() != OpKind::Slice1) next.request.output.sizes.reset();
  document_->edit(std::move(next), text, merge_key);
}

void SpecEditor::edit_int(const QString& path, int value) {
  if (syncing_) return;
  Spec next = document_->spec();
  OpRequest& r = next.request;
  if (path.startsWith(QLatin1String("input.strides")) && !r.input.strides && r.input.sizes) {
    r.input.strides = preset_strides(StridePreset::Custom, *r.input.sizes, std::nullopt);
  }
  if (path.startsWith(QLatin1String("output.strides")) && !r.output.strides) {
    if (const auto sizes = output_sizes_of(next)) {
      r.output.strides = preset_strides(StridePreset::Custom, *sizes, std::nullopt);
    }
  }
  if (!set_int_field(next, path.toStdString(), value)) return;
  // A layout preset (column-major, channels-last, a transpose) keeps its
  // layout over the new sizes.
  if (const StrideChoice input = input_->choice();
      path.startsWith(QLatin1String("input.sizes")) && follows_sizes(input.preset)) {
    r.input.strides = choice_strides(input, *r.input.sizes, std::nullopt);
  }
  if (const StrideChoice output = output_->choice();
      path.startsWith(QLatin1String("output.sizes")) && follows_sizes(output.preset) && r.output.sizes) {
    r.output.strides = choice_strides(output, *r.output.sizes, std::nullopt);
  }
  fit_values_to_input(next);
  edit(std::move(next), tr("Set %1 to %2").arg(path).arg(value), path);
}

void SpecEditor::set_npy_file(const QString& path) {
  if (path.isEmpty()) {
    sync_from_spec();  // dialog cancelled: show the source the spec still has
    return;
  }
  Spec next = document_->spec();
  next.input_source = std::filesystem::path(path.toStdString());
  edit(std::move(next), tr("Values from %1").arg(path));
}

void SpecEditor::show_error(const std::optional<Error>& error) {
  core_error_ = error;
  refresh_error();
}

void SpecEditor::set_local_error(std::optional<Error> error) {
  local_error_ = std::move(error);
  refresh_error();
}

QString SpecEditor::error_text() const {
  const std::optional<Error>& error = local_error_ ? local_error_ : core_error_;
  return error ? q(error->to_string()) : QString();
}

QWidget* SpecEditor::field_widget(const QString& path) const {
  if (path.isEmpty()) return nullptr;
  if (auto* exact = findChild<QWidget*>(path)) return exact;
  // "input.data[3]" -> "input.data"; "params.offsets" -> "params.offsets[0]".
  const QString base = path.section(QLatin1Char('['), 0, 0);
  if (auto* widget = findChild<QWidget*>(base)) return widget;
  if (auto* first = findChild<QWidget*>(base + QStringLiteral("[0]"))) return first;
  const QString group = path.section(QLatin1Char('.'), 0, 0);
  if (group == QLatin1String("input")) {
    if (base.startsWith(QLatin1String("input.fill"))) return values_->source();
    return input_;
  }
  if (group == QLatin1String("outputIndices")) return findChild<QWidget*>(QStringLiteral("outputIndices.dataType"));
  if (group == QLatin1String("output")) return output_;
  if (group == QLatin1String("params")) return params_;
  return nullptr;
}

void SpecEditor::unmark() {
  if (invalid_) {
    invalid_->setStyleSheet(QString());
    invalid_->setPalette(QPalette());  // back to the inherited one
    invalid_->setToolTip(invalid_tooltip_);
    invalid_->setProperty("invalid", false);
  }
  invalid_ = nullptr;
}

void SpecEditor::mark(QWidget* widget, const QString& message) {
  unmark();
  if (!widget) return;
  invalid_ = widget;
  invalid_tooltip_ = widget->toolTip();
  widget->setProperty("invalid", true);
  widget->setToolTip(message);
  const QString type = widget->metaObject()->className();
  if (qobject_cast<QGroupBox*>(widget)) {
    widget->setStyleSheet(QStringLiteral("QGroupBox { border: 2px solid #d55e00; }"));
  } else if (qobject_cast<QAbstractSpinBox*>(widget)) {
    // A style sheet would replace the style's arrow buttons: tint through
    // the palette instead.
    QPalette tinted = widget->palette();
    tinted.setColor(QPalette::Base, QColor(0xfc, 0xe3, 0xd5));
    tinted.setColor(QPalette::Text, Qt::black);
    widget->setPalette(tinted);
  } else {
    widget->setStyleSheet(QStringLiteral("%1 { border: 2px solid #d55e00; background-color: #fce3d5; color: black; }")
                              .arg(type));
  }
}

void SpecEditor::refresh_error() {
  const std::optional<Error>& error = local_error_ ? local_error_ : core_error_;
  auto* stack = static_cast<QStackedLayout*>(error_banner_->parentWidget()->layout());
  if (!error) {
    unmark();
    stack->setCurrentWidget(valid_note_);
    error_banner_->setToolTip(QString());
    return;
  }
  const QString text = q(error->to_string());
  // The form's name for the field first, the spec path (what the file and
  // the CLI say) after it.
  const QString label = field_label(document_->spec().request.kind(), spec_rank(document_->spec()), q(error->path));
  if (label.isEmpty()) {
    error_banner_->setText(QStringLiteral("\u26a0 ") + text.toHtmlEscaped());
  } else {
    error_banner_->setText(QStringLiteral("\u26a0 <b>%1</b>: %2 <span style=\"color:#6b4a3a\">(%3)</span>")
                               .arg(label.toHtmlEscaped(), q(error->message).toHtmlEscaped(),
                                    q(error->path).toHtmlEscaped()));
  }
  error_banner_->setToolTip(text);
  stack->setCurrentWidget(error_banner_);
  mark(field_widget(q(error->path)), text);
}

}  // namespace stridescope::ui
