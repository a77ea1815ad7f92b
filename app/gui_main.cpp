// The desktop app's entry point: parse arguments, make the backends this build
// has (app/backend_factory.h, the only place that knows Vulkan exists), hand
// them to the window, start.
//
//   stridescope [SPEC] [--backend cpu|vulkan] [--compare-with RESULT] [--play] [--screenshot DIR [--window-size WxH]]
#include <cstdio>

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>

#include "app/backend_factory.h"
#include "ui/backend_set.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/result_compare.h"
#include "ui/widgets/screenshot.h"

namespace {

struct Options {
  QCommandLineOption backend{QStringLiteral("backend"), QStringLiteral("Backend to run on: cpu or vulkan."),
                             QStringLiteral("name")};
  QCommandLineOption screenshot{
      QStringLiteral("screenshot"),
      QStringLiteral("Render the main window for every example (or SPEC alone) to PNG files in DIR, then exit."),
      QStringLiteral("dir")};
  // A teacher's projector shortcut: open the spec and step through it at once.
  QCommandLineOption play{QStringLiteral("play"),
                          QStringLiteral("Start the step-through animation over the output elements at once "
                                         "(Space pauses, Left/Right step).")};
  // Screenshots at the sizes people's screens have (1366x768, 1920x1080).
  QCommandLineOption size{QStringLiteral("window-size"),
                          QStringLiteral("With --screenshot: the window's size, WIDTHxHEIGHT."), QStringLiteral("WxH")};
  QCommandLineOption compare{QStringLiteral("compare-with"),
                             QStringLiteral("Compare SPEC's result with another implementation's (a result document "
                                            "or a .npy), as File > Compare with Result does."),
                             QStringLiteral("result")};
};

void parse(QCommandLineParser& parser, const Options& options, const QApplication& app) {
  parser.setApplicationDescription(
      QStringLiteral("See what DirectML's data-movement operators do to a strided tensor."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("spec"), QStringLiteral("A spec file to open."), QStringLiteral("[spec]"));
  for (const QCommandLineOption& option : {options.size, options.backend, options.compare, options.play, options.screenshot}) {
    parser.addOption(option);
  }
  parser.process(app);
}

// --screenshot: writes the PNGs and returns the exit code.
int write_screenshots(stridescope::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
  stridescope::ui::ScreenshotOptions shots;
  shots.directory = parser.value(options.screenshot);
  shots.specs = parser.positionalArguments();
  // The scenario shots (hover, animation, comparisons, an invalid edit, a
  // large tensor) show the examples; asked for one's own specs, a user
  // wants those alone.
  shots.extras = shots.specs.isEmpty();
  if (parser.isSet(options.size)) {
    const QStringList parts = parser.value(options.size).split(QLatin1Char('x'));
    bool w_ok = false, h_ok = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&w_ok) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&h_ok) : 0;
    if (!w_ok || !h_ok || w < 320 || h < 240 || w > 8192 || h > 8192) {
      std::fprintf(stderr, "error: --window-size must be WIDTHxHEIGHT, each 320 to 8192 (got '%s')\n",
                   qPrintable(parser.value(options.size)));
      return 2;
    }
    shots.size = QSize(w, h);
  }
  QStringList written;
  const stridescope::Status status = stridescope::ui::write_screenshots(window, shots, &written);
  for (const QString& file : written) std::printf("%s\n", qPrintable(file));
  if (!status) {
    std::fprintf(stderr, "error: %s\n", status.error().to_string().c_str());
    return 1;
  }
  return 0;
}

// The spec and the result to compare with, as the command line names them;
// a failure is said in a message box over the window, which opens anyway.
void open_from_command_line(stridescope::ui::MainWindow& window, const QCommandLineParser& parser,
                            const Options& options) {
  if (!parser.positionalArguments().isEmpty()) {
    const QString spec = parser.positionalArguments().front();
    const stridescope::Status status = window.open_file(spec);
    if (!status) {
      QMessageBox::warning(&window, QStringLiteral("StrideScope"),
                           QStringLiteral("Could not open %1:\n%2").arg(spec, QString::fromStdString(status.error().to_string())));
    }
  }
  if (parser.isSet(options.compare)) {
    const QString result = parser.value(options.compare);
    const stridescope::Status status = window.result_compare()->compare_with(result);
    if (!status) {
      QMessageBox::warning(&window, QStringLiteral("StrideScope"),
                           QStringLiteral("Could not compare with %1:\n%2")
                               .arg(result, QString::fromStdString(status.error().to_string())));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("StrideScope"));
  QApplication::setApplicationName(QStringLiteral("StrideScope"));
  QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/stridescope.svg")));
  QCommandLineParser parser;
  const Options options;
  parse(parser, options, app);

  // Each window (File > New Window makes more) runs on backends of its own.
  const auto make_backends = [] {
    return stridescope::ui::BackendSet::create(stridescope::compiled_backends(),
                                               [](std::string_view name) { return stridescope::make_backend(name); });
  };
  stridescope::ui::MainWindow window(make_backends());
  window.set_backend_maker(make_backends);
  if (parser.isSet(options.backend)) window.set_backend(parser.value(options.backend));
  if (parser.isSet(options.screenshot)) return write_screenshots(window, parser, options);

  open_from_command_line(window, parser, options);
  if (parser.isSet(options.play)) window.play_animation();
  window.show();
  // Edits an unclean exit left in the autosave (ui/autosave.h) are offered
  // back once the window is up, so the question has a window to belong to.
  window.offer_recovery();
  return QApplication::exec();
}
