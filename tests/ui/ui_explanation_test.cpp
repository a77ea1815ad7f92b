// The Worked Out panel: the arithmetic of the output sizes and of the selected
// or hovered output element, with the spec's numbers (hand-worked from the
// slice1 example the app opens with, DirectML's SLICE1 example 2: window
// offsets {0,0,0,1}, sizes {1,1,4,3}, strides {1,1,-2,2} over iota 4x4).
#include <QDockWidget>
#include <QTextBrowser>
#include <QUndoStack>
#include <QtTest>

#include <memory>

#include "shown_window.h"
#include "test_backends.h"
#include "ui/linked_selection.h"
#include "ui/spec_document.h"
#include "ui/widgets/explanation_panel.h"
#include "ui/widgets/help_browser.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

class WorkedOutPanel : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }
  ExplanationPanel* panel() const { return window_->findChild<ExplanationPanel*>(QStringLiteral("explanationPanel")); }

 private slots:
  void init() {
    window_ = open_shown_window(cpu_only());
    QVERIFY(window_ != nullptr);
  }
  void cleanup() {
    window_.reset();
    QSettings().clear();
  }

  void OpensShowingTheOutputSizesAndTheFirstElementsArithmetic() {
    QVERIFY(panel() != nullptr);
    QVERIFY(window_->findChild<QDockWidget*>(QStringLiteral("explanationDock"))->isVisible());
    const QString text = panel()->plain_text();
    // 1 + (4 - 1) / 2 = 2 rows and 1 + (3 - 1) / 2 = 2 columns.
    QVERIFY2(text.contains(QStringLiteral("Output sizes [1,1,2,2]")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("out[2] = MaxCopiedElements = 1 + (windowSize - 1) / |stride| = "
                                          "1 + (4 - 1) / |-2| = 2")),
             qPrintable(text));
    // out[0,0,0,0], selected on opening: row 3 + (-2)*0 = 3, column 1 + 2*0 = 1.
    QVERIFY2(text.contains(QStringLiteral("start[2] = offset + size - 1 = 0 + 4 - 1 = 3")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("in[2] = start + stride\u00b7o = 3 + (-2)\u00b70 = 3")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("in[3] = offset + stride\u00b7o = 1 + 2\u00b70 = 1")), qPrintable(text));
  }

  void SelectingAnotherElement_ShowsItsNumbers() {
    window_->selection()->select_output(Coord{0, 0, 1, 1});
    const QString text = panel()->plain_text();
    // out[0,0,1,1]: row 3 + (-2)*1 = 1, column 1 + 2*1 = 3: in[0,0,1,3] at 1*4 + 3 = 7.
    QVERIFY2(text.contains(QStringLiteral("in[2] = start + stride\u00b7o = 3 + (-2)\u00b71 = 1")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("in[3] = offset + stride\u00b7o = 1 + 2\u00b71 = 3")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("= 0\u00b716 + 0\u00b716 + 1\u00b74 + 3\u00b71 = 7")), qPrintable(text));
  }

  void HoveringAnOutputCell_ExplainsThatCell() {
    TensorGridView* grid = window_->panel(TensorRole::Output)->grid();
    // out[0,0,1,0]: row 1, column 1: in[0,0,1,1] at offset 5. The cell is
    // hovered again on each try: on a busy machine the grid may still be
    // refitting (cells moving) when the first move arrives.
    const auto hover_explains = [&] {
      QTest::mouseMove(grid->viewport(), grid->cell_rect(1, 0).center());
      return panel()->plain_text().contains(QStringLiteral("= 0\u00b716 + 0\u00b716 + 1\u00b74 + 1\u00b71 = 5"));
    };
    QTRY_VERIFY2(hover_explains(), qPrintable(panel()->plain_text()));
  }

  void TheRulesLink_OpensTheOperatorsPage() {
    auto* text = panel()->findChild<QTextBrowser*>(QStringLiteral("explanationText"));
    QVERIFY(text->toHtml().contains(QStringLiteral("href=\"help:operators.md\"")));
    emit text->anchorClicked(QUrl(QStringLiteral("help:operators.md")));
    auto* help = window_->findChild<HelpBrowser*>(QStringLiteral("helpBrowser"));
    QVERIFY(help != nullptr && help->isVisible());
    QCOMPARE(help->text()->source(), HelpBrowser::page_url(QStringLiteral("operators.md")));
  }

  void AnInvalidSpec_ExplainsTheFailingRuleWithItsNearestValidValue() {
    // The opening slice1 example with window offset 2 on the 4-wide axis 3:
    // the window 2 + 3 > 4, and with that offset it holds at most 4 - 2 = 2.
    Spec bad = window_->document()->spec();
    std::get<Slice1Request>(bad.request.params).input_window_offsets = {0, 0, 0, 2};
    window_->document()->edit(bad, QStringLiteral("offset"));
    QTRY_VERIFY2(panel()->plain_text().contains(QStringLiteral("not valid")), qPrintable(panel()->plain_text()));
    const QString text = panel()->plain_text();
    QVERIFY2(text.contains(QStringLiteral("(params.inputWindowSizes[3]): window [2, 5) exceeds input size 4")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("window size at most 2 with this offset")), qPrintable(text));
    // Hovering the stale result does not bring back the old arithmetic.
    window_->selection()->select_output(Coord{0, 0, 1, 1});
    QVERIFY(panel()->plain_text().contains(QStringLiteral("not valid")));
    // Undo makes it valid again: the element's arithmetic returns.
    window_->document()->undo_stack()->undo();
    QTRY_VERIFY2(panel()->plain_text().contains(QStringLiteral("Output sizes [1,1,2,2]")),
                 qPrintable(panel()->plain_text()));
    QVERIFY(!panel()->plain_text().contains(QStringLiteral("not valid")));
  }
};

QTEST_MAIN(WorkedOutPanel)
#include "ui_explanation_test.moc"
