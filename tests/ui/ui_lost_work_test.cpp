// No lost work (ui/autosave.h, ui/widgets/main_window.h): the autosave keeps
// unsaved edits across an unclean exit and goes after a clean one; a refused
// save says why and changes nothing; a bundled example is never overwritten.
#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QSignalSpy>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include <memory>

#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "test_backends.h"
#include "ui/autosave.h"
#include "ui/examples.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/main_window.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// An edit any spec takes: the input's values become zeros (or iota again).
Spec with_fill(Spec spec, Fill fill) {
  spec.input_source = fill;
  return spec;
}

QByteArray contents_of(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Root ignores a folder's permissions (CAP_DAC_OVERRIDE). To test a
// read-only folder as root too, the capability leaves the effective set for
// the object's lifetime (it stays permitted, so it comes back after).
class WithoutPermissionOverride {
 public:
  WithoutPermissionOverride() {
    if (::geteuid() != 0) return;
    header_.version = _LINUX_CAPABILITY_VERSION_3;
    if (::syscall(SYS_capget, &header_, saved_) != 0) return;
    __user_cap_data_struct reduced[2] = {saved_[0], saved_[1]};
    reduced[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
    changed_ = ::syscall(SYS_capset, &header_, reduced) == 0;
  }
  ~WithoutPermissionOverride() {
    if (changed_) ::syscall(SYS_capset, &header_, saved_);
  }
  bool permissions_apply() const { return ::geteuid() != 0 || changed_; }

 private:
  __user_cap_header_struct header_{};
  __user_cap_data_struct saved_[2]{};
  bool changed_ = false;
};

// Answers the next modal dialog from the event loop: records its text and
// presses `button` (message boxes) or rejects it (file dialogs).
struct DialogAnswer {
  QString text;
  QString kind;  // "message", "save-file" or "other"
};
void answer_next_dialog(DialogAnswer* seen, QMessageBox::StandardButton button = QMessageBox::Ok) {
  auto* poll = new QTimer;
  auto tries = std::make_shared<int>(0);
  QObject::connect(poll, &QTimer::timeout, poll, [seen, button, poll, tries] {
    QWidget* modal = QApplication::activeModalWidget();
    if (!modal) {
      if (++*tries > 250) poll->deleteLater();  // none came within 5 s: the test's checks say so
      return;
    }
    if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      seen->kind = QStringLiteral("message");
      seen->text = box->text();
      if (QAbstractButton* b = box->button(button)) {
        b->click();
      } else {
        box->reject();
      }
    } else if (auto* files = qobject_cast<QFileDialog*>(modal)) {
      seen->kind = files->acceptMode() == QFileDialog::AcceptSave ? QStringLiteral("save-file") : QStringLiteral("other");
      files->reject();
    } else {
      seen->kind = QStringLiteral("other");
      modal->close();
    }
    poll->deleteLater();
  });
  poll->start(20);
}

}  // namespace

class LostWorkTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir scratch_;

  QString autosave_folder() const { return Autosave::default_folder(); }

  std::unique_ptr<MainWindow> window() {
    auto window = std::make_unique<MainWindow>(cpu_only());
    window->autosave()->set_delay(20);
    window->resize(1200, 800);
    window->show();
    // The tests check settled() themselves: a QVERIFY cannot return a window.
    if (!QTest::qWaitFor([&] { return window->settled(); }, 20000)) qWarning("the window did not settle");
    return window;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // the data folder under ~/.qttest, not the person's
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("ui_lost_work_test"));
    QSettings().clear();  // ~/.qttest outlives the run: no recent files or folders from an earlier one
    QVERIFY(scratch_.isValid());
  }
  void init() { QDir(autosave_folder()).removeRecursively(); }
  void cleanupTestCase() { QDir(autosave_folder()).removeRecursively(); }

  void Autosave_WritesTheEditedSpecAFewMomentsAfterAnEdit() {
    SpecDocument document(default_spec());
    QTemporaryDir folder;
    Autosave autosave(&document, folder.path() + QStringLiteral("/data"));
    autosave.set_delay(30);
    QSignalSpy written(&autosave, &Autosave::written);
    document.edit(with_fill(document.spec(), FillZeros{}), QStringLiteral("zeros"));
    QVERIFY(!QFile::exists(autosave.spec_path()));  // not on every keystroke: after the delay
    QTRY_VERIFY(QFile::exists(autosave.spec_path()));
    QCOMPARE(written.count(), 1);
    Expected<Spec> saved = load_spec_file(autosave.spec_path().toStdString());
    QVERIFY(saved.has_value());
    QVERIFY(*saved == document.spec());
  }

  void Autosave_LeftByAnUncleanExitIsOfferedBackWithItsFile() {
    QTemporaryDir folder;
    const QString data = folder.path() + QStringLiteral("/data");
    const QString file = folder.path() + QStringLiteral("/mine.json");
    Spec edited;
    {
      SpecDocument document(default_spec());
      QVERIFY(document.save(file.toStdString()).ok());
      Autosave autosave(&document, data);
      document.edit(with_fill(document.spec(), FillZeros{}), QStringLiteral("zeros"));
      QVERIFY(autosave.write_now().ok());
      edited = document.spec();
    }  // gone without discard(): what a crash leaves

    SpecDocument next(default_spec());
    Autosave autosave(&next, data);
    const auto pending = autosave.pending();
    QVERIFY(pending.has_value());
    QVERIFY(pending->has_value());
    QVERIFY((*pending)->spec == edited);
    QCOMPARE(QString::fromStdString((*pending)->file->string()), file);
    next.restore((*pending)->spec, (*pending)->file);
    QVERIFY(next.modified());  // the file on disk does not hold these edits
    QVERIFY(next.spec() == edited);
  }

  void Autosave_OpeningAnotherSpecKeepsTheCopyAnUncleanExitLeft() {
    QTemporaryDir folder;
    const QString data = folder.path() + QStringLiteral("/data");
    {
      SpecDocument crashed(default_spec());
      Autosave autosave(&crashed, data);
      crashed.edit(with_fill(crashed.spec(), FillZeros{}), QStringLiteral("zeros"));
      QVERIFY(autosave.write_now().ok());
    }
    SpecDocument document(default_spec());
    Autosave autosave(&document, data);
    autosave.set_delay(10);
    document.reset(default_spec(), std::nullopt);  // a file opened at start-up, before the offer
    QTest::qWait(50);
    QVERIFY(QFile::exists(autosave.spec_path()));
    QVERIFY(autosave.pending().has_value());
  }

  void Autosave_GoesWhenSavedUndoneOrDiscarded() {
    QTemporaryDir folder;
    SpecDocument document(default_spec());
    Autosave autosave(&document, folder.path() + QStringLiteral("/data"));
    autosave.set_delay(10);
    document.edit(with_fill(document.spec(), FillZeros{}), QStringLiteral("zeros"));
    QTRY_VERIFY(QFile::exists(autosave.spec_path()));
    QVERIFY(document.save((folder.path() + QStringLiteral("/saved.json")).toStdString()).ok());
    QVERIFY(!QFile::exists(autosave.spec_path()));

    document.edit(with_fill(document.spec(), FillIota{}), QStringLiteral("iota"));
    QTRY_VERIFY(QFile::exists(autosave.spec_path()));
    document.undo_stack()->undo();  // back to the saved state
    QVERIFY(!QFile::exists(autosave.spec_path()));

    document.edit(with_fill(document.spec(), FillIota{}), QStringLiteral("iota"));
    QTRY_VERIFY(QFile::exists(autosave.spec_path()));
    autosave.discard();
    QVERIFY(!QFile::exists(autosave.spec_path()));
    QVERIFY(!autosave.pending().has_value());
  }

  void Autosave_AFolderThatCannotBeMadeIsReported() {
    QTemporaryDir folder;
    QFile blocker(folder.path() + QStringLiteral("/not-a-folder"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    SpecDocument document(default_spec());
    Autosave autosave(&document, blocker.fileName() + QStringLiteral("/data"));
    QSignalSpy failed(&autosave, &Autosave::failed);
    document.edit(with_fill(document.spec(), FillZeros{}), QStringLiteral("zeros"));
    QVERIFY(!autosave.write_now().ok());
    QCOMPARE(failed.count(), 1);
    QVERIFY(autosave.last_error().has_value());
    QVERIFY(document.modified());
  }

  void MainWindow_UncleanExitThenRecover_CleanCloseRemovesTheAutosave() {
    auto first = window();
    QVERIFY(first->settled());
    first->document()->edit(with_fill(first->document()->spec(), FillZeros{}), QStringLiteral("zeros"));
    const Spec edited = first->document()->spec();
    const QString copy = first->autosave()->spec_path();
    QTRY_VERIFY(QFile::exists(copy));
    first.reset();  // destroyed without closing: an unclean exit
    QVERIFY(QFile::exists(copy));

    auto second = window();
    QVERIFY(second->recover_autosave());
    QVERIFY(QFile::exists(copy));  // still kept while the recovered edits are unsaved
    QVERIFY(second->document()->spec() == edited);
    QVERIFY(second->document()->modified());
    QVERIFY(second->isWindowModified());

    DialogAnswer seen;
    answer_next_dialog(&seen, QMessageBox::Discard);  // "unsaved changes. Save them?"
    QVERIFY(second->close());
    QCOMPARE(seen.kind, QStringLiteral("message"));
    QVERIFY(!QFile::exists(copy));  // a clean exit leaves nothing to offer back
    QVERIFY(!second->recover_autosave());
  }

  void FailedSave_ReadOnlyFolder_SaysWhyKeepsTheDocumentUnsavedAndLosesNothing() {
    QTemporaryDir folder;
    const QString file = folder.path() + QStringLiteral("/spec.json");
    auto main = window();
    QVERIFY(main->save_file(file).ok());
    const QByteArray on_disk = contents_of(file);
    main->document()->edit(with_fill(main->document()->spec(), FillZeros{}), QStringLiteral("zeros"));
    const Spec edited = main->document()->spec();
    QTRY_VERIFY(QFile::exists(main->autosave()->spec_path()));
    QTRY_VERIFY_WITH_TIMEOUT(main->settled(), 20000);  // no evaluation left to clear the status bar

    QVERIFY(QFile::setPermissions(folder.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    {
      WithoutPermissionOverride unprivileged;
      if (!unprivileged.permissions_apply()) {
        QFile::setPermissions(folder.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QSKIP("running as root without a way to drop CAP_DAC_OVERRIDE: a read-only folder is writable");
      }
      DialogAnswer seen;
      answer_next_dialog(&seen);
      main->save_action()->trigger();
      QCOMPARE(seen.kind, QStringLiteral("message"));
      QVERIFY2(seen.text.contains(QStringLiteral("Permission denied")), qPrintable(seen.text));
      QVERIFY2(seen.text.contains(QStringLiteral("spec.json")), qPrintable(seen.text));
    }
    QFile::setPermissions(folder.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QVERIFY(main->document()->modified());
    QVERIFY(main->isWindowModified());
    QVERIFY(main->document()->spec() == edited);
    QCOMPARE(QString::fromStdString(main->document()->file()->string()), file);
    QCOMPARE(contents_of(file), on_disk);  // the old file is whole
    QVERIFY(QFile::exists(main->autosave()->spec_path()));
    QVERIFY(main->statusBar()->currentMessage().contains(QStringLiteral("Not saved")));
    QVERIFY(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden).size() == 1);  // no temporary left
    main->document()->undo_stack()->setClean();  // lets the window close without asking
  }

  void FailedSave_AFolderThatIsGone_KeepsTheDocument() {
    QTemporaryDir folder;
    const QString sub = folder.path() + QStringLiteral("/project");
    QVERIFY(QDir().mkpath(sub));
    auto main = window();
    QVERIFY(main->save_file(sub + QStringLiteral("/spec.json")).ok());
    main->document()->edit(with_fill(main->document()->spec(), FillZeros{}), QStringLiteral("zeros"));
    QVERIFY(QDir(sub).removeRecursively());
    QFile blocker(sub);  // a file where the folder was
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const Status status = main->save_file(sub + QStringLiteral("/spec.json"));
    QVERIFY(!status.ok());
    QVERIFY(!status.error().to_string().empty());
    QVERIFY(main->document()->modified());
    main->document()->undo_stack()->setClean();
  }

  void Example_SaveAsksForANewFileAndTheExampleStaysAsItWas() {
    const QList<Example> examples = list_examples(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR));
    QVERIFY(!examples.isEmpty());
    const QString example = examples.front().path;
    QVERIFY(is_bundled_example(example, QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR)));
    const QByteArray original = contents_of(example);
    auto main = window();
    QVERIFY(main->open_file(example).ok());
    QVERIFY(main->save_needs_new_file());
    main->document()->edit(with_fill(main->document()->spec(), FillZeros{}), QStringLiteral("zeros"));

    DialogAnswer seen;
    answer_next_dialog(&seen);  // the Save As dialog: cancelled
    main->save_action()->trigger();
    QCOMPARE(seen.kind, QStringLiteral("save-file"));
    QVERIFY(main->document()->modified());
    QCOMPARE(contents_of(example), original);

    // Not through the API either.
    const Status direct = main->save_file(example);
    QVERIFY(!direct.ok());
    QVERIFY2(direct.error().to_string().find("bundled example") != std::string::npos, direct.error().to_string().c_str());
    QCOMPARE(contents_of(example), original);
    QVERIFY(main->document()->modified());

    // A copy elsewhere is an ordinary file: Save writes it without asking.
    QTemporaryDir folder;
    QVERIFY(main->save_file(folder.path() + QStringLiteral("/copy.json")).ok());
    QVERIFY(!main->save_needs_new_file());
    QVERIFY(!main->document()->modified());
  }
};

QTEST_MAIN(LostWorkTest)
#include "ui_lost_work_test.moc"
