#include "ui/figure/difference_mark.h"

#include <algorithm>

#include <QPen>

#include "ui/colour_map.h"

namespace stridescope::ui {

qreal difference_flag_size(const QRect& cell) {
  const qreal side = std::min(cell.width(), cell.height());
  return std::clamp(side * 0.28, std::min<qreal>(6.0, side / 2), 16.0);
}

QPolygonF difference_flag(const QRect& cell) {
  const QPointF corner = QRectF(cell).topLeft();
  const qreal leg = difference_flag_size(cell);
  return QPolygonF({corner, corner + QPointF(leg, 0), corner + QPointF(0, leg)});
}

void paint_difference_mark(QPainter& painter, const QRect& cell, qreal unit) {
  const QColor colour = overlay_colour(OverlayCategory::Differs);
  painter.save();
  // The border at the cell's very edge, a fifth of the selection's frame, so
  // a selected difference shows both, and two differing neighbours do not
  // merge into one thick band that outweighs the flag.
  const qreal width = std::max<qreal>(1.0, unit * 0.5);
  painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(QRectF(cell).adjusted(width / 2, width / 2, -width / 2, -width / 2));
  const QPolygonF flag = difference_flag(cell);
  painter.setPen(Qt::NoPen);
  painter.setBrush(colour);
  painter.drawPolygon(flag);
  // A white edge on the triangle's long side keeps it apart from any value colour.
  painter.setPen(QPen(Qt::white, 1.0));
  painter.drawLine(flag.at(1), flag.at(2));
  painter.restore();
}

}  // namespace stridescope::ui
