// Measures what the app's responsiveness goal is about: the time from a
// parameter edit in the editor to every view repainted with the new result.
// Prints the median and worst of many edits for a 1x1x64x64 tensor and for a
// 1x3x1024x1024 one, and what one step of the step-through animation costs the
// UI thread (the player moves, every view follows and repaints). A tool, not a
// test: timings vary with the machine.
//
//   QT_QPA_PLATFORM=offscreen stridescope_ui_latency [small|large|animation]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <vector>

#include <QApplication>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QThread>

#include "core/cpu_backend.h"
#include "ui/animation_player.h"
#include "ui/evaluation_engine.h"
#include "core/op_schema.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/screenshot.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_panel.h"

using namespace stridescope;
using namespace stridescope::ui;

namespace {

Spec slice1_spec(uint64_t channels, uint64_t side) {
  Spec spec;
  spec.request.input = {DataType::Float32, std::vector<uint64_t>{1, channels, side, side}, std::nullopt};
  spec.request.params = Slice1Request{{0, 0, 0, 0}, {1, channels, side, side}, {1, 1, -1, 1}};
  spec.request.output.sizes = std::vector<uint64_t>{1, channels, side, side};
  spec.input_source = Fill{FillRandom{3, -100, 100}};
  return spec;
}

void repaint_views(MainWindow& window) {
  for (TensorRole role : {TensorRole::Input, TensorRole::Output}) {
    TensorPanel* panel = window.panel(role);
    panel->grid()->viewport()->repaint();
    panel->memory_view()->viewport()->repaint();
  }
}

void measure(MainWindow& window, const char* name, const Spec& spec, int edits) {
  window.document()->reset(spec, std::nullopt);
  wait_until_settled(window, 60000);
  auto* stride = qobject_cast<QSpinBox*>(window.editor()->field_widget(QString::fromStdString(param_path(&Slice1Request::input_window_strides, 3))));
  std::vector<double> times;
  std::vector<double> ui_times;  // the part the UI thread is busy: applying the result and repainting
  for (int i = 0; i < edits; ++i) {
    QElapsedTimer timer;
    timer.start();
    stride->setValue(i % 2 ? 1 : -1);
    while (!window.engine()->idle()) QThread::usleep(50);
    QElapsedTimer ui_timer;
    ui_timer.start();
    while (!window.settled()) QApplication::processEvents(QEventLoop::AllEvents);
    QApplication::processEvents();
    repaint_views(window);
    times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    ui_times.push_back(static_cast<double>(ui_timer.nsecsElapsed()) / 1e6);
  }
  std::sort(times.begin(), times.end());
  std::sort(ui_times.begin(), ui_times.end());
  std::printf("%-22s edit -> all views repainted: median %.2f ms, worst %.2f ms over %d edits "
              "(UI thread busy: median %.2f ms, worst %.2f ms)\n",
              name, times[times.size() / 2], times.back(), edits, ui_times[ui_times.size() / 2], ui_times.back());
}

// One animation step: the player moves to the next element, the selection,
// overlays, explanation and memory strips follow, and the views repaint.
// The time this thread has run: on a busy machine the wall clock also counts
// the time other processes held the core.
double thread_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

void measure_animation(MainWindow& window, const char* name, const Spec& spec, int steps) {
  window.document()->reset(spec, std::nullopt);
  wait_until_settled(window, 60000);
  AnimationPlayer* player = window.animation_player();
  player->set_position(0);
  std::vector<double> times;
  std::vector<double> cpu_times;
  for (int i = 0; i < steps; ++i) {
    QElapsedTimer timer;
    timer.start();
    const double cpu_start = thread_cpu_ms();
    player->step_forward();
    QApplication::processEvents();
    repaint_views(window);
    times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    cpu_times.push_back(thread_cpu_ms() - cpu_start);
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu_times.begin(), cpu_times.end());
  std::printf("%-22s animation step -> all views repainted: median %.2f ms, worst %.2f ms over %d steps "
              "(UI thread running: median %.2f ms, worst %.2f ms)\n",
              name, times[times.size() / 2], times.back(), steps, cpu_times[cpu_times.size() / 2], cpu_times.back());
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("StrideScopeProbe"));
  BackendSet backends;
  backends.add(std::make_unique<CpuReferenceBackend>(), "cpu");
  MainWindow window(std::move(backends));
  window.resize(1600, 1000);
  window.show();
  wait_until_settled(window);
  const QStringList args = QApplication::arguments();
  const bool small = args.size() < 2 || args[1] == QLatin1String("small");
  const bool large = args.size() < 2 || args[1] == QLatin1String("large");
  if (small) measure(window, "1x1x64x64 FLOAT32", slice1_spec(1, 64), 200);
  if (large) measure(window, "1x3x1024x1024 FLOAT32", slice1_spec(3, 1024), 8);
  if (args.size() < 2 || args[1] == QLatin1String("animation")) {
    measure_animation(window, "1x1x64x64 FLOAT32", slice1_spec(1, 64), 300);
  }
  return 0;
}
