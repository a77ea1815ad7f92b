#include "ui/widgets/op_picker.h"

#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>

#include "core/op_schema.h"
#include "ui/spec_edits.h"

namespace stridescope::ui {

OpPicker::OpPicker(SpecFormHost* host, QWidget* parent) : QGroupBox(tr("Operator"), parent), host_(host) {
  setObjectName(QStringLiteral("opGroup"));
  auto* layout = new QVBoxLayout(this);
  combo_ = new QComboBox(this);
  combo_->setObjectName(QStringLiteral("op"));
  for (const OpSchema& schema : op_schemas()) combo_->addItem(q(schema.label), static_cast<int>(schema.kind));
  combo_->setToolTip(tr("The DirectML operator to apply"));
  help_ = new QLabel(this);
  help_->setWordWrap(true);
  layout->addWidget(combo_);
  layout->addWidget(help_);
  connect(combo_, &QComboBox::activated, this, &OpPicker::on_chosen);
}

void OpPicker::sync(OpKind kind) {
  set_combo(combo_, static_cast<int>(kind));
  help_->setText(q(op_schema(kind).help));
}

void OpPicker::on_chosen(int index) {
  const auto kind = static_cast<OpKind>(combo_->itemData(index).toInt());
  if (kind == host_->spec().request.kind()) return;
  Spec next = with_op(host_->spec(), kind);
  fit_values_to_input(next);
  host_->edit(std::move(next), tr("Choose %1").arg(combo_->itemText(index)));
}

}  // namespace stridescope::ui
