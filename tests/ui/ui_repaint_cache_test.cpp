// What a repaint keeps from the one before: cells' text fitted and laid out
// once per font, the model's described cells until its revision changes, and
// a status rule whose size never follows its text. Each cache must give what
// the uncached path gives, and forget what a change makes stale.
#include <QtTest>

#include "core/io/spec_file.h"
#include "shown_window.h"
#include "test_backends.h"
#include "ui/figure/cell_text_cache.h"
#include "ui/figure/cell_text_fit.h"
#include "ui/spec_document.h"
#include "ui/tensor_plane_model.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/status_rule.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

QStringList cell_texts(const TensorPlaneModel& model) {
  QStringList texts;
  for (int r = 0; r < model.rowCount(); ++r) {
    for (int c = 0; c < model.columnCount(); ++c) texts << model.cell(r, c).text;
  }
  return texts;
}

}  // namespace

class RepaintCacheTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }

  void CellText_IsTheFittedTextInTheFontAskedFor() {
    QFont ten;
    ten.setPointSizeF(10);
    QFont twenty;
    twenty.setPointSizeF(20);
    CellTextCache cache;
    const int narrow = QFontMetrics(ten).horizontalAdvance(QStringLiteral("0.549"));
    // Fitted by hand above (ui_value_text_test): three digits in the cell's own font.
    const CellText& fitted = cache.value(QStringLiteral("0.5488139"), ten, narrow);
    QCOMPARE(fitted.text, QStringLiteral("0.549"));
    QCOMPARE(fitted.font.pointSizeF(), 10.0);
    QCOMPARE(fitted.advance, QFontMetrics(ten).horizontalAdvance(QStringLiteral("0.549")));
    // Asked again: the same line, not laid out anew.
    QCOMPARE(&cache.value(QStringLiteral("0.5488139"), ten, narrow), &fitted);
    // Another font never gets a line laid out in the first one.
    const CellText& large = cache.value(QStringLiteral("0.5488139"), twenty, 1000);
    QCOMPARE(large.text, QStringLiteral("0.5488139"));
    QCOMPARE(large.font.pointSizeF(), 20.0);
    QCOMPARE(cache.value(QStringLiteral("0.5488139"), ten, narrow).font.pointSizeF(), 10.0);
  }

  void CellText_DetailIsElidedOnlyPastItsWidth() {
    QFont font;
    font.setPointSizeF(9);
    CellTextCache cache;
    const QString detail = QStringLiteral("\u2190(12,34)");
    QCOMPARE(cache.detail(detail, font, 1000).text, detail);
    const QString cut = cache.detail(detail, font, QFontMetrics(font).horizontalAdvance(detail) / 2).text;
    QVERIFY2(cut.endsWith(QChar(0x2026)) && cut.size() < detail.size(), qPrintable(cut));
  }

  void DescribedCells_FollowEveryNewResult() {
    auto window = open_shown_window(cpu_only());
    QVERIFY(window);
    window->document()->reset(load_example("slice_example1_contiguous.json"), std::nullopt);
    QTRY_VERIFY(window->settled());
    const TensorPlaneModel& output = *window->panel(TensorRole::Output)->plane_model();
    // iota 1..16 in a 4x4 plane (DirectML's example); rows 1..3, columns 2..3 (by hand).
    QCOMPARE(cell_texts(output), numbers({7, 8, 11, 12, 15, 16}));
    Spec moved = window->document()->spec();
    std::get<SliceRequest>(moved.request.params).offsets = {0, 0, 0, 0};
    window->document()->edit(moved, QStringLiteral("offsets"));
    // Rows 0..2, columns 0..1.
    QTRY_COMPARE(cell_texts(output), numbers({1, 2, 5, 6, 9, 10}));
  }

  void DescribedCells_FollowAPaletteChange() {
    auto window = open_shown_window(cpu_only());
    QVERIFY(window);
    TensorPlaneModel& input = *window->panel(TensorRole::Input)->plane_model();
    const QRgb viridis = input.cell(0, 0).fill;
    input.set_palette(ValuePalette::Cividis);
    QVERIFY(input.cell(0, 0).fill != viridis);
    input.set_palette(ValuePalette::Viridis);
    QCOMPARE(input.cell(0, 0).fill, viridis);
  }

  void StatusRule_KeepsItsSizeWhateverItsText() {
    StatusRule rule;
    const QSize hint = rule.sizeHint();
    const QSize minimum = rule.minimumSizeHint();
    const QString long_rule = QStringLiteral("out[0,0,0,0] = max over the 3x3 window ").repeated(6);
    rule.set_text(long_rule);
    QCOMPARE(rule.sizeHint(), hint);
    QCOMPARE(rule.minimumSizeHint(), minimum);
    QCOMPARE(rule.text(), long_rule);
    QCOMPARE(rule.toolTip(), long_rule);  // whole where the status bar cuts it
  }
};

QTEST_MAIN(RepaintCacheTest)
#include "ui_repaint_cache_test.moc"
