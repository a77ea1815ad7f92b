// The spec being edited, its file, and the undo history of its edits. Every
// change goes through here, so undo/redo, the window title's "modified" mark
// and re-evaluation all follow from one signal.
#pragma once

#include <filesystem>
#include <optional>

#include <QObject>
#include <QString>

#include "core/io/spec_file.h"

class QUndoStack;

namespace stridescope::ui {

class SpecDocument : public QObject {
  Q_OBJECT

 public:
  explicit SpecDocument(Spec initial, QObject* parent = nullptr);
  ~SpecDocument() override;

  const Spec& spec() const { return spec_; }
  QUndoStack* undo_stack() const { return undo_; }

  // An undoable edit. Consecutive edits with the same `merge_key` (one field
  // typed digit by digit, dragged or stepped through many values) become one
  // undo step, until end_merging(), an undo or a redo closes that step.
  void edit(Spec next, const QString& description, const QString& merge_key = {});
  // The person finished editing a field (Enter, focus left it): its next
  // edit is a new undo step.
  void end_merging() { ++merge_epoch_; }

  // New document / file opened: replaces the spec and clears the history.
  void reset(Spec spec, std::optional<std::filesystem::path> file);
  // Edits recovered from an autosave: like reset(), but marked unsaved, since
  // `file` (if any) does not hold them.
  void restore(Spec spec, std::optional<std::filesystem::path> file);

  // Opens and saves spec files (resources/docs/spec-format.md); saving is atomic. A failed save
  // changes nothing: the file on disk, the spec and the unsaved mark stay.
  Status open(const std::filesystem::path& file);
  Status save(const std::filesystem::path& file);

  const std::optional<std::filesystem::path>& file() const { return file_; }
  bool modified() const;
  // "name.json" or "Untitled".
  QString display_name() const;

 signals:
  void specChanged();
  // Emitted by reset() before specChanged: a different spec, not an edit.
  void replaced();
  void fileChanged();
  void modifiedChanged(bool modified);

 private:
  friend class SpecEditCommand;
  void apply(const Spec& spec);  // used by the undo commands

  Spec spec_;
  std::optional<std::filesystem::path> file_;
  QUndoStack* undo_ = nullptr;
  quint64 merge_epoch_ = 0;  // edits merge only within one epoch
};

}  // namespace stridescope::ui
