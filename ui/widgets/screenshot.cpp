#include "ui/widgets/screenshot.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QThread>

#include "ui/animation_player.h"
#include "ui/examples.h"
#include "ui/linked_selection.h"
#include "core/io/npy.h"
#include "core/op_schema.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/result_compare.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_panel.h"

namespace stridescope::ui {

bool wait_until_settled(MainWindow& window, int timeout_ms) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < timeout_ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    if (window.settled()) {
      QApplication::processEvents();
      return true;
    }
    QThread::msleep(5);
  }
  return false;
}

void select_representative_element(MainWindow& window) {
  const EvaluationPtr& shown = window.shown_evaluation();
  if (!shown) return;
  TensorPlaneModel* output = window.plane_model(TensorRole::Output);
  const int rows = output->rowCount();
  const int columns = output->columnCount();
  if (rows == 0 || columns == 0) return;
  int row = rows - 1;
  int column = 0;
  switch (shown->op().kind()) {
    case OpKind::Padding: row = 0; column = 0; break;
    case OpKind::MaxPooling2: row = 0; column = 0; break;  // a corner window shows padded taps
    case OpKind::Identity: column = columns - 1; break;
    default: break;
  }
  window.selection()->select_output(output->coord_at(row, column));
  QApplication::processEvents();
}

namespace {

Status grab(MainWindow& window, const QString& file, QStringList* written) {
  QApplication::processEvents();
  if (!window.grab().save(file, "PNG")) return Error{ErrorCode::Io, "", "cannot write " + file.toStdString()};
  if (written) written->append(file);
  return {};
}

Spec large_spec() {
  Spec spec;
  spec.request.input = {DataType::Float32, std::vector<uint64_t>{1, 3, 1024, 1024}, std::nullopt};
  spec.request.params = PaddingRequest{PaddingMode::Reflection, int64_t{0}, {0, 0, 16, 16}, {0, 0, 16, 16}};
  spec.input_source = Fill{FillRandom{7, 0, 255}};
  return spec;
}

// Mid-animation on a 1x3x2x3 output, past its first plane: the bar shows
// its position and the output and input planes follow the element.
Status grab_animation(MainWindow& window, const QString& directory, QStringList* written) {
  const QString spec = QDir(examples_directory()).filePath(QStringLiteral("layout_nhwc_rgb_to_nchw.json"));
  if (!QFileInfo::exists(spec) || !window.open_file(spec).ok() || !wait_until_settled(window)) return {};
  AnimationPlayer* player = window.animation_player();
  player->play();
  player->set_position(9);  // out[0,1,1,0]: channel 1
  const Status saved = grab(window, QDir(directory).filePath(QStringLiteral("animation_playing.png")), written);
  player->pause();
  return saved;
}

// Every plane at once: the NHWC-to-NCHW copy's three channels tiled in
// both panels, an element of channel 1 selected and its source marked.
Status grab_all_planes(MainWindow& window, const QString& directory, QStringList* written) {
  const QString spec = QDir(examples_directory()).filePath(QStringLiteral("layout_nhwc_rgb_to_nchw.json"));
  if (!QFileInfo::exists(spec) || !window.open_file(spec).ok() || !wait_until_settled(window)) return {};
  for (const TensorRole role : {TensorRole::Input, TensorRole::Output}) window.panel(role)->all_planes_toggle()->setChecked(true);
  window.selection()->select_output(Coord{0, 1, 1, 2});
  const Status saved = grab(window, QDir(directory).filePath(QStringLiteral("all_planes_nhwc_to_nchw.png")), written);
  for (const TensorRole role : {TensorRole::Input, TensorRole::Output}) window.panel(role)->all_planes_toggle()->setChecked(false);
  return saved;
}

// Compare with Result: the REFLECTION example beside the SYMMETRIC example's
// output (the same input and padding), which is what an implementation that
// makes reflection-repeats-edge gives; the second difference selected.
Status grab_result_compare(MainWindow& window, const QString& directory, QStringList* written) {
  const QDir examples(examples_directory());
  const QString symmetric = examples.filePath(QStringLiteral("padding_example4_symmetric.json"));
  const QString reflection = examples.filePath(QStringLiteral("padding_example3_reflection.json"));
  if (!QFileInfo::exists(symmetric) || !window.open_file(symmetric).ok() || !wait_until_settled(window)) return {};
  QTemporaryDir temporary;
  const QString result = temporary.filePath(QStringLiteral("theirs_reflection.npy"));
  const EvaluationPtr theirs = window.shown_evaluation();
  const TensorDesc& output = theirs->op().output();
  const std::vector<uint64_t> shape(output.sizes().begin(), output.sizes().end());
  SS_RETURN_IF_ERROR(write_npy(result.toStdString(), output.data_type(), shape,
                               std::span(theirs->output).first(output.buffer_elements() * output.element_size())));
  if (!window.open_file(reflection).ok() || !wait_until_settled(window)) return {};
  SS_RETURN_IF_ERROR(window.result_compare()->compare_with(result));
  wait_until_settled(window);
  window.selection()->select_output(std::nullopt);
  window.result_compare()->go_to_difference(true);
  window.result_compare()->go_to_difference(true);
  const Status saved = grab(window, QDir(directory).filePath(QStringLiteral("compare_result_reflection.png")), written);
  window.result_compare()->clear();
  wait_until_settled(window);
  return saved;
}

}  // namespace

Status write_screenshots(MainWindow& window, const ScreenshotOptions& options, QStringList* written) {
  window.set_unattended(true);  // a model's dispatch picker would wait forever
  if (!QDir().mkpath(options.directory)) {
    return Error{ErrorCode::Io, "", "cannot create " + options.directory.toStdString()};
  }
  QStringList specs = options.specs;
  if (specs.isEmpty()) {
    for (const Example& example : list_examples()) specs << example.path;
  }
  window.resize(options.size);
  window.show();
  QApplication::processEvents();

  for (const QString& spec : specs) {
    SS_RETURN_IF_ERROR(window.open_file(spec));
    if (!wait_until_settled(window)) return Error{ErrorCode::BackendFailure, "", "timed out on " + spec.toStdString()};
    select_representative_element(window);
    SS_RETURN_IF_ERROR(grab(window, QDir(options.directory).filePath(QFileInfo(spec).completeBaseName() + ".png"), written));
  }
  if (!options.extras) return {};

  // Hovering an input element lights up every output element that reads it.
  const QString edge = QDir(examples_directory()).filePath(QStringLiteral("padding_example2_edge.json"));
  if (QFileInfo::exists(edge) && window.open_file(edge).ok() && wait_until_settled(window)) {
    window.selection()->hover_input(SignedCoord{0, 0, 3, 0});
    SS_RETURN_IF_ERROR(grab(window, QDir(options.directory).filePath(QStringLiteral("hover_input_padding_edge.png")), written));
    window.selection()->clear_hover();
  }

  if (const Status saved = grab_animation(window, options.directory, written); !saved) return saved;
  if (const Status saved = grab_all_planes(window, options.directory, written); !saved) return saved;
  if (const Status saved = grab_result_compare(window, options.directory, written); !saved) return saved;

  // Compare: every available backend against the one chosen.
  window.set_compare(true);
  wait_until_settled(window);
  Status compared = grab(window, QDir(options.directory).filePath(QStringLiteral("compare_backends.png")), written);
  window.set_compare(false);
  wait_until_settled(window);
  if (!compared) return compared;

  // An invalid edit: slice1 with a zero stride keeps the last valid result on screen.
  window.document()->reset(default_spec(), std::nullopt);
  wait_until_settled(window);
  select_representative_element(window);
  if (auto* stride = qobject_cast<QSpinBox*>(window.editor()->field_widget(QString::fromStdString(param_path(&Slice1Request::input_window_strides, 2))))) {
    stride->setValue(0);
  }
  wait_until_settled(window);
  SS_RETURN_IF_ERROR(grab(window, QDir(options.directory).filePath(QStringLiteral("invalid_edit_stride_zero.png")), written));

  // A large tensor: the views zoom out to heat maps.
  window.document()->reset(large_spec(), std::nullopt);
  if (!wait_until_settled(window, 60000)) return Error{ErrorCode::BackendFailure, "", "timed out on the large tensor"};
  select_representative_element(window);
  SS_RETURN_IF_ERROR(grab(window, QDir(options.directory).filePath(QStringLiteral("large_1x3x1024x1024_padding.png")), written));

  window.document()->reset(default_spec(), std::nullopt);
  wait_until_settled(window);
  return {};
}

}  // namespace stridescope::ui
