#include "ui/figure/cell_text_cache.h"

#include <QFontMetrics>

#include "ui/figure/cell_text_fit.h"

namespace stridescope::ui {
namespace {

// A plane of 64x64 cells at two zooms holds a few thousand lines; a cache
// that grows past this is for a huge plane scrolled far, and starts over.
constexpr qsizetype kMaxLines = 1 << 15;

CellText laid_out(QString text, const QFont& font) {
  const QFontMetrics metrics(font);
  CellText line{std::move(text), font, 0, metrics.height(), {}};
  line.advance = metrics.horizontalAdvance(line.text);
  line.glyphs.setText(line.text);
  line.glyphs.setTextFormat(Qt::PlainText);
  line.glyphs.prepare(QTransform(), font);
  return line;
}

}  // namespace

void CellTextCache::Lines::use(const QFont& next) {
  if (next == font && next.resolveMask() == font.resolveMask()) return;
  font = next;
  by_text.clear();
}

const CellText& CellTextCache::value(const QString& text, const QFont& font, int width, int decimals) {
  values_.use(font);
  if (values_.by_text.size() > kMaxLines) values_.by_text.clear();
  const auto key = qMakePair(text, qMakePair(width, decimals));
  if (const auto found = values_.by_text.constFind(key); found != values_.by_text.cend()) return *found;
  const FittedText fitted = fit_value_text(round_to_decimals(text, decimals), font, width);
  return *values_.by_text.insert(key, laid_out(fitted.text, fitted.font));
}

const CellText& CellTextCache::detail(const QString& text, const QFont& font, int width) {
  details_.use(font);
  if (details_.by_text.size() > kMaxLines) details_.by_text.clear();
  const auto key = qMakePair(text, qMakePair(width, -1));
  if (const auto found = details_.by_text.constFind(key); found != details_.by_text.cend()) return *found;
  return *details_.by_text.insert(key, laid_out(QFontMetrics(font).elidedText(text, Qt::ElideRight, width), font));
}

void draw_cell_text(QPainter& painter, const QRect& rect, const CellText& line, Qt::Alignment alignment) {
  if (line.text.isEmpty()) return;
  const qreal x = rect.left() + (rect.width() - line.advance) / 2.0;
  qreal y = rect.top();
  if (alignment & Qt::AlignVCenter) y += (rect.height() - line.height) / 2.0;
  if (alignment & Qt::AlignBottom) y = rect.bottom() + 1 - line.height;
  painter.setFont(line.font);
  painter.drawStaticText(QPointF(x, y), line.glyphs);
}

}  // namespace stridescope::ui
