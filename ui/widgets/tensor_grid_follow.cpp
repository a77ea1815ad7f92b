// TensorGridView following its model's marks (what a memory strip does): it
// scrolls, by whole rows, just far enough that the marked cells show whole.
#include <algorithm>
#include <array>
#include <cmath>

#include <QScrollBar>

#include "ui/widgets/tensor_grid_view.h"

namespace stridescope::ui {
namespace {

// The marks a strip keeps in view first, most important first: the chosen
// element, the window's winner, the one pointed at, then what they read.
constexpr std::array<quint32, 7> kFollowOrder{kSelected, kWinner, kHovered, kReader, kOffsetMatch, kSource, kTap};

// The row of the mark to show when not all of them fit: the first (lowest)
// row holding the most important kind of mark.
int key_row(const std::vector<std::pair<QPoint, quint32>>& marks) {
  for (const quint32 kind : kFollowOrder) {
    int row = -1;
    for (const auto& [cell, flags] : marks) {
      if ((flags & kind) && (row < 0 || cell.y() < row)) row = cell.y();
    }
    if (row >= 0) return row;
  }
  int row = marks.front().first.y();
  for (const auto& mark : marks) row = std::min(row, mark.first.y());
  return row;
}

}  // namespace

void TensorGridView::set_follow_marks(bool on) {
  follow_marks_ = on;
  update_scrollbars();
  follow_marks();
}

int TensorGridView::whole_rows_shown() const {
  return std::max(1, static_cast<int>(std::floor(content_rect().height() / cell_size().height())));
}

bool TensorGridView::row_shows_whole(int row) const {
  const QRect content = content_rect();
  const QRect r = cell_rect(row, 0);
  return r.top() >= content.top() && r.bottom() <= content.bottom();
}

void TensorGridView::follow_marks() {
  // Marks under the pointer are the person's own; a dragged scroll bar is theirs too.
  if (!follow_marks_ || !model_ || hover_ || verticalScrollBar()->isSliderDown()) return;
  const std::vector<std::pair<QPoint, quint32>> marks = model_->marked_cells();
  if (marks.empty()) return;
  const auto [low, high] = std::minmax_element(marks.begin(), marks.end(),
                                               [](const auto& a, const auto& b) { return a.first.y() < b.first.y(); });
  const int first = low->first.y();
  const int last = high->first.y();
  if (last - first < whole_rows_shown()) {
    show_rows(first, last);
  } else {
    const int key = key_row(marks);
    show_rows(key, key);
  }
}

// Scrolls the least that shows rows `first` to `last` whole.
void TensorGridView::show_rows(int first, int last) {
  if (row_shows_whole(first) && row_shows_whole(last)) return;
  const double pitch = cell_size().height();
  const int top_row =
      cell_rect(first, 0).top() < content_rect().top() ? first : std::max(0, last - whole_rows_shown() + 1);
  verticalScrollBar()->setValue(static_cast<int>(std::round(std::min(top_row, first) * pitch)));
}

// A row's top at the top of the view, at rest and at the end of the range:
// the range ends where the last row shows whole, below an empty band.
void TensorGridView::snap_to_whole_rows() {
  if (!follow_marks_ || !model_) return;
  QScrollBar* bar = verticalScrollBar();
  const double pitch = cell_size().height();
  if (pitch <= 0) return;
  const int last_top_row = std::max(0, model_->rowCount() - whole_rows_shown());
  bar->setMaximum(static_cast<int>(std::round(last_top_row * pitch)));
  const int snapped = static_cast<int>(std::round(std::round(bar->value() / pitch) * pitch));
  if (snapped != bar->value()) bar->setValue(std::min(snapped, bar->maximum()));
}

}  // namespace stridescope::ui
