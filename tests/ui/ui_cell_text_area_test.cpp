// A cell's text keeps clear of the frames marks draw around it (a selected
// "-9.22e18" must not lose its minus sign under the selection's frame), and a
// view writes all its values to the same decimal place, so that the same
// value reads the same in the grid and in the strip and a rounded value never
// sits beside an exact one as if it were a whole number. Expected insets are
// worked out by hand from the frame rule: a frame unit is a sixteenth of the
// cell's smaller side (1 to 3.5 pixels), the widest frame two and a half
// units; the text keeps a pixel's gap inside it.
#include <QImage>
#include <QPainter>
#include <QtTest>

#include "core/io/spec_file.h"
#include "test_backends.h"
#include "ui/figure/cell_painter.h"
#include "ui/figure/cell_text_fit.h"
#include "ui/spec_document.h"
#include "ui/tensor_plane_model.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// The review's case: slice1 of FLOAT64 values with six integer digits.
const char* kWideValues = R"({"op":"slice1","input":{"dataType":"FLOAT64","sizes":[1,1,6,8],
  "fill":{"random":{"seed":11,"min":-1000000,"max":1000000}}},
  "params":{"inputWindowOffsets":[0,0,1,1],"inputWindowSizes":[1,1,5,7],"inputWindowStrides":[1,1,2,-3]}})";

// The columns of `image` holding any pixel other than the cell's fill.
std::pair<int, int> ink_columns(const QImage& image, QRgb fill) {
  int left = image.width(), right = -1;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      if (image.pixel(x, y) != fill) left = std::min(left, x), right = std::max(right, x);
    }
  }
  return {left, right};
}

int decimals_of(const QString& text) {
  const qsizetype point = text.indexOf(QLatin1Char('.'));
  return point < 0 ? 0 : static_cast<int>(text.size() - point - 1);
}

}  // namespace

class CellTextAreaTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }

  void TextArea_IsInsetByTheWidestFramePlusAGap_data() {
    QTest::addColumn<QSize>("cell");
    QTest::addColumn<int>("inset");
    // 40 high: unit 2.5, frame 6.25, ceil 7, gap 1.
    QTest::newRow("80x40") << QSize(80, 40) << 8;
    // 18 wide: unit 1.125, frame 2.8125, ceil 3, gap 1.
    QTest::newRow("18x30") << QSize(18, 30) << 4;
    // 120 x 100: unit capped at 3.5, frame 8.75, ceil 9, gap 1.
    QTest::newRow("120x100") << QSize(120, 100) << 10;
  }
  void TextArea_IsInsetByTheWidestFramePlusAGap() {
    QFETCH(QSize, cell);
    QFETCH(int, inset);
    const QRect rect(QPoint(5, 7), cell);
    const QRect text = cell_text_rect(rect);
    QCOMPARE(text.left(), rect.left() + inset);
    QCOMPARE(text.right(), rect.right() - inset);
    QVERIFY(text.left() > rect.left() + cell_frame_width(cell));
  }

  void SelectedCell_TextInkStaysInsideItsFrame_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("detail");
    QTest::newRow("int64 minimum") << "-9223372036854775808" << QString();
    QTest::newRow("wide float") << "339276.2" << QString();
    QTest::newRow("decoded index") << "18" << QStringLiteral("\u2192[0,0,3,3]");
    QTest::newRow("source") << "2" << QStringLiteral("\u2190(0,1)");
  }
  void SelectedCell_TextInkStaysInsideItsFrame() {
    QFETCH(QString, value);
    QFETCH(QString, detail);
    const QRect rect(0, 0, 72, 42);
    const qreal frame = cell_frame_width(rect.size());  // 42 / 16 * 2.5 = 6.5625
    QImage image(rect.size(), QImage::Format_RGB32);
    QPainter painter(&image);
    CellVisual cell;
    cell.fill = 0xffeeeeee;
    cell.text = value;
    cell.detail = detail;
    cell.flags = kSelected;
    QFont font;
    font.setPixelSize(13);
    paint_cell_body(painter, rect, cell, cell_fonts(font), true, true);
    painter.end();
    const auto [left, right] = ink_columns(image, cell.fill);
    QVERIFY2(right >= left, "no text drawn");
    const QString where = QStringLiteral("ink from x %1 to %2, frame %3 wide").arg(left).arg(right).arg(frame);
    QVERIFY2(left >= frame + 1 && right <= rect.width() - 1 - frame - 1, qPrintable(where));
  }

  void RoundingToDecimals_KeepsNonzeroValuesAndExponents_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("expected");
    QTest::newRow("-508823.5 to 0") << "-508823.5" << 0 << "-508824";
    QTest::newRow("914446.9 to 0") << "914446.9" << 0 << "914447";
    QTest::newRow("0.5001 to 2, zeros dropped") << "0.5001" << 2 << "0.5";
    QTest::newRow("12.75 to 1") << "12.75" << 1 << "12.8";
    QTest::newRow("fewer decimals already") << "3.5" << 2 << "3.5";
    QTest::newRow("would read as 0") << "0.0001" << 2 << "0.0001";
    QTest::newRow("exponent") << "1.5e-07" << 2 << "1.5e-07";
    QTest::newRow("no limit") << "0.5488139" << -1 << "0.5488139";
  }
  void RoundingToDecimals_KeepsNonzeroValuesAndExponents() {
    QFETCH(QString, text);
    QFETCH(int, decimals);
    QFETCH(QString, expected);
    QCOMPARE(round_to_decimals(text, decimals), expected);
  }

  void FittingDecimals_AreThoseTheWidestValueOfTheRangeFitsIn() {
    QFont font;
    font.setPixelSize(13);
    const QFontMetrics metrics(font);
    // The widest text of [-981695, 942254] is the negative one.
    const int one = metrics.horizontalAdvance(QStringLiteral("-981695.0"));
    QCOMPARE(fitting_decimals(-981695, 942254, font, one), 1);
    QCOMPARE(fitting_decimals(-981695, 942254, font, one - 1), 0);
    QCOMPARE(fitting_decimals(0, 10, font, metrics.horizontalAdvance(QStringLiteral("10.000"))), 3);
    QCOMPARE(fitting_decimals(0, 1e300, font, 1000), -1);
  }

  void OneView_WritesEveryValueToTheSamePlace() {
    auto window = std::make_unique<MainWindow>(cpu_only());
    window->resize(1400, 900);
    window->show();
    QTRY_VERIFY_WITH_TIMEOUT(window->settled(), 20000);
    Expected<Spec> spec = parse_spec(kWideValues, {});
    QVERIFY2(spec.has_value(), spec ? "" : spec.error().to_string().c_str());
    window->document()->reset(*spec, std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(window->settled(), 20000);
    TensorGridView* input = window->panel(TensorRole::Input)->grid();
    TensorGridView* output = window->panel(TensorRole::Output)->grid();
    for (const double zoom : {1.0, 1.4}) {
      input->set_zoom(zoom);
      output->set_zoom(zoom);
      // Every shown value with as many decimals as every other (each has one
      // decimal when exact): never "-508824" beside "914446.9".
      QSet<int> places;
      for (int row = 0; row < 6; ++row) {
        for (int column = 0; column < 8; ++column) {
          const QString shown = input->shown_text(row, column);
          if (!shown.contains(QLatin1Char('e'))) places << decimals_of(shown);
        }
      }
      QVERIFY2(places.size() == 1, qPrintable(QStringLiteral("zoom %1: decimals %2").arg(zoom).arg(places.size())));
      // out[0,0,0,0] copies in[0,0,1,7] (stride -3 starts at the window's
      // end, 1 + 7 - 1): at one zoom both read the same.
      QCOMPARE(output->shown_text(0, 0), input->shown_text(1, 7));
    }
  }
};

QTEST_MAIN(CellTextAreaTest)
#include "ui_cell_text_area_test.moc"
