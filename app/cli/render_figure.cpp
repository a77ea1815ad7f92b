// render_figure with Qt: a QGuiApplication on the offscreen platform (no
// display needed), the spec evaluated as the app evaluates it, then
// ui/figure draws and writes it.
#include "app/cli/render_figure.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QGuiApplication>

#include <cerrno>
#include <string>

#include "ui/backend_set.h"
#include "ui/evaluation.h"
#include "ui/figure/figure.h"
#include "ui/figure/figure_export.h"

namespace stridescope::cli {
namespace {

// One application for the process (in-process tests render many times), on
// the offscreen platform unless one already exists.
void ensure_gui_application() {
  if (QCoreApplication::instance()) return;
  qputenv("QT_QPA_PLATFORM", "offscreen");
  // Qt warns on stderr at start when XDG_RUNTIME_DIR is unset (CI, cron, ssh
  // without a session) and then uses /tmp/runtime-USER; a command-line tool
  // should not print a warning about something it never uses, so say so first.
  if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
    const std::string dir = "/tmp/runtime-" + std::to_string(::getuid());
    if (::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) qputenv("XDG_RUNTIME_DIR", QByteArray::fromStdString(dir));
  }
  static int argc = 1;
  static char name[] = "stridescope-cli";
  static char* argv[] = {name, nullptr};
  static QGuiApplication* app = new QGuiApplication(argc, argv);  // lives as long as the process
  (void)app;
}

ui::TensorRole role_of(FigurePanelName name) {
  switch (name) {
    case FigurePanelName::Input: return ui::TensorRole::Input;
    case FigurePanelName::Output: return ui::TensorRole::Output;
    case FigurePanelName::Indices: return ui::TensorRole::Indices;
  }
  return ui::TensorRole::Output;
}

ui::FigureOptions figure_options(const RenderRequest& request) {
  ui::FigureOptions options;
  for (FigurePanelName name : request.panels) options.panels.push_back(role_of(name));
  options.memory = request.memory;
  options.all_planes = request.all_planes;
  options.planes = request.planes;
  options.at = request.at;
  options.scale = request.scale;
  options.theme = request.dark ? ui::FigureTheme::Dark : ui::FigureTheme::Light;
  options.legend = request.legend;
  options.title = QString::fromStdString(request.title);
  return options;
}

}  // namespace

Status render_figure(const Spec& spec, const RenderRequest& request, std::unique_ptr<Backend> backend) {
  const std::optional<ui::FigureFormat> format = ui::figure_format_of(request.out);
  if (!format) return invalid("--out", "expected a file ending in .png, .svg or .gif, got '" + request.out + "'");
  if (request.animate && *format == ui::FigureFormat::Png) {
    return invalid("--animate", "writes an animated GIF or SVG: --out must end in .gif or .svg");
  }
  if (!request.animate && *format == ui::FigureFormat::Gif) {
    return invalid("--out", "a .gif is an animation: add --animate (or write .png or .svg)");
  }
  ensure_gui_application();
  ui::EvaluationRequest evaluation_request;
  evaluation_request.spec = spec;
  evaluation_request.backend = std::string(backend->name());
  if (!request.compare_with.empty()) {
    Expected<std::shared_ptr<const ui::OtherResult>> other =
        ui::load_other_result(request.compare_with, Limits{}.max_bytes);
    if (!other) return other.error();
    evaluation_request.other_result = std::move(*other);
  }
  ui::BackendSet backends;
  backends.add(std::move(backend));
  const ui::EvaluationOutcome outcome = ui::evaluate(evaluation_request, backends);
  if (outcome.error) return *outcome.error;
  if (outcome.evaluation->result_comparison && outcome.evaluation->result_comparison->error) {
    const Error& misfit = *outcome.evaluation->result_comparison->error;
    return Error{misfit.code, "--compare-with", misfit.to_string()};
  }
  const ui::FigureOptions options = figure_options(request);
  SS_RETURN_IF_ERROR(ui::check_figure_options(outcome.evaluation->op(), options));
  ui::Figure figure(outcome.evaluation, options);
  if (request.animate) {
    ui::AnimationOptions animation;
    animation.fps = request.fps;
    animation.order = request.order;
    return ui::write_animation(figure, request.out, *format, animation);
  }
  return ui::write_figure(figure, request.out, *format);
}

}  // namespace stridescope::cli
