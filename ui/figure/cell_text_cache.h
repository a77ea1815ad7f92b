// The text of cells, fitted and laid out once and drawn many times. Every
// repaint draws the same values into the same cells again (an animation step
// repaints every view), and fitting a value to its cell and shaping its
// glyphs cost more than the rest of a cell together.
#pragma once

#include <QFont>
#include <QHash>
#include <QPainter>
#include <QRect>
#include <QStaticText>
#include <QString>

namespace stridescope::ui {

// One line of cell text, ready to draw.
struct CellText {
  QString text;  // empty: nothing readable fits
  QFont font;
  int advance = 0;  // width in pixels
  int height = 0;   // the font's line height
  QStaticText glyphs;
};

class CellTextCache {
 public:
  // `text` at most `decimals` digits after its point (-1: all; see
  // round_to_decimals), fitted to `width` pixels (fit_value_text: fewer
  // digits or a smaller font).
  const CellText& value(const QString& text, const QFont& font, int width, int decimals = -1);
  // `text` in `font`, elided on the right past `width` pixels.
  const CellText& detail(const QString& text, const QFont& font, int width);

 private:
  struct Lines {
    QFont font;
    // By text and (width, decimals).
    QHash<QPair<QString, QPair<int, int>>, CellText> by_text;
    // Makes `font` the lines' font, forgetting lines laid out in another.
    void use(const QFont& font);
  };
  Lines values_;
  Lines details_;
};

// Draws `line` in `rect` with the painter's pen, aligned by `alignment`
// (horizontally centred; top, vertically centred or bottom).
void draw_cell_text(QPainter& painter, const QRect& rect, const CellText& line, Qt::Alignment alignment);

}  // namespace stridescope::ui
