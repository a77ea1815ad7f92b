#include "ui/text_format.h"

#include <QObject>
#include <QStringList>

namespace stridescope::ui {

QString dimension_letter(std::size_t rank, std::size_t dim) {
  static const char* four[] = {"N", "C", "H", "W"};
  static const char* five[] = {"N", "C", "D", "H", "W"};
  if (rank == 4 && dim < 4) return QString::fromLatin1(four[dim]);
  if (rank == 5 && dim < 5) return QString::fromLatin1(five[dim]);
  return {};
}

QString dimension_name(std::size_t rank, std::size_t dim) {
  const QString letter = dimension_letter(rank, dim);
  return letter.isEmpty() ? QString::number(dim) : QStringLiteral("%1 (%2)").arg(dim).arg(letter);
}

QString shape_text(const Sizes& sizes) {
  QStringList parts;
  for (uint64_t s : sizes) parts << QString::number(s);
  return parts.join(QChar(0x00d7));
}

QString strides_text(const Strides& strides) {
  QStringList parts;
  for (uint64_t s : strides) parts << QString::number(s);
  return QStringLiteral("[") + parts.join(QLatin1Char(',')) + QStringLiteral("]");
}

QString layout_words(const LayoutTraits& t) {
  QStringList words;
  if (t.packed) words << QObject::tr("packed");
  if (t.row_major) words << QObject::tr("row-major");
  if (t.permuted) words << QObject::tr("permuted");
  if (t.broadcast) words << QObject::tr("broadcast");
  if (t.gapped) words << QObject::tr("gapped");
  if (t.overlapping) words << QObject::tr("overlapping");
  return words.join(QStringLiteral(", "));
}

QString buffer_summary(const TensorDesc& desc) {
  return QObject::tr("%1 elements, buffer of %2 elements (%3 bytes), %4 distinct offsets used")
      .arg(desc.element_count())
      .arg(desc.buffer_elements())
      .arg(desc.buffer_bytes())
      .arg(desc.layout().distinct_offsets);
}

QString offset_terms(const TensorDesc& desc, const Coord& coord) {
  QStringList terms;
  for (std::size_t d = 0; d < coord.size() && d < desc.rank(); ++d) {
    terms << QStringLiteral("%1\u00b7%2").arg(coord[d]).arg(desc.strides()[d]);
  }
  return terms.join(QStringLiteral(" + "));
}

}  // namespace stridescope::ui
