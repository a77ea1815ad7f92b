#include "ui/figure/cell_text_fit.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <QFontMetrics>

namespace stridescope::ui {
namespace {

// Shortens an exponent: "1.2e+05" to "1.2e5", "3e-07" to "3e-7".
QString tidy_exponent(QString text) {
  const qsizetype e = text.indexOf(QLatin1Char('e'));
  if (e < 0) return text;
  QString mantissa = text.left(e);
  QString exponent = text.mid(e + 1);
  const bool negative = exponent.startsWith(QLatin1Char('-'));
  if (exponent.startsWith(QLatin1Char('+')) || negative) exponent.remove(0, 1);
  while (exponent.size() > 1 && exponent.startsWith(QLatin1Char('0'))) exponent.remove(0, 1);
  return mantissa + QLatin1Char('e') + (negative ? QStringLiteral("-") : QString()) + exponent;
}

QFont scaled(const QFont& font, double scale) {
  QFont f = font;
  if (font.pointSizeF() > 0) {
    f.setPointSizeF(font.pointSizeF() * scale);
  } else {
    f.setPixelSize(std::max(1, static_cast<int>(std::lround(font.pixelSize() * scale))));
  }
  return f;
}

int significant_digits(const QString& text) {
  int digits = 0;
  bool leading = true;
  for (const QChar c : text) {
    if (c == QLatin1Char('e') || c == QLatin1Char('E')) break;
    if (!c.isDigit()) continue;
    if (leading && c == QLatin1Char('0')) continue;
    leading = false;
    ++digits;
  }
  return std::max(digits, 1);
}

}  // namespace

QString round_value_text(const QString& text, int digits) {
  bool ok = false;
  const double value = text.toDouble(&ok);
  if (!ok || !std::isfinite(value)) return text;
  return tidy_exponent(QString::number(value, 'g', std::max(digits, 1)));
}

QStringList shorter_value_texts(const QString& text) {
  QStringList forms{text};
  bool ok = false;
  const double value = text.toDouble(&ok);
  if (!ok || !std::isfinite(value)) return forms;
  for (int digits = significant_digits(text); digits >= 1; --digits) {
    const QString form = round_value_text(text, digits);
    if (form.size() < forms.back().size()) forms << form;
  }
  return forms;
}

QString round_to_decimals(const QString& text, int decimals) {
  if (decimals < 0 || text.contains(QLatin1Char('e')) || text.contains(QLatin1Char('E'))) return text;
  const qsizetype point = text.indexOf(QLatin1Char('.'));
  if (point < 0 || text.size() - point - 1 <= decimals) return text;
  bool ok = false;
  const double value = text.toDouble(&ok);
  if (!ok || !std::isfinite(value)) return text;
  QString rounded = QString::number(value, 'f', decimals);
  if (rounded.contains(QLatin1Char('.'))) {
    while (rounded.endsWith(QLatin1Char('0'))) rounded.chop(1);
    if (rounded.endsWith(QLatin1Char('.'))) rounded.chop(1);
  }
  if (rounded.toDouble() == 0.0 && value != 0.0) return text;  // a nonzero value never reads as 0
  return rounded;
}

int fitting_decimals(double lo, double hi, const QFont& font, int width) {
  const double largest = std::max(std::abs(lo), std::abs(hi));
  if (!std::isfinite(largest) || largest >= 1e15) return -1;
  // Digits are all one width in the fonts the app uses: the longest
  // integer part, with a sign if any value is negative, is the widest text.
  const double widest = lo < 0 ? -largest : largest;
  const QFontMetrics metrics(font);
  for (int decimals = 9; decimals > 0; --decimals) {
    if (metrics.horizontalAdvance(QString::number(widest, 'f', decimals)) <= width) return decimals;
  }
  return 0;
}

QFont smallest_readable_font(const QFont& font) {
  if (font.pointSizeF() > 0) return scaled(font, std::min(1.0, std::max(0.7, 7.0 / font.pointSizeF())));
  return scaled(font, std::min(1.0, std::max(0.7, 9.0 / std::max(1, font.pixelSize()))));
}

FittedText fit_value_text(const QString& text, const QFont& font, int width) {
  if (QFontMetrics(font).horizontalAdvance(text) <= width) return {text, font};  // the usual case, cheaply
  const QStringList forms = shorter_value_texts(text);
  const QFont smallest = smallest_readable_font(font);
  const double smallest_scale =
      font.pointSizeF() > 0 ? smallest.pointSizeF() / font.pointSizeF() : double(smallest.pixelSize()) / font.pixelSize();
  std::array<QFont, 4> fonts{font, font, font, smallest};
  for (std::size_t i = 1; i + 1 < fonts.size(); ++i) {
    fonts[i] = scaled(font, 1.0 - (1.0 - smallest_scale) * double(i) / double(fonts.size() - 1));
  }
  // Three significant digits in the cell's own font read better than more
  // digits in a smaller one; past that, a smaller font keeps the digits.
  const auto first_fitting = [&](const QFont& f, int min_digits) -> QString {
    const QFontMetrics metrics(f);
    for (const QString& form : forms) {
      if (form.size() < text.size() && significant_digits(form) < min_digits) break;
      if (metrics.horizontalAdvance(form) <= width) return form;
    }
    return {};
  };
  for (const int min_digits : {3, 1}) {
    for (const QFont& f : fonts) {
      if (QString fitted = first_fitting(f, min_digits); !fitted.isEmpty()) return {fitted, f};
    }
  }
  return {QString(), font};
}

}  // namespace stridescope::ui
