// Values written to fit their cells: the same number with fewer significant
// digits, or in a smaller font, never cut short with an ellipsis where a
// readable form fits; the exact value stays in the tool tip. Expected texts
// are the values rounded by hand.
#include <QtTest>

#include <cmath>

#include "core/io/spec_file.h"
#include "core/scalar.h"
#include "test_backends.h"
#include "ui/figure/cell_text_fit.h"
#include "ui/evaluation.h"
#include "ui/spec_document.h"
#include "ui/tensor_plane_model.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

// The complaint's case: a 9x9 pooling input of floats showed no numbers,
// then "5…" after Fit.
const char* kNineByNinePooling = R"({
  "op": "max_pooling2",
  "input":  { "dataType": "FLOAT32", "sizes": [1,1,9,9], "fill": {"random": {"seed": 3, "min": 0, "max": 10}} },
  "output": { "dataType": "FLOAT32", "sizes": [1,1,5,5] },
  "outputIndices": { "dataType": "UINT32" },
  "params": { "windowSize": [3,3], "strides": [2,2], "startPadding": [1,1], "endPadding": [1,1] }
})";

}  // namespace

class ValueTextTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }

  void Rounding_KeepsTheGivenSignificantDigits_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("digits");
    QTest::addColumn<QString>("expected");
    QTest::newRow("0.5488139 to 3") << "0.5488139" << 3 << "0.549";
    QTest::newRow("0.5488139 to 1") << "0.5488139" << 1 << "0.5";
    QTest::newRow("-12.75 to 3") << "-12.75" << 3 << "-12.8";
    QTest::newRow("123456 to 2") << "123456" << 2 << "1.2e5";
    QTest::newRow("0.000012345 to 2") << "0.000012345" << 2 << "1.2e-5";
    QTest::newRow("not a number") << "nan" << 2 << "nan";
  }
  void Rounding_KeepsTheGivenSignificantDigits() {
    QFETCH(QString, text);
    QFETCH(int, digits);
    QFETCH(QString, expected);
    QCOMPARE(round_value_text(text, digits), expected);
  }

  void ShorterForms_RunFromExactToOneDigit() {
    const QStringList expected{"0.5488139", "0.548814", "0.54881", "0.5488", "0.549", "0.55", "0.5"};
    QCOMPARE(shorter_value_texts(QStringLiteral("0.5488139")), expected);
    QCOMPARE(shorter_value_texts(QStringLiteral("14")), QStringList{"14"});
  }

  void Fitting_PrefersThreeDigitsInTheCellsFontOverASmallerFont() {
    QFont font;
    font.setPointSizeF(10);
    const int width = QFontMetrics(font).horizontalAdvance(QStringLiteral("0.549"));
    const FittedText fitted = fit_value_text(QStringLiteral("0.5488139"), font, width);
    QCOMPARE(fitted.text, QStringLiteral("0.549"));
    QCOMPARE(fitted.font.pointSizeF(), 10.0);
    // Room for the whole text: unchanged.
    const int wide = QFontMetrics(font).horizontalAdvance(QStringLiteral("0.5488139"));
    QCOMPARE(fit_value_text(QStringLiteral("0.5488139"), font, wide).text, QStringLiteral("0.5488139"));
    // Too narrow for "0.5" even in the smallest readable font: nothing, not "0…".
    QCOMPARE(fit_value_text(QStringLiteral("0.5488139"), font, 3).text, QString());
  }

  void Fitting_ShrinksTheFontBeforeDroppingBelowThreeDigits() {
    QFont font;
    font.setPointSizeF(10);
    const QFont smallest = smallest_readable_font(font);
    QCOMPARE(smallest.pointSizeF(), 7.0);
    // Two digits fit in 10 points, three only in 7: three digits, in 7 points.
    const int width = QFontMetrics(smallest).horizontalAdvance(QStringLiteral("0.549"));
    QVERIFY(QFontMetrics(font).horizontalAdvance(QStringLiteral("0.549")) > width);
    const FittedText fitted = fit_value_text(QStringLiteral("0.5488139"), font, width);
    QCOMPARE(fitted.text, QStringLiteral("0.549"));
    QVERIFY(fitted.font.pointSizeF() < 10.0);
  }

  void NineByNinePoolingInput_ShowsEveryValueRoundedAndNeverAnEllipsis() {
    auto window = std::make_unique<MainWindow>(cpu_only());
    window->resize(1366 * 95 / 100, 768 * 95 / 100);
    window->show();
    QTRY_VERIFY_WITH_TIMEOUT(window->settled(), 20000);
    Expected<Spec> spec = parse_spec(kNineByNinePooling, {});
    QVERIFY2(spec.has_value(), spec ? "" : spec.error().to_string().c_str());
    window->document()->reset(*spec, std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(window->settled(), 20000);
    TensorGridView* grid = window->panel(TensorRole::Input)->grid();
    auto* model = window->plane_model(TensorRole::Input);
    for (const bool after_fit : {false, true}) {
      if (after_fit) grid->zoom_to_fit();
      QVERIFY(!grid->heat_map_mode());
      for (int row = 0; row < model->rowCount(); ++row) {
        for (int column = 0; column < model->columnCount(); ++column) {
          const std::optional<Coord> coord = model->coord_at(row, column);
          if (!coord) continue;  // the padding margin
          const QString shown = grid->shown_text(row, column);
          const double exact = model->index(row, column).data(GridModel::ValueRole).toDouble();
          const QString where = QStringLiteral("(%1,%2) shows '%3' for %4 in a %5x%6 cell").arg(row).arg(column).arg(shown).arg(exact).arg(grid->cell_rect(row, column).width()).arg(grid->cell_rect(row, column).height()) + QStringLiteral(" display ") + model->index(row, column).data(Qt::DisplayRole).toString();
          QVERIFY2(!shown.isEmpty() && !shown.contains(QChar(0x2026)), qPrintable(where));
          bool ok = false;
          const double value = shown.toDouble(&ok);
          // The exact value rounded to the digits shown: within half a unit of
          // the last digit (values in [0, 10] have no exponent).
          const qsizetype point = shown.indexOf(QLatin1Char('.'));
          const int decimals = point < 0 ? 0 : static_cast<int>(shown.size() - point - 1);
          QVERIFY2(ok && std::abs(value - exact) <= 0.5 * std::pow(10.0, -decimals) + 1e-9, qPrintable(where));
          // The tool tip keeps the exact value.
          const EvaluationPtr& ev = window->shown_evaluation();
          const QString exact_text = QString::fromStdString(format_scalar(element_at(ev->op().input(), ev->input, *coord)));
          QVERIFY2(model->index(row, column).data(Qt::ToolTipRole).toString().contains(exact_text), qPrintable(where));
        }
      }
    }
  }
};

QTEST_MAIN(ValueTextTest)
#include "ui_value_text_test.moc"
