// File > Compare with Result: another implementation's result beside the
// spec, its differing elements marked, core's diagnosis named, Next / Previous
// Difference visiting them. The results are written by hand from the rules:
//
// PADDING, REFLECTION, input [1,2,3,4] (sizes 1x1x1x4), two elements padded on
// each side of the last axis. DirectML's REFLECTION mirrors about the edge
// element without repeating it: columns -2,-1 read 2,1 and columns 4,5 read
// 2,1, so the output is [3,2, 1,2,3,4, 3,2]. The mistake
// reflection-repeats-edge folds by SYMMETRIC's rule (the edge repeated):
// columns -2,-1 read 1,0 and 4,5 read 3,2, giving [2,1, 1,2,3,4, 4,3]: it
// differs at columns 0, 1, 6 and 7 exactly.
//
// MAX_POOLING2, input 1x2x2x2 = 0..7, a 2x2 window: one output per channel,
// the maxima 3 and 7 at flat indices 3 and 7 of the whole input. Indices
// counted per (batch, channel) plane (indices-per-plane) give 3 and 3: only
// indices[0,1,0,0] differs.
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/io/npy.h"
#include "test_backends.h"
#include "ui/figure/figure_legend.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/widgets/legend_bar.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/result_compare.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

const char* const kReflectionSpec = R"({
  "op": "padding",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,1,4], "data": [1,2,3,4] },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,1,8] },
  "params": { "paddingMode": "REFLECTION", "startPadding": [0,0,0,2], "endPadding": [0,0,0,2] }
})";

QString reflection_result(const char* data) {
  return QStringLiteral(R"({"backend": "theirs", "output": {"dataType": "FLOAT32", "sizes": [1,1,1,8], "data": [%1]}})")
      .arg(QLatin1String(data));
}

const char* const kEdgeRepeated = "2,1, 1,2,3,4, 4,3";
const char* const kExactReflection = "3,2, 1,2,3,4, 3,2";

const char* const kPoolingSpec = R"({
  "op": "max_pooling2",
  "input":  { "dataType": "FLOAT32", "sizes": [1,2,2,2], "data": [0,1,2,3,4,5,6,7] },
  "output": { "dataType": "FLOAT32", "sizes": [1,2,1,1] },
  "outputIndices": { "dataType": "UINT32" },
  "params": { "windowSize": [2,2] }
})";

const char* const kIndicesPerPlane = R"({"output": {"dataType": "FLOAT32", "sizes": [1,2,1,1], "data": [3,7]},
  "outputIndices": {"dataType": "UINT32", "sizes": [1,2,1,1], "data": [3,3]}})";

}  // namespace

class CompareWithResult : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;
  QTemporaryDir dir_;

  ResultCompare* compare() const { return window_->result_compare(); }

  QString write(const QString& name, const QByteArray& content) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(content);
    return path;
  }

  // Opens `spec` and compares it with `result`, both written to files.
  bool open_and_compare(const char* spec, const QString& result_name, const QByteArray& result) {
    if (!window_->open_file(write(QStringLiteral("spec.json"), spec))) return false;
    if (!QTest::qWaitFor([&] { return window_->settled(); }, 20000)) return false;
    if (!compare()->compare_with(write(result_name, result))) return false;
    return wait_for_comparison();
  }

  bool wait_for_comparison() {
    return QTest::qWaitFor(
        [&] { return window_->settled() && window_->shown_evaluation()->result_comparison.has_value(); }, 20000);
  }

  // The columns of the one-row output (or indices) plane that carry the mark.
  QList<int> marked_columns(TensorRole role) const {
    QList<int> columns;
    const TensorPlaneModel* model = window_->plane_model(role);
    for (int c = 0; c < model->columnCount(); ++c) {
      if (flags_at(*model, 0, c) & kDiffers) columns << c;
    }
    return columns;
  }

  // The buffer offsets the memory strip flags.
  QList<qulonglong> marked_offsets(TensorRole role) const {
    QList<qulonglong> offsets;
    const MemoryStripModel* strip = window_->memory_model(role);
    for (int r = 0; r < strip->rowCount(); ++r) {
      for (int c = 0; c < strip->columnCount(); ++c) {
        const auto offset = strip->offset_at(r, c);
        if (offset && (flags_at(*strip, r, c) & kDiffers)) offsets << *offset;
      }
    }
    return offsets;
  }

  Coord selected() const { return window_->selection()->selected_output().value_or(Coord{}); }

 private slots:
  void init() {
    QVERIFY(dir_.isValid());
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitFor([&] { return window_->settled(); }, 20000));
  }
  void cleanup() {
    window_.reset();
    QSettings().clear();
  }

  void TheFileMenuOffersIt_AndF8StepsThroughDifferences() {
    const auto menu_texts = [&](int menu) {
      QStringList texts;
      for (QAction* action : window_->menuBar()->actions().at(menu)->menu()->actions()) texts << action->text();
      return texts;
    };
    QVERIFY2(menu_texts(0).contains(QStringLiteral("Compare with &Result\u2026")), qPrintable(menu_texts(0).join(", ")));
    QVERIFY(menu_texts(0).contains(QStringLiteral("C&lear Comparison")));
    QVERIFY2(menu_texts(3).contains(QStringLiteral("&Next Difference")), qPrintable(menu_texts(3).join(", ")));
    QVERIFY(menu_texts(3).contains(QStringLiteral("&Previous Difference")));
    QCOMPARE(compare()->next_action()->shortcut(), QKeySequence(Qt::Key_F8));
    QCOMPARE(compare()->previous_action()->shortcut(), QKeySequence(Qt::SHIFT | Qt::Key_F8));
    QVERIFY(!compare()->next_action()->isEnabled());  // nothing compared yet
  }

  void ReflectionWithTheEdgeRepeated_IsNamedReflectionRepeatsEdge() {
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("theirs.json"), reflection_result(kEdgeRepeated).toUtf8()));
    QVERIFY(window_->findChild<QDockWidget*>(QStringLiteral("resultCompareDock"))->isVisible());
    QCOMPARE(compare()->summary_text(), QStringLiteral("4 of 8 output elements differ"));
    QVERIFY2(compare()->diagnosis_text().startsWith(QStringLiteral("diagnosis: reflection-repeats-edge: ")),
             qPrintable(compare()->diagnosis_text()));
    QVERIFY2(!compare()->diagnosis_text().contains(QStringLiteral("unknown")), qPrintable(compare()->diagnosis_text()));
  }

  void TheMarks_AreOnExactlyTheDifferingElements() {
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("theirs.json"), reflection_result(kEdgeRepeated).toUtf8()));
    QCOMPARE(marked_columns(TensorRole::Output), (QList<int>{0, 1, 6, 7}));
    // The memory strip flags the same elements (packed: offset = column).
    QCOMPARE(marked_offsets(TensorRole::Output), (QList<qulonglong>{0, 1, 6, 7}));
    // The tool tip gives their value beside ours: column 6 is 3 here, 4 there.
    const QString tip = window_->plane_model(TensorRole::Output)->index(0, 6).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QStringLiteral("out[0,0,0,6] = 3\n")) && tip.endsWith(QStringLiteral("\ntheirs.json has 4")),
             qPrintable(tip));
    // A mark of its own, not the selection's: column 1 differs, column 0 is selected.
    QVERIFY(!(flags_at(*window_->plane_model(TensorRole::Output), 0, 1) & kSelected));
    QVERIFY(flags_at(*window_->plane_model(TensorRole::Output), 0, 0) & kSelected);
  }

  void NextAndPrevious_VisitTheDifferencesInOrder_AndTheProvenanceFollows() {
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("theirs.json"), reflection_result(kEdgeRepeated).toUtf8()));
    window_->selection()->select_output(std::nullopt);
    const QList<Coord> order{{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 6}, {0, 0, 0, 7}, {0, 0, 0, 0}};
    for (const Coord& expected : order) {
      compare()->next_action()->trigger();
      QCOMPARE(selected(), expected);
      QVERIFY(window_->selection()->shown_provenance().has_value());
    }
    // From column 0 back: 7, 6, 1, 0.
    for (const Coord& expected : QList<Coord>{{0, 0, 0, 7}, {0, 0, 0, 6}, {0, 0, 0, 1}, {0, 0, 0, 0}}) {
      compare()->previous_action()->trigger();
      QCOMPARE(selected(), expected);
    }
    compare()->next_action()->trigger();
    // Column 1: REFLECTION reads column 1 (value 2); theirs has the edge, 1.
    QCOMPARE(compare()->position_text(),
             QStringLiteral("Difference 2 of 4: out[0,0,0,1]: theirs.json has 1, StrideScope gives 2"));
    QCOMPARE(window_->selection()->shown_provenance()->output_coord, (Coord{0, 0, 0, 1}));
    QCOMPARE(window_->selection()->shown_provenance()->source, (std::optional<Coord>(Coord{0, 0, 0, 1})));
  }

  void TheExactResult_ShowsNoDifferences() {
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("exact.json"), reflection_result(kExactReflection).toUtf8()));
    QCOMPARE(compare()->summary_text(),
             QStringLiteral("No differences: exact.json matches StrideScope bit for bit on all 8 output elements."));
    QVERIFY(compare()->diagnosis_text().isEmpty());
    QVERIFY(marked_columns(TensorRole::Output).isEmpty());
    QVERIFY(!compare()->next_action()->isEnabled());
  }

  // The legend explains the marks on show: with the exact result nothing is
  // marked, so "results differ" is not in it (the window's legend bar and an
  // exported figure's legend alike); with the edge repeated, 4 elements are.
  void TheLegend_ListsResultsDiffer_OnlyWhenAnElementDiffers() {
    const auto window_lists_it = [&] {
      const auto* legend = window_->findChild<LegendBar*>(QStringLiteral("legend"));
      return legend && std::ranges::count(legend->categories(), OverlayCategory::Differs) == 1;
    };
    const auto figure_lists_it = [&] {
      const FigureLegend legend = figure_legend(*window_->shown_evaluation(), true);
      return std::ranges::count(legend.categories, OverlayCategory::Differs) == 1;
    };
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("exact.json"), reflection_result(kExactReflection).toUtf8()));
    QCOMPARE(window_->shown_evaluation()->result_comparison->differing(), 0u);
    QVERIFY(!window_lists_it());
    QVERIFY(!figure_lists_it());

    QVERIFY(compare()->compare_with(write(QStringLiteral("edge.json"), reflection_result(kEdgeRepeated).toUtf8())));
    QVERIFY(QTest::qWaitFor([&] {
      return window_->settled() && window_->shown_evaluation()->result_comparison &&
             window_->shown_evaluation()->result_comparison->differing() == 4;
    }, 20000));
    QVERIFY(window_lists_it());
    QVERIFY(figure_lists_it());
  }

  void ANpyResult_IsComparedTheSameWay() {
    const float edge_repeated[] = {2, 1, 1, 2, 3, 4, 4, 3};
    const std::vector<uint64_t> shape{1, 1, 1, 8};
    Expected<std::vector<std::byte>> npy =
        encode_npy(DataType::Float32, shape, std::as_bytes(std::span<const float>(edge_repeated)));
    QVERIFY(npy.has_value());
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("theirs.npy"),
                             QByteArray(reinterpret_cast<const char*>(npy->data()), static_cast<int>(npy->size()))));
    QCOMPARE(compare()->summary_text(), QStringLiteral("4 of 8 output elements differ"));
    QVERIFY(compare()->diagnosis_text().startsWith(QStringLiteral("diagnosis: reflection-repeats-edge: ")));
    QCOMPARE(marked_columns(TensorRole::Output), (QList<int>{0, 1, 6, 7}));
  }

  void IndicesCountedPerPlane_AreNamed_AndMarkedInTheIndicesView() {
    QVERIFY(open_and_compare(kPoolingSpec, QStringLiteral("pooled.json"), kIndicesPerPlane));
    QCOMPARE(compare()->summary_text(), QStringLiteral("0 of 2 output elements differ; 1 of 2 indices differ"));
    QVERIFY2(compare()->diagnosis_text().startsWith(QStringLiteral("diagnosis: indices-per-plane: ")),
             qPrintable(compare()->diagnosis_text()));
    window_->selection()->select_output(std::nullopt);
    compare()->next_action()->trigger();
    QCOMPARE(selected(), (Coord{0, 1, 0, 0}));
    // The planes follow the selection to channel 1: its index cell is marked,
    // its output cell (7, right) is not.
    QCOMPARE(window_->plane_model(TensorRole::Indices)->plane().fixed[1], 1u);
    QCOMPARE(marked_columns(TensorRole::Indices), QList<int>{0});
    QVERIFY(marked_columns(TensorRole::Output).isEmpty());
    QCOMPARE(compare()->position_text(),
             QStringLiteral("Difference 1 of 1: indices[0,1,0,0]: pooled.json has 3, StrideScope gives 7"));
  }

  void EditingTheSpec_ComparesAgain() {
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("theirs.json"), reflection_result(kEdgeRepeated).toUtf8()));
    // SYMMETRIC is exactly what theirs computed.
    Spec symmetric = window_->document()->spec();
    std::get<PaddingRequest>(symmetric.request.params).padding_mode = PaddingMode::Symmetric;
    window_->document()->edit(symmetric, QStringLiteral("symmetric"));
    QTRY_COMPARE_WITH_TIMEOUT(
        compare()->summary_text(),
        QStringLiteral("No differences: theirs.json matches StrideScope bit for bit on all 8 output elements."), 20000);
    QVERIFY(marked_columns(TensorRole::Output).isEmpty());
    // One more padded column: theirs no longer fits, and the panel says where.
    Spec wider = symmetric;
    std::get<PaddingRequest>(wider.request.params).end_padding = {0, 0, 0, 3};
    wider.request.output.sizes = std::vector<uint64_t>{1, 1, 1, 9};
    window_->document()->edit(wider, QStringLiteral("wider"));
    QTRY_VERIFY2_WITH_TIMEOUT(compare()->summary_text().startsWith(QStringLiteral("Does not fit the spec: theirs.json: output.sizes")),
                              qPrintable(compare()->summary_text()), 20000);
    QVERIFY(marked_columns(TensorRole::Output).isEmpty());
    QVERIFY(!compare()->next_action()->isEnabled());
  }

  void ClearComparison_RemovesTheMarks() {
    QVERIFY(open_and_compare(kReflectionSpec, QStringLiteral("theirs.json"), reflection_result(kEdgeRepeated).toUtf8()));
    QVERIFY(compare()->clear_action()->isEnabled());
    compare()->clear_action()->trigger();
    QVERIFY(compare()->summary_text().startsWith(QStringLiteral("No result compared.")));
    QTRY_VERIFY_WITH_TIMEOUT(window_->settled() && !window_->shown_evaluation()->result_comparison, 20000);
    QVERIFY(marked_columns(TensorRole::Output).isEmpty());
    QVERIFY(!compare()->next_action()->isEnabled());
  }

  void AMalformedFile_GivesTheErrorNamingFileAndField_AndTheWindowSurvives() {
    QVERIFY(window_->open_file(write(QStringLiteral("spec.json"), kReflectionSpec)));
    QVERIFY(QTest::qWaitFor([&] { return window_->settled(); }, 20000));
    // A value that is not a number: the file reads, the field is wrong.
    QVERIFY(compare()->compare_with(write(QStringLiteral("bad.json"), reflection_result("3,2,\"x\",2,3,4,3,2").toUtf8())));
    QVERIFY(wait_for_comparison());
    QVERIFY2(compare()->summary_text().contains(QStringLiteral("bad.json: output.data[2]")),
             qPrintable(compare()->summary_text()));
    QVERIFY(marked_columns(TensorRole::Output).isEmpty());
    // Not a .npy at all: refused when read, naming the file.
    const Status refused = compare()->compare_with(write(QStringLiteral("broken.npy"), "not numpy"));
    QVERIFY(!refused.ok());
    QVERIFY2(compare()->summary_text().contains(QStringLiteral("broken.npy")), qPrintable(compare()->summary_text()));
    QVERIFY(compare()->other() == nullptr);
    // The window goes on: its result is still shown, and a good file compares.
    QVERIFY(QTest::qWaitFor([&] { return window_->settled(); }, 20000));
    QVERIFY(window_->shown_evaluation() != nullptr);
    QVERIFY(compare()->compare_with(write(QStringLiteral("theirs.json"), reflection_result(kEdgeRepeated).toUtf8())));
    QVERIFY(wait_for_comparison());
    QCOMPARE(compare()->summary_text(), QStringLiteral("4 of 8 output elements differ"));
  }
};

QTEST_MAIN(CompareWithResult)
#include "ui_compare_result_test.moc"
