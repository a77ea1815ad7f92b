#include "ui/widgets/param_table.h"

#include <climits>

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/spec_edits.h"
#include "ui/widgets/field_label.h"
#include "ui/text_format.h"

namespace stridescope::ui {
namespace {

constexpr PaddingMode kPaddingModes[] = {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection,
                                         PaddingMode::Symmetric};

std::vector<const ParamField*> array_fields(OpKind kind) {
  std::vector<const ParamField*> fields;
  for (const ParamField& field : op_schema(kind).params) {
    if (field.is_array()) fields.push_back(&field);
  }
  return fields;
}

}  // namespace

ParamTable::ParamTable(SpecFormHost* host, QWidget* parent) : QGroupBox(tr("Parameters"), parent), host_(host) {
  setObjectName(QStringLiteral("paramsGroup"));
  auto* layout = new QVBoxLayout(this);
  help_ = new QLabel(this);
  help_->setWordWrap(true);
  singles_ = new QWidget(this);
  singles_layout_ = new QFormLayout(singles_);
  singles_layout_->setContentsMargins(0, 0, 0, 0);
  dims_ = new QWidget(this);
  dims_layout_ = new QGridLayout(dims_);
  dims_layout_->setContentsMargins(0, 0, 0, 0);
  output_sizes_ = new QLabel(this);
  output_sizes_->setObjectName(QStringLiteral("outputSizes"));
  output_sizes_->setToolTip(tr("The output sizes these parameters give, updated as you type"));
  layout->addWidget(help_);
  layout->addWidget(singles_);
  layout->addWidget(dims_);
  layout->addWidget(output_sizes_);
}

void ParamTable::build_single_row(const ParamField& field) {
  const QString path = q(param_path(field));
  QWidget* widget = nullptr;
  if (field.type == ParamType::PaddingModeName) {
    auto* combo = new QComboBox(singles_);
    for (PaddingMode mode : kPaddingModes) combo->addItem(q(to_string(mode)), static_cast<int>(mode));
    connect(combo, &QComboBox::activated, this, [this, &field](int index) { on_mode_chosen(field, index); });
    widget = combo;
  } else {
    auto* line = new QLineEdit(singles_);
    connect(line, &QLineEdit::textEdited, this, [this, &field] { on_value_edited(field); });
    widget = line;
  }
  widget->setObjectName(path);
  widget->setToolTip(q(field.help));
  singles_layout_->addRow(q(field.label), widget);
}

void ParamTable::build_array_columns(OpKind kind, std::size_t rank) {
  const std::vector<const ParamField*> fields = array_fields(kind);
  if (fields.empty()) return;
  dims_layout_->addWidget(header_label(tr("Dim"), dims_), 0, 0);
  for (std::size_t f = 0; f < fields.size(); ++f) {
    dims_layout_->addWidget(header_label(q(fields[f]->label), dims_, q(fields[f]->help)), 0, static_cast<int>(f) + 1);
  }
  const ParamExtent extent = fields.front()->extent;  // an op's arrays all describe the same dimensions
  const std::size_t rows = param_entries(extent, rank);
  for (std::size_t i = 0; i < rows; ++i) {
    const int row = static_cast<int>(i) + 1;
    dims_layout_->addWidget(new QLabel(dimension_name(rank, param_dimension(extent, i)), dims_), row, 0);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const QString path = q(param_path(*fields[f], i));
      QSpinBox* spin = make_int_field(host_, path, fields[f]->is_signed() ? -INT_MAX : 0, dims_);
      // Windows, strides, paddings and dilations are small numbers: room for
      // four characters keeps max_pooling2's five columns inside the editor
      // on a 1024-pixel screen (the box still widens where there is room).
      spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("-000")) + 28);
      spin->setToolTip(q(fields[f]->help));
      dims_layout_->addWidget(spin, row, static_cast<int>(f) + 1);
    }
  }
}

void ParamTable::rebuild_rows() {
  const Spec& spec = host_->spec();
  const OpKind kind = spec.request.kind();
  clear_children(singles_);
  clear_children(dims_);
  bool has_singles = false;
  for (const ParamField& field : op_schema(kind).params) {
    if (field.is_array()) continue;
    build_single_row(field);
    has_singles = true;
  }
  singles_->setVisible(has_singles);
  build_array_columns(kind, spec_rank(spec));
}

void ParamTable::sync_single(const ParamField& field) {
  const ParamsRequest& params = host_->spec().request.params;
  QWidget* widget = findChild<QWidget*>(q(param_path(field)));
  const ConstParamSlot slot = param_slot(params, field);
  if (auto* combo = qobject_cast<QComboBox*>(widget); combo && std::holds_alternative<const PaddingMode*>(slot)) {
    set_combo(combo, static_cast<int>(*std::get<const PaddingMode*>(slot)));
  } else if (auto* line = qobject_cast<QLineEdit*>(widget); line && std::holds_alternative<const Scalar*>(slot)) {
    if (!line->hasFocus()) line->setText(q(format_scalar(*std::get<const Scalar*>(slot))));
    line->setEnabled(param_in_use(params, field));
  }
}

void ParamTable::sync() {
  const Spec& spec = host_->spec();
  const OpKind kind = spec.request.kind();
  setTitle(kind == OpKind::Identity ? tr("Parameters") : tr("Parameters \u2014 %1").arg(q(to_string(kind))));
  const std::vector<const ParamField*> arrays = array_fields(kind);
  const bool spatial = !arrays.empty() && arrays.front()->extent == ParamExtent::PerSpatialDimension;
  help_->setVisible(kind == OpKind::Identity || spatial);
  help_->setText(kind == OpKind::Identity ? tr("No parameters: change the input's and the output's strides to see "
                                               "the same logical tensor laid out differently in memory.")
                                          : tr("One row per spatial dimension."));
  for (const ParamField& field : op_schema(kind).params) {
    if (!field.is_array()) sync_single(field);
  }
  for (const ParamField* field : arrays) {
    for (std::size_t i = 0; i < kMaxRank; ++i) {
      const QString path = q(param_path(*field, i));
      QSpinBox* spin = findChild<QSpinBox*>(path);
      if (!spin) break;
      if (const auto value = int_field(spec, path.toStdString())) set_spin(spin, *value);
    }
  }
  const std::optional<std::vector<uint64_t>> out_sizes = output_sizes_of(spec);
  output_sizes_->setText(out_sizes
                             ? tr("Output sizes: %1").arg(shape_text(Sizes(std::span<const uint64_t>(*out_sizes))))
                             : tr("Output sizes: \u2014"));
}

void ParamTable::on_mode_chosen(const ParamField& field, int index) {
  Spec next = host_->spec();
  auto* combo = findChild<QComboBox*>(q(param_path(field)));
  const ParamSlot slot = param_slot(next.request.params, field);
  auto* const* mode = std::get_if<PaddingMode*>(&slot);
  if (!combo || !mode) return;
  **mode = static_cast<PaddingMode>(combo->itemData(index).toInt());
  host_->edit(std::move(next), tr("%1 %2").arg(q(field.label), combo->itemText(index)));
}

void ParamTable::on_value_edited(const ParamField& field) {
  const QString path = q(param_path(field));
  auto* line = findChild<QLineEdit*>(path);
  if (!line) return;
  Expected<std::vector<Scalar>> values = parse_values(line->text().toStdString());
  if (!values || values->size() != 1) {
    host_->set_local_error(invalid(param_path(field), "enter one number"));
    return;
  }
  Spec next = host_->spec();
  const ParamSlot slot = param_slot(next.request.params, field);
  auto* const* value = std::get_if<Scalar*>(&slot);
  if (!value) return;
  **value = values->front();
  host_->edit(std::move(next), tr("%1 %2").arg(q(field.label), line->text()), path);
}

}  // namespace stridescope::ui
