// Ctrl+Z and Ctrl+Shift+Z (the platform's Undo and Redo keys) in a field of
// the spec editor undo and redo the document, not the field's own text. A
// QLineEdit or spin box otherwise takes the keys for itself: it would undo
// its text to an earlier value, which arrives as a new edit, and the
// document's history would grow instead of going back.
#pragma once

#include <QObject>

class QWidget;

namespace stridescope::ui {

class DocumentUndoKeys : public QObject {
  Q_OBJECT

 public:
  // Watches every field of `form` that takes focus (fields come and go as the
  // form rebuilds its rows, so each is watched when it first takes focus).
  explicit DocumentUndoKeys(QWidget* form);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QWidget* form_;
};

}  // namespace stridescope::ui
