#include "ui/figure/cell_painter.h"

#include <algorithm>
#include <cmath>

#include <QPainterPath>

#include "ui/figure/cell_text_fit.h"

namespace stridescope::ui {
namespace {

QColor with_alpha(QColor colour, int alpha) {
  colour.setAlpha(alpha);
  return colour;
}

void inset_border(QPainter& painter, const QRect& rect, const QColor& colour, qreal width,
                  Qt::PenStyle style = Qt::SolidLine) {
  QPen pen(colour, width, style, Qt::SquareCap, Qt::MiterJoin);
  painter.setPen(pen);
  painter.setBrush(Qt::NoBrush);
  const qreal half = width / 2.0;
  painter.drawRect(QRectF(rect).adjusted(half, half, -half, -half));
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

void paint_cell_body(QPainter& painter, const QRect& rect, const CellVisual& cell, const CellFonts& fonts,
                     bool show_text, bool show_detail) {
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
  if (!show_text) return;
  const QColor ink = text_colour_on(fill);
  const bool two_lines = show_detail && !cell.detail.isEmpty();
  // Fewer digits or a smaller font, never a value cut short.
  const CellText& value = fonts.texts->value(cell.text, fonts.value, rect.width() - 4);
  QRect value_rect = rect;
  if (two_lines) value_rect.setBottom(rect.top() + rect.height() * 58 / 100);
  // Text sits on a soft plate where hatching would fight it.
  if (cell.flags & kPaddingFlags) {
    const int w = std::min(rect.width() - 4, value.advance + 6);
    const QRect plate(value_rect.center().x() - w / 2, value_rect.center().y() - value.height / 2, w, value.height);
    painter.fillRect(plate, with_alpha(fill, 225));
  }
  painter.setPen(ink);
  draw_cell_text(painter, value_rect, value, two_lines ? Qt::AlignBottom : Qt::AlignVCenter);
  if (two_lines) {
    QRect detail_rect = rect;
    detail_rect.setTop(value_rect.bottom() + 1);
    const CellText& detail = fonts.texts->detail(cell.detail, fonts.detail, rect.width() - 2);
    if (cell.flags & kPaddingFlags) {
      const int w = std::min(rect.width() - 4, detail.advance + 6);
      painter.fillRect(QRect(detail_rect.center().x() - w / 2, detail_rect.top() + 1, w, detail.height),
                       with_alpha(fill, 225));
    }
    draw_cell_text(painter, detail_rect, detail, Qt::AlignTop);
  }
}

void paint_cell_overlays(QPainter& painter, const QRect& rect, quint32 flags) {
  const qreal unit = std::clamp(std::min(rect.width(), rect.height()) / 16.0, 1.0, 3.5);
  if (flags & kShared) inset_border(painter, rect, overlay_colour(OverlayCategory::Shared), unit * 1.5, Qt::DotLine);
  if (flags & kTap) inset_border(painter, rect, overlay_colour(OverlayCategory::Window), unit * 2);
  if (flags & kReader) {
    inset_border(painter, rect, overlay_colour(OverlayCategory::Reader), unit * 1.5);
    inset_border(painter, rect.adjusted(int(unit * 2.5), int(unit * 2.5), -int(unit * 2.5), -int(unit * 2.5)),
                 overlay_colour(OverlayCategory::Reader), unit);
  }
  if (flags & kOffsetMatch) inset_border(painter, rect, overlay_colour(OverlayCategory::Shared), unit * 2.5);
  // The chosen output solid, the inputs it reads dashed: the same colour
  // links them, the line tells them apart.
  if (flags & kSelected) {
    inset_border(painter, rect, overlay_colour(OverlayCategory::Selected), unit * 3);
  } else if (flags & kSource) {
    QPen pen(overlay_colour(OverlayCategory::Source), unit * 3, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin);
    pen.setDashPattern({1.2, 0.8});
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    const qreal half = unit * 1.5;
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
  if (flags & kDiffers) {
    painter.setPen(QPen(overlay_colour(OverlayCategory::Differs), unit * 1.5));
    painter.drawLine(rect.topLeft(), rect.bottomRight());
    painter.drawLine(rect.topRight(), rect.bottomLeft());
  }
  if (flags & kWinner) {
    inset_border(painter, rect, overlay_colour(OverlayCategory::Winner), unit * 3);
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
    case OverlayCategory::Unused: cell.fill = blend(palette_rgb(ValuePalette::Viridis, 0.55), 0xfff4f4f4, 0.78); break;
    case OverlayCategory::Shared: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kShared); return;
    case OverlayCategory::Differs: paint_cell_body(painter, rect, cell, fonts, false, false);
      paint_cell_overlays(painter, rect, kDiffers); return;
  }
  paint_cell_body(painter, rect, cell, fonts, false, false);
}

}  // namespace stridescope::ui
