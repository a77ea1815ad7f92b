// File > Export Figure...: the dialog previews the figure its options
// describe and writes that same figure (PNG, SVG, or GIF or animated SVG
// when animating).
#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

#include "core/cpu_backend.h"
#include "core/io/spec_file.h"
#include "ui/backend_set.h"
#include "ui/figure/figure_export.h"
#include "ui/figure/gif_writer.h"
#include "ui/widgets/export_figure_dialog.h"

using namespace stridescope;
using namespace stridescope::ui;

class ExportDialogTest : public QObject {
  Q_OBJECT

 private slots:
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
