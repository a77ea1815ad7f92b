// The operator picker: a combo box listing every operator of the schema
// (op_schema.h) and the chosen one's help text. Choosing an operator gives
// the spec that op's demonstration parameters (with_op).
#pragma once

#include <QGroupBox>

#include "core/op_request.h"
#include "ui/widgets/spec_form_part.h"

class QComboBox;
class QLabel;

namespace stridescope::ui {

class OpPicker : public QGroupBox {
  Q_OBJECT

 public:
  OpPicker(SpecFormHost* host, QWidget* parent);

  // Shows `kind` without emitting an edit.
  void sync(OpKind kind);

 private:
  void on_chosen(int index);

  SpecFormHost* host_;
  QComboBox* combo_;
  QLabel* help_;
};

}  // namespace stridescope::ui
