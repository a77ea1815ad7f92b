// A zoomable grid over a GridModel that draws only the visible cells. Zoomed
// out until cells are a few pixels wide, it becomes a heat map sampled per
// pixel (cached until the model or the viewport changes), so a 1024x1024
// plane stays smooth. Row and column headers stay fixed while the cells scroll.
#pragma once

#include <optional>
#include <utility>

#include <QAbstractScrollArea>
#include <QImage>
#include <QPointer>

#include "ui/grid_model.h"
#include "ui/figure/grid_painter.h"

class QLineEdit;

namespace stridescope::ui {

class TensorGridView : public QAbstractScrollArea {
  Q_OBJECT

 public:
  explicit TensorGridView(QWidget* parent = nullptr);

  void set_model(GridModel* model);
  GridModel* model() const { return model_; }

  // Fit a new shape into the view when it would not fit at 100% (default on).
  void set_auto_fit(bool on) { auto_fit_ = on; }

  // Follow the marks (a memory strip, default off): whenever the model's
  // marks change, scroll just enough that the marked cells (at least the
  // most important: the selection, a winner, the hovered one) show whole,
  // unless they already do or the pointer is on this view's cells (what is
  // marked then is what the person points at). Rows scroll whole, so no row
  // rests half hidden under the header. Vertical only: a strip wraps.
  void set_follow_marks(bool on);

  // Washed out: the cells are an earlier result than the spec being edited.
  void set_stale(bool stale);
  bool stale() const { return stale_; }

  // The smaller of the two axes' zooms (a fit may stretch cells in one axis).
  double zoom() const { return zoom_; }
  // Whether the zoom follows the view's size (a fit the person has not undone by zooming).
  bool follows_size() const { return fitted_; }
  // The value text cell (row, column) shows now, as painted: fewer digits
  // where the exact text does not fit; empty when none is shown.
  QString shown_text(int row, int column) const;
  void set_zoom(double zoom);
  // A zoom per axis (width, height): cells stretched, as a fit may stretch them.
  void set_axis_zooms(QSizeF axes);
  QSizeF axis_zooms() const { return axis_zoom_; }
  // Cell size at the current zoom, in logical pixels.
  QSizeF cell_size() const;
  // Too small for text: painted as a heat map.
  bool heat_map_mode() const;

  std::optional<std::pair<int, int>> cell_at(const QPoint& viewport_pos) const;
  QRect cell_rect(int row, int column) const;  // viewport coordinates
  void ensure_visible(int row, int column);
  // Where the cells start inside the viewport (below and right of the headers).
  QRect content_rect() const;

  // When the person last pointed at, clicked or focused this view (a
  // counter shared by all views; 0: never): the View menu's zoom acts on the
  // view used last.
  quint64 last_used() const { return last_used_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 public slots:
  void zoom_in();
  void zoom_out();
  void zoom_to_fit();
  void reset_zoom();

 signals:
  void cellHovered(int row, int column);  // (-1, -1) when the mouse leaves the cells
  void cellClicked(int row, int column);
  void zoomChanged(double zoom);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void enterEvent(QEnterEvent* event) override;
  void focusInEvent(QFocusEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool viewportEvent(QEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void update_metrics();
  GridPaintStyle paint_style() const;
  GridGeometry grid_geometry() const;  // where the cells lie in the viewport now
  void update_scrollbars();
  // Following marks (tensor_grid_follow.cpp).
  void follow_marks();
  void snap_to_whole_rows();
  void show_rows(int first, int last);
  bool row_shows_whole(int row) const;
  int whole_rows_shown() const;  // rows the view shows whole at once, at least 1
  void paint_cells(QPainter& painter, const QRect& content, int r0, int r1, int c0, int c1);
  void paint_heat_map(QPainter& painter, const QRect& content);
  void paint_labels(QPainter& painter, int r0, int r1);
  void paint_marks_on_heat_map(QPainter& painter, const QRect& content, int r0, int r1, int c0, int c1);
  void paint_headers(QPainter& painter, const QRect& content, int r0, int r1, int c0, int c1);
  void set_hover(std::optional<std::pair<int, int>> cell);
  void open_editor(int row, int column);
  void zoom_about(QSizeF axes, QPointF anchor);
  void scale_zoom(double factor, QPointF anchor);
  void set_axes(QSizeF axes);
  // Per axis, the zoom at which the plane fills the view (each at most `cap`).
  QSizeF fit_axes(double cap) const;
  void fit_new_shape();
  double min_zoom() const;
  // The zoom at which the whole grid fits the view (square heat-map cells
  // where text cells would be too small).
  double fit_zoom() const;
  QSizeF cell_size_at(QSizeF axes) const;
  bool is_heat_map_at(double zoom) const;

  QPointer<GridModel> model_;
  double zoom_ = 1.0;            // the smaller axis's: the text's zoom
  QSizeF axis_zoom_{1.0, 1.0};   // equal unless a fit stretched the cells
  bool auto_fit_ = true;
  bool follow_marks_ = false;
  bool stale_ = false;
  bool fit_pending_ = false;  // a new shape arrived before the view had a size
  bool fitted_ = false;       // zoom follows the view's size until the person zooms
  quint64 last_used_ = 0;
  QSizeF base_cell_;
  int header_height_ = 20;
  int header_width_ = 32;
  CellFonts fonts_;
  // The fonts past 100% zoom, kept (with their laid-out text) while the zoom stays.
  mutable CellFonts zoomed_fonts_;
  mutable double zoomed_fonts_zoom_ = 0;
  std::optional<std::pair<int, int>> hover_;
  std::optional<std::pair<int, int>> current_;
  QLineEdit* editor_ = nullptr;

  // Heat map cache.
  QImage heat_image_;
  quint64 heat_revision_ = ~quint64{0};
  QRect heat_content_;
  QPoint heat_scroll_;
  double heat_zoom_ = 0;
  bool heat_dirty_ = true;
};

}  // namespace stridescope::ui
