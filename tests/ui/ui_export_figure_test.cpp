// File > Export Figure...'s dialog: its preview shows the whole figure, as
// it will sit on a slide, scaled down to the dialog where the figure is
// larger, and says the size the file will have; Scale changes the file, not
// how much of it the preview shows.
#include <QDir>
#include <QLabel>
#include <QtTest>

#include <cstdlib>
#include <memory>

#include "test_backends.h"
#include "ui/examples.h"
#include "ui/widgets/export_figure_dialog.h"
#include "ui/widgets/main_window.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

class ExportFigureTest : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

  // The main window with `example` evaluated.
  void open(const QString& example) {
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(1400, 900);
    window_->show();
    const Status opened = window_->open_file(QDir(examples_directory()).filePath(example));
    if (!opened.ok()) qFatal("%s", opened.error().to_string().c_str());
    QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000);
  }

  static QSize shown_size(const ExportFigureDialog& dialog) { return dialog.preview()->pixmap().size(); }
  static QString size_text(const ExportFigureDialog& dialog) {
    return dialog.findChild<QLabel*>(QStringLiteral("figurePreviewSize"))->text();
  }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }
  void cleanup() { window_.reset(); }

  void AFigureLargerThanThePreviewIsShownWholeAndItsSavedSizeSaid() {
    open(QStringLiteral("max_pooling2_3x3_stride2_pad1_indices.json"));
    ExportFigureDialog dialog(window_->shown_evaluation(), std::nullopt);
    dialog.resize(640, 600);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QSize saved = dialog.figure_image().size();
    QVERIFY2(saved.width() > 640, qPrintable(QString::number(saved.width())));  // three panels side by side
    const QSize shown = shown_size(dialog);
    QVERIFY(shown.width() < 640);
    // Scaled as a whole: the same shape, to within a pixel of rounding.
    QVERIFY(std::abs(shown.height() - saved.height() * shown.width() / saved.width()) <= 1);
    const int percent = static_cast<int>(100.0 * shown.width() / saved.width() + 0.5);
    QCOMPARE(size_text(dialog), QStringLiteral("Saved at %1 \u00d7 %2 pixels; shown here at %3%")
                                    .arg(saved.width())
                                    .arg(saved.height())
                                    .arg(percent));

    // A larger dialog shows more of it, never more than its own size.
    dialog.resize(1800, 1200);
    QTRY_VERIFY(shown_size(dialog).width() > shown.width());
    QVERIFY(shown_size(dialog).width() <= saved.width());
  }

  void AFigureThatFitsIsShownAtItsOwnSize() {
    open(QStringLiteral("slice1_example1_positive_strides.json"));
    ExportFigureDialog dialog(window_->shown_evaluation(), std::nullopt);
    dialog.resize(1800, 1200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QSize saved = dialog.figure_image().size();
    QCOMPARE(shown_size(dialog), saved);
    QCOMPARE(size_text(dialog), QStringLiteral("Saved at %1 \u00d7 %2 pixels").arg(saved.width()).arg(saved.height()));
  }
};

QTEST_MAIN(ExportFigureTest)
#include "ui_export_figure_test.moc"
