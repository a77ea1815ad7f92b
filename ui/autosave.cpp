#include "ui/autosave.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QUndoStack>

#include "core/io/atomic_file.h"
#include "ui/file_path.h"
#include "ui/spec_document.h"

namespace stridescope::ui {

Autosave::Autosave(SpecDocument* document, QString folder, QObject* parent)
    : QObject(parent), document_(document), folder_(std::move(folder)) {
  timer_.setSingleShot(true);
  timer_.setInterval(kDefaultDelayMs);
  // A failure is reported through failed() and last_error().
  connect(&timer_, &QTimer::timeout, this, [this] { (void)write_now(); });
  // After the undo stack has moved (an edit, undo or redo): during the
  // document's specChanged the stack has not yet counted the edit.
  connect(document_->undo_stack(), &QUndoStack::indexChanged, this, &Autosave::schedule);
  connect(document_, &SpecDocument::modifiedChanged, this, &Autosave::on_modified_changed);
}

QString Autosave::default_folder() { return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation); }

QString Autosave::spec_path() const { return folder_ + QStringLiteral("/autosave.json"); }

QString Autosave::source_path() const { return folder_ + QStringLiteral("/autosave-source.txt"); }

// Never while the document is unmodified: a copy an unclean exit left must
// survive until the person has answered whether to recover it.
void Autosave::schedule() {
  if (document_->modified() && !timer_.isActive()) timer_.start();
}

void Autosave::on_modified_changed(bool modified) {
  if (modified) {
    schedule();
  } else {
    // Saved, or undone back to the saved state: nothing left to lose. Only a
    // copy this session wrote: opening a file at start-up must not remove
    // the one an unclean exit left before it is offered.
    if (owns_copy_) discard();
  }
}

std::optional<Expected<Autosave::Recovered>> Autosave::pending() const {
  if (!QFile::exists(spec_path())) return std::nullopt;
  Expected<Spec> spec = load_spec_file(to_path(spec_path()));
  if (!spec) return Expected<Recovered>(spec.error());
  Recovered recovered{std::move(spec.value()), std::nullopt};
  QFile source(source_path());
  if (source.open(QIODevice::ReadOnly)) {
    const QString file = QString::fromUtf8(source.readAll()).trimmed();
    if (!file.isEmpty()) recovered.file = to_path(file);
  }
  return Expected<Recovered>(std::move(recovered));
}

Status Autosave::write_now() {
  timer_.stop();
  if (!document_->modified()) return {};
  Status status = QDir().mkpath(folder_) ? Status{}
                                         : Status{Error{ErrorCode::Io, folder_.toStdString(), "cannot create the folder"}};
  if (status) status = save_spec_file(document_->spec(), to_path(spec_path()));
  if (status) {
    const std::string source = document_->file() ? document_->file()->string() : std::string();
    status = write_file_atomically(to_path(source_path()), source);
  }
  if (!status) {
    last_error_ = status.error();
    emit failed(QString::fromStdString(status.error().to_string()));
    return status;
  }
  last_error_.reset();
  owns_copy_ = true;
  emit written();
  return status;
}

void Autosave::discard() {
  timer_.stop();
  owns_copy_ = false;
  QFile::remove(spec_path());
  QFile::remove(source_path());
}

}  // namespace stridescope::ui
