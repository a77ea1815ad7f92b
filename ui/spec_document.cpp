#include "ui/spec_document.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace stridescope::ui {

// Holds the spec before and after one edit. Edits of one field merge into
// one step for as long as the person stays in that field: digits typed one
// by one ("1", then "12") or a held arrow key are one edit of that field,
// however slowly they come.
class SpecEditCommand : public QUndoCommand {
 public:
  SpecEditCommand(SpecDocument* document, Spec before, Spec after, const QString& text, const QString& key)
      : QUndoCommand(text), document_(document), before_(std::move(before)), after_(std::move(after)),
        key_(key), epoch_(document->merge_epoch_) {}

  void undo() override {
    document_->end_merging();
    document_->apply(before_);
  }
  void redo() override {
    if (pushed_) document_->end_merging();  // a redo, not the push itself
    pushed_ = true;
    document_->apply(after_);
  }
  int id() const override { return key_.isEmpty() ? -1 : 1; }

  bool mergeWith(const QUndoCommand* other) override {
    const auto* next = dynamic_cast<const SpecEditCommand*>(other);
    if (!next || next->key_ != key_ || next->epoch_ != epoch_) return false;
    after_ = next->after_;
    return true;
  }

 private:
  SpecDocument* document_;
  Spec before_;
  Spec after_;
  QString key_;
  quint64 epoch_;
  bool pushed_ = false;
};

SpecDocument::SpecDocument(Spec initial, QObject* parent)
    : QObject(parent), spec_(std::move(initial)), undo_(new QUndoStack(this)) {
  connect(undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

// The undo stack is a child: QObject deletes it only after this object has
// stopped being a SpecDocument, and it clears itself then, emitting
// indexChanged. Nobody listening (the autosave asks modified()) may hear that.
SpecDocument::~SpecDocument() { undo_->disconnect(); }

void SpecDocument::edit(Spec next, const QString& description, const QString& merge_key) {
  undo_->push(new SpecEditCommand(this, spec_, std::move(next), description, merge_key));
}

void SpecDocument::apply(const Spec& spec) {
  spec_ = spec;
  emit specChanged();
}

void SpecDocument::reset(Spec spec, std::optional<std::filesystem::path> file) {
  undo_->clear();
  end_merging();
  spec_ = std::move(spec);
  file_ = std::move(file);
  undo_->setClean();
  emit replaced();
  emit fileChanged();
  emit modifiedChanged(false);
  emit specChanged();
}

void SpecDocument::restore(Spec spec, std::optional<std::filesystem::path> file) {
  reset(std::move(spec), std::move(file));
  undo_->resetClean();  // emits modifiedChanged(true) through cleanChanged
}

Status SpecDocument::open(const std::filesystem::path& file) {
  SS_ASSIGN_OR_RETURN(Spec loaded, load_spec_file(file));
  reset(std::move(loaded), file);
  return {};
}

Status SpecDocument::save(const std::filesystem::path& file) {
  SS_RETURN_IF_ERROR(save_spec_file(spec_, file));
  end_merging();  // an edit after a save is a new step, so undo can reach the saved state
  file_ = file;
  undo_->setClean();
  emit fileChanged();
  return {};
}

bool SpecDocument::modified() const { return !undo_->isClean(); }

QString SpecDocument::display_name() const {
  if (!file_) return tr("Untitled");
  return QString::fromStdString(file_->filename().string());
}

}  // namespace stridescope::ui
