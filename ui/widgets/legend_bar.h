// A strip of legend chips for the overlays the current operator can show,
// each drawn exactly as the views draw it, with a tool tip that says what it means.
#pragma once

#include <vector>

#include <QWidget>

#include "core/op_request.h"
#include "ui/colour_map.h"

namespace stridescope::ui {

class LegendBar : public QWidget {
  Q_OBJECT

 public:
  explicit LegendBar(QWidget* parent = nullptr);

  // `differing`: some cell carries the "results differ" mark, so its chip shows.
  void set_op(OpKind kind, bool differing);
  void set_palette(ValuePalette palette);
  const std::vector<OverlayCategory>& categories() const { return categories_; }

  // Chips wrap onto more lines where the window is narrow.
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  // Laid out for a width: the value ramp, one chip per overlay, then the note.
  struct Layout {
    QRect ramp;  // "values: low [ramp] high"
    struct Chip {
      QRect rect;
      QString tip;
    };
    std::vector<Chip> chips;
    QRect note;
    int height = 0;
  };
  Layout layout_for(int width) const;
  int line_height() const;

  std::vector<OverlayCategory> categories_;
  QString note_;  // what the small second line in cells means for this operator
  ValuePalette palette_ = ValuePalette::Viridis;
};

}  // namespace stridescope::ui
