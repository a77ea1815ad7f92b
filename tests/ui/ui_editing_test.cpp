// Editing that does not fight the person (the spec editor and the window):
// the stride presets and fills in the form, one undo step per field edit (a
// dragged field too), undo and redo restoring the output, Ctrl+Z in a field
// undoing the document, an error banner that does not move the form, a
// window kept on the screen, File > New Window, and the examples'
// descriptions shown in the app.
#include <QComboBox>
#include <QDir>
#include <QGroupBox>
#include <QLabel>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QUndoStack>
#include <QtTest>

#include "test_backends.h"
#include "ui/autosave.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/window_geometry.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

template <class W>
W* field(MainWindow& window, const QString& path) {
  return qobject_cast<W*>(window.editor()->field_widget(path));
}

// Chooses the entry whose text contains `text`, as a person would: the combo
// emits activated.
bool choose(QComboBox* combo, const QString& text) {
  for (int i = 0; i < combo->count(); ++i) {
    if (!combo->itemText(i).contains(text)) continue;
    combo->setCurrentIndex(i);
    emit combo->activated(i);
    return true;
  }
  return false;
}

int y_in(const QWidget* widget, const QWidget* ancestor) { return widget->mapTo(ancestor, QPoint(0, 0)).y(); }

}  // namespace

class EditingTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  MainWindow& fresh() {
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(1400, 900);
    window_->show();
    window_->activateWindow();
    settle();
    return *window_;
  }
  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }
  TensorPlaneModel& input() { return *window_->plane_model(TensorRole::Input); }
  TensorPlaneModel& output() { return *window_->plane_model(TensorRole::Output); }
  const Spec& spec() { return window_->document()->spec(); }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeEditingTests"));
  }
  void cleanup() { window_.reset(); }

  void UndoRedo_RestoresParameterEdits() {
    MainWindow& w = fresh();
    QUndoStack* undo = w.document()->undo_stack();
    QSpinBox* stride = field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[2]"));
    stride->setValue(2);
    settle();
    QCOMPARE(grid_texts(output()), numbers({2, 4, 10, 12}));
    QVERIFY(w.document()->modified());
    undo->undo();
    settle();
    QCOMPARE(stride->value(), -2);
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
    QVERIFY(!w.document()->modified());
    undo->redo();
    settle();
    QCOMPARE(stride->value(), 2);
    QCOMPARE(grid_texts(output()), numbers({2, 4, 10, 12}));
  }

  void DraggingOneField_IsOneUndoStep() {
    MainWindow& w = fresh();
    QUndoStack* undo = w.document()->undo_stack();
    QSpinBox* offset = field<QSpinBox>(w, QStringLiteral("params.inputWindowOffsets[3]"));
    const int before = undo->count();
    for (int v : {0, 1, 0, 1, 0}) offset->setValue(v);
    QCOMPARE(undo->count(), before + 1);
    settle();
    undo->undo();
    settle();
    QCOMPARE(offset->value(), 1);
  }

  void StridePresetMenu_OffersEveryLayoutAndATransposePerPair() {
    MainWindow& w = fresh();
    auto* preset = field<QComboBox>(w, QStringLiteral("input.stridePreset"));
    QVERIFY(preset);
    QStringList texts;
    for (int i = 0; i < preset->count(); ++i) texts << preset->itemText(i);
    // 4 dimensions: packed, column-major, channels-last, 6 pairs, custom.
    QCOMPARE(preset->count(), 10);
    QVERIFY(texts.first().startsWith(QStringLiteral("Packed")));
    QVERIFY(texts.last().startsWith(QStringLiteral("Custom")));
    QVERIFY(texts.contains(QStringLiteral("Transpose d2 \u2194 d3")));
  }

  void TransposePreset_SwapsHeightAndWidthInMemoryAndFollowsASizeEdit() {
    MainWindow& w = fresh();
    auto* preset = field<QComboBox>(w, QStringLiteral("input.stridePreset"));
    QVERIFY(choose(preset, QStringLiteral("Transpose d2 \u2194 d3")));
    settle();
    // [1,1,4,4] with H and W swapped: W stride 4, H stride 1.
    QCOMPARE(*spec().request.input.strides, (std::vector<uint64_t>{16, 16, 1, 4}));
    QCOMPARE(preset->currentText(), QStringLiteral("Transpose d2 \u2194 d3"));
    // Iota in buffer order read through the swapped strides: in[h, w] = 1 + h + 4w.
    QCOMPARE(grid_texts(input()).mid(0, 4), numbers({1, 5, 9, 13}));
    // A size edit keeps the layout: [1,1,4,5] transposed is W stride 4, H stride 1, C and N 20.
    field<QSpinBox>(w, QStringLiteral("input.sizes[3]"))->setValue(5);
    settle();
    QCOMPARE(*spec().request.input.strides, (std::vector<uint64_t>{20, 20, 1, 4}));
  }

  void ColumnMajorPreset_ReversesTheOrder() {
    MainWindow& w = fresh();
    QVERIFY(choose(field<QComboBox>(w, QStringLiteral("input.stridePreset")), QStringLiteral("Column-major")));
    settle();
    // [1,1,4,4]: N 1, C 1, H 1, W 4 (each the product of the sizes before it).
    QCOMPARE(*spec().request.input.strides, (std::vector<uint64_t>{1, 1, 1, 4}));
  }

  void LogicalIotaFill_CountsAcrossTheGridWhateverTheStrides() {
    MainWindow& w = fresh();
    QVERIFY(choose(field<QComboBox>(w, QStringLiteral("input.stridePreset")), QStringLiteral("Transpose d2 \u2194 d3")));
    settle();
    QVERIFY(choose(field<QComboBox>(w, QStringLiteral("input.fill")), QStringLiteral("logical order")));
    settle();
    QVERIFY(std::holds_alternative<FillLogicalIota>(std::get<Fill>(spec().input_source)));
    QVERIFY(!w.current_error());
    QCOMPARE(grid_texts(input()).mid(0, 8), numbers({1, 2, 3, 4, 5, 6, 7, 8}));
  }

  void RandomIntegersFill_DrawsSmallWholeNumbers() {
    MainWindow& w = fresh();
    QVERIFY(choose(field<QComboBox>(w, QStringLiteral("input.fill")), QStringLiteral("Random integers")));
    settle();
    const auto& random = std::get<FillRandom>(std::get<Fill>(spec().input_source));
    QVERIFY(random.integers);
    QCOMPARE(random.min, -9.0);
    QCOMPARE(random.max, 9.0);
    for (const QString& text : grid_texts(input())) {
      bool whole = false;
      const int value = text.toInt(&whole);
      QVERIFY2(whole && value >= -9 && value <= 9, qPrintable(text));
    }
  }

  void TypingTwoDigits_IsOneUndoStepHoweverSlow() {
    MainWindow& w = fresh();
    QUndoStack* undo = w.document()->undo_stack();
    const int before = undo->count();
    QSpinBox* size = field<QSpinBox>(w, QStringLiteral("input.sizes[3]"));
    size->setFocus();
    size->selectAll();
    QTest::keyClicks(size, QStringLiteral("1"));
    QTest::qWait(2200);  // a pause longer than any burst of key repeats
    QTest::keyClicks(size, QStringLiteral("2"));
    settle();
    QCOMPARE(*spec().request.input.sizes, (std::vector<uint64_t>{1, 1, 4, 12}));
    QCOMPARE(undo->count(), before + 1);
    undo->undo();
    settle();
    QCOMPARE(*spec().request.input.sizes, (std::vector<uint64_t>{1, 1, 4, 4}));
    QCOMPARE(size->value(), 4);
  }

  void EnterEndsAFieldEdit_TheNextTypingIsAnotherStep() {
    MainWindow& w = fresh();
    QUndoStack* undo = w.document()->undo_stack();
    const int before = undo->count();
    QSpinBox* size = field<QSpinBox>(w, QStringLiteral("input.sizes[3]"));
    size->setFocus();
    size->selectAll();
    QTest::keyClicks(size, QStringLiteral("6"));
    QTest::keyClick(size, Qt::Key_Return);
    size->selectAll();
    QTest::keyClicks(size, QStringLiteral("5"));
    settle();
    QCOMPARE(undo->count(), before + 2);
    undo->undo();
    settle();
    QCOMPARE(size->value(), 6);
  }

  void CtrlZInAField_UndoesTheDocument() {
    MainWindow& w = fresh();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QSpinBox* size = field<QSpinBox>(w, QStringLiteral("input.sizes[3]"));
    size->setFocus();
    size->selectAll();
    QTest::keyClicks(size, QStringLiteral("12"));
    settle();
    QCOMPARE(int_field(spec(), "input.sizes[3]").value(), int64_t{12});
    QVERIFY(w.document()->modified());
    QTest::keySequence(size, QKeySequence(QKeySequence::Undo));
    settle();
    QCOMPARE(int_field(spec(), "input.sizes[3]").value(), int64_t{4});  // the value before the field edit
    QCOMPARE(size->value(), 4);
    QVERIFY(!w.document()->modified());  // back at the opened state, not a new edit
    QCOMPARE(w.document()->undo_stack()->index(), 0);
    QTest::keySequence(size, QKeySequence(QKeySequence::Redo));
    settle();
    QCOMPARE(int_field(spec(), "input.sizes[3]").value(), int64_t{12});
  }

  void ErrorBanner_DoesNotMoveTheForm() {
    MainWindow& w = fresh();
    SpecEditor* editor = w.editor();
    auto* group = editor->findChild<QGroupBox*>(QStringLiteral("inputGroup"));
    auto* banner = editor->findChild<QLabel*>(QStringLiteral("errorBanner"));
    QVERIFY(group && banner);
    const int valid_y = y_in(group, editor);
    QVERIFY(!banner->isVisible());
    field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[2]"))->setValue(0);
    settle();
    QVERIFY(w.current_error().has_value());
    QVERIFY(banner->isVisible());
    QCOMPARE(y_in(group, editor), valid_y);
    field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[2]"))->setValue(-2);
    settle();
    QVERIFY(!banner->isVisible());
    QCOMPARE(y_in(group, editor), valid_y);
  }

  void FitInside_MovesAndShrinksAWindowOntoTheScreen() {
    const QRect screen(0, 0, 1920, 1080);
    QCOMPARE(fit_inside(QRect(100, 100, 800, 600), screen), QRect(100, 100, 800, 600));  // already inside
    QCOMPARE(fit_inside(QRect(3000, 100, 800, 600), screen), QRect(1120, 100, 800, 600));  // off to the right
    QCOMPARE(fit_inside(QRect(-50, -40, 2500, 1400), screen), QRect(0, 0, 1920, 1080));  // too large
    QCOMPARE(fit_inside(QRect(1500, 900, 800, 600), QRect(1920, 0, 1366, 768)), QRect(1920, 168, 800, 600));
    QVERIFY(lies_on_a_screen(QRect(100, 100, 800, 600), {screen}));
    QVERIFY(!lies_on_a_screen(QRect(3000, 100, 800, 600), {screen}));
    QVERIFY(lies_on_a_screen(QRect(-8, -8, 1936, 1096), {screen}));  // a maximised window's frame
    QVERIFY(lies_on_a_screen(QRect(100, 100, 2500, 1400), {screen}));   // larger, but its title bar is on it
    QVERIFY(!lies_on_a_screen(QRect(100, -400, 800, 600), {screen}));   // title bar above the screen
  }

  void RestoredGeometry_IsKeptOnTheScreen() {
    {
      MainWindow away(cpu_only());
      away.setGeometry(QRect(20000, 20000, 700, 500));
      QSettings().setValue("window/geometry", away.saveGeometry());
    }
    MainWindow w(cpu_only());
    const QRect available = w.screen()->availableGeometry();
    // Its top left corner on the screen (it may not shrink below its minimum size).
    QVERIFY2(available.contains(w.frameGeometry().topLeft()), qPrintable(QStringLiteral("%1,%2 %3x%4 outside %5x%6")
                                                                    .arg(w.x()).arg(w.y()).arg(w.width())
                                                                    .arg(w.height()).arg(available.width())
                                                                    .arg(available.height())));
    QSettings().remove("window/geometry");
  }

  // The window grows on its own only where its minimum size forces it: for
  // every example that minimum fits a 1366x768 laptop screen.
  void MinimumSize_FitsASmallScreenForEveryExample() {
    MainWindow& w = fresh();
    w.resize(1366 * 95 / 100, 768 * 95 / 100);
    QStringList specs;
    for (const QString& name : QDir(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR)).entryList({QStringLiteral("*.json")})) {
      specs << QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR "/") + name;
    }
    for (const QString& path : specs) {
      QVERIFY(w.open_file(path).ok());
      settle();
      QCoreApplication::processEvents();
      const QSize minimum = w.minimumSizeHint();
      QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 768,
               qPrintable(QStringLiteral("%1: %2x%3").arg(path).arg(minimum.width()).arg(minimum.height())));
    }
  }

  void NewWindow_OpensASecondWindowWithItsOwnDocument() {
    MainWindow& w = fresh();
    QVERIFY(!w.new_window_action()->isEnabled());  // no backends to give it yet
    w.set_backend_maker([] { return cpu_only(); });
    QVERIFY(w.new_window_action()->isEnabled());
    w.new_window_action()->trigger();
    MainWindow* other = nullptr;
    for (QWidget* top : QApplication::topLevelWidgets()) {
      if (auto* window = qobject_cast<MainWindow*>(top); window && window != &w) other = window;
    }
    QVERIFY(other);
    QPointer<MainWindow> second = other;
    QVERIFY(second->isVisible());
    QVERIFY(second->document() != w.document());
    QTRY_VERIFY_WITH_TIMEOUT(second->settled(), 20000);
    QVERIFY(second->autosave()->spec_path() != w.autosave()->spec_path());
    // An edit in one window leaves the other's spec alone.
    QVERIFY(w.open_file(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/padding_example3_reflection.json").ok());
    QVERIFY(second->open_file(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/padding_example4_symmetric.json").ok());
    settle();
    QTRY_VERIFY_WITH_TIMEOUT(second->settled(), 20000);
    QCOMPARE(std::get<PaddingRequest>(spec().request.params).padding_mode, PaddingMode::Reflection);
    QCOMPARE(std::get<PaddingRequest>(second->document()->spec().request.params).padding_mode,
             PaddingMode::Symmetric);
    // First row of each (resources/examples/README.md): 7 6 5 6 ... and 2 1 1 2 ...
    QCOMPARE(grid_texts(*w.plane_model(TensorRole::Output)).mid(0, 4), numbers({7, 6, 5, 6}));
    QCOMPARE(grid_texts(*second->plane_model(TensorRole::Output)).mid(0, 4), numbers({2, 1, 1, 2}));
    second->close();
    QTRY_VERIFY(second.isNull());  // deleted on close
    QVERIFY(w.isVisible());
  }

  void OpenedExample_ShowsItsDescription() {
    MainWindow& w = fresh();
    auto* description = w.editor()->findChild<QLabel*>(QStringLiteral("specDescription"));
    QVERIFY(description);
    QVERIFY(!description->isVisible());  // the default spec has none
    QVERIFY(w.open_file(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/slice1_flip_negative_stride.json").ok());
    settle();
    QVERIFY(description->isVisible());
    QVERIFY2(description->text().startsWith(QStringLiteral("Flip by a negative stride")), qPrintable(description->text()));
    // Each row of 1..8 reversed.
    QCOMPARE(grid_texts(*w.plane_model(TensorRole::Output)), numbers({4, 3, 2, 1, 8, 7, 6, 5}));
  }
};

QTEST_MAIN(EditingTest)
#include "ui_editing_test.moc"
