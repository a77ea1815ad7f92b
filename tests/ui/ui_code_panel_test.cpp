// The Code panel: the current spec as a program for each framework, written
// by core's code writers, with where the framework differs listed beside it.
// The app opens with DirectML's SLICE1 example 2 (strides {1,1,-2,2}).
#include <QClipboard>
#include <QDockWidget>
#include <QGuiApplication>
#include <QPushButton>
#include <QUndoStack>
#include <QtTest>

#include <memory>

#include "shown_window.h"
#include "test_backends.h"
#include "ui/spec_document.h"
#include "ui/widgets/code_panel.h"
#include "ui/widgets/main_window.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

class CodePanelInTheApp : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }
  CodePanel* panel() const { return window_->findChild<CodePanel*>(QStringLiteral("codePanel")); }

 private slots:
  void init() {
    window_ = open_shown_window(cpu_only());
    QVERIFY(window_ != nullptr);
    window_->findChild<QDockWidget*>(QStringLiteral("codeDock"))->raise();
    QTRY_VERIFY(panel()->isVisible());
  }
  void cleanup() {
    window_.reset();
    QSettings().clear();
  }

  void NumPyTab_IsAProgramForTheCurrentSpec() {
    panel()->set_language(CodeLanguage::NumPy);
    const QString code = panel()->code();
    QVERIFY2(code.contains(QStringLiteral("import numpy")), qPrintable(code.left(400)));
    QVERIFY2(code.contains(QStringLiteral("as_strided")), qPrintable(code.left(400)));
    QVERIFY2(code.contains(QStringLiteral("-2")), qPrintable(code));  // the negative stride, as written
  }

  void TorchTab_SaysItFlipsForTheNegativeStride() {
    panel()->set_language(CodeLanguage::Torch);
    QVERIFY(panel()->code().contains(QStringLiteral("import torch")));
    QVERIFY2(panel()->notes().contains(QStringLiteral("no negative step")), qPrintable(panel()->notes()));
  }

  void EditingTheSpec_RewritesTheCode() {
    panel()->set_language(CodeLanguage::Dml);
    QVERIFY(panel()->code().contains(QStringLiteral("DML_SLICE1_OPERATOR_DESC")));
    Spec padding = load_example("padding_example4_symmetric.json");
    window_->document()->reset(padding, std::nullopt);  // as File > Open does
    settle();
    QTRY_VERIFY2(panel()->code().contains(QStringLiteral("DML_PADDING_OPERATOR_DESC")), qPrintable(panel()->code().left(600)));
    QVERIFY(panel()->code().contains(QStringLiteral("DML_PADDING_MODE_SYMMETRIC")));
  }

  void CopyButton_PutsTheProgramOnTheClipboard() {
    panel()->set_language(CodeLanguage::DxDispatch);
    panel()->findChild<QPushButton*>(QStringLiteral("codeCopy"))->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), panel()->code());
    QVERIFY(panel()->code().contains(QStringLiteral("dispatchables")));
  }

  void ALargeInput_WaitsForWriteProgramInsteadOfRewritingOnEveryEdit() {
    panel()->set_language(CodeLanguage::NumPy);
    // 1x1x300x300 = 90,000 random elements: past the live limit of 65,536.
    Spec large = window_->document()->spec();
    large.request.input.sizes = std::vector<uint64_t>{1, 1, 300, 300};
    large.input_source = Fill{FillRandom{7, -9, 9}};
    window_->document()->edit(large, QStringLiteral("sizes"));
    settle();
    auto* write = panel()->findChild<QPushButton*>(QStringLiteral("codeWrite"));
    auto* copy = panel()->findChild<QPushButton*>(QStringLiteral("codeCopy"));
    QTRY_VERIFY2(panel()->code().contains(QStringLiteral("90,000 elements")), qPrintable(panel()->code()));
    QVERIFY(write->isVisible());
    QVERIFY(!copy->isEnabled());
    QVERIFY(!panel()->code().contains(QStringLiteral("import numpy")));
    write->click();
    QVERIFY2(panel()->code().contains(QStringLiteral("import numpy")), qPrintable(panel()->code().left(400)));
    QVERIFY(!write->isVisible());
    QVERIFY(copy->isEnabled());
    // Back to a small input: written live again.
    window_->document()->undo_stack()->undo();
    settle();
    QTRY_VERIFY(panel()->code().contains(QStringLiteral("-2")));
    QVERIFY(!write->isVisible());
  }
};

QTEST_MAIN(CodePanelInTheApp)
#include "ui_code_panel_test.moc"
