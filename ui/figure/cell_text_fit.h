// A cell's value made to fit its cell: the text as the model gives it when it
// fits, else the same number with fewer significant digits, else in a smaller
// font down to the smallest that still reads. Never an ellipsis: a number cut
// to "5…" reads as a different number, while "0.55" is the value rounded (the
// tool tip keeps the exact one). When nothing readable fits, no text at all.
#pragma once

#include <QFont>
#include <QString>
#include <QStringList>

namespace stridescope::ui {

// The same number with `digits` significant digits, as short as it writes:
// "0.5488135" with 3 digits is "0.549", 123456 with 2 is "1.2e5". Texts that
// are not numbers come back unchanged.
QString round_value_text(const QString& text, int digits);

// The forms of `text` from the most precise to the shortest, each shorter
// than the one before: "0.5488135", "0.548814", ..., "0.55", "0.5".
QStringList shorter_value_texts(const QString& text);

struct FittedText {
  QString text;  // empty: nothing readable fits
  QFont font;
};

// Fits `text` into `width` pixels: first with `font` at fewer digits (down to
// three significant ones), then in smaller fonts down to the smallest
// readable size, then with fewer digits still.
FittedText fit_value_text(const QString& text, const QFont& font, int width);

// The smallest font the app writes a value in: 70% of `font`, never under 7 points.
QFont smallest_readable_font(const QFont& font);

}  // namespace stridescope::ui
