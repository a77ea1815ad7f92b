// How a cell whose results differ (Run > Compare, File > Compare with
// Result) is marked: a thin border and a filled triangle in its top left
// corner, in the legend's "results differ" colour. Nothing crosses the
// middle of the cell, so its value and its second line (the provenance)
// stay readable under the mark, the selected cell's too; the other value
// is in the cell's tool tip and the Result Comparison panel.
#pragma once

#include <QPainter>
#include <QPolygonF>
#include <QRect>

namespace stridescope::ui {

// The corner triangle's right-angled corner is the cell's top left; this is
// the length of its two legs, in pixels: about a quarter of the cell's
// shorter side, never so small that it vanishes nor so large that it
// reaches the value.
qreal difference_flag_size(const QRect& cell);

// The corner triangle for `cell`.
QPolygonF difference_flag(const QRect& cell);

// The whole mark; `unit` is the overlays' line unit for this cell size.
void paint_difference_mark(QPainter& painter, const QRect& cell, qreal unit);

}  // namespace stridescope::ui
