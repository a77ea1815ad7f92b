// Keeps a copy of the document's unsaved edits in the app's data folder, so a
// crash, a killed process or a power cut loses at most a few seconds of work:
//   - a few seconds after an edit leaves the document modified, the spec is
//     written (atomically) to FOLDER/autosave.json, with the file it was
//     opened from in FOLDER/autosave-source.txt;
//   - once the document is saved or back to its saved state, the copy this
//     session wrote goes;
//   - a clean exit removes it (discard()); so a copy found at start-up is
//     what an unclean exit left behind, and pending() offers it back.
// No widgets: the main window asks the person; tests drive this directly.
#pragma once

#include <filesystem>
#include <optional>

#include <QObject>
#include <QString>
#include <QTimer>

#include "core/error.h"
#include "core/io/spec_file.h"

namespace stridescope::ui {

class SpecDocument;

class Autosave : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultDelayMs = 3000;

  // `folder` is created when first written; default_folder() is the app's
  // data folder (QStandardPaths::AppDataLocation).
  Autosave(SpecDocument* document, QString folder, QObject* parent = nullptr);
  static QString default_folder();

  // How long after an edit the copy is written. Edits in between do not push
  // it back, so steady editing is still saved every `ms`.
  void set_delay(int ms) { timer_.setInterval(ms); }
  QString spec_path() const;
  QString source_path() const;

  struct Recovered {
    Spec spec;
    std::optional<std::filesystem::path> file;  // the file the edits were made to, if any
  };
  // What an unclean exit left behind: nothing, the spec, or why it cannot be read.
  std::optional<Expected<Recovered>> pending() const;

  // Writes the document now when it has unsaved edits; nothing otherwise.
  Status write_now();
  // Removes the copy: the person saved, discarded, or chose not to recover it.
  void discard();
  // The last write's failure, if any (a full disk must not go unnoticed).
  const std::optional<Error>& last_error() const { return last_error_; }

 signals:
  void written();
  void failed(const QString& message);

 private:
  void schedule();
  void on_modified_changed(bool modified);

  SpecDocument* document_;
  QString folder_;
  QTimer timer_;
  std::optional<Error> last_error_;
  bool owns_copy_ = false;  // the copy on disk is this session's
};

}  // namespace stridescope::ui
