// DxDispatch models in the app (ui/widgets/model_files.h): File > Open opens
// a one-dispatch model directly and asks which dispatch of a model with
// several (DispatchPicker: each dispatch's name and operator); Save never
// writes over an opened model; File > Save As DxDispatch Model writes the
// spec as a model that runs to the same output. Expected values are worked
// out by hand in the comments.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

#include <cstring>
#include <functional>
#include <sstream>

#include "core/codegen/dxdispatch_model.h"
#include "core/cpu_backend.h"
#include "shown_window.h"
#include "test_backends.h"
#include "ui/spec_document.h"
#include "ui/widgets/dispatch_picker.h"
#include "ui/widgets/main_window.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// "rev" (SLICE1, window [0,6) by -2) reads a = 1..6 from the end: 6, 4, 2
// into b; "pad" (PADDING, REFLECTION, 1 each side) reads b: 4 | 6, 4, 2 | 4.
constexpr const char* kTwoDispatches = R"({
  "resources": {
    "a": { "initialValuesDataType": "FLOAT32", "initialValues": [1, 2, 3, 4, 5, 6] },
    "b": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 3, "value": 0 } },
    "c": { "initialValuesDataType": "FLOAT32", "initialValues": { "valueCount": 5, "value": 0 } }
  },
  "dispatchables": {
    "rev": { "type": "DML_OPERATOR_SLICE1", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [6] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [3] },
      "DimensionCount": 1, "InputWindowOffsets": [0], "InputWindowSizes": [6], "InputWindowStrides": [-2] } },
    "pad": { "type": "PADDING", "desc": {
      "InputTensor": { "DataType": "FLOAT32", "Sizes": [3] }, "OutputTensor": { "DataType": "FLOAT32", "Sizes": [5] },
      "PaddingMode": "REFLECTION", "PaddingValue": 0, "DimensionCount": 1, "StartPadding": [1], "EndPadding": [1] } }
  },
  "commands": [
    { "type": "dispatch", "dispatchable": "rev", "bindings": { "InputTensor": "a", "OutputTensor": "b" } },
    { "type": "dispatch", "dispatchable": "pad", "bindings": { "InputTensor": "b", "OutputTensor": "c" } }
  ]
})";

QString models_dir() { return QStringLiteral(STRIDESCOPE_TEST_MODELS_DIR); }

QByteArray contents_of(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool write(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

std::vector<float> floats(const std::vector<std::byte>& bytes, std::size_t count) {
  std::vector<float> values(count);
  if (bytes.size() >= count * 4) std::memcpy(values.data(), bytes.data(), count * 4);
  return values;
}

// Answers the modal dialogs that open while it lives, from the event loop
// (exec() blocks the test until one is answered), and counts them.
class ModalAnswerer {
 public:
  explicit ModalAnswerer(std::function<void(QWidget*)> answer) : answer_(std::move(answer)) {
    QObject::connect(&poll_, &QTimer::timeout, [this] {
      QWidget* modal = QApplication::activeModalWidget();
      if (!modal || modal == last_) return;
      last_ = modal;
      ++seen_;
      answer_(modal);
    });
    poll_.start(20);
  }
  int seen() const { return seen_; }

 private:
  std::function<void(QWidget*)> answer_;
  QTimer poll_;
  QPointer<QWidget> last_;  // null once deleted: a new dialog at the same address is still answered
  int seen_ = 0;
};

}  // namespace

class ModelFilesTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir scratch_;

  // The shown evaluation is the document's newest spec.
  static bool shows_current_spec(const MainWindow& w) {
    return w.settled() && w.shown_evaluation() && w.shown_evaluation()->spec() == w.document()->spec();
  }

  QString copy_of_slice_model() {
    const QString path = scratch_.filePath(QStringLiteral("dml_slice.json"));
    QFile::remove(path);
    QFile::copy(models_dir() + QStringLiteral("/dml_slice.json"), path);
    return path;
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("ui_model_files_test"));
    QSettings().clear();  // ~/.qttest outlives the run: no recent files or folders from an earlier one
    QVERIFY(scratch_.isValid());
  }

  void Open_AModelWithOneDispatchOpensItsSpecWithoutAsking() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    ModalAnswerer none([](QWidget* modal) { modal->close(); });
    const QString model = copy_of_slice_model();
    const Status status = w->open_file(model);
    QVERIFY2(status.ok(), status.ok() ? "" : status.error().to_string().c_str());
    QTest::qWait(100);
    QCOMPARE(none.seen(), 0);
    QVERIFY(w->document()->file() == std::filesystem::path(model.toStdString()));
    const auto& slice = std::get<SliceRequest>(w->document()->spec().request.params);
    QVERIFY(slice.offsets == (std::vector<uint64_t>{0, 0, 1, 1}));
    QVERIFY(slice.strides == (std::vector<uint64_t>{1, 1, 1, 2}));
    // What DxDispatch prints for dml_slice.json: rows 1-3, columns 1 and 3 of 1..25.
    QTRY_VERIFY_WITH_TIMEOUT(shows_current_spec(*w), 20000);
    QVERIFY(floats(w->shown_evaluation()->output, 6) == (std::vector<float>{7, 9, 12, 14, 17, 19}));
  }

  void Open_AModelWithSeveralDispatchesAsksWhichOneListingNamesAndOperators() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    const QString model = scratch_.filePath(QStringLiteral("two.json"));
    QVERIFY(write(model, kTwoDispatches));
    QStringList rows;
    ModalAnswerer pick([&rows](QWidget* modal) {
      auto* picker = qobject_cast<DispatchPicker*>(modal);
      if (!picker) {
        modal->close();
        return;
      }
      QTreeWidget* list = picker->list();
      for (int i = 0; i < list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = list->topLevelItem(i);
        rows << QStringList{item->text(0), item->text(1), item->text(2), item->text(3)}.join(QStringLiteral(" | "));
      }
      list->setCurrentItem(list->topLevelItem(1));
      picker->accept();
    });
    const Status status = w->open_file(model);
    QVERIFY2(status.ok(), status.ok() ? "" : status.error().to_string().c_str());
    QCOMPARE(pick.seen(), 1);
    QCOMPARE(rows, (QStringList{QStringLiteral("0 | rev | DML_OPERATOR_SLICE1 | FLOAT32 [6] \u2192 [3]"),
                                QStringLiteral("1 | pad | DML_OPERATOR_PADDING | FLOAT32 [3] \u2192 [5]")}));
    // "pad" opened with the input "rev" left in b: 6, 4, 2.
    const Spec& spec = w->document()->spec();
    QVERIFY(std::holds_alternative<PaddingRequest>(spec.request.params));
    QVERIFY(std::get<std::vector<Scalar>>(spec.input_source) == (std::vector<Scalar>{6.0, 4.0, 2.0}));
    QTRY_VERIFY_WITH_TIMEOUT(shows_current_spec(*w), 20000);
    QVERIFY(floats(w->shown_evaluation()->output, 5) == (std::vector<float>{4, 6, 4, 2, 4}));
  }

  void Open_Unattended_AModelWithSeveralDispatchesOpensTheFirstWithoutAsking() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    w->set_unattended(true);  // as --screenshot does
    const QString model = scratch_.filePath(QStringLiteral("two.json"));
    QVERIFY(write(model, kTwoDispatches));
    ModalAnswerer none([](QWidget* modal) { modal->close(); });
    QVERIFY(w->open_file(model).ok());
    QTest::qWait(100);
    QCOMPARE(none.seen(), 0);
    // "rev": SLICE1 of 1..6 with stride -2 from the window's end: 6, 4, 2.
    QVERIFY(std::holds_alternative<Slice1Request>(w->document()->spec().request.params));
    QTRY_VERIFY_WITH_TIMEOUT(shows_current_spec(*w), 20000);
    QVERIFY(floats(w->shown_evaluation()->output, 3) == (std::vector<float>{6, 4, 2}));
  }

  void Open_CancellingTheDispatchPickerLeavesTheOpenSpecAsItWas() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    const Spec before = w->document()->spec();
    const auto file_before = w->document()->file();
    const QString model = scratch_.filePath(QStringLiteral("two.json"));
    QVERIFY(write(model, kTwoDispatches));
    ModalAnswerer cancel([](QWidget* modal) {
      if (auto* dialog = qobject_cast<QDialog*>(modal)) dialog->reject();
    });
    QVERIFY(w->open_file(model).ok());  // cancelling is no error
    QCOMPARE(cancel.seen(), 1);
    QVERIFY(w->document()->spec() == before);
    QVERIFY(w->document()->file() == file_before);
  }

  void Open_AModelStrideScopeCannotRunIsRefusedNamingTheField() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    const Spec before = w->document()->spec();
    const Status status = w->open_file(models_dir() + QStringLiteral("/microsoft_dml_element_wise_identity.json"));
    QVERIFY(!status.ok());
    QCOMPARE(QString::fromStdString(status.error().to_string()),
             QStringLiteral("dispatchables.identity.desc.ScaleBias: is not supported: StrideScope's identity has no "
                            "ScaleBias"));
    QVERIFY(w->document()->spec() == before);
  }

  void Save_OnAnOpenedModelAsksForANewFileAndNeverWritesTheModel() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    const QString model = copy_of_slice_model();
    QVERIFY(w->open_file(model).ok());
    const QByteArray original = contents_of(model);
    QVERIFY(w->save_needs_new_file());
    QString kind;
    ModalAnswerer answer([&kind](QWidget* modal) {
      auto* files = qobject_cast<QFileDialog*>(modal);
      kind = files && files->acceptMode() == QFileDialog::AcceptSave ? QStringLiteral("save-file") : QStringLiteral("other");
      if (auto* dialog = qobject_cast<QDialog*>(modal)) dialog->reject();
    });
    w->save_action()->trigger();  // Ctrl+S
    QCOMPARE(kind, QStringLiteral("save-file"));
    QCOMPARE(contents_of(model), original);
    // Nor does saving the spec to the model's path by name.
    const Status refused = w->save_file(model);
    QVERIFY(!refused.ok());
    QVERIFY(QString::fromStdString(refused.error().to_string()).contains(QStringLiteral("is a DxDispatch model")));
    QCOMPARE(contents_of(model), original);
  }

  void SaveAsModel_WritesTheSpecAsAModelThatRunsToTheSameOutput() {
    auto w = open_shown_window(cpu_only());
    QVERIFY(w);
    const QString example = QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + QStringLiteral("/slice1_example2_negative_strides.json");
    QVERIFY(w->open_file(example).ok());
    auto* action = w->findChild<QAction*>(QStringLiteral("saveModelAction"));
    QVERIFY(action);
    const QString target = scratch_.filePath(QStringLiteral("written_model.json"));
    QFile::remove(target);
    ModalAnswerer answer([&target](QWidget* modal) {
      if (auto* files = qobject_cast<QFileDialog*>(modal)) {
        // selectFile leaves the name field alone while it has the focus (the
        // dialog gives it the focus when shown, sooner or later than this
        // answer by the machine's timing), and accept() would then take the
        // directory: the field loses the focus first, as when a user clicks.
        if (QWidget* focused = files->focusWidget()) focused->clearFocus();
        files->selectFile(target);
        static_cast<QDialog*>(files)->accept();  // QFileDialog::accept, through its public base
      } else {
        modal->close();
      }
    });
    action->trigger();
    QCOMPARE(answer.seen(), 1);
    const QByteArray text = contents_of(target);
    QVERIFY(!text.isEmpty());
    Expected<DxModel> model = parse_dxdispatch_model(text.toStdString(), {});
    QVERIFY2(model.has_value(), model ? "" : model.error().to_string().c_str());
    CpuReferenceBackend backend;
    std::ostringstream printed;
    QVERIFY(run_dxdispatch_model(*model, backend, printed).ok());
    // slice1 example 2 (DirectML's page): [[14,16],[6,8]].
    QCOMPARE(QString::fromStdString(printed.str()), QStringLiteral("output: 14, 16, 6, 8\n"));
    // An export: the document keeps its file and its state.
    QCOMPARE(QString::fromStdString(w->document()->file()->string()), example);
    QVERIFY(!w->document()->modified());
  }
};

QTEST_MAIN(ModelFilesTest)
#include "ui_model_files_test.moc"
