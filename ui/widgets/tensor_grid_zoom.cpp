// TensorGridView's zoom: a zoom per axis (a fit may stretch cells one way),
// fitting the plane to the view, and zooming about a point.
#include <algorithm>
#include <cmath>

#include <QScrollBar>

#include "ui/widgets/tensor_grid_view.h"
#include "ui/widgets/tensor_grid_zoom.h"

namespace stridescope::ui {

using namespace grid_zoom;

void TensorGridView::fit_new_shape() {
  // A new shape starts fitted when it would not fit at 100%.
  const double old_zoom = zoom_;
  const QRect content = content_rect();
  if (!isVisible() || content.width() < 40 || content.height() < 40) {
    fit_pending_ = auto_fit_;
  } else if (auto_fit_ && model_) {
    fit_pending_ = false;
    fitted_ = true;
    set_axes(fit_axes(kMaxAutoZoom));
    horizontalScrollBar()->setValue(0);
    verticalScrollBar()->setValue(0);
  }
  if (zoom_ < min_zoom() || zoom_ > kMaxZoom) set_axes(axis_zoom_ * (std::clamp(zoom_, min_zoom(), kMaxZoom) / zoom_));
  heat_dirty_ = true;
  update_scrollbars();
  viewport()->update();
  if (zoom_ != old_zoom) emit zoomChanged(zoom_);
}

QSizeF TensorGridView::cell_size() const { return cell_size_at(axis_zoom_); }

QSizeF TensorGridView::cell_size_at(QSizeF axes) const {
  const QSizeF s(base_cell_.width() * axes.width(), base_cell_.height() * axes.height());
  // Too small for text: a heat map, whose cells are square so that an image
  // keeps its proportions (text cells are about twice as wide as tall).
  if (std::min(s.width(), s.height()) < kHeatMapCellPixels) {
    const double side = std::min(s.width(), s.height());
    return {side, side};
  }
  return s;
}

void TensorGridView::set_axes(QSizeF axes) {
  axis_zoom_ = axes;
  zoom_ = std::min(axes.width(), axes.height());
}

QSizeF TensorGridView::fit_axes(double cap) const {
  if (!model_ || model_->rowCount() == 0) return {1.0, 1.0};
  const QRect content = content_rect();
  const double x = content.width() / (std::max(1, model_->columnCount()) * base_cell_.width());
  const double y = content.height() / (std::max(1, model_->rowCount()) * base_cell_.height());
  if (std::min(x * base_cell_.width(), y * base_cell_.height()) < kHeatMapCellPixels) {
    const double uniform = fit_zoom();
    return {uniform, uniform};
  }
  // Each axis fills the view on its own, within the stretch allowed; a
  // little slack, so rounding never summons a scroll bar.
  double fx = std::min(x, cap);
  double fy = std::min(y, cap);
  fx = std::min(fx, fy * kMaxStretch);
  fy = std::min(fy, fx * kMaxStretch);
  return {fx * 0.995, fy * 0.995};
}

bool TensorGridView::is_heat_map_at(double zoom) const {
  return std::min(base_cell_.width(), base_cell_.height()) * zoom < kHeatMapCellPixels;
}

bool TensorGridView::heat_map_mode() const {
  return std::min(base_cell_.width() * axis_zoom_.width(), base_cell_.height() * axis_zoom_.height()) <
         kHeatMapCellPixels;
}

double TensorGridView::fit_zoom() const {
  if (!model_ || model_->rowCount() == 0) return 1.0;
  const QRect content = content_rect();
  const double columns = std::max(1, model_->columnCount());
  const double rows = std::max(1, model_->rowCount());
  const double text_fit = std::min(content.width() / (columns * base_cell_.width()),
                                   content.height() / (rows * base_cell_.height()));
  if (!is_heat_map_at(text_fit)) return text_fit;
  // A heat map: square cells, as large as fit, but still a heat map.
  const double side = std::min(base_cell_.width(), base_cell_.height());
  const double square_fit = std::min(content.width() / columns, content.height() / rows) / side;
  return std::min(square_fit, kHeatMapCellPixels / side * 0.999);
}

double TensorGridView::min_zoom() const {
  if (!model_ || model_->rowCount() == 0) return 0.05;
  return std::clamp(fit_zoom() * 0.5, 1e-4, 0.5);
}

void TensorGridView::set_zoom(double zoom) {
  fitted_ = false;
  zoom = std::clamp(zoom, min_zoom(), kMaxZoom);
  zoom_about(QSizeF(zoom, zoom), QPointF(content_rect().center()));
}

void TensorGridView::set_axis_zooms(QSizeF axes) {
  fitted_ = false;
  const double lo = min_zoom();
  zoom_about(QSizeF(std::clamp(axes.width(), lo, kMaxZoom), std::clamp(axes.height(), lo, kMaxZoom)),
             QPointF(content_rect().center()));
}

void TensorGridView::scale_zoom(double factor, QPointF anchor) {
  fitted_ = false;
  // The stretch a fit gave the cells stays; the smaller axis is the zoom.
  const double zoom = std::clamp(zoom_ * factor, min_zoom(), kMaxZoom);
  zoom_about(axis_zoom_ * (zoom / zoom_), anchor);
}

void TensorGridView::zoom_about(QSizeF axes, QPointF anchor) {
  if (std::abs(axes.width() - axis_zoom_.width()) < 1e-9 && std::abs(axes.height() - axis_zoom_.height()) < 1e-9) return;
  // Keep the point under `anchor` where it is.
  const double ax = anchor.x() - header_width_ + horizontalScrollBar()->value();
  const double ay = anchor.y() - header_height_ + verticalScrollBar()->value();
  // Per axis: cells turn square when the grid becomes a heat map.
  const QSizeF before = cell_size();
  set_axes(axes);
  const QSizeF after = cell_size();
  update_scrollbars();
  horizontalScrollBar()->setValue(
      static_cast<int>(std::round(ax * after.width() / before.width() - (anchor.x() - header_width_))));
  verticalScrollBar()->setValue(
      static_cast<int>(std::round(ay * after.height() / before.height() - (anchor.y() - header_height_))));
  follow_marks();
  heat_dirty_ = true;
  viewport()->update();
  emit zoomChanged(zoom_);
}

void TensorGridView::zoom_in() { scale_zoom(kZoomStep, QPointF(content_rect().center())); }
void TensorGridView::zoom_out() { scale_zoom(1.0 / kZoomStep, QPointF(content_rect().center())); }
void TensorGridView::reset_zoom() { set_zoom(1.0); }

// Fits both axes, and keeps fitting as the view resizes (a splitter dragged,
// the window resized) until the person zooms again.
void TensorGridView::zoom_to_fit() {
  if (!model_ || model_->rowCount() == 0) return;
  zoom_about(fit_axes(kMaxAutoZoom), QPointF(content_rect().center()));
  fitted_ = true;
  horizontalScrollBar()->setValue(0);
  verticalScrollBar()->setValue(0);
}

}  // namespace stridescope::ui
