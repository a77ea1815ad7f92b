#include "ui/widgets/document_undo_keys.h"

#include <QApplication>
#include <QKeyEvent>
#include <QWidget>

namespace stridescope::ui {

DocumentUndoKeys::DocumentUndoKeys(QWidget* form) : QObject(form), form_(form) {
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
    if (now && form_->isAncestorOf(now)) now->installEventFilter(this);  // installed once however often
  });
}

bool DocumentUndoKeys::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress) return QObject::eventFilter(watched, event);
  const auto* key = static_cast<QKeyEvent*>(event);
  if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo)) {
    return QObject::eventFilter(watched, event);
  }
  // Not overridden: the window's Undo / Redo action takes the key as its
  // shortcut. A key press that still arrives (nothing to undo, the action is
  // disabled) must not undo the field's text either.
  event->ignore();
  return true;
}

}  // namespace stridescope::ui
