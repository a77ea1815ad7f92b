#include "ui/figure/figure_legend.h"

#include <QObject>
#include <QStringList>

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
  if (legend.ramp) put(metrics.horizontalAdvance(legend.low) + metrics.horizontalAdvance(legend.high) + 7 * h + 16, -1);
  for (int i = 0; i < static_cast<int>(legend.categories.size()); ++i) {
    put(h + 6 + metrics.horizontalAdvance(overlay_name(legend.categories[i])), i);
  }
  if (!legend.note.isEmpty()) put(metrics.horizontalAdvance(legend.note) + 4, -2);
  *height = y + h;
  return items;
}

}  // namespace

FigureLegend figure_legend(const Evaluation& evaluation, bool selected, const LegendScope& shown) {
  using C = OverlayCategory;
  FigureLegend legend;
  const Operation& op = evaluation.op();
  const LayoutTraits& layout = op.input().layout();
  const bool results = shown.output || shown.indices;  // where the selection and differences are marked
  const bool sharing = shown.memory && (layout.broadcast || layout.overlapping);
  QStringList notes;
  const auto add = [&](bool on, std::initializer_list<C> categories) {
    if (on) legend.categories.insert(legend.categories.end(), categories);
  };
  add(selected && results, {C::Selected});
  switch (op.kind()) {
    case OpKind::Identity:
      add(selected && shown.input, {C::Source});
      add((layout.broadcast || layout.overlapping) && (shown.input || shown.memory), {C::Shared});
      if (shown.input) notes << QObject::tr("@n: buffer offset");
      if (shown.input || sharing) notes << QObject::tr("\u00d7n: coordinates sharing it");
      break;
    case OpKind::Slice:
    case OpKind::Slice1:
      add(shown.input, {C::Window});
      add(selected && shown.input, {C::Source});
      if (shown.input) notes << QObject::tr("#n: order taken");
      if (shown.output) notes << QObject::tr("\u2190(r,c): source");
      break;
    case OpKind::Padding:
      add(shown.output, {C::CopiedInput, padding_category(op.params_as<PaddingParams>().mode)});
      add(selected && shown.input, {C::Source});
      if (shown.output) notes << QObject::tr("\u2190(r,c): cell copied");
      if (shown.input) notes << QObject::tr("\u00d7n: times read");
      break;
    case OpKind::MaxPooling2:
      add(selected && shown.input, {C::Window, C::Winner, C::PaddedTap});
      if (shown.output) notes << QObject::tr("\u2190(r,c): winner");
      if (shown.indices) notes << QObject::tr("\u2192[\u2026]: decoded index");
      break;
  }
  // A broadcast input's memory strip writes how many coordinates share an
  // offset, where the input grid writes something else beside the value.
  if (sharing && op.kind() != OpKind::Identity) {
    add(true, {C::Shared});
    notes << QObject::tr("\u00d7n in memory: coordinates sharing it");
  }
  const bool unread = op.kind() != OpKind::Identity && shown.input;
  if (unread || (layout.gapped && (shown.input || shown.memory)) || (shown.memory && op.kind() != OpKind::Identity)) {
    legend.categories.push_back(C::Unused);
  }
  if (results && any_differing(evaluation)) legend.categories.push_back(C::Differs);
  legend.note = notes.join(QStringLiteral(" \u00b7 "));
  // Indices are coloured as names (ui/categorical_colours.h), on no ramp.
  legend.ramp = shown.input || shown.output;
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
      // An outline, so the ramp's dark end stays visible on a dark page.
      painter.setPen(muted);
      painter.drawRect(ramp.adjusted(-1, -1, 0, 0));
      painter.setPen(ink);
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
