// A figure's legend: the value ramp with the values at its ends, then a chip
// per overlay the figure can show for its operator, each drawn by
// paint_legend_sample exactly as the cells draw it, then what the small
// second line in cells means. Wraps onto as many lines as the width needs.
#pragma once

#include <vector>

#include <QColor>
#include <QFont>
#include <QPainter>
#include <QRect>
#include <QString>

#include "ui/colour_map.h"
#include "ui/evaluation.h"

namespace stridescope::ui {

struct FigureLegend {
  std::vector<OverlayCategory> categories;
  QString low;   // the value at the ramp's start
  QString high;
  QString note;  // the cells' second line
};

// The chips for `evaluation`'s operator; `selected`: an output element is selected.
FigureLegend figure_legend(const Evaluation& evaluation, bool selected);

int legend_height(const FigureLegend& legend, const QFont& font, int width);
void paint_figure_legend(QPainter& painter, const QRect& rect, const FigureLegend& legend, const QFont& font,
                         const QColor& ink, const QColor& muted);

}  // namespace stridescope::ui
