// A memory strip is a few rows tall; it scrolls to what the views mark in it
// (the selected output, a selected output's sources, the animation's
// element), by whole rows, and only when the mark does not already show
// whole. Expected rows are the marked elements' buffer offsets divided by
// the strip's row length, worked out by hand from the strides.
#include <QScrollBar>
#include <QtTest>

#include "core/io/spec_file.h"
#include "test_backends.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/spec_document.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// DirectML padding example 1: an 8x10 output, strides [80,80,10,1], whose
// strip wraps at its row pitch of 10: output [0,0,r,c] is strip cell (r, c).
const char* kConstantPadding = R"({
  "op": "padding",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,4,4], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,8,10] },
  "params": { "paddingMode": "CONSTANT", "paddingValue": 9, "startPadding": [0,0,1,2], "endPadding": [0,0,3,4] }
})";

bool shows_whole(TensorGridView* view, int row, int column) {
  return view->content_rect().contains(view->cell_rect(row, column));
}

}  // namespace

class StripFollowTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  void open(const char* json) {
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(1400, 900);
    window_->show();
    QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000);
    Expected<Spec> spec = parse_spec(json, {});
    QVERIFY2(spec.has_value(), spec ? "" : spec.error().to_string().c_str());
    window_->document()->reset(*spec, std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000);
    QCoreApplication::processEvents();  // the strip's queued re-wrap
  }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }
  void cleanup() { window_.reset(); }

  void SelectingAnOutputBelowTheStripsRows_ScrollsItsStripCellIntoView() {
    open(kConstantPadding);
    TensorGridView* strip = window_->panel(TensorRole::Output)->memory_view();
    MemoryStripModel* model = window_->memory_model(TensorRole::Output);
    QCOMPARE(model->columns(), 10);
    // Too short for all 8 rows, or the test shows nothing.
    QVERIFY(strip->content_rect().height() < 8 * strip->cell_size().height());
    // out[0,0,7,9]: offset 7*10 + 9 = 79, strip row 7, column 9.
    window_->selection()->select_output(Coord{0, 0, 7, 9});
    QCOMPARE(model->cell_of(79), std::make_optional(std::make_pair(7, 9)));
    QVERIFY2(shows_whole(strip, 7, 9), "the selected element's strip cell is out of view");
    // Back to out[0,0,0,0], offset 0: row 0, whole, not under the header.
    window_->selection()->select_output(Coord{0, 0, 0, 0});
    QVERIFY(shows_whole(strip, 0, 0));
    QCOMPARE(strip->cell_rect(0, 0).top(), strip->content_rect().top());
  }

  void SelectingAnOutputWhoseCellShowsAlready_LeavesTheStripWhereItIs() {
    open(kConstantPadding);
    TensorGridView* strip = window_->panel(TensorRole::Output)->memory_view();
    window_->selection()->select_output(Coord{0, 0, 0, 0});
    const int before = strip->verticalScrollBar()->value();
    // out[0,0,1,3]: offset 13, strip row 1, shown whole with row 0.
    QVERIFY(shows_whole(strip, 1, 3));
    window_->selection()->select_output(Coord{0, 0, 1, 3});
    QCOMPARE(strip->verticalScrollBar()->value(), before);
  }

  void SelectingAnOutput_ScrollsTheInputStripToItsSource() {
    open(kConstantPadding);
    TensorGridView* strip = window_->panel(TensorRole::Input)->memory_view();
    MemoryStripModel* model = window_->memory_model(TensorRole::Input);
    // out[0,0,4,5] reads in[0,0,3,3] (start padding 1 and 2): offset 3*4 + 3 = 15.
    window_->selection()->select_output(Coord{0, 0, 4, 5});
    const auto cell = model->cell_of(15);
    QVERIFY(cell.has_value());
    QVERIFY2(shows_whole(strip, cell->first, cell->second), "the source's strip cell is out of view");
  }

  void AStripAtRest_NeverShowsARowHalfHiddenUnderItsHeader() {
    open(kConstantPadding);
    TensorGridView* strip = window_->panel(TensorRole::Output)->memory_view();
    QScrollBar* bar = strip->verticalScrollBar();
    for (int value = 0; value <= bar->maximum(); value += 7) {
      bar->setValue(value);
      const QRect content = strip->content_rect();
      bool aligned = false;
      for (int row = 0; row < strip->model()->rowCount(); ++row) {
        aligned = aligned || strip->cell_rect(row, 0).top() == content.top();
      }
      QVERIFY2(aligned, qPrintable(QStringLiteral("scrolled to %1: no row starts at the header").arg(value)));
    }
    // At the end of the range the last row shows whole.
    bar->setValue(bar->maximum());
    QVERIFY(shows_whole(strip, strip->model()->rowCount() - 1, 0));
  }
};

QTEST_MAIN(StripFollowTest)
#include "ui_strip_follow_test.moc"
