#include "ui/widgets/flow_layout.h"

#include <algorithm>

#include <QWidget>

namespace stridescope::ui {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), spacing_(spacing) {
  setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::takeAt(int index) {
  return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

QSize FlowLayout::sizeHint() const {
  int width = 0;
  int height = 0;
  for (const QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    const QSize hint = item->sizeHint();
    width += (width > 0 ? spacing_ : 0) + hint.width();
    height = std::max(height, hint.height());
  }
  const QMargins m = contentsMargins();
  return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

QSize FlowLayout::minimumSize() const {
  QSize size;
  for (const QLayoutItem* item : items_) {
    if (!item->isEmpty()) size = size.expandedTo(item->minimumSize());
  }
  const QMargins m = contentsMargins();
  return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
  const QRect area = rect.marginsRemoved(contentsMargins());
  int x = area.x();
  int y = area.y();
  int line_height = 0;
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    // Never wider than the line, so a lone item too wide for it shrinks
    // towards its minimum rather than spilling past the edge.
    const QSize hint(std::min(item->sizeHint().width(), std::max(area.width(), item->minimumSize().width())),
                     item->sizeHint().height());
    if (x > area.x() && x + hint.width() > area.right() + 1) {
      x = area.x();
      y += line_height + spacing_;
      line_height = 0;
    }
    if (apply) item->setGeometry(QRect(QPoint(x, y), hint));
    x += hint.width() + spacing_;
    line_height = std::max(line_height, hint.height());
  }
  const QMargins m = contentsMargins();
  return y + line_height - rect.y() + m.bottom();
}

}  // namespace stridescope::ui
