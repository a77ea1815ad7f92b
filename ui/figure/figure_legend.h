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
  bool ramp = true;  // the value ramp: some panel colours cells by value
  QString low;       // the value at the ramp's start
  QString high;
  QString note;  // the cells' second line
};

// What the figure shows: a legend explains only marks a reader can find in
// it (the window and the taps lie on the input; indices are coloured as
// names, on no ramp).
struct LegendScope {
  bool input = true;
  bool output = true;
  bool indices = true;
  bool memory = false;  // memory strips under the panels
};

// The chips for `evaluation`'s operator; `selected`: an output element is selected.
FigureLegend figure_legend(const Evaluation& evaluation, bool selected, const LegendScope& shown = {});

int legend_height(const FigureLegend& legend, const QFont& font, int width);
void paint_figure_legend(QPainter& painter, const QRect& rect, const FigureLegend& legend, const QFont& font,
                         const QColor& ink, const QColor& muted);

}  // namespace stridescope::ui
