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

// `text` with at most `decimals` digits after its point, rounded, trailing
// zeros dropped: "-508823.5" with 0 is "-508824", "0.5001" with 2 is "0.5".
// Unchanged: `decimals` < 0, texts in exponent notation or not numbers, texts
// with no more decimals, and a value that would round to zero.
QString round_to_decimals(const QString& text, int decimals);

// The most decimals (up to 9) at which every value in [`lo`, `hi`] written in
// fixed notation fits `width` pixels in `font` (0 when even whole numbers do
// not; -1 when the range is not finite or too large for fixed notation). A
// view that writes all its values with at most this many decimals writes
// them all to the same place: never "-508824" (rounded) beside "914446.9"
// (exact), which reads as if the first were a whole number.
int fitting_decimals(double lo, double hi, const QFont& font, int width);

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
