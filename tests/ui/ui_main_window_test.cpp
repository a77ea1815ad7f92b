// The whole app offscreen (ui/widgets/main_window.h): open every example,
// edit through the widgets, invalid input, save and reopen,
// the File menu's exports, compare, linked hover, and a large tensor.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "core/backend.h"
#include "core/cpu_backend.h"
#include "test_backends.h"
#include "ui/diff_model.h"
#include "ui/evaluation_engine.h"
#include "ui/examples.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/cell_painter.h"
#include "ui/widgets/legend_bar.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/plane_selector.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// The output values the core's CPU reference gives for `spec`, in row-major
// order of the plane the window shows by default (every other index 0).
QStringList core_output_plane(const Spec& spec, const PlaneSelection& plane) {
  Expected<Operation> op = Operation::make(spec.request);
  if (!op) return {QString::fromStdString(op.error().to_string())};
  Expected<std::vector<std::byte>> input = make_input_buffer(spec, op->input());
  CpuReferenceBackend cpu;
  Expected<RunResult> result = run_to_new_buffers(cpu, *op, *input);
  QStringList texts;
  const Sizes& sizes = op->output().sizes();
  const uint64_t rows = plane.row_dim >= 0 ? sizes[plane.row_dim] : 1;
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t c = 0; c < sizes[plane.column_dim]; ++c) {
      Coord coord = plane.fixed;
      if (plane.row_dim >= 0) coord[plane.row_dim] = r;
      coord[plane.column_dim] = c;
      texts << cell_text(element_at(op->output(), result->output, coord));
    }
  }
  return texts;
}

template <class W>
W* field(MainWindow& window, const QString& path) {
  W* widget = qobject_cast<W*>(window.editor()->field_widget(path));
  if (!widget) qWarning("no %s widget for %s", W::staticMetaObject.className(), qPrintable(path));
  return widget;
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  MainWindow& fresh(BackendSet backends = cpu_only()) {
    window_ = std::make_unique<MainWindow>(std::move(backends));
    window_->resize(1400, 900);
    window_->show();
    settle();
    return *window_;
  }
  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }
  TensorPlaneModel& output() { return *window_->plane_model(TensorRole::Output); }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }
  void cleanup() { window_.reset(); }

  void StartsWithTheSlice1ExampleAndEveryModelPassesTheTester() {
    MainWindow& w = fresh();
    QAbstractItemModelTester t1(w.plane_model(TensorRole::Input), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&output(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(w.plane_model(TensorRole::Indices), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t4(w.memory_model(TensorRole::Input), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t5(w.memory_model(TensorRole::Output), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t6(w.diff_model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
    QVERIFY(!w.current_error());
    // Drive every model through shape changes while the testers watch.
    for (const Example& example : list_examples(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR))) {
      QVERIFY(w.open_file(example.path).ok());
      settle();
    }
  }

  void OpenEveryExample_ViewsShowTheCoreResult_data() {
    QTest::addColumn<QString>("path");
    const QList<Example> examples = list_examples(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR));
    QVERIFY(examples.size() >= 10);
    for (const Example& example : examples) QTest::newRow(qPrintable(example.title)) << example.path;
  }
  void OpenEveryExample_ViewsShowTheCoreResult() {
    QFETCH(QString, path);
    MainWindow& w = fresh();
    QVERIFY(w.open_file(path).ok());
    settle();
    QVERIFY2(!w.current_error(), w.current_error() ? w.current_error()->to_string().c_str() : "");
    QVERIFY(!w.document()->modified());
    QVERIFY(w.windowTitle().contains(QFileInfo(path).fileName()));
    const Spec& spec = w.document()->spec();
    QCOMPARE(grid_texts(output()), core_output_plane(spec, output().plane()));
    // Selecting an element states the core's rule for it.
    w.selection()->select_output(output().coord_at(0, 0));
    const EvaluationPtr& ev = w.shown_evaluation();
    const Expected<Provenance> p = explain(ev->op(), *output().coord_at(0, 0), ev->input);
    QCOMPARE(w.status_text(), QString::fromStdString(p->rule));
    QCOMPARE(w.panel(TensorRole::Indices)->isVisible(), ev->op().output_indices().has_value());
    // Layout examples too, packed output or not: both memory orders side by side.
    QVERIFY(w.panel(TensorRole::Output)->isVisible());
  }

  void EditStrideThroughSpinBox_UpdatesTheOutput() {
    MainWindow& w = fresh();
    QSpinBox* stride = field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[2]"));
    QVERIFY(stride);
    QCOMPARE(stride->value(), -2);
    stride->setValue(2);  // DirectML slice1 example 1
    settle();
    QCOMPARE(grid_texts(output()), numbers({2, 4, 10, 12}));
  }

  void TypeIntoSpinBox_UpdatesTheOutput() {
    MainWindow& w = fresh();
    QSpinBox* offset = field<QSpinBox>(w, QStringLiteral("params.inputWindowOffsets[3]"));
    QVERIFY(offset);
    offset->setFocus();
    offset->selectAll();
    QTest::keyClicks(offset, QStringLiteral("0"));
    settle();
    // Window columns 0..2 with stride 2 from row 3 upwards: in[3,0], in[3,2], in[1,0], in[1,2].
    QCOMPARE(grid_texts(output()), numbers({13, 15, 5, 7}));
    QCOMPARE(int_field(w.document()->spec(), "params.inputWindowOffsets[3]").value(), int64_t{0});
  }

  void InvalidInput_FieldTurnsRedWithTheCoreMessageAndTheLastResultStays() {
    MainWindow& w = fresh();
    QSpinBox* stride = field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[2]"));
    stride->setValue(0);
    settle();
    QVERIFY(w.current_error().has_value());
    QCOMPARE(QString::fromStdString(w.current_error()->to_string()),
             QStringLiteral("params.inputWindowStrides[2]: stride must not be 0"));
    QCOMPARE(w.editor()->invalid_widget(), stride);
    QCOMPARE(stride->toolTip(), QStringLiteral("params.inputWindowStrides[2]: stride must not be 0"));
    auto* banner = w.editor()->findChild<QLabel*>(QStringLiteral("errorBanner"));
    QVERIFY(banner->isVisible());
    QVERIFY(banner->text().contains(QStringLiteral("stride must not be 0")));
    // The banner names the field as the form does, then by its spec path.
    QVERIFY2(banner->text().contains(QStringLiteral("<b>Window stride, dim 2 (H)</b>")), qPrintable(banner->text()));
    QVERIFY(banner->text().contains(QStringLiteral("(params.inputWindowStrides[2])")));
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));  // the last valid result
    QVERIFY(w.panel(TensorRole::Output)->grid()->stale());  // washed out
    QVERIFY(w.isVisible());

    // Another invalid field moves the mark.
    stride->setValue(-2);
    QSpinBox* size = field<QSpinBox>(w, QStringLiteral("params.inputWindowSizes[3]"));
    size->setValue(9);
    settle();
    QCOMPARE(QString::fromStdString(w.current_error()->path), QStringLiteral("params.inputWindowSizes[3]"));
    QCOMPARE(w.editor()->invalid_widget(), size);
    QVERIFY(stride->styleSheet().isEmpty());

    size->setValue(3);
    settle();
    QVERIFY(!w.current_error());
    QVERIFY(w.editor()->invalid_widget() == nullptr);
    QVERIFY(!banner->isVisible());
    QVERIFY(!w.panel(TensorRole::Output)->grid()->stale());
  }

  void OpenInvalidSpecFile_ShowsNoResultOfTheEarlierSpec() {
    MainWindow& w = fresh();
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("all_padding.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Valid JSON, valid input; the first pooling window lies wholly in padding.
    file.write(R"({"op": "max_pooling2", "input": {"dataType": "FLOAT32", "sizes": [1, 1, 5, 5], "fill": "iota"},
                   "params": {"windowSize": [3, 3], "strides": [2, 2], "startPadding": [3, 3]}})");
    file.close();
    QVERIFY(w.open_file(path).ok());
    settle();
    QVERIFY(w.current_error().has_value());
    QCOMPARE(QString::fromStdString(w.current_error()->path), QStringLiteral("params.startPadding[0]"));
    QVERIFY(w.shown_evaluation() == nullptr);
    QCOMPARE(output().rowCount(), 0);
    QVERIFY(!w.panel(TensorRole::Output)->grid()->stale());
    // The input summary describes this file's input, which is valid on its own.
    auto* summary = w.editor()->findChild<QLabel*>(QStringLiteral("input.layout"));
    QVERIFY(summary->text().contains(QStringLiteral("25 elements")));
  }

  void OpenFile_SelectsTheFirstOutputElementAndStatesItsRule() {
    MainWindow& w = fresh();
    const QString path = QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/max_pooling2_3x3_stride2_pad1_indices.json";
    QVERIFY(w.open_file(path).ok());
    settle();
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 0, 0}));
    const EvaluationPtr& ev = w.shown_evaluation();
    const Expected<Provenance> p = explain(ev->op(), Coord{0, 0, 0, 0}, ev->input);
    QVERIFY(p.has_value());
    QCOMPARE(w.status_text(), QString::fromStdString(p->rule));
  }

  void SmallScreen_EveryExampleFits1366PixelsWithoutClippingTheForm() {
    MainWindow& w = fresh();
    w.resize(1366 * 95 / 100, 768 * 95 / 100);
    auto* scroll = qobject_cast<QScrollArea*>(w.findChild<QDockWidget*>(QStringLiteral("editorDock"))->widget());
    QVERIFY(scroll);
    for (const Example& example : list_examples(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR))) {
      QVERIFY(w.open_file(example.path).ok());
      settle();
      QCoreApplication::processEvents();  // the dock follows the form (queued)
      QVERIFY2(w.minimumSizeHint().width() <= 1366, qPrintable(example.title));
      // The form is never squeezed below what its fields need: the dock
      // either fits it or scrolls sideways.
      QVERIFY2(w.editor()->width() >= w.editor()->minimumSizeHint().width(), qPrintable(example.title));
      QVERIFY2(scroll->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff, qPrintable(example.title));
      // And at this size it fits: no sideways scrolling to reach a field.
      QVERIFY2(scroll->horizontalScrollBar()->maximum() == 0,
               qPrintable(QStringLiteral("%1: the form scrolls %2 px sideways")
                              .arg(example.title)
                              .arg(scroll->horizontalScrollBar()->maximum())));
    }
  }

  void MemoryStrip_ZoomsOutSoTheImageRowsLineUpWithTheGrid() {
    MainWindow& w = fresh();
    QVERIFY(w.open_file(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/max_pooling2_3x3_stride2_pad1_indices.json").ok());
    settle();
    // A panel of its own, narrow enough that the 5x5 input's image rows
    // (pitch 5) do not fit its strip at 100%.
    TensorPlaneModel plane(TensorRole::Input);
    MemoryStripModel strip(TensorRole::Input);
    TensorPanel panel(&plane, &strip);
    panel.resize(260, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    plane.set_evaluation(w.shown_evaluation());
    strip.set_evaluation(w.shown_evaluation());
    panel.refresh();
    TensorGridView* view = panel.memory_view();
    const double cell_at_100 = view->cell_size().width() / view->zoom();
    QVERIFY2(5 * cell_at_100 > view->content_rect().width(), "the panel is wide enough for 5 cells at 100%");
    // The strip zooms out (no further than 60%) to hold one image row per row.
    QTRY_COMPARE(strip.columns(), 5);
    QVERIFY(view->zoom() >= 0.6);
    QVERIFY(view->zoom() < 1.0);
    QCOMPARE(strip.index(1, 0).data(Qt::DisplayRole).toString(), QStringLiteral("9"));  // offset 5: row 1 starts with 9
    // The zoom follows the panel's width: wide enough, it is 100% again.
    panel.resize(800, 500);
    QTRY_COMPARE(view->zoom(), 1.0);
    QCOMPARE(strip.columns(), 5);
    // Once the person zooms the strip, their zoom holds as the panel resizes.
    view->set_zoom(1.25);
    panel.resize(260, 500);
    QTest::qWait(50);
    QCOMPARE(view->zoom(), 1.25);
  }

  void Legend_WrapsOntoMoreLinesWhenNarrow() {
    MainWindow& w = fresh();
    QVERIFY(w.open_file(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/padding_example3_reflection.json").ok());
    settle();
    auto* legend = w.findChild<LegendBar*>(QStringLiteral("legend"));
    QVERIFY(legend);
    QVERIFY(legend->hasHeightForWidth());
    QCOMPARE(legend->heightForWidth(4000), legend->sizeHint().height());
    QVERIFY(legend->heightForWidth(300) >= 3 * legend->heightForWidth(4000) - 10);
  }

  void InvalidInputSize_NamesTheInputField() {
    MainWindow& w = fresh();
    QSpinBox* size = field<QSpinBox>(w, QStringLiteral("input.sizes[2]"));
    size->setValue(0);
    settle();
    QVERIFY(w.current_error().has_value());
    QCOMPARE(QString::fromStdString(w.current_error()->path), QStringLiteral("input.sizes[2]"));
    QCOMPARE(w.editor()->invalid_widget(), size);
    auto* banner = w.editor()->findChild<QLabel*>(QStringLiteral("errorBanner"));
    QVERIFY2(banner->text().contains(QStringLiteral("<b>Input size, dim 2 (H)</b>")), qPrintable(banner->text()));
  }

  void InvalidPoolingStride_BannerNamesTheSpatialDimension() {
    MainWindow& w = fresh();
    QVERIFY(w.open_file(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR) + "/max_pooling2_3x3_stride2_pad1_indices.json").ok());
    settle();
    // max_pooling2's parameters run over the spatial dimensions: strides[1] is dim 3 (W).
    QSpinBox* stride = field<QSpinBox>(w, QStringLiteral("params.strides[1]"));
    stride->setValue(0);
    settle();
    QVERIFY(w.current_error().has_value());
    QCOMPARE(QString::fromStdString(w.current_error()->path), QStringLiteral("params.strides[1]"));
    auto* banner = w.editor()->findChild<QLabel*>(QStringLiteral("errorBanner"));
    QVERIFY2(banner->text().contains(QStringLiteral("<b>Stride, dim 3 (W)</b>")), qPrintable(banner->text()));
  }

  void BadTypedValue_IsRefusedAtItsField() {
    MainWindow& w = fresh();
    auto* fill = field<QComboBox>(w, QStringLiteral("input.fill"));
    fill->setFocus();
    // iota -> logical iota -> zeros -> random -> random integers -> typed values
    for (int i = 0; i < 5; ++i) QTest::keyClick(fill, Qt::Key_Down);
    settle();
    QVERIFY(std::holds_alternative<std::vector<Scalar>>(w.document()->spec().input_source));
    auto* values = field<QLineEdit>(w, QStringLiteral("input.data"));
    QVERIFY(values);
    values->setFocus();
    values->selectAll();
    QTest::keyClicks(values, QStringLiteral("1, 2, x"));
    QTest::keyClick(values, Qt::Key_Return);
    QCOMPARE(w.editor()->invalid_widget(), values);
    QVERIFY(w.editor()->error_text().contains(QStringLiteral("input.data[2]")));
    values->selectAll();
    QTest::keyClicks(values, QStringLiteral("0 0 0 0 0 1 0 0 0 0 0 0 0 0 0 0"));
    QTest::keyClick(values, Qt::Key_Return);
    settle();
    QVERIFY(!w.current_error());
    QCOMPARE(grid_texts(output()), numbers({0, 0, 1, 0}));  // in[0,0,1,1] (offset 5) is out[0,0,1,0]
  }

  void TypeValueIntoInputCell_ChangesTheBuffer() {
    MainWindow& w = fresh();
    Spec spec = default_spec();
    spec.input_source = values_from_buffer(DataType::Float32, w.shown_evaluation()->input, 16);
    w.document()->edit(spec, QStringLiteral("typed values"));
    settle();
    TensorPlaneModel* input = w.plane_model(TensorRole::Input);
    QVERIFY(input->flags(input->index(1, 1)) & Qt::ItemIsEditable);
    QVERIFY(input->setData(input->index(1, 1), QStringLiteral("42"), Qt::EditRole));
    settle();
    QCOMPARE(grid_texts(output()), numbers({14, 16, 42, 8}));
  }

  void ChooseOperatorAndRank_ThroughTheWidgets() {
    MainWindow& w = fresh();
    auto* op = field<QComboBox>(w, QStringLiteral("op"));
    QVERIFY(op);
    op->setFocus();
    QTest::keyClick(op, Qt::Key_Down);  // slice1 -> padding
    settle();
    QCOMPARE(w.document()->spec().request.kind(), OpKind::Padding);
    QVERIFY(field<QSpinBox>(w, QStringLiteral("params.startPadding[3]")) != nullptr);
    QVERIFY(!w.current_error());
    const Sizes out = w.shown_evaluation()->op().output().sizes();
    QCOMPARE(out, (Sizes{1, 1, 7, 7}));  // 4 + 1 + 2 on the last two dimensions

    auto* rank = field<QSpinBox>(w, QStringLiteral("input.rank"));
    rank->setValue(6);
    settle();
    QVERIFY(!w.current_error());
    QCOMPARE(w.shown_evaluation()->op().input().sizes(), (Sizes{1, 1, 1, 1, 4, 4}));
    QVERIFY(field<QSpinBox>(w, QStringLiteral("input.sizes[5]")) != nullptr);
    QCOMPARE(output().rowCount(), 7);  // rows and columns still the last two dimensions

    QTest::keyClick(op, Qt::Key_Down);  // -> max_pooling2 needs 4 or 5 dimensions
    settle();
    QCOMPARE(w.document()->spec().request.kind(), OpKind::MaxPooling2);
    QVERIFY(!w.current_error());
    QCOMPARE(spec_rank(w.document()->spec()), std::size_t{5});
    QVERIFY(w.panel(TensorRole::Indices)->isVisible());
  }

  void StridePresets_ChannelsLastAndCustomBroadcast() {
    MainWindow& w = fresh();
    auto* preset = field<QComboBox>(w, QStringLiteral("input.stridePreset"));
    preset->setFocus();
    QTest::keyClick(preset, Qt::Key_Down);  // packed -> column-major
    QTest::keyClick(preset, Qt::Key_Down);  // -> channels last
    settle();
    QCOMPARE(*w.document()->spec().request.input.strides, (std::vector<uint64_t>{16, 1, 4, 1}));
    QTest::keyClick(preset, Qt::Key_End);  // -> custom, the last entry
    settle();
    QSpinBox* stride = field<QSpinBox>(w, QStringLiteral("input.strides[2]"));
    QVERIFY(!stride->isReadOnly());
    stride->setValue(0);  // every row reads row 0: a broadcast
    settle();
    QVERIFY(!w.current_error());
    QVERIFY(w.shown_evaluation()->op().input().layout().broadcast);
    QCOMPARE(grid_texts(output()), numbers({2, 4, 2, 4}));
  }

  void PlaneSelector_ChoosesRowsAndColumns() {
    MainWindow& w = fresh();
    PlaneSelector* selector = w.panel(TensorRole::Input)->selector();
    QComboBox* rows = selector->row_combo();
    rows->setFocus();
    QTest::keyClick(rows, Qt::Key_Up);  // rows: dim 2 -> dim 1 (C, size 1)
    TensorPlaneModel* input = w.plane_model(TensorRole::Input);
    QCOMPARE(input->plane().row_dim, 1);
    QCOMPARE(input->rowCount(), 1);
    QVERIFY(selector->fixed_spin(2)->isVisibleTo(selector));
    selector->fixed_spin(2)->setValue(3);
    QCOMPARE(grid_texts(*input), numbers({13, 14, 15, 16}));
  }

  void SaveAndReopen_KeepsTheSpec() {
    MainWindow& w = fresh();
    field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[3]"))->setValue(1);
    settle();
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("edited.json"));
    QVERIFY(w.save_file(path).ok());
    QVERIFY(!w.document()->modified());
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("edited.json")));
    const std::string saved = write_spec(w.document()->spec());

    MainWindow& reopened = fresh();
    QVERIFY(reopened.open_file(path).ok());
    settle();
    QCOMPARE(write_spec(reopened.document()->spec()), saved);
    QCOMPARE(int_field(reopened.document()->spec(), "params.inputWindowStrides[3]").value(), int64_t{1});
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), QFileInfo(path).absoluteFilePath());
  }

  void OpenBrokenFile_ReportsAndKeepsTheDocument() {
    MainWindow& w = fresh();
    const QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"op": "slice1", "input": {"dataType": "FLOAT32", "sizes": [4]}, "bogus": 1})");
    file.close();
    const Status status = w.open_file(path);
    QVERIFY(!status.ok());
    QVERIFY(!status.error().message.empty());
    QCOMPARE(grid_texts(output()), numbers({14, 16, 6, 8}));
  }

  void FileMenu_ExportsFiguresNotGrabsOfTheViews() {
    MainWindow& w = fresh();
    QMenu* file = w.menuBar()->actions().front()->menu();
    QStringList texts;
    for (QAction* action : file->actions()) texts << action->text();
    QVERIFY2(texts.contains(QStringLiteral("Export &Figure\u2026")), qPrintable(texts.join(", ")));
    QVERIFY2(texts.contains(QStringLiteral("Export &Animation\u2026")), qPrintable(texts.join(", ")));
    for (const QString& text : texts) QVERIFY2(!text.contains(QStringLiteral("Views")), qPrintable(text));
  }

  void Compare_ShowsTheDifferingElements() {
    MainWindow& w = fresh(cpu_and_faulty());
    auto* combo = w.findChild<QComboBox*>(QStringLiteral("backendCombo"));
    QCOMPARE(combo->count(), 2);
    QCOMPARE(combo->itemText(0), QStringLiteral("CPU"));
    QCOMPARE(combo->itemText(1), QStringLiteral("Faulty (test double)"));
    w.compare_action()->trigger();
    settle();
    QCOMPARE(w.diff_model()->rowCount(), 1);
    QCOMPARE(w.diff_model()->index(0, DiffModel::CoordColumn).data().toString(), QStringLiteral("[0,0,0,0]"));
    QVERIFY(flags_at(output(), 0, 0) & kDiffers);
    auto* summary = w.findChild<QLabel*>(QStringLiteral("compareSummary"));
    QVERIFY(summary->text().contains(QStringLiteral("differ in 1 element")));
    QVERIFY(!summary->text().contains(QStringLiteral("1 elements")));
    QVERIFY(summary->isVisible());

    // Running on the faulty backend shows its GPU time.
    w.set_compare(false);
    w.set_backend(QStringLiteral("faulty"));
    settle();
    auto* label = w.findChild<QLabel*>(QStringLiteral("backendLabel"));
    QVERIFY(label->text().contains(QStringLiteral("GPU 0.250 ms")));
    // and, on hover, its time per pass.
    QVERIFY(label->toolTip().contains(QStringLiteral("0.125 ms  gather box 0 workgroups [0, 1)")));
  }

  void HoverOutputCell_StatusStatesTheRule() {
    MainWindow& w = fresh();
    TensorGridView* grid = w.panel(TensorRole::Output)->grid();
    QTest::mouseMove(grid->viewport(), grid->cell_rect(1, 0).center());
    QTRY_COMPARE(w.status_text(),
                 QStringLiteral("out[0,0,1,0] = in[0,0,1,1] (offset 5) -- slice1 axis 2 starts at the window end "
                                "because its stride is negative"));
    QVERIFY(flags_at(*w.plane_model(TensorRole::Input), 1, 1) & kSource);
    TensorGridView* input = w.panel(TensorRole::Input)->grid();
    QTest::mouseMove(input->viewport(), input->cell_rect(3, 3).center());
    QTRY_VERIFY(w.status_text().startsWith(QStringLiteral("in[0,0,3,3] (offset 15) = 16 -- read by out[0,0,0,1]")));
    QVERIFY(flags_at(output(), 0, 1) & kReader);
    QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, grid->cell_rect(0, 0).center());
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 0, 0}));
  }

  void WindowLayoutAndPalette_AreRememberedAcrossSessions() {
    MainWindow& w = fresh();
    w.resize(1234, 777);
    w.set_value_palette(ValuePalette::Cividis);
    QVERIFY(w.close());  // unmodified: closes without asking, and saves the layout
    window_ = std::make_unique<MainWindow>(cpu_only());
    settle();
    // Remembered, but kept to the screen (the offscreen test screen may be
    // smaller than 1234x777) and never below the window's minimum size.
    const QSize room = window_->screen()->availableGeometry().size();
    QCOMPARE(window_->size(), QSize(1234, 777).boundedTo(room).expandedTo(window_->minimumSizeHint()));
    // The slice1 example over iota 1..16 reads 16 (the largest value, offset 15):
    // the last colour of the remembered palette.
    const MemoryStripModel& strip = *window_->memory_model(TensorRole::Input);
    const auto cell = strip.cell_of(15);
    QCOMPARE(strip.index(cell->first, cell->second).data(Qt::BackgroundRole).value<QColor>().rgb(),
             palette_rgb(ValuePalette::Cividis, 1.0));
    QSettings().clear();
  }

  void SmallTensor_OpensLargerThan100PercentWithTextToMatch() {
    MainWindow& w = fresh();
    // The 4x4 input of the slice1 example, in a 1400x900 window: its panel
    // has room for cells about twice their 100% size.
    // The fit follows the panel's final size, which the layout may still be
    // settling when the result is in.
    TensorGridView* grid = w.panel(TensorRole::Input)->grid();
    QTRY_VERIFY2(grid->zoom() > 1.5 && grid->zoom() <= 2.0, qPrintable(QString::number(grid->zoom())));
    // Text drawn past 100% grows with its cells; the detail line stays smaller.
    QFont base = grid->font();
    base.setPointSizeF(10);
    const CellFonts zoomed = cell_fonts(base, 1.8);
    QCOMPARE(zoomed.value.pointSizeF(), 18.0);
    QCOMPARE(zoomed.detail.pointSizeF(), 18.0 * 0.78);
    base.setPixelSize(10);
    QCOMPARE(cell_fonts(base, 1.8).value.pixelSize(), 18);
    QCOMPARE(cell_fonts(base).value.pixelSize(), 10);
  }

  void LargeTensor_EvaluatesOffTheUiThreadAndZoomsOutToAHeatMap() {
    MainWindow& w = fresh();
    Spec spec;
    spec.request.input = {DataType::Float32, std::vector<uint64_t>{1, 3, 1024, 1024}, std::nullopt};
    spec.request.params = Slice1Request{{0, 0, 0, 0}, {1, 3, 1024, 1024}, {1, 1, -1, 1}};
    spec.request.output.sizes = std::vector<uint64_t>{1, 3, 1024, 1024};
    w.document()->reset(spec, std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(w.settled(), 60000);
    QVERIFY(!w.current_error());
    TensorGridView* grid = w.panel(TensorRole::Output)->grid();
    QVERIFY(grid->heat_map_mode());
    // A square plane stays square as a heat map, and fills the view's
    // shorter side (text cells are about twice as wide as tall).
    QCOMPARE(grid->cell_size().width(), grid->cell_size().height());
    const QRect content = grid->content_rect();
    const double plane = 1024 * grid->cell_size().width();
    QVERIFY2(plane <= std::min(content.width(), content.height()), "the plane fits the view");
    QVERIFY2(plane >= 0.95 * std::min(content.width(), content.height()), "the plane fills the view");
    // Reversed rows: out[0,0,0,c] = in[0,0,1023,c] = 1023 * 1024 + c + 1 (iota).
    QCOMPARE(output().index(0, 0).data(GridModel::ValueRole).toDouble(), 1047553.0);
    QVERIFY(!w.panel(TensorRole::Output)->grab().isNull());
    // Editing while large stays responsive to further edits: the newest wins.
    for (int i = 0; i < 5; ++i) field<QSpinBox>(w, QStringLiteral("params.inputWindowStrides[2]"))->setValue(i % 2 ? -1 : 1);
    QTRY_VERIFY_WITH_TIMEOUT(w.settled(), 60000);
    QCOMPARE(output().index(0, 0).data(GridModel::ValueRole).toDouble(), 1.0);
  }
};

QTEST_MAIN(MainWindowTest)
#include "ui_main_window_test.moc"
