#include "ui/figure/grid_painter.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ui/figure/cell_text_fit.h"

namespace stridescope::ui {

QRect GridGeometry::cell_rect(int row, int column) const {
  const double x0 = origin.x() + column * cell.width();
  const double y0 = origin.y() + row * cell.height();
  const int left = static_cast<int>(std::round(x0));
  const int top = static_cast<int>(std::round(y0));
  const int right = static_cast<int>(std::round(x0 + cell.width()));
  const int bottom = static_cast<int>(std::round(y0 + cell.height()));
  return QRect(left, top, std::max(1, right - left), std::max(1, bottom - top));
}

QSizeF base_cell_size(const GridModel& model, const CellFonts& fonts) {
  const QFontMetrics value_metrics(fonts.value);
  const QFontMetrics detail_metrics(fonts.detail);
  const int height = value_metrics.height() + detail_metrics.height() + 10;
  // Cells are wider than tall, so the height sets how thick their frames are.
  constexpr int kWide = 1000;
  const int margins = kWide - cell_text_rect(QRect(0, 0, kWide, height)).width() + 2;
  const double width = std::max(value_metrics.horizontalAdvance(model.widest_text()),
                                detail_metrics.horizontalAdvance(model.widest_detail())) + margins;
  return QSizeF(std::max(width, value_metrics.height() * 2.6), height);
}

int grid_decimals(const GridModel& model, const QFont& font, QSizeF cell) {
  const std::optional<std::pair<double, double>> range = model.value_range();
  if (!range) return -1;
  // The narrowest of the cells, whose edges are rounded.
  const QRect narrowest(0, 0, static_cast<int>(std::floor(cell.width())), static_cast<int>(std::floor(cell.height())));
  return fitting_decimals(range->first, range->second, font, cell_text_rect(narrowest).width());
}

bool cell_shows_text(QSizeF cell, const CellFonts& fonts) {
  const QFontMetrics metrics(fonts.value);
  return cell.height() >= metrics.height() * 0.9 && cell.width() >= metrics.horizontalAdvance(QStringLiteral("00"));
}

bool cell_shows_detail(QSizeF cell, QSizeF base) { return cell.height() >= base.height() * 0.82; }

namespace {

// The cells of `range` and one beyond on each side, so outlines know their neighbours.
class CellTable {
 public:
  CellTable(const GridModel& model, const CellRange& range, bool with_text)
      : top_(std::max(0, range.r0 - 1)),
        left_(std::max(0, range.c0 - 1)),
        bottom_(std::min(model.rowCount() - 1, range.r1 + 1)),
        right_(std::min(model.columnCount() - 1, range.c1 + 1)),
        width_(right_ - left_ + 1) {
    visuals_.resize(static_cast<std::size_t>(std::max(0, bottom_ - top_ + 1)) * std::max(0, width_));
    for (int r = top_; r <= bottom_; ++r) {
      for (int c = left_; c <= right_; ++c) {
        const bool visible = r >= range.r0 && r <= range.r1 && c >= range.c0 && c <= range.c1;
        slot(r, c) = visible && with_text ? model.cell(r, c) : model.cell_without_text(r, c);
      }
    }
  }
  const CellVisual& at(int r, int c) const { return visuals_[index(r, c)]; }
  bool has(int r, int c, quint32 flag) const {
    return r >= top_ && r <= bottom_ && c >= left_ && c <= right_ && (at(r, c).flags & flag) != 0;
  }

 private:
  std::size_t index(int r, int c) const { return static_cast<std::size_t>(r - top_) * width_ + (c - left_); }
  CellVisual& slot(int r, int c) { return visuals_[index(r, c)]; }
  int top_, left_, bottom_, right_, width_;
  std::vector<CellVisual> visuals_;
};

// The rectangles of `range`'s cells, exactly as GridGeometry::cell_rect gives
// them, from edges rounded once per paint instead of four times per cell.
class CellRects {
 public:
  CellRects(const GridGeometry& g, const CellRange& range) : r0_(range.r0), c0_(range.c0) {
    for (int c = range.c0; c <= range.c1 + 1; ++c) {
      const double x0 = g.origin.x() + c * g.cell.width();
      lefts_.push_back(static_cast<int>(std::round(x0)));
      rights_.push_back(static_cast<int>(std::round(x0 + g.cell.width())));
    }
    for (int r = range.r0; r <= range.r1 + 1; ++r) {
      const double y0 = g.origin.y() + r * g.cell.height();
      tops_.push_back(static_cast<int>(std::round(y0)));
      bottoms_.push_back(static_cast<int>(std::round(y0 + g.cell.height())));
    }
  }
  // Cells of the range and the row and column after it (whose left and top edges close the grid).
  QRect operator()(int r, int c) const {
    const std::size_t i = static_cast<std::size_t>(c - c0_);
    const std::size_t j = static_cast<std::size_t>(r - r0_);
    return QRect(lefts_[i], tops_[j], std::max(1, rights_[i] - lefts_[i]), std::max(1, bottoms_[j] - tops_[j]));
  }

 private:
  int r0_, c0_;
  std::vector<int> lefts_, rights_, tops_, bottoms_;
};

void paint_grid_lines(QPainter& painter, const GridGeometry& g, const CellRects& cell_rect, const CellRange& range,
                      const QColor& colour) {
  if (std::min(g.cell.width(), g.cell.height()) < 8) return;
  painter.setPen(QPen(colour, 1));
  const int x0 = cell_rect(range.r0, range.c0).left();
  const int x1 = cell_rect(range.r0, range.c1).right() + 1;
  const int y0 = cell_rect(range.r0, range.c0).top();
  const int y1 = cell_rect(range.r1, range.c0).bottom() + 1;
  for (int r = range.r0; r <= range.r1 + 1; ++r) {
    const int y = cell_rect(r, range.c0).top();
    painter.drawLine(x0, y, x1, y);
  }
  for (int c = range.c0; c <= range.c1 + 1; ++c) {
    const int x = cell_rect(range.r0, c).left();
    painter.drawLine(x, y0, x, y1);
  }
}

// An edge, with the current pen, on each side of a cell `inside` whose neighbour is `beyond`.
template <class Inside, class Beyond>
void outline(QPainter& painter, const CellRects& cell_rect, const CellRange& range, qreal pen_width, Inside inside,
             Beyond beyond) {
  const qreal a = pen_width / 2;
  for (int r = range.r0; r <= range.r1; ++r) {
    for (int c = range.c0; c <= range.c1; ++c) {
      if (!inside(r, c)) continue;
      const QRect rect = cell_rect(r, c);
      const QRectF f = QRectF(rect).adjusted(a, a, -a, -a);
      if (beyond(r - 1, c)) painter.drawLine(QPointF(rect.left(), f.top()), QPointF(rect.right() + 1, f.top()));
      if (beyond(r + 1, c)) painter.drawLine(QPointF(rect.left(), f.bottom()), QPointF(rect.right() + 1, f.bottom()));
      if (beyond(r, c - 1)) painter.drawLine(QPointF(f.left(), rect.top()), QPointF(f.left(), rect.bottom() + 1));
      if (beyond(r, c + 1)) painter.drawLine(QPointF(f.right(), rect.top()), QPointF(f.right(), rect.bottom() + 1));
    }
  }
}

}  // namespace

void paint_grid(QPainter& painter, const GridModel& model, const GridGeometry& g, const CellRange& range,
                const GridPaintStyle& style) {
  if (range.r1 < range.r0 || range.c1 < range.c0) return;
  const CellTable cells(model, range, style.show_text);
  const CellRects cell_rect(g, range);
  const int decimals = style.show_text ? grid_decimals(model, style.fonts.value, g.cell) : -1;
  for (int r = range.r0; r <= range.r1; ++r) {
    for (int c = range.c0; c <= range.c1; ++c) {
      paint_cell_body(painter, cell_rect(r, c), cells.at(r, c), style.fonts, style.show_text, style.show_detail,
                      decimals);
    }
  }
  paint_grid_lines(painter, g, cell_rect, range, style.grid_line);
  const qreal pen_width = std::clamp(g.cell.height() / 14.0, 1.5, 3.0);
  // Regions (the slice window, the pooling window's box), dashed.
  painter.setPen(region_pen(OverlayCategory::Window, pen_width));
  for (quint32 flag : {quint32(kInWindow), quint32(kTapWindow)}) {
    outline(painter, cell_rect, range, pen_width, [&](int r, int c) { return cells.has(r, c, flag); },
            [&](int r, int c) { return !cells.has(r, c, flag); });
  }
  // Padding: a solid line where the input itself meets the padding around it.
  painter.setPen(QPen(overlay_colour(OverlayCategory::CopiedInput), pen_width, Qt::SolidLine, Qt::FlatCap));
  outline(painter, cell_rect, range, pen_width,
          [&](int r, int c) { return !cells.has(r, c, kPaddingFlags) && !cells.at(r, c).empty; },
          [&](int r, int c) { return cells.has(r, c, kPaddingFlags); });
  const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::Antialiasing, true);
  constexpr quint32 kStatic = kUnused | kInWindow | kTapWindow | kPaddingFlags | kGhost | kOutsideBuffer;
  for (int r = range.r0; r <= range.r1; ++r) {
    for (int c = range.c0; c <= range.c1; ++c) {
      const quint32 flags = cells.at(r, c).flags;
      if (flags & ~kStatic) paint_cell_overlays(painter, cell_rect(r, c), flags);
    }
  }
  painter.setRenderHint(QPainter::Antialiasing, antialiased);
}

}  // namespace stridescope::ui
