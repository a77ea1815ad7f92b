#include "ui/widgets/legend_bar.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include "ui/widgets/cell_painter.h"

namespace stridescope::ui {
namespace {
constexpr int kRampWidth = 90;
}

LegendBar::LegendBar(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("legend"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  set_op(OpKind::Identity, false);
}

void LegendBar::set_op(OpKind kind, bool comparing) {
  using C = OverlayCategory;
  switch (kind) {
    case OpKind::Identity: categories_ = {C::Selected, C::Source, C::Reader, C::Unused, C::Shared}; break;
    case OpKind::Slice:
    case OpKind::Slice1: categories_ = {C::Window, C::Selected, C::Source, C::Reader, C::Unused, C::Shared}; break;
    case OpKind::Padding:
      categories_ = {C::PadConstant, C::PadEdge, C::PadReflection, C::PadSymmetric, C::Selected, C::Source, C::Reader};
      break;
    case OpKind::MaxPooling2:
      categories_ = {C::Window, C::Selected, C::Winner, C::PaddedTap, C::Reader, C::Unused};
      break;
  }
  if (comparing) categories_.push_back(C::Differs);
  switch (kind) {
    case OpKind::Identity: note_ = tr("@n: buffer offset \u00b7 \u00d7n: coordinates sharing it"); break;
    case OpKind::Slice:
    case OpKind::Slice1: note_ = tr("#n: order taken \u00b7 \u2190(r,c): source"); break;
    case OpKind::Padding: note_ = tr("\u2190(r,c): cell copied \u00b7 \u00d7n: times read"); break;
    case OpKind::MaxPooling2: note_ = tr("\u2190(r,c): winner \u00b7 \u2192[\u2026]: decoded index"); break;
  }
  updateGeometry();
  update();
}

void LegendBar::set_palette(ValuePalette palette) {
  palette_ = palette;
  update();
}

std::vector<LegendBar::Chip> LegendBar::layout_chips() const {
  std::vector<Chip> chips;
  const QFontMetrics metrics(font());
  const int h = metrics.height() + 8;
  int x = 6 + kRampWidth + metrics.horizontalAdvance(tr("values: low")) + metrics.horizontalAdvance(tr("high")) + 24;
  for (OverlayCategory category : categories_) {
    const int w = h + 6 + metrics.horizontalAdvance(overlay_name(category)) + 14;
    chips.push_back({QRect(x, 2, w, h), overlay_description(category)});
    x += w;
  }
  return chips;
}

QSize LegendBar::sizeHint() const {
  const auto chips = layout_chips();
  const int width = (chips.empty() ? 200 : chips.back().rect.right() + 6) + fontMetrics().horizontalAdvance(note_) + 12;
  return {width, fontMetrics().height() + 12};
}

QSize LegendBar::minimumSizeHint() const { return {100, fontMetrics().height() + 12}; }

void LegendBar::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QFontMetrics metrics(font());
  const int h = metrics.height() + 8;
  painter.setPen(palette().color(QPalette::WindowText));
  int x = 6;
  const QString low = tr("values: low");
  painter.drawText(QRect(x, 2, metrics.horizontalAdvance(low), h), Qt::AlignVCenter, low);
  x += metrics.horizontalAdvance(low) + 6;
  for (int i = 0; i < kRampWidth; ++i) {
    painter.fillRect(QRect(x + i, 2 + h / 4, 1, h / 2), QColor::fromRgb(palette_rgb(palette_, i / double(kRampWidth - 1))));
  }
  x += kRampWidth + 6;
  painter.drawText(QRect(x, 2, metrics.horizontalAdvance(tr("high")), h), Qt::AlignVCenter, tr("high"));

  const auto chips = layout_chips();
  for (std::size_t i = 0; i < chips.size(); ++i) {
    const QRect& r = chips[i].rect;
    const QRect sample(r.left(), r.top() + 1, h - 2, h - 2);
    painter.save();
    paint_legend_sample(painter, sample, categories_[i]);
    painter.restore();
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(sample.right() + 6, r.top(), r.width() - h, h), Qt::AlignVCenter,
                     overlay_name(categories_[i]));
  }
  if (!note_.isEmpty()) {
    const int left = chips.empty() ? x : chips.back().rect.right() + 12;
    QColor ink = palette().color(QPalette::WindowText);
    ink.setAlphaF(0.75f);
    painter.setPen(ink);
    painter.drawText(QRect(left, 2, std::max(0, width() - left - 4), h), Qt::AlignVCenter,
                     metrics.elidedText(note_, Qt::ElideRight, std::max(0, width() - left - 4)));
  }
}

bool LegendBar::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    for (const Chip& chip : layout_chips()) {
      if (chip.rect.contains(help->pos())) {
        QToolTip::showText(help->globalPos(), chip.tip, this, chip.rect);
        return true;
      }
    }
    QToolTip::showText(help->globalPos(), tr("Cells are coloured by value on a colour-blind-safe scale"), this);
    return true;
  }
  return QWidget::event(event);
}

}  // namespace stridescope::ui
