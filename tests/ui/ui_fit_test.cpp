// Views that fit and stay readable: each panel fits its plane to its own
// area in both directions and refits as the panel resizes; each panel zooms
// on its own; a memory strip's rows are the grid's rows where they fit.
// Expected cell sizes are worked out here from the view's area: a fitted
// plane of R x C cells in an area W x H pixels has cells W/C wide and H/R
// tall, less the half percent of slack a fit leaves.
#include <QAction>
#include <QSplitter>
#include <QToolButton>
#include <QtTest>

#include "core/io/spec_file.h"
#include "test_backends.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// 4x5 padded by 2 rows and 5 columns each side: an 8x15 output, the shape
// the complaint measured ("26x17-pixel cells with two thirds of its panel empty").
const char* kWidePadding = R"({
  "op": "padding",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,5], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,8,15] },
  "params": { "paddingMode": "CONSTANT", "startPadding": [0,0,2,5], "endPadding": [0,0,2,5] }
})";

constexpr double kFitSlack = 0.995;

}  // namespace

class FitTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  MainWindow& open(const char* json, QSize size = {1400, 900}) {
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(size);
    window_->show();
    settle();
    Expected<Spec> spec = parse_spec(json, {});
    if (!spec) qFatal("%s", spec.error().to_string().c_str());
    window_->document()->reset(*spec, std::nullopt);
    settle();
    return *window_;
  }
  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }

  // Both axes of `grid` are filled by its rows x columns cells.
  static bool fills_both_axes(TensorGridView* grid, int rows, int columns) {
    const QRect area = grid->content_rect();
    const QSizeF cell = grid->cell_size();
    const QSizeF expected(area.width() * kFitSlack / columns, area.height() * kFitSlack / rows);
    return std::abs(cell.width() - expected.width()) < 0.01 && std::abs(cell.height() - expected.height()) < 0.01;
  }
  static QString describe(TensorGridView* grid, int rows, int columns) {
    const QRect area = grid->content_rect();
    return QStringLiteral("area %1x%2, cell %3x%4, expected %5x%6")
        .arg(area.width()).arg(area.height())
        .arg(grid->cell_size().width()).arg(grid->cell_size().height())
        .arg(area.width() * kFitSlack / columns).arg(area.height() * kFitSlack / rows);
  }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }
  void cleanup() { window_.reset(); }

  void Open_AnEightByFifteenOutputFillsItsPanelInBothDirections() {
    MainWindow& w = open(kWidePadding);
    TensorGridView* grid = w.panel(TensorRole::Output)->grid();
    QCOMPARE(grid->model()->rowCount(), 8);
    QCOMPARE(grid->model()->columnCount(), 15);
    QTRY_VERIFY2(fills_both_axes(grid, 8, 15), qPrintable(describe(grid, 8, 15)));
    // Taller than wide here: the rows fill the height instead of leaving it empty.
    QVERIFY(grid->cell_size().height() > grid->cell_size().width() * 0.9);
  }

  void DraggingTheSplitter_RefitsEachPanelInBothDirections() {
    MainWindow& w = open(kWidePadding);
    TensorGridView* input = w.panel(TensorRole::Input)->grid();
    TensorGridView* output = w.panel(TensorRole::Output)->grid();
    auto* splitter = w.findChild<QSplitter*>(QStringLiteral("panelsSplitter"));
    QVERIFY(splitter);
    const QList<int> before = splitter->sizes();
    const int total = before[0] + before[1];
    const double output_width_before = output->content_rect().width();
    splitter->setSizes({total * 3 / 10, total * 7 / 10, before.value(2)});
    QTRY_VERIFY(output->content_rect().width() > output_width_before + 50);
    QTRY_VERIFY2(fills_both_axes(output, 8, 15), qPrintable(describe(output, 8, 15)));
    // The input, narrowed to 30%, fills its width; its height would stretch
    // the cells more than three times their shape, so it stops there.
    QTRY_VERIFY2(std::abs(input->cell_size().width() - input->content_rect().width() * kFitSlack / 5) < 0.01,
                 qPrintable(describe(input, 4, 5)));
    QVERIFY(input->cell_size().height() * 4 <= input->content_rect().height());
    // And the window resized to a small laptop's screen.
    w.resize(1366 * 95 / 100, 768 * 95 / 100);
    QTRY_VERIFY2(fills_both_axes(output, 8, 15), qPrintable(describe(output, 8, 15)));
  }

  void ZoomButtons_ZoomOnlyTheirOwnPanel() {
    MainWindow& w = open(kWidePadding);
    TensorGridView* input = w.panel(TensorRole::Input)->grid();
    TensorGridView* output = w.panel(TensorRole::Output)->grid();
    const double input_zoom = input->zoom();
    const double output_zoom = output->zoom();
    auto* zoom_in = w.findChild<QToolButton*>(QStringLiteral("outputZoomIn"));
    QVERIFY(zoom_in);
    zoom_in->click();
    QCOMPARE(output->zoom(), output_zoom * 1.25);
    QCOMPARE(input->zoom(), input_zoom);
    QVERIFY(!output->follows_size());
    // Fit fits again, and keeps following the panel's size.
    w.findChild<QToolButton*>(QStringLiteral("outputZoomFit"))->click();
    QVERIFY(output->follows_size());
    QVERIFY2(fills_both_axes(output, 8, 15), qPrintable(describe(output, 8, 15)));
    w.resize(1200, 800);
    QTRY_VERIFY2(fills_both_axes(output, 8, 15), qPrintable(describe(output, 8, 15)));
  }

  void ViewMenuZoom_ActsOnTheGridUsedLast() {
    MainWindow& w = open(kWidePadding);
    TensorGridView* input = w.panel(TensorRole::Input)->grid();
    TensorGridView* output = w.panel(TensorRole::Output)->grid();
    QAction* zoom_in = nullptr;
    for (QAction* action : w.findChildren<QAction*>()) {
      if (action->shortcut() == QKeySequence(QKeySequence::ZoomIn)) zoom_in = action;
    }
    QVERIFY(zoom_in);
    QTest::mouseClick(input->viewport(), Qt::LeftButton, {}, input->cell_rect(1, 1).center());
    const double input_zoom = input->zoom();
    const double output_zoom = output->zoom();
    zoom_in->trigger();
    QCOMPARE(input->zoom(), input_zoom * 1.25);
    QCOMPARE(output->zoom(), output_zoom);
  }

  void MemoryStrip_RowsAreTheGridsFifteenElements() {
    MainWindow& w = open(kWidePadding);
    // The output is packed, 15 elements a row; the input 5.
    QTRY_COMPARE(w.memory_model(TensorRole::Output)->columns(), 15);
    QTRY_COMPARE(w.memory_model(TensorRole::Input)->columns(), 5);
    // Offset 15 (the output's row 1) starts the strip's second row.
    const MemoryStripModel* strip = w.memory_model(TensorRole::Output);
    QCOMPARE(strip->index(1, 0).data(GridModel::OffsetRole).toULongLong(), 15ull);
    // At the small laptop size too.
    w.resize(1366 * 95 / 100, 768 * 95 / 100);
    QTest::qWait(100);
    QTRY_COMPARE(w.memory_model(TensorRole::Output)->columns(), 15);
  }
};

QTEST_MAIN(FitTest)
#include "ui_fit_test.moc"
