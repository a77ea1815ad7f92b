// A grid of cells as the app's views and the figures both draw it: the cell
// bodies, the grid lines, region outlines (slice window, pooling window, where
// the input meets its padding) and each cell's overlay marks. The view adds
// scrolling, headers and hover; a figure adds titles and a legend; the cells
// themselves are drawn here only, so a figure shows exactly what the app shows.
#pragma once

#include <QColor>
#include <QPoint>
#include <QRect>
#include <QSizeF>

#include "ui/figure/cell_painter.h"
#include "ui/grid_model.h"

namespace stridescope::ui {

// Where cell (row, column) lies: `origin` is the top-left of cell (0, 0)
// (it may be off screen when a view scrolls), every cell `cell` in size.
// Edges are rounded so neighbouring cells share their edge exactly.
struct GridGeometry {
  QPointF origin;
  QSizeF cell;
  QRect cell_rect(int row, int column) const;
};

// The cells a grid shows, inclusive.
struct CellRange {
  int r0 = 0;
  int r1 = -1;
  int c0 = 0;
  int c1 = -1;
};

struct GridPaintStyle {
  CellFonts fonts;
  bool show_text = true;
  bool show_detail = true;
  QColor grid_line = QColor(255, 255, 255, 150);
};

// The natural size of a cell of `model` at 100% with `fonts`: wide enough for
// the model's widest value and second line inside its text area (clear of
// the frames), tall enough for both lines.
QSizeF base_cell_size(const GridModel& model, const CellFonts& fonts);

// Whether a cell of `cell` size has room for its value, and for its second line,
// given the natural size `base`.
bool cell_shows_text(QSizeF cell, const CellFonts& fonts);
bool cell_shows_detail(QSizeF cell, QSizeF base);

// The decimals every value of `model` is written with in cells `cell` in
// size (fitting_decimals over the model's value range; -1: no limit).
int grid_decimals(const GridModel& model, const QFont& font, QSizeF cell);

// Draws `range` of `model`: bodies, grid lines, outlines, overlays.
void paint_grid(QPainter& painter, const GridModel& model, const GridGeometry& geometry, const CellRange& range,
                const GridPaintStyle& style);

}  // namespace stridescope::ui
