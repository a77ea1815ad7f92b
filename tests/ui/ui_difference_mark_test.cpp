// A cell whose results differ (ui/figure/difference_mark.h) is marked by a
// thin border and a triangle in its top left corner, drawn over the cell as
// the views and figures draw it. The mark must leave the cell's text alone:
// every pixel of the value and of its second line (the provenance) that the
// unmarked cell shows, the marked cell shows unchanged, selected or not.
#include <QImage>
#include <QPainter>
#include <QtTest>

#include "ui/figure/cell_painter.h"
#include "ui/figure/difference_mark.h"

using namespace stridescope::ui;

namespace {

constexpr int kSide = 48;  // a grid cell at its usual size

// One cell as the grid paints it: the body (text or not), then the overlays.
QImage painted(quint32 flags, bool text) {
  QImage image(kSide, kSide, QImage::Format_ARGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing, true);
  CellVisual cell;
  cell.fill = 0xff5ec962;  // a mid viridis green, as in the review's screenshot
  cell.text = QStringLiteral("6");
  cell.detail = QStringLiteral("\u2190(1,1)");
  const CellFonts fonts = cell_fonts(QFont(QStringLiteral("Sans Serif"), 9));
  const QRect rect(0, 0, kSide, kSide);
  paint_cell_body(painter, rect, cell, fonts, text, text);
  paint_cell_overlays(painter, rect, flags);
  return image;
}

// The pixels that differ between two paintings of the same cell.
QList<QPoint> changed(const QImage& a, const QImage& b) {
  QList<QPoint> points;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      if (a.pixel(x, y) != b.pixel(x, y)) points << QPoint(x, y);
    }
  }
  return points;
}

}  // namespace

class DifferenceMark : public QObject {
  Q_OBJECT

 private slots:
  // The triangle's legs: 28% of the shorter side, at least 6 px (half the
  // side in a cell too small for that), at most 16 px.
  void FlagSize_FollowsTheCellWithinBounds_data() {
    QTest::addColumn<QRect>("cell");
    QTest::addColumn<qreal>("leg");
    QTest::newRow("48 px grid cell: 0.28 * 48") << QRect(0, 0, 48, 48) << 13.44;
    QTest::newRow("wide cell: the shorter side, 0.28 * 30") << QRect(0, 0, 90, 30) << 8.4;
    QTest::newRow("large cell: at most 16") << QRect(0, 0, 120, 120) << 16.0;
    QTest::newRow("18 px memory strip cell: at least 6") << QRect(0, 0, 18, 18) << 6.0;
    QTest::newRow("8 px heat-map cell: half its side") << QRect(0, 0, 8, 8) << 4.0;
  }
  void FlagSize_FollowsTheCellWithinBounds() {
    QFETCH(QRect, cell);
    QFETCH(qreal, leg);
    QCOMPARE(difference_flag_size(cell), leg);
    const QPolygonF flag = difference_flag(cell.translated(10, 20));
    QCOMPARE(flag.size(), 3);
    QCOMPARE(flag.at(0), QPointF(10, 20));
    QCOMPARE(flag.at(1), QPointF(10 + leg, 20));
    QCOMPARE(flag.at(2), QPointF(10, 20 + leg));
  }

  void DifferingCell_KeepsEveryPixelOfItsText_data() {
    QTest::addColumn<quint32>("other");
    QTest::newRow("plain") << quint32(0);
    QTest::newRow("selected") << quint32(kSelected);
    QTest::newRow("a selected element's source") << quint32(kSource);
  }
  void DifferingCell_KeepsEveryPixelOfItsText() {
    QFETCH(quint32, other);
    const QImage fill_only = painted(other, false);
    const QImage unmarked = painted(other, true);
    const QImage marked = painted(other | kDiffers, true);
    const QList<QPoint> ink = changed(fill_only, unmarked);
    QVERIFY2(ink.size() > 20, "the cell's text was painted");
    for (const QPoint& p : ink) {
      QVERIFY2(marked.pixel(p) == unmarked.pixel(p),
               qPrintable(QStringLiteral("the mark covers text at %1,%2").arg(p.x()).arg(p.y())));
    }
    // And it does mark the cell: its top left corner is in the mark's colour,
    // its middle untouched.
    QVERIFY(!changed(unmarked, marked).isEmpty());
    QCOMPARE(QColor(marked.pixel(2, 2)), overlay_colour(OverlayCategory::Differs));
    QCOMPARE(marked.pixel(kSide / 2, kSide / 2), unmarked.pixel(kSide / 2, kSide / 2));
  }
};

QTEST_MAIN(DifferenceMark)
#include "ui_difference_mark_test.moc"
