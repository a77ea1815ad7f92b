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
  QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
  set_op(OpKind::Identity, false);
}

void LegendBar::set_op(OpKind kind, bool differing) {
  using C = OverlayCategory;
  switch (kind) {
    case OpKind::Identity: categories_ = {C::Selected, C::Source, C::Reader, C::Unused, C::Shared}; break;
    case OpKind::Slice:
    case OpKind::Slice1: categories_ = {C::Window, C::Selected, C::Source, C::Reader, C::Unused, C::Shared}; break;
    case OpKind::Padding:
      // Unused and Shared: the input's memory strip shows gaps and, for a
      // broadcast input, offsets several coordinates share.
      categories_ = {C::CopiedInput, C::PadConstant, C::PadEdge, C::PadReflection, C::PadSymmetric,
                     C::Selected,    C::Source,      C::Reader, C::Unused,        C::Shared};
      break;
    case OpKind::MaxPooling2:
      categories_ = {C::Window, C::Selected, C::Winner, C::PaddedTap, C::Reader, C::Unused};
      break;
  }
  if (differing) categories_.push_back(C::Differs);
  switch (kind) {
    case OpKind::Identity: note_ = tr("@n: buffer offset \u00b7 \u00d7n: coordinates sharing it"); break;
    case OpKind::Slice:
    case OpKind::Slice1: note_ = tr("#n: order taken \u00b7 \u2190(r,c): source"); break;
    case OpKind::Padding:
      // The input grid counts reads; its memory strip counts coordinates per offset.
      note_ = tr("\u2190(r,c): cell copied \u00b7 \u00d7n: times read (in memory: coordinates sharing it)");
      break;
    case OpKind::MaxPooling2: note_ = tr("\u2190(r,c): winner \u00b7 \u2192[\u2026]: decoded index"); break;
  }
  updateGeometry();
  update();
}

void LegendBar::set_palette(ValuePalette palette) {
  palette_ = palette;
  update();
}

int LegendBar::line_height() const { return fontMetrics().height() + 8; }

LegendBar::Layout LegendBar::layout_for(int width) const {
  const QFontMetrics metrics(font());
  const int h = line_height();
  constexpr int kGap = 4;  // between lines
  Layout layout;
  int x = 6;
  int y = 2;
  // Starts a new line when `w` does not fit on this one (unless the line is empty).
  const auto place = [&](int w) {
    if (x > 6 && x + w > width - 6) {
      x = 6;
      y += h + kGap;
    }
    const QRect rect(x, y, w, h);
    x += w;
    return rect;
  };
  layout.ramp = place(metrics.horizontalAdvance(tr("values: low")) + kRampWidth + metrics.horizontalAdvance(tr("high")) +
                      24);
  for (OverlayCategory category : categories_) {
    layout.chips.push_back({place(h + 6 + metrics.horizontalAdvance(overlay_name(category)) + 14),
                            overlay_description(category)});
  }
  if (!note_.isEmpty()) {
    const int w = std::min(metrics.horizontalAdvance(note_) + 12, std::max(40, width - 12));
    layout.note = place(w);
  }
  layout.height = y + h + 2;
  return layout;
}

int LegendBar::heightForWidth(int width) const { return layout_for(width).height; }

QSize LegendBar::sizeHint() const {
  const Layout one_line = layout_for(QWIDGETSIZE_MAX);
  const int right = one_line.note.isNull() ? one_line.chips.back().rect.right() : one_line.note.right();
  return {right + 6, one_line.height};
}

QSize LegendBar::minimumSizeHint() const { return {100, line_height() + 4}; }

void LegendBar::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QFontMetrics metrics(font());
  const int h = line_height();
  const Layout layout = layout_for(width());
  painter.setPen(palette().color(QPalette::WindowText));
  int x = layout.ramp.left();
  const int y = layout.ramp.top();
  const QString low = tr("values: low");
  painter.drawText(QRect(x, y, metrics.horizontalAdvance(low), h), Qt::AlignVCenter, low);
  x += metrics.horizontalAdvance(low) + 6;
  for (int i = 0; i < kRampWidth; ++i) {
    painter.fillRect(QRect(x + i, y + h / 4, 1, h / 2), QColor::fromRgb(palette_rgb(palette_, i / double(kRampWidth - 1))));
  }
  x += kRampWidth + 6;
  painter.drawText(QRect(x, y, metrics.horizontalAdvance(tr("high")), h), Qt::AlignVCenter, tr("high"));

  for (std::size_t i = 0; i < layout.chips.size(); ++i) {
    const QRect& r = layout.chips[i].rect;
    const QRect sample(r.left(), r.top() + 1, h - 2, h - 2);
    painter.save();
    paint_legend_sample(painter, sample, categories_[i]);
    painter.restore();
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRect(sample.right() + 6, r.top(), r.width() - h, h), Qt::AlignVCenter,
                     overlay_name(categories_[i]));
  }
  if (!layout.note.isNull()) {
    QColor ink = palette().color(QPalette::WindowText);
    ink.setAlphaF(0.75f);
    painter.setPen(ink);
    const QRect text = layout.note.adjusted(6, 0, 0, 0);
    painter.drawText(text, Qt::AlignVCenter, metrics.elidedText(note_, Qt::ElideRight, text.width()));
  }
}

bool LegendBar::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const Layout layout = layout_for(width());
    for (const Layout::Chip& chip : layout.chips) {
      if (chip.rect.contains(help->pos())) {
        QToolTip::showText(help->globalPos(), chip.tip, this, chip.rect);
        return true;
      }
    }
    if (layout.note.contains(help->pos())) {
      QToolTip::showText(help->globalPos(), tr("The small second line in cells: %1").arg(note_), this, layout.note);
      return true;
    }
    QToolTip::showText(help->globalPos(), tr("Cells are coloured by value on a colour-blind-safe scale"), this);
    return true;
  }
  return QWidget::event(event);
}

}  // namespace stridescope::ui
