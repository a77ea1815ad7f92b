// The dialog that asks which dispatch of a DxDispatch model to open, when
// the model has several: a row per dispatch command, in the model's order,
// with its number (as `stridescope-cli explain --dispatch K` counts), its
// dispatchable's name, its DirectML operator and its tensors' sizes.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QTreeWidget;

namespace stridescope::ui {

struct DispatchEntry {
  QString name;      // the dispatchable: "pad"
  QString op;        // "DML_OPERATOR_PADDING"
  QString tensors;   // "FLOAT32 [3] → [5]"
};

class DispatchPicker : public QDialog {
  Q_OBJECT

 public:
  DispatchPicker(const QString& model_name, const QList<DispatchEntry>& dispatches, QWidget* parent = nullptr);

  // The chosen row (the first until another is chosen); -1 with none.
  int selected() const;
  QTreeWidget* list() const { return list_; }

 private:
  QTreeWidget* list_;
};

}  // namespace stridescope::ui
