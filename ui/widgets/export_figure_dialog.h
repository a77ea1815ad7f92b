// File > Export Figure...: the figure renderer's options (panels, memory
// strips, planes, scale, theme, legend, title, animation) with a live
// preview (the whole figure, scaled down to the dialog where larger, its
// saved size below it), written as PNG, SVG, or an animated GIF or SVG: the same figure
// `stridescope-cli render` draws for the same options, not a grab of widgets.
#pragma once

#include <optional>

#include <QDialog>
#include <QImage>

#include "ui/evaluation.h"
#include "ui/figure/figure.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QResizeEvent;
class QScrollArea;

namespace stridescope::ui {

class ExportFigureDialog : public QDialog {
  Q_OBJECT

 public:
  // `selected`: the output element selected in the app, shown selected in the figure.
  ExportFigureDialog(EvaluationPtr evaluation, std::optional<Coord> selected, QWidget* parent = nullptr);

  FigureOptions options() const;
  bool animate() const;
  // File > Export Animation... opens the dialog with Animate on.
  void set_animate(bool on);
  // Writes the figure to `path`, a .png or .svg; with animate(), the
  // animation to a .gif or .svg (an animated SVG).
  Status export_to(const QString& path) const;
  // The figure as it will be saved (the preview may show it scaled down).
  const QImage& figure_image() const { return image_; }
  QLabel* preview() const { return preview_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void update_preview();
  void show_preview();
  QSize preview_room() const;
  void choose_file_and_export();

  EvaluationPtr evaluation_;
  std::optional<Coord> selected_;
  QCheckBox* input_ = nullptr;
  QCheckBox* output_ = nullptr;
  QCheckBox* indices_ = nullptr;
  QCheckBox* memory_ = nullptr;
  QCheckBox* all_planes_ = nullptr;
  QCheckBox* legend_ = nullptr;
  QCheckBox* animate_ = nullptr;
  QComboBox* theme_ = nullptr;
  QDoubleSpinBox* scale_ = nullptr;
  QDoubleSpinBox* fps_ = nullptr;
  QLineEdit* title_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QLabel* preview_ = nullptr;
  QLabel* preview_size_ = nullptr;
  QImage image_;
};

}  // namespace stridescope::ui
