// The figure renderer and `stridescope-cli render`, with no display: every
// example as PNG, SVG, GIF and animated SVG; sizes that follow from panels
// and scale; cell colours from the value map; one SVG text item per cell
// value; GIF and animated SVG frames that step through the output, the SVG's
// timed by --fps. Expected values come from the examples' data worked by
// hand (slice1 example 1 on 1..16 takes rows 0, 2 and columns 1, 3: 2, 4,
// 10, 12) and from viridis' published end colours.
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/render_figure.h"
#include "core/animation_order.h"
#include "core/cpu_backend.h"
#include "core/io/spec_file.h"
#include "ui/backend_set.h"
#include "ui/evaluation.h"
#include "ui/figure/figure.h"
#include "ui/figure/figure_export.h"
#include "ui/figure/figure_legend.h"
#include "ui/figure/gif_writer.h"

using namespace stridescope;
using namespace stridescope::ui;

namespace {

QString example(const char* name) { return QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR "/") + name; }

EvaluationPtr evaluate_file(const QString& path) {
  Expected<Spec> spec = load_spec_file(path.toStdString());
  if (!spec) qFatal("%s", spec.error().to_string().c_str());
  BackendSet backends;
  backends.add(std::make_unique<CpuReferenceBackend>(), "cpu");
  EvaluationRequest request;
  request.spec = *spec;
  const EvaluationOutcome outcome = evaluate(request, backends);
  if (outcome.error) qFatal("%s", outcome.error->to_string().c_str());
  return outcome.evaluation;
}

struct CliResult {
  int code;
  std::string out;
  std::string err;
};

CliResult run_cli_args(std::vector<std::string> args) {
  std::ostringstream out;
  std::ostringstream err;
  cli::Environment env = cli::default_environment();
  env.draw_figure = cli::render_figure;  // as stridescope-render sets it
  const int code = cli::run_cli(args, out, err, env);
  return {code, out.str(), err.str()};
}

// The texts of an SVG's <text> elements.
QStringList svg_texts(const QString& path) {
  QFile file(path);
  file.open(QIODevice::ReadOnly);
  QXmlStreamReader xml(&file);
  QStringList texts;
  while (!xml.atEnd()) {
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text")) {
      texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
    }
  }
  return texts;
}

// One frame group of an animated SVG (a child of the root with an id
// "frame..."): its display, its <animate>, and the rectangles it draws
// itself (not through <use>) with the stroke of their enclosing group.
struct SvgFrame {
  QString display;
  QXmlStreamAttributes animate;
  QList<std::pair<QRectF, QString>> rects;
};

// The frames of the animated SVG at `path`; `error` is the XML reader's error, if any.
std::vector<SvgFrame> svg_frames(const QString& path, QString& error) {
  QFile file(path);
  file.open(QIODevice::ReadOnly);
  QXmlStreamReader xml(&file);
  std::vector<SvgFrame> frames;
  std::vector<QString> strokes{QString()};  // the stroke in effect at each depth
  bool in_frame = false;
  while (!xml.atEnd()) {
    const QXmlStreamReader::TokenType token = xml.readNext();
    if (token == QXmlStreamReader::StartElement) {
      const QXmlStreamAttributes a = xml.attributes();
      strokes.push_back(a.hasAttribute("stroke") ? a.value("stroke").toString() : strokes.back());
      if (strokes.size() == 3 && xml.name() == QLatin1String("g") && a.value("id").startsWith(QLatin1String("frame"))) {
        frames.push_back({a.value("display").toString(), {}, {}});
        in_frame = true;
      } else if (in_frame && xml.name() == QLatin1String("animate")) {
        frames.back().animate = a;
      } else if (in_frame && xml.name() == QLatin1String("rect")) {
        const QRectF rect(a.value("x").toDouble(), a.value("y").toDouble(), a.value("width").toDouble(),
                          a.value("height").toDouble());
        frames.back().rects.push_back({rect, strokes.back()});
      }
    } else if (token == QXmlStreamReader::EndElement) {
      strokes.pop_back();
      if (strokes.size() == 2) in_frame = false;
    }
  }
  error = xml.hasError() ? xml.errorString() : QString();
  return frames;
}

// The centres of the rectangles `frame` draws itself in `stroke`.
QList<QPointF> centres_in(const SvgFrame& frame, const QString& stroke) {
  QList<QPointF> centres;
  for (const auto& [rect, colour] : frame.rects) {
    if (colour == stroke) centres << rect.center();
  }
  return centres;
}

QImage render_svg(const QString& path, QSize size) {
  QImage image(size, QImage::Format_RGB32);
  image.fill(Qt::black);
  QPainter painter(&image);
  QSvgRenderer(path).render(&painter);
  return image;
}

int difference(const QImage& a, const QImage& b, const QRect& rect) {
  int total = 0;
  for (int y = rect.top(); y <= rect.bottom(); ++y) {
    for (int x = rect.left(); x <= rect.right(); ++x) {
      const QRgb p = a.pixel(x, y);
      const QRgb q = b.pixel(x, y);
      total += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q));
    }
  }
  return total;
}

}  // namespace

class FigureTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY(QDir().mkpath(STRIDESCOPE_FIGURE_OUT_DIR)); }

  void everyExampleRendersToPngSvgAndGifHeadless() {
    const QStringList files = QDir(STRIDESCOPE_TEST_EXAMPLES_DIR).entryList({"*.json"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 10);
    for (const QString& name : files) {
      const QString spec = example(name.toUtf8().constData());
      const QString stem = QStringLiteral(STRIDESCOPE_FIGURE_OUT_DIR "/") + QFileInfo(name).completeBaseName();
      const EvaluationPtr evaluation = evaluate_file(spec);
      const Sizes& sizes = evaluation->op().output().sizes();
      std::string at;  // the last output element: every example's overlays show
      for (std::size_t d = 0; d < sizes.size(); ++d) at += (d ? "," : "") + std::to_string(sizes[d] - 1);
      for (const char* extension : {".png", ".svg"}) {
        const CliResult r = run_cli_args({"render", spec.toStdString(), "--out", (stem + extension).toStdString(), "--memory",
                                 "--at", at, "--title", QFileInfo(name).completeBaseName().toStdString()});
        QVERIFY2(r.code == 0, (name + ": " + QString::fromStdString(r.err)).toUtf8());
      }
      QImage png(stem + ".png");
      QVERIFY2(!png.isNull(), qPrintable(name));
      FigureOptions options;
      options.memory = true;
      options.at = sizes;
      for (auto& i : *options.at) --i;
      options.title = QFileInfo(name).completeBaseName();
      QCOMPARE(png.size(), Figure(evaluation, options).size());
      QVERIFY2(QSvgRenderer(stem + ".svg").isValid(), qPrintable(name));
      const CliResult gif = run_cli_args({"render", spec.toStdString(), "--out", (stem + ".gif").toStdString(), "--animate",
                                 "--fps", "8"});
      QVERIFY2(gif.code == 0, (name + ": " + QString::fromStdString(gif.err)).toUtf8());
      const Expected<std::vector<QImage>> frames = read_gif((stem + ".gif").toStdString());
      QVERIFY2(frames.has_value(), qPrintable(name));
      QCOMPARE(frames->size(), animation_steps(evaluation->op().output().element_count()).frames);
      // The animated SVG holds as many frames as the GIF.
      const CliResult svg = run_cli_args({"render", spec.toStdString(), "--out", (stem + "_animated.svg").toStdString(),
                                          "--animate", "--fps", "8"});
      QVERIFY2(svg.code == 0, (name + ": " + QString::fromStdString(svg.err)).toUtf8());
      QString error;
      QCOMPARE(svg_frames(stem + "_animated.svg", error).size(), frames->size());
      QVERIFY2(error.isEmpty(), qPrintable(name + ": " + error));
      QVERIFY2(QSvgRenderer(stem + "_animated.svg").isValid(), qPrintable(name));
      // Its first frame as QtSvg (no SMIL) draws it, to look at beside the GIF's.
      const QSize size = QSvgRenderer(stem + "_animated.svg").defaultSize();
      QVERIFY(render_svg(stem + "_animated.svg", size).save(stem + "_animated_first.png"));
      // The first frames as PNG, to look at (build/tests/figure/figures/).
      for (std::size_t i = 0; i < std::min<std::size_t>(3, frames->size()); ++i) {
        QVERIFY((*frames)[i].save(stem + QStringLiteral("_frame%1.png").arg(i)));
      }
    }
  }

  void pngSizeFollowsPanelsAndScale() {
    const EvaluationPtr evaluation = evaluate_file(example("padding_example1_constant.json"));
    FigureOptions output_only;
    output_only.panels = {TensorRole::Output};
    output_only.legend = false;
    const QSize one = Figure(evaluation, output_only).size();
    FigureOptions both = output_only;
    both.panels = {TensorRole::Input, TensorRole::Output};
    Figure two(evaluation, both);
    // The input panel adds its 4 columns of cells (and headers) beside the output.
    const QRect input_cell = *two.cell_rect(TensorRole::Input, {0, 0, 0, 0});
    QVERIFY(two.size().width() >= one.width() + 4 * input_cell.width());
    // The output has 8 rows, the input 4: the height stays the output's.
    QCOMPARE(two.size().height(), one.height());
    FigureOptions doubled = output_only;
    doubled.scale = 2;
    const QSize big = Figure(evaluation, doubled).size();
    // Laid out once and drawn scaled: exactly twice the size.
    QCOMPARE(big, one * 2);
    doubled.scale = 1.5;
    const QSize larger = Figure(evaluation, doubled).size();
    QCOMPARE(larger, QSize(int(std::ceil(one.width() * 1.5)), int(std::ceil(one.height() * 1.5))));
    // The CLI writes exactly the figure's size.
    QTemporaryDir dir;
    const QString out = dir.filePath("two.png");
    QCOMPARE(run_cli_args({"render", example("padding_example1_constant.json").toStdString(), "--out", out.toStdString(),
                  "--panels", "input,output", "--no-legend"}).code, 0);
    QCOMPARE(QImage(out).size(), two.size());
    QCOMPARE(run_cli_args({"render", example("padding_example1_constant.json").toStdString(), "--out", out.toStdString(),
                  "--panels", "output", "--no-legend", "--scale", "2"}).code, 0);
    QCOMPARE(QImage(out).size(), big);
  }

  void knownCellsHaveTheirColourMapColour() {
    // Padding example 1: input values 1..8, padding value 9, so the range is
    // [1, 9]. Output (1,2) holds input (0,0) = 1, viridis' first colour
    // #440154; output (0,0) is padding, 9, viridis' last, #fde725 (under hatching).
    const EvaluationPtr evaluation = evaluate_file(example("padding_example1_constant.json"));
    for (const FigureTheme theme : {FigureTheme::Light, FigureTheme::Dark}) {
      FigureOptions options;
      options.theme = theme;
      Figure figure(evaluation, options);
      const QImage image = render_figure_image(figure);
      const QRect low = *figure.cell_rect(TensorRole::Output, {0, 0, 1, 2});
      QCOMPARE(QColor(image.pixel(low.right() - 3, low.center().y())), QColor(0x44, 0x01, 0x54));
      const QRect in = *figure.cell_rect(TensorRole::Input, {0, 0, 0, 0});
      QCOMPARE(QColor(image.pixel(in.right() - 3, in.center().y())), QColor(0x44, 0x01, 0x54));
    }
    // Slice example 1 (1..16): input (3,3) = 16 is the maximum, #fde725.
    const EvaluationPtr slice = evaluate_file(example("slice_example1_contiguous.json"));
    Figure figure(slice, {});
    const QImage image = render_figure_image(figure);
    const QRect high = *figure.cell_rect(TensorRole::Input, {0, 0, 3, 3});
    QCOMPARE(QColor(image.pixel(high.left() + 5, high.center().y())), QColor(0xfd, 0xe7, 0x25));  // clear of the window outline on its right
  }

  void svgHoldsOneTextItemPerCellValue() {
    QTemporaryDir dir;
    const QString out = dir.filePath("slice1.svg");
    const CliResult r = run_cli_args({"render", example("slice1_example1_positive_strides.json").toStdString(), "--out",
                             out.toStdString(), "--panels", "output", "--no-legend"});
    QCOMPARE(r.code, 0);
    QVERIFY(QSvgRenderer(out).isValid());
    const QStringList texts = svg_texts(out);
    for (const QString value : {"2", "4", "10", "12"}) QCOMPARE(texts.count(value), 1);
    // Both panels: the input's 16 values 1..16 plus the output's four.
    const QString both = dir.filePath("both.svg");
    QCOMPARE(run_cli_args({"render", example("slice1_example1_positive_strides.json").toStdString(), "--out",
                  both.toStdString(), "--no-legend"}).code, 0);
    const QStringList all = svg_texts(both);
    for (int v = 5; v <= 16; ++v) {
      const bool in_output = v == 10 || v == 12;
      QCOMPARE(all.count(QString::number(v)), in_output ? 2 : 1);
    }
  }

  void gifFramesStepThroughTheOutput() {
    // Slice example 2: a 2x2 output, four frames in row-major order.
    const QString spec = example("slice_example2_strided.json");
    QTemporaryDir dir;
    const QString out = dir.filePath("slice.gif");
    QCOMPARE(run_cli_args({"render", spec.toStdString(), "--out", out.toStdString(), "--animate", "--panels", "output",
                  "--no-legend"}).code, 0);
    const Expected<std::vector<QImage>> frames = read_gif(out.toStdString());
    QVERIFY(frames.has_value());
    QCOMPARE(frames->size(), std::size_t{4});
    FigureOptions options;
    options.panels = {TensorRole::Output};
    options.legend = false;
    Figure figure(evaluate_file(spec), options);
    QCOMPARE((*frames)[0].size(), figure.size());
    const QRect first = *figure.cell_rect(TensorRole::Output, {0, 0, 0, 0});
    const QRect second = *figure.cell_rect(TensorRole::Output, {0, 0, 0, 1});
    const QRect last = *figure.cell_rect(TensorRole::Output, {0, 0, 1, 1});
    // The selection leaves (0,0) and lands on (0,1); (1,1) is untouched until the last frame.
    QVERIFY(difference((*frames)[0], (*frames)[1], first) > 0);
    QVERIFY(difference((*frames)[0], (*frames)[1], second) > 0);
    QCOMPARE(difference((*frames)[0], (*frames)[1], last), 0);
    QVERIFY(difference((*frames)[2], (*frames)[3], last) > 0);
  }

  void animatedSvgPlaysTheGifsFrames() {
    // Slice example 2: a 2x2 output, so four frames (as its GIF has), row-major.
    const QString spec = example("slice_example2_strided.json");
    QTemporaryDir dir;
    const QString out = dir.filePath("slice.svg");
    const CliResult r = run_cli_args({"render", spec.toStdString(), "--out", out.toStdString(), "--animate", "--fps",
                                      "2", "--panels", "output", "--no-legend"});
    QVERIFY2(r.code == 0, r.err.c_str());
    QVERIFY(QSvgRenderer(out).isValid());
    QString error;
    const std::vector<SvgFrame> frames = svg_frames(out, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));  // well-formed XML, read to the end
    QCOMPARE(frames.size(), std::size_t{4});
    // Four frames at 2 frames a second: a 2 s loop, each frame half a second
    // (a quarter of the loop), shown in turn and hidden the rest of the loop.
    const QStringList key_times = {"0;0.25", "0;0.25;0.5", "0;0.5;0.75", "0;0.75"};
    const QStringList values = {"inline;none", "none;inline;none", "none;inline;none", "none;inline"};
    for (std::size_t i = 0; i < 4; ++i) {
      const QXmlStreamAttributes& animate = frames[i].animate;
      QCOMPARE(animate.value("attributeName").toString(), QStringLiteral("display"));
      QCOMPARE(animate.value("calcMode").toString(), QStringLiteral("discrete"));
      QCOMPARE(animate.value("dur").toString(), QStringLiteral("2s"));
      QCOMPARE(animate.value("repeatCount").toString(), QStringLiteral("indefinite"));
      QCOMPARE(animate.value("keyTimes").toString(), key_times[int(i)]);
      QCOMPARE(animate.value("values").toString(), values[int(i)]);
      // Without SMIL only the first frame shows.
      QCOMPARE(frames[i].display, i == 0 ? QString() : QStringLiteral("none"));
    }
    // The selected cell's outline (vermillion, #d55e00) is each frame's own,
    // on (0,0) in frame 0 and on (0,1) in frame 1.
    FigureOptions options;
    options.panels = {TensorRole::Output};
    options.legend = false;
    Figure figure(evaluate_file(spec), options);
    const QRect first = *figure.cell_rect(TensorRole::Output, {0, 0, 0, 0});
    const QRect second = *figure.cell_rect(TensorRole::Output, {0, 0, 0, 1});
    const QList<QPointF> in_first = centres_in(frames[0], QStringLiteral("#d55e00"));
    const QList<QPointF> in_second = centres_in(frames[1], QStringLiteral("#d55e00"));
    QCOMPARE(in_first.size(), 1);
    QCOMPARE(in_second.size(), 1);
    QVERIFY(first.contains(in_first[0].toPoint()));
    QVERIFY(second.contains(in_second[0].toPoint()));
    // A renderer without SMIL draws exactly the still figure of the first element.
    const QString still = dir.filePath("still.svg");
    QCOMPARE(run_cli_args({"render", spec.toStdString(), "--out", still.toStdString(), "--at", "0,0,0,0", "--panels",
                           "output", "--no-legend"}).code, 0);
    QCOMPARE(render_svg(out, figure.size()), render_svg(still, figure.size()));
  }

  void everyAnimatedSvgFrameDrawsTheStillFigureOfItsElement() {
    // Padding example 1: an 8x10 output, 80 frames in row-major order, so
    // frame 12 selects (1,2), an input element, and frame 0 (0,0), padding:
    // frames share what they draw alike in different stretches.
    const std::string spec = example("padding_example1_constant.json").toStdString();
    QTemporaryDir dir;
    const QString out = dir.filePath("pad.svg");
    QCOMPARE(run_cli_args({"render", spec, "--out", out.toStdString(), "--animate"}).code, 0);
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QCOMPARE(text.count(QStringLiteral("<g id=\"frame")), 80);
    // Shown alone (as SMIL shows it at 12/80 of the loop), frame 12 is the still figure at (1,2).
    QString twelve = text;
    twelve.replace(QStringLiteral("<g id=\"frame0\">"), QStringLiteral("<g id=\"frame0\" display=\"none\">"));
    twelve.replace(QStringLiteral("<g id=\"frame12\" display=\"none\">"), QStringLiteral("<g id=\"frame12\">"));
    const QString alone = dir.filePath("twelve.svg");
    QFile twelve_file(alone);
    QVERIFY(twelve_file.open(QIODevice::WriteOnly));
    twelve_file.write(twelve.toUtf8());
    twelve_file.close();
    const QString still = dir.filePath("still.svg");
    QCOMPARE(run_cli_args({"render", spec, "--out", still.toStdString(), "--at", "0,0,1,2"}).code, 0);
    const QSize size = QSvgRenderer(still).defaultSize();
    QCOMPARE(render_svg(alone, size), render_svg(still, size));
    QVERIFY(render_svg(out, size) != render_svg(still, size));  // the file as it stands shows frame 0
  }

  void largeOutputsAnimateEveryKthElement() {
    // 17x17 = 289 elements: every 2nd, ceil(289 / 2) = 145 frames.
    QTemporaryDir dir;
    const QString spec = dir.filePath("big.json");
    QFile file(spec);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"op":"identity","input":{"dataType":"UINT8","sizes":[1,1,17,17],"fill":"iota"},)"
               R"("output":{"dataType":"UINT8","sizes":[1,1,17,17]}})");
    file.close();
    const QString out = dir.filePath("big.gif");
    const CliResult r = run_cli_args({"render", spec.toStdString(), "--out", out.toStdString(), "--animate", "--panels",
                             "output", "--no-legend", "--scale", "0.25"});
    QVERIFY2(r.code == 0, r.err.c_str());
    const Expected<std::vector<QImage>> frames = read_gif(out.toStdString());
    QVERIFY(frames.has_value());
    QCOMPARE(frames->size(), std::size_t{145});
  }

  void badOptionsExitWithTwoNamingTheOption() {
    const std::string spec = example("slice_example1_contiguous.json").toStdString();
    QTemporaryDir dir;
    const std::string png = dir.filePath("x.png").toStdString();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"render", spec}, "error: --out:"},
        {{"render", spec, "--out", png, "--panels", "outputs"}, "error: --panels:"},
        {{"render", spec, "--out", png, "--panels", "indices"}, "error: --panels:"},
        {{"render", spec, "--out", png, "--scale", "0"}, "error: --scale:"},
        {{"render", spec, "--out", png, "--theme", "blue"}, "error: --theme:"},
        {{"render", spec, "--out", png, "--at", "0,0,9,0"}, "error: --at[2]:"},
        {{"render", spec, "--out", png, "--at", "0,0"}, "error: --at:"},
        {{"render", spec, "--out", png, "--plane", "0,1"}, "error: --plane:"},
        {{"render", spec, "--out", png, "--animate"}, "error: --animate:"},
        {{"render", spec, "--out", png, "--fps", "3"}, "error: --fps:"},
        {{"render", spec, "--out", dir.filePath("x.svg").toStdString(), "--animate", "--fps", "0"}, "error: --fps:"},
        {{"render", spec, "--out", dir.filePath("x.svg").toStdString(), "--animate", "--fps", "200"}, "error: --fps:"},
        {{"render", spec, "--out", dir.filePath("x.jpg").toStdString()}, "error: --out:"},
        {{"render", spec, "--out", dir.filePath("x.gif").toStdString(), "--animate", "--order", "random"},
         "error: --order:"},
    };
    for (const auto& [args, message] : cases) {
      const CliResult r = run_cli_args(args);
      QCOMPARE(r.code, 2);
      QVERIFY2(r.err.rfind(message, 0) == 0, r.err.c_str());
    }
  }

  void textPrintsTheGridsWithValuesAsRunWritesThem() {
    QTemporaryDir dir;
    const QString spec = dir.filePath("tenths.json");
    QFile file(spec);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"op":"identity","input":{"dataType":"FLOAT32","sizes":[1,2],"data":[0.1,-2.5]},)"
               R"("output":{"dataType":"FLOAT32","sizes":[1,2]}})");
    file.close();
    const CliResult r = run_cli_args({"render", spec.toStdString(), "--text", "--panels", "output"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.find("  0.1 -2.5\n") != std::string::npos, r.out.c_str());
    QVERIFY(r.out.find("0.10000000149011612") == std::string::npos);
    // demo prints the same values the same way.
    const CliResult demo = run_cli_args({"demo", dir.path().toStdString()});
    QCOMPARE(demo.code, 0);
    QVERIFY2(demo.out.find("0.1 -2.5") != std::string::npos, demo.out.c_str());
    QVERIFY(demo.out.find("0.10000000149011612") == std::string::npos);
  }

  // A legend explains only what a reader can find in the figure: max_pooling2
  // draws its window, winner and padded taps on the input, writes the winner
  // on the output and the decoded index on the indices, which are coloured
  // as names, on no value ramp.
  void theLegendNamesOnlyTheMarksOfThePanelsShown() {
    const EvaluationPtr pooling = evaluate_file(example("max_pooling2_3x3_stride2_pad1_indices.json"));
    using C = OverlayCategory;
    const auto has = [](const FigureLegend& legend, C category) {
      return std::ranges::count(legend.categories, category) == 1;
    };
    const FigureLegend all = figure_legend(*pooling, true, LegendScope{true, true, true, false});
    QVERIFY(all.ramp);
    for (C category : {C::Selected, C::Window, C::Winner, C::PaddedTap, C::Unused}) QVERIFY(has(all, category));
    QVERIFY(all.note.contains(QStringLiteral("winner")) && all.note.contains(QStringLiteral("decoded index")));

    const FigureLegend indices = figure_legend(*pooling, true, LegendScope{false, false, true, false});
    QVERIFY(!indices.ramp);
    QCOMPARE(indices.categories, std::vector<C>{C::Selected});
    QCOMPARE(indices.note, QStringLiteral("\u2192[\u2026]: decoded index"));

    const FigureLegend output = figure_legend(*pooling, true, LegendScope{false, true, false, false});
    QVERIFY(output.ramp);
    QCOMPARE(output.categories, std::vector<C>{C::Selected});
    QCOMPARE(output.note, QStringLiteral("\u2190(r,c): winner"));
  }
};

int main(int argc, char** argv) {
  // As the CLI does: no display is needed.
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  FigureTest test;
  return QTest::qExec(&test, argc, argv);
}

#include "figure_test.moc"
