// How one grid cell is drawn: its value colour, text, and each overlay's
// distinct line style, hatching or glyph (so categories differ by more than
// hue). Shared by the grid views and the legend, which therefore always agree.
#pragma once

#include <QFont>
#include <QPainter>
#include <QRect>

#include <memory>

#include "ui/colour_map.h"
#include "ui/figure/cell_text_cache.h"
#include "ui/grid_model.h"

namespace stridescope::ui {

struct CellFonts {
  QFont value;
  QFont detail;
  // The cells' text in these fonts, laid out once (copies share it; a line
  // laid out in another font is never reused).
  std::shared_ptr<CellTextCache> texts = std::make_shared<CellTextCache>();
};

// The value font is `base`; the detail line (source coordinate, read order)
// is smaller. A view zoomed in past 100% passes its zoom as `scale`, so the
// text grows with its cells: zooming in makes the numbers larger (for a
// projector or a screenshot), not just further apart.
CellFonts cell_fonts(const QFont& base, double scale = 1.0);

// How thick the widest frame a mark draws around a cell of `cell` size is
// (the selection, a source, a winner), in pixels.
qreal cell_frame_width(QSize cell);

// Where a cell's text goes: in from each side by the widest frame plus a
// gap, in every cell, marked or not. So a frame never covers a glyph, the
// value fits the same way whether or not its cell is selected, and the
// texts of neighbouring cells never touch.
QRect cell_text_rect(const QRect& cell);

// Fill, hatching and text of one cell; `show_text` / `show_detail` decide by
// zoom. A value written in fixed notation keeps at most `decimals` digits
// after its point (-1: all it has), so that a view writes all its values to
// the same place (see fitting_decimals).
void paint_cell_body(QPainter& painter, const QRect& rect, const CellVisual& cell, const CellFonts& fonts,
                     bool show_text, bool show_detail, int decimals = -1);

// Per-cell overlay borders and glyphs (selection, source, taps, winner, ...).
void paint_cell_overlays(QPainter& painter, const QRect& rect, quint32 flags);

// A small sample of `category` as the views draw it, for the legend.
void paint_legend_sample(QPainter& painter, const QRect& rect, OverlayCategory category);

// Region outlines (window, pooling window) are drawn per edge: the pen for them.
QPen region_pen(OverlayCategory category, qreal width);

}  // namespace stridescope::ui
