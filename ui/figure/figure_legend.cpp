#include "ui/figure/figure_legend.h"

#include <QObject>

#include "core/padding.h"
#include "ui/figure/cell_painter.h"

namespace stridescope::ui {
namespace {

OverlayCategory padding_category(PaddingMode mode) {
  switch (mode) {
    case PaddingMode::Constant: return OverlayCategory::PadConstant;
    case PaddingMode::Edge: return OverlayCategory::PadEdge;
    case PaddingMode::Reflection: return OverlayCategory::PadReflection;
    case PaddingMode::Symmetric: return OverlayCategory::PadSymmetric;
  }
  return OverlayCategory::PadConstant;
}

struct Item {
  QRect rect;
  int index;  // -1: the ramp, -2: the note, else a category
};

// Places the ramp, the chips and the note left to right, wrapping at `width`.
std::vector<Item> place(const FigureLegend& legend, const QFont& font, int width, int* height) {
  const QFontMetrics metrics(font);
  const int h = metrics.height() + metrics.height() / 2;
  const int gap = metrics.height();
  std::vector<Item> items;
  int x = 0;
  int y = 0;
  const auto put = [&](int w, int index) {
    if (x > 0 && x + w > width) {
      x = 0;
      y += h + gap / 3;
    }
    items.push_back({QRect(x, y, w, h), index});
    x += w + gap;
  };
  put(metrics.horizontalAdvance(legend.low) + metrics.horizontalAdvance(legend.high) + 7 * h + 16, -1);
  for (int i = 0; i < static_cast<int>(legend.categories.size()); ++i) {
    put(h + 6 + metrics.horizontalAdvance(overlay_name(legend.categories[i])), i);
  }
  if (!legend.note.isEmpty()) put(metrics.horizontalAdvance(legend.note) + 4, -2);
  *height = y + h;
  return items;
}

}  // namespace

FigureLegend figure_legend(const Evaluation& evaluation, bool selected) {
  using C = OverlayCategory;
  FigureLegend legend;
  const Operation& op = evaluation.op();
  const LayoutTraits& layout = op.input().layout();
  const bool unused_shown = layout.gapped || op.kind() != OpKind::Identity;
  switch (op.kind()) {
    case OpKind::Identity:
      if (selected) legend.categories = {C::Selected, C::Source};
      if (layout.broadcast || layout.overlapping) legend.categories.push_back(C::Shared);
      legend.note = QObject::tr("@n: buffer offset \u00b7 \u00d7n: coordinates sharing it");
      break;
    case OpKind::Slice:
    case OpKind::Slice1:
      legend.categories = {C::Window};
      if (selected) legend.categories.insert(legend.categories.end(), {C::Selected, C::Source});
      legend.note = QObject::tr("#n: order taken \u00b7 \u2190(r,c): source");
      break;
    case OpKind::Padding:
      legend.categories = {C::CopiedInput, padding_category(op.params_as<PaddingParams>().mode)};
      if (selected) legend.categories.insert(legend.categories.end(), {C::Selected, C::Source});
      legend.note = QObject::tr("\u2190(r,c): cell copied \u00b7 \u00d7n: times read");
      break;
    case OpKind::MaxPooling2:
      if (selected) legend.categories = {C::Selected, C::Window, C::Winner, C::PaddedTap};
      legend.note = QObject::tr("\u2190(r,c): winner \u00b7 \u2192[\u2026]: decoded index");
      break;
  }
  if (unused_shown) legend.categories.push_back(C::Unused);
  if (any_differing(evaluation)) legend.categories.push_back(C::Differs);
  legend.low = QObject::tr("values %1").arg(evaluation.range.valid ? QString::number(evaluation.range.min) : QString());
  legend.high = evaluation.range.valid ? QString::number(evaluation.range.max) : QString();
  return legend;
}

int legend_height(const FigureLegend& legend, const QFont& font, int width) {
  int height = 0;
  place(legend, font, width, &height);
  return height;
}

void paint_figure_legend(QPainter& painter, const QRect& rect, const FigureLegend& legend, const QFont& font,
                         const QColor& ink, const QColor& muted) {
  int height = 0;
  const std::vector<Item> items = place(legend, font, rect.width(), &height);
  const QFontMetrics metrics(font);
  painter.save();
  painter.translate(rect.topLeft());
  painter.setFont(font);
  for (const Item& item : items) {
    const QRect r = item.rect;
    const int h = r.height();
    if (item.index == -1) {
      painter.setPen(ink);
      const int low_w = metrics.horizontalAdvance(legend.low);
      painter.drawText(QRect(r.left(), r.top(), low_w, h), Qt::AlignVCenter, legend.low);
      const QRect ramp(r.left() + low_w + 8, r.top() + h / 4, 7 * h, h / 2);
      for (int x = 0; x < ramp.width(); ++x) {
        painter.fillRect(QRect(ramp.left() + x, ramp.top(), 1, ramp.height()),
                         QColor::fromRgb(palette_rgb(ValuePalette::Viridis, double(x) / std::max(1, ramp.width() - 1))));
      }
      painter.drawText(QRect(ramp.right() + 8, r.top(), metrics.horizontalAdvance(legend.high) + 2, h),
                       Qt::AlignVCenter, legend.high);
    } else if (item.index == -2) {
      painter.setPen(muted);
      painter.drawText(r, Qt::AlignVCenter, legend.note);
    } else {
      const OverlayCategory category = legend.categories[item.index];
      painter.setRenderHint(QPainter::Antialiasing, true);
      paint_legend_sample(painter, QRect(r.left(), r.top(), h, h), category);
      painter.setRenderHint(QPainter::Antialiasing, false);
      painter.setFont(font);
      painter.setPen(ink);
      painter.drawText(QRect(r.left() + h + 6, r.top(), r.width() - h - 6, h), Qt::AlignVCenter,
                       overlay_name(category));
    }
  }
  painter.restore();
}

}  // namespace stridescope::ui
