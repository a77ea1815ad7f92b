#include "ui/figure/cell_painter.h"

#include <algorithm>
#include <cmath>

#include <QPainterPath>

#include "ui/figure/cell_text_fit.h"
#include "ui/figure/difference_mark.h"

namespace stridescope::ui {
namespace {

QColor with_alpha(QColor colour, int alpha) {
  colour.setAlpha(alpha);
  return colour;
}

void inset_border(QPainter& painter, const QRectF& rect, const QColor& colour, qreal width,
                  Qt::PenStyle style = Qt::SolidLine) {
  QPen pen(colour, width, style, Qt::SquareCap, Qt::MiterJoin);
  painter.setPen(pen);
  painter.setBrush(Qt::NoBrush);
  const qreal half = width / 2.0;
  painter.drawRect(rect.adjusted(half, half, -half, -half));
}

Qt::BrushStyle padding_pattern(quint32 flags) {
  if (flags & kPadConstant) return Qt::Dense6Pattern;
  if (flags & kPadEdge) return Qt::HorPattern;
  if (flags & kPadReflection) return Qt::BDiagPattern;
  return Qt::DiagCrossPattern;  // symmetric
}

OverlayCategory padding_category(quint32 flags) {
  if (flags & kPadConstant) return OverlayCategory::PadConstant;
  if (flags & kPadEdge) return OverlayCategory::PadEdge;
  if (flags & kPadReflection) return OverlayCategory::PadReflection;
  return OverlayCategory::PadSymmetric;
}

void draw_star(QPainter& painter, const QRectF& box, const QColor& colour) {
  QPainterPath star;
  const QPointF c = box.center();
  const qreal r = std::min(box.width(), box.height()) / 2.0;
  for (int i = 0; i < 10; ++i) {
    const qreal radius = i % 2 ? r * 0.45 : r;
    const qreal angle = -M_PI / 2 + i * M_PI / 5;
    const QPointF p(c.x() + radius * std::cos(angle), c.y() + radius * std::sin(angle));
    if (i == 0) star.moveTo(p); else star.lineTo(p);
  }
  star.closeSubpath();
  painter.setPen(QPen(Qt::white, std::max<qreal>(1.0, r / 6)));
  painter.setBrush(colour);
  painter.drawPath(star);
}

// Frames are measured in units that grow with the cell; the widest frame
// (the selection, a source, a winner) is this many units thick.
constexpr qreal kWidestFrameUnits = 2.5;

qreal frame_unit(QSize cell) { return std::clamp(std::min(cell.width(), cell.height()) / 16.0, 1.0, 3.5); }

// One line of text at `top`, centred across `text_area`; on a soft plate
// where hatching would fight it.
void draw_line(QPainter& painter, const QRect& text_area, int top, const CellText& line, const QColor& plate) {
  const QRect box(text_area.left(), top, text_area.width(), line.height);
  if (plate.isValid() && !line.text.isEmpty()) {
    const int w = std::min(text_area.width(), line.advance + 6);
    painter.fillRect(QRect(box.center().x() - w / 2, top, w, line.height), plate);
  }
  draw_cell_text(painter, box, line, Qt::AlignTop);
}

// The value, and the detail line under it, inside the cell's text area: the
// two lines centred as a block, clear of the frames above and below where
// the cell is tall enough.
void paint_cell_text(QPainter& painter, const QRect& rect, const CellVisual& cell, const CellFonts& fonts,
                     bool show_detail, int decimals) {
  const QRect area = cell_text_rect(rect);
  // Fewer digits or a smaller font, never a value cut short.
  const CellText& value = fonts.texts->value(cell.text, fonts.value, area.width(), decimals);
  const CellText* detail =
      show_detail && !cell.detail.isEmpty() ? &fonts.texts->detail(cell.detail, fonts.detail, area.width()) : nullptr;
  const int block = value.height + (detail ? detail->height : 0);
  const int frame = static_cast<int>(std::ceil(cell_frame_width(rect.size())));
  const QRect inner = rect.adjusted(0, frame, 0, -frame);
  const int top = block <= inner.height() ? inner.top() + (inner.height() - block) / 2
                                          : rect.top() + (rect.height() - block) / 2;
  const QColor fill = QColor::fromRgb(cell.fill);
  const QColor plate = cell.flags & kPaddingFlags ? with_alpha(fill, 225) : QColor();
  painter.setPen(text_colour_on(fill));
  draw_line(painter, area, top, value, plate);
  if (detail) draw_line(painter, area, top + value.height, *detail, plate);
}

}  // namespace

CellFonts cell_fonts(const QFont& base, double scale) {
  QFont value = base;
  if (scale != 1.0) {
    if (base.pointSizeF() > 0) {
      value.setPointSizeF(base.pointSizeF() * scale);
    } else {
      value.setPixelSize(std::max(1, static_cast<int>(std::lround(base.pixelSize() * scale))));
    }
  }
  CellFonts fonts{value, value};
  if (value.pointSizeF() > 0) {
    fonts.detail.setPointSizeF(value.pointSizeF() * 0.78);
  } else {
    fonts.detail.setPixelSize(std::max(6, value.pixelSize() * 78 / 100));
  }
  return fonts;
}

QPen region_pen(OverlayCategory category, qreal width) {
  QPen pen(overlay_colour(category), width, Qt::DashLine, Qt::FlatCap, Qt::MiterJoin);
  pen.setDashPattern({3, 2});
  return pen;
}

qreal cell_frame_width(QSize cell) { return frame_unit(cell) * kWidestFrameUnits; }

QRect cell_text_rect(const QRect& cell) {
  const int inset = static_cast<int>(std::ceil(cell_frame_width(cell.size()))) + 1;
  return cell.adjusted(inset, 0, -inset, 0);
}

void paint_cell_body(QPainter& painter, const QRect& rect, const CellVisual& cell, const CellFonts& fonts,
                     bool show_text, bool show_detail, int decimals) {
  if (cell.empty) {
    if (cell.flags & kGhost) {
      painter.fillRect(rect, QColor(0xf7, 0xf7, 0xf7));
      painter.fillRect(rect, QBrush(QColor(0xc8, 0xc8, 0xc8), Qt::Dense7Pattern));
    }
    return;
  }
  const QColor fill = QColor::fromRgb(cell.fill);
  painter.fillRect(rect, fill);
  if (cell.flags & kPaddingFlags) {
    const QColor hatch = with_alpha(overlay_colour(padding_category(cell.flags)), 200);
    QBrush brush(hatch, padding_pattern(cell.flags));
    painter.setBrushOrigin(rect.topLeft());
    // A light band under the hatching keeps it visible on dark value colours.
    painter.fillRect(rect, QColor(255, 255, 255, 70));
    painter.fillRect(rect, brush);
  }
  if (show_text) paint_cell_text(painter, rect, cell, fonts, show_detail, decimals);
}

void paint_cell_overlays(QPainter& painter, const QRect& rect, quint32 flags) {
  const qreal unit = frame_unit(rect.size());
  if (flags & kShared) inset_border(painter, rect, overlay_colour(OverlayCategory::Shared), unit * 1.5, Qt::DotLine);
  if (flags & kTap) inset_border(painter, rect, overlay_colour(OverlayCategory::Window), unit * 2);
  if (flags & kReader) {
    // Two rings, the inner one ending where the widest frame ends.
    inset_border(painter, rect, overlay_colour(OverlayCategory::Reader), unit);
    inset_border(painter, QRectF(rect).adjusted(unit * 1.75, unit * 1.75, -unit * 1.75, -unit * 1.75),
                 overlay_colour(OverlayCategory::Reader), unit * 0.75);
  }
  if (flags & kOffsetMatch) inset_border(painter, rect, overlay_colour(OverlayCategory::Shared), unit * 2.5);
  // The chosen output solid, the inputs it reads dashed: the same colour
  // links them, the line tells them apart.
  if (flags & kSelected) {
    inset_border(painter, rect, overlay_colour(OverlayCategory::Selected), unit * kWidestFrameUnits);
  } else if (flags & kSource) {
    QPen pen(overlay_colour(OverlayCategory::Source), unit * kWidestFrameUnits, Qt::SolidLine, Qt::FlatCap,
             Qt::MiterJoin);
    pen.setDashPattern({1.2, 0.8});
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    const qreal half = unit * kWidestFrameUnits / 2;
    painter.drawRect(QRectF(rect).adjusted(half, half, -half, -half));
  }
  if (flags & kHovered) inset_border(painter, rect, QColor::fromRgb(okabe_ito::kBlue), unit * 2, Qt::DashLine);
  if (flags & kPaddedTap) {
    painter.setPen(QPen(overlay_colour(OverlayCategory::PaddedTap), unit * 2, Qt::SolidLine, Qt::RoundCap));
    const QRectF r = QRectF(rect).adjusted(rect.width() * 0.25, rect.height() * 0.25, -rect.width() * 0.25,
                                           -rect.height() * 0.25);
    painter.drawLine(r.topLeft(), r.bottomRight());
    painter.drawLine(r.topRight(), r.bottomLeft());
    inset_border(painter, rect, overlay_colour(OverlayCategory::PaddedTap), unit * 1.5, Qt::DashLine);
  }
  if (flags & kDiffers) paint_difference_mark(painter, rect, unit);
  if (flags & kWinner) {
    inset_border(painter, rect, overlay_colour(OverlayCategory::Winner), unit * kWidestFrameUnits);
    const qreal s = std::max<qreal>(6, std::min(rect.width(), rect.height()) * 0.34);
    draw_star(painter, QRectF(rect.right() - s - unit * 3, rect.top() + unit * 3, s, s),
              overlay_colour(OverlayCategory::Winner));
  }
}

void paint_legend_sample(QPainter& painter, const QRect& rect, OverlayCategory category) {
  CellVisual cell;
  cell.fill = 0xffd4d4d4;  // neutral, so no overlay colour hides in the value colours
  CellFonts fonts = cell_fonts(painter.font());
  switch (category) {
    case OverlayCategory::Window:
      painter.fillRect(rect, QColor::fromRgb(cell.fill));
      painter.setPen(region_pen(category, 2));
      painter.drawRect(QRectF(rect).adjusted(1, 1, -1, -1));
      return;
    case OverlayCategory::Source: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kSource); return;
    case OverlayCategory::Selected: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kSelected); return;
    case OverlayCategory::Reader: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kReader); return;
    case OverlayCategory::Winner: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kWinner); return;
    case OverlayCategory::PaddedTap:
      cell.empty = true;
      cell.flags = kGhost;
      paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kPaddedTap);
      return;
    // Padding samples on a light value, where their hatching reads best.
    case OverlayCategory::PadConstant: cell.flags = kPadConstant; cell.fill = 0xffeeeeee; break;
    case OverlayCategory::PadEdge: cell.flags = kPadEdge; cell.fill = 0xffeeeeee; break;
    case OverlayCategory::PadReflection: cell.flags = kPadReflection; cell.fill = 0xffeeeeee; break;
    case OverlayCategory::PadSymmetric: cell.flags = kPadSymmetric; cell.fill = 0xffeeeeee; break;
    case OverlayCategory::CopiedInput:
      painter.fillRect(rect, QColor::fromRgb(cell.fill));
      painter.setPen(QPen(overlay_colour(category), 2));
      painter.drawRect(QRectF(rect).adjusted(3, 3, -3, -3));
      return;
    case OverlayCategory::Unused: {
      // An unread cell is its own value's colour washed out: the sample
      // shows the wash over the ramp's low, middle and high ends, so that a
      // pale lavender and a pale yellow cell both match it.
      const int third = rect.width() / 3;
      for (int i = 0; i < 3; ++i) {
        const QRect stripe(rect.left() + i * third, rect.top(), i == 2 ? rect.width() - 2 * third : third, rect.height());
        painter.fillRect(stripe, QColor::fromRgb(blend(palette_rgb(ValuePalette::Viridis, i / 2.0), 0xfff4f4f4, 0.78)));
      }
      return;
    }
    case OverlayCategory::Shared: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kShared); return;
    case OverlayCategory::Differs: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kDiffers); return;
  }
  paint_cell_body(painter, rect, cell, fonts, false, false);
}

}  // namespace stridescope::ui
