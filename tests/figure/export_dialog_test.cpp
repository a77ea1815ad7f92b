// File > Export Figure...: the dialog previews the figure its options
// describe (whole, scaled down where larger than the dialog) and writes that
// same figure (PNG, SVG, or GIF or animated SVG when animating).
#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <memory>
#include <string>

#include "core/cpu_backend.h"
#include "core/io/spec_file.h"
#include "ui/backend_set.h"
#include "ui/figure/figure_export.h"
#include "ui/figure/gif_writer.h"
#include "ui/widgets/export_figure_dialog.h"

using namespace stridescope;
using namespace stridescope::ui;

namespace {

EvaluationPtr evaluated(const char* example) {
  Expected<Spec> spec = load_spec_file(std::string(STRIDESCOPE_TEST_EXAMPLES_DIR "/") + example);
  if (!spec) return nullptr;
  BackendSet backends;
  backends.add(std::make_unique<CpuReferenceBackend>(), "cpu");
  EvaluationRequest request;
  request.spec = *spec;
  return evaluate(request, backends).evaluation;
}

// The dialog for `example`, shown at `size` (null if the example fails).
std::unique_ptr<ExportFigureDialog> shown_dialog(const char* example, QSize size) {
  const EvaluationPtr evaluation = evaluated(example);
  if (!evaluation) return nullptr;
  auto dialog = std::make_unique<ExportFigureDialog>(evaluation, std::nullopt);
  dialog->resize(size);
  dialog->show();
  if (!QTest::qWaitForWindowExposed(dialog.get())) return nullptr;
  return dialog;
}

QSize shown_size(const ExportFigureDialog& dialog) { return dialog.preview()->pixmap().size(); }

QString size_text(const ExportFigureDialog& dialog) {
  return dialog.findChild<QLabel*>(QStringLiteral("figurePreviewSize"))->text();
}

}  // namespace

class ExportDialogTest : public QObject {
  Q_OBJECT

 private slots:
  // The preview shows the whole figure, as it will sit on a slide, scaled
  // down to the dialog where the figure is larger, and says the size the
  // file will have.
  void aFigureLargerThanThePreviewIsShownWholeAndItsSavedSizeSaid() {
    const auto shown_at = shown_dialog("max_pooling2_3x3_stride2_pad1_indices.json", QSize(640, 600));
    QVERIFY(shown_at);
    ExportFigureDialog& dialog = *shown_at;
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

  void aFigureThatFitsIsShownAtItsOwnSize() {
    const auto shown_at = shown_dialog("slice1_example1_positive_strides.json", QSize(1800, 1200));
    QVERIFY(shown_at);
    ExportFigureDialog& dialog = *shown_at;
    const QSize saved = dialog.figure_image().size();
    QCOMPARE(shown_size(dialog), saved);
    QCOMPARE(size_text(dialog), QStringLiteral("Saved at %1 \u00d7 %2 pixels").arg(saved.width()).arg(saved.height()));
  }

  void previewsAndWritesTheFigureItsOptionsDescribe() {
    Expected<Spec> spec = load_spec_file(STRIDESCOPE_TEST_EXAMPLES_DIR "/slice_example2_strided.json");
    QVERIFY(spec.has_value());
    BackendSet backends;
    backends.add(std::make_unique<CpuReferenceBackend>(), "cpu");
    EvaluationRequest request;
    request.spec = *spec;
    const EvaluationOutcome outcome = evaluate(request, backends);
    QVERIFY(outcome.evaluation);
    ExportFigureDialog dialog(outcome.evaluation, Coord{0, 0, 1, 1});
    auto* preview = dialog.findChild<QLabel*>(QStringLiteral("figurePreview"));
    QVERIFY(preview);
    const QSize both = Figure(outcome.evaluation, dialog.options()).size();
    QCOMPARE(preview->pixmap().size(), both);
    // Unticking the input panel narrows the preview.
    for (QCheckBox* box : dialog.findChildren<QCheckBox*>()) {
      if (box->text() == QStringLiteral("Input")) box->setChecked(false);
    }
    QVERIFY(preview->pixmap().width() < both.width());
    QTemporaryDir dir;
    QVERIFY(dialog.export_to(dir.filePath("f.png")).ok());
    QCOMPARE(QImage(dir.filePath("f.png")).size(), preview->pixmap().size());
    QVERIFY(dialog.export_to(dir.filePath("f.svg")).ok());
    QVERIFY(!dialog.export_to(dir.filePath("f.gif")).ok());  // a GIF is an animation
    for (QCheckBox* box : dialog.findChildren<QCheckBox*>()) {
      if (box->text().startsWith(QStringLiteral("Animate"))) box->setChecked(true);
    }
    QVERIFY(dialog.export_to(dir.filePath("f.gif")).ok());
    const Expected<std::vector<QImage>> frames = read_gif(dir.filePath("f.gif").toStdString());
    QVERIFY(frames.has_value());
    QCOMPARE(frames->size(), std::size_t{4});  // the 2x2 output, one frame an element
    // Animated, a .svg is an animated SVG with the same four frames; a PNG cannot move.
    QVERIFY(dialog.export_to(dir.filePath("a.svg")).ok());
    QFile svg(dir.filePath("a.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QCOMPARE(text.count("<g id=\"frame"), 4);
    QCOMPARE(text.count("<animate "), 4);
    QVERIFY(!dialog.export_to(dir.filePath("a.png")).ok());
  }
};

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  ExportDialogTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "export_dialog_test.moc"
