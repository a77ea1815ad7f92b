#include "ui/widgets/tensor_grid_view.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include "ui/figure/cell_text_fit.h"
#include "ui/widgets/tensor_grid_zoom.h"

namespace stridescope::ui {
using namespace grid_zoom;

namespace {

quint64 next_use() {
  static quint64 counter = 0;
  return ++counter;
}

int floor_div(double a, double b) { return static_cast<int>(std::floor(a / b)); }

// How much larger than 100% the cell text is drawn at `zoom`: it grows with
// the cells past 100%, a little slower than they do, so the thick borders of
// a selected or winning cell stay clear of its two lines of text.
double text_scale(double zoom) { return zoom > 1.0 ? 1.0 + (zoom - 1.0) * 0.8 : 1.0; }

// The smallest step of 1, 2 or 5 times a power of ten that is at least
// `minimum`, so header labels read 0, 100, 200 rather than 0, 93, 186.
int nice_label_step(double minimum) {
  if (minimum <= 1) return 1;
  for (int decade = 1;; decade *= 10) {
    for (const int m : {1, 2, 5}) {
      if (m * decade >= minimum) return m * decade;
    }
    if (decade > 100000000) return static_cast<int>(std::ceil(minimum));
  }
}

}  // namespace

TensorGridView::TensorGridView(QWidget* parent) : QAbstractScrollArea(parent) {
  setMouseTracking(true);
  viewport()->setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setFrameShape(QFrame::StyledPanel);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
  // A wheel, a key or a dragged thumb may stop between rows.
  connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this] { snap_to_whole_rows(); });
  update_metrics();
}

void TensorGridView::set_model(GridModel* model) {
  if (model_) disconnect(model_, nullptr, this, nullptr);
  model_ = model;
  if (model_) {
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
      hover_.reset();
      current_.reset();
      update_metrics();
      fit_new_shape();
      // A strip rewrapped starts from its first row, then goes to its marks.
      if (follow_marks_) verticalScrollBar()->setValue(0);
      follow_marks();
    });
    connect(model_, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex&, const QModelIndex&,
                                                                    const QList<int>& roles) {
      if (roles.isEmpty() || roles.contains(Qt::BackgroundRole)) heat_dirty_ = true;
      if (roles.contains(GridModel::OverlayRole)) follow_marks();
      viewport()->update();
    });
  }
  update_metrics();
  update_scrollbars();
  viewport()->update();
}

void TensorGridView::showEvent(QShowEvent* event) {
  QAbstractScrollArea::showEvent(event);
  if (fit_pending_) fit_new_shape();
}

void TensorGridView::update_metrics() {
  fonts_ = cell_fonts(font());
  zoomed_fonts_zoom_ = 0;
  const QFontMetrics value_metrics(fonts_.value);
  if (model_) {
    base_cell_ = base_cell_size(*model_, fonts_);
  } else {
    const QFontMetrics detail_metrics(fonts_.detail);
    base_cell_ = QSizeF(value_metrics.height() * 2.6, value_metrics.height() + detail_metrics.height() + 10);
  }
  header_height_ = value_metrics.height() + 6;
  int label_width = value_metrics.horizontalAdvance(QStringLiteral("000"));
  if (model_ && model_->rowCount() > 0) {
    label_width = std::max({label_width, value_metrics.horizontalAdvance(model_->row_label(0)),
                            value_metrics.horizontalAdvance(model_->row_label(model_->rowCount() - 1))});
  }
  header_width_ = label_width + 12;
}

QRect TensorGridView::content_rect() const {
  const QRect r = viewport()->rect();
  return QRect(header_width_, header_height_, std::max(0, r.width() - header_width_),
               std::max(0, r.height() - header_height_));
}

void TensorGridView::update_scrollbars() {
  const QRect content = content_rect();
  const QSizeF cell = cell_size();
  const double total_w = model_ ? model_->columnCount() * cell.width() : 0;
  const double total_h = model_ ? model_->rowCount() * cell.height() : 0;
  horizontalScrollBar()->setRange(0, std::max(0, static_cast<int>(std::ceil(total_w)) - content.width()));
  verticalScrollBar()->setRange(0, std::max(0, static_cast<int>(std::ceil(total_h)) - content.height()));
  horizontalScrollBar()->setPageStep(std::max(1, content.width()));
  verticalScrollBar()->setPageStep(std::max(1, content.height()));
  horizontalScrollBar()->setSingleStep(std::max(1, static_cast<int>(cell.width())));
  verticalScrollBar()->setSingleStep(std::max(1, static_cast<int>(cell.height())));
  snap_to_whole_rows();
}

QRect TensorGridView::cell_rect(int row, int column) const { return grid_geometry().cell_rect(row, column); }

GridGeometry TensorGridView::grid_geometry() const {
  return {QPointF(header_width_ - horizontalScrollBar()->value(), header_height_ - verticalScrollBar()->value()),
          cell_size()};
}

std::optional<std::pair<int, int>> TensorGridView::cell_at(const QPoint& pos) const {
  if (!model_ || !content_rect().contains(pos)) return std::nullopt;
  const QSizeF cell = cell_size();
  const int column = floor_div(pos.x() - header_width_ + horizontalScrollBar()->value(), cell.width());
  const int row = floor_div(pos.y() - header_height_ + verticalScrollBar()->value(), cell.height());
  if (row < 0 || column < 0 || row >= model_->rowCount() || column >= model_->columnCount()) return std::nullopt;
  if (model_->is_spacer(row, column)) return std::nullopt;
  return std::make_pair(row, column);
}

void TensorGridView::ensure_visible(int row, int column) {
  const QRect content = content_rect();
  const QRect r = cell_rect(row, column);
  if (r.left() < content.left()) horizontalScrollBar()->setValue(horizontalScrollBar()->value() - (content.left() - r.left()));
  if (r.right() > content.right()) horizontalScrollBar()->setValue(horizontalScrollBar()->value() + (r.right() - content.right()));
  if (r.top() < content.top()) verticalScrollBar()->setValue(verticalScrollBar()->value() - (content.top() - r.top()));
  if (r.bottom() > content.bottom()) verticalScrollBar()->setValue(verticalScrollBar()->value() + (r.bottom() - content.bottom()));
}

QSize TensorGridView::sizeHint() const { return {360, 300}; }
QSize TensorGridView::minimumSizeHint() const { return {120, 90}; }

void TensorGridView::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  if (fit_pending_ || fitted_) fit_new_shape();
  update_scrollbars();
  follow_marks();
  heat_dirty_ = true;
}

void TensorGridView::scrollContentsBy(int, int) {
  heat_dirty_ = true;
  if (editor_) editor_->deleteLater(), editor_ = nullptr;
  viewport()->update();
}

void TensorGridView::changeEvent(QEvent* event) {
  QAbstractScrollArea::changeEvent(event);
  if (event->type() == QEvent::FontChange) {
    update_metrics();
    update_scrollbars();
    viewport()->update();
  }
}

void TensorGridView::set_stale(bool stale) {
  if (stale_ == stale) return;
  stale_ = stale;
  viewport()->update();
}

void TensorGridView::paintEvent(QPaintEvent*) {
  QPainter painter(viewport());
  const QPalette& pal = palette();
  painter.fillRect(viewport()->rect(), pal.color(QPalette::Base));
  if (!model_ || model_->rowCount() == 0 || model_->columnCount() == 0) {
    painter.setPen(pal.color(QPalette::PlaceholderText));
    painter.drawText(viewport()->rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Nothing to show"));
    return;
  }
  const QRect content = content_rect();
  const QSizeF cell = cell_size();
  const int h = horizontalScrollBar()->value();
  const int v = verticalScrollBar()->value();
  const int r0 = std::max(0, floor_div(v, cell.height()));
  const int r1 = std::min(model_->rowCount() - 1, floor_div(v + content.height(), cell.height()));
  const int c0 = std::max(0, floor_div(h, cell.width()));
  const int c1 = std::min(model_->columnCount() - 1, floor_div(h + content.width(), cell.width()));

  painter.save();
  painter.setClipRect(content);
  if (heat_map_mode()) {
    paint_heat_map(painter, content);
    paint_marks_on_heat_map(painter, content, r0, r1, c0, c1);
  } else {
    paint_cells(painter, content, r0, r1, c0, c1);
  }
  paint_labels(painter, r0, r1);
  if (stale_) painter.fillRect(content, QColor(255, 255, 255, 150));
  painter.restore();
  paint_headers(painter, content, r0, r1, c0, c1);
}

GridPaintStyle TensorGridView::paint_style() const {
  const QSizeF cell = cell_size();
  // Past 100% the text grows with the cells; below it the cells shed their
  // detail line, then their text, instead of shrinking it out of legibility.
  GridPaintStyle style;
  if (zoom_ > 1.0 && zoomed_fonts_zoom_ != zoom_) {
    zoomed_fonts_ = cell_fonts(font(), text_scale(zoom_));
    zoomed_fonts_zoom_ = zoom_;
  }
  style.fonts = zoom_ > 1.0 ? zoomed_fonts_ : fonts_;
  style.show_text = cell_shows_text(cell, style.fonts);
  style.show_detail = cell_shows_detail(cell, base_cell_);
  return style;
}

QString TensorGridView::shown_text(int row, int column) const {
  if (!model_ || heat_map_mode() || row < 0 || column < 0 || row >= model_->rowCount() ||
      column >= model_->columnCount()) {
    return {};
  }
  const GridPaintStyle style = paint_style();
  const CellVisual visual = model_->cell(row, column);
  if (!style.show_text || visual.empty) return {};
  const int decimals = grid_decimals(*model_, style.fonts.value, cell_size());
  return fit_value_text(round_to_decimals(visual.text, decimals), style.fonts.value,
                        cell_text_rect(cell_rect(row, column)).width())
      .text;
}

void TensorGridView::paint_cells(QPainter& painter, const QRect&, int r0, int r1, int c0, int c1) {
  paint_grid(painter, *model_, grid_geometry(), CellRange{r0, r1, c0, c1}, paint_style());
  if (hasFocus() && current_ && current_->first >= r0 && current_->first <= r1 && current_->second >= c0 &&
      current_->second <= c1) {
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(cell_rect(current_->first, current_->second).adjusted(1, 1, -2, -2));
  }
}

// The names of tiled planes, over their label rows; where those rows are too
// thin for text (a zoomed-out heat map), on a plate over the plane's top.
void TensorGridView::paint_labels(QPainter& painter, int r0, int r1) {
  const std::vector<GridLabel> labels = model_->labels();
  if (labels.empty()) return;
  // The window's own font, bold, where the label row holds it (a label is read
  // from the back of a room); else the cells' detail font.
  QFont font = this->font();
  font.setBold(true);
  if (QFontMetrics(font).height() > cell_rect(labels.front().row, labels.front().column).height()) font = fonts_.detail;
  const QFontMetrics metrics(font);
  painter.setFont(font);
  for (const GridLabel& label : labels) {
    if (label.row < r0 - 1 || label.row > r1) continue;
    const QRect first = cell_rect(label.row, label.column);
    const QRect last = cell_rect(label.row, label.column + label.span - 1);
    QRect box(first.left(), first.top(), last.right() - first.left() + 1, std::max(first.height(), metrics.height()));
    const QString text = metrics.elidedText(label.text, Qt::ElideRight, std::max(box.width() - 4, 0));
    if (first.height() < metrics.height()) {
      box.setWidth(std::min(box.width(), metrics.horizontalAdvance(text) + 6));
      painter.fillRect(box, QColor(255, 255, 255, 215));
    }
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(box.adjusted(2, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
  }
}

void TensorGridView::paint_heat_map(QPainter& painter, const QRect& content) {
  const qreal dpr = devicePixelRatioF();
  const QPoint scroll(horizontalScrollBar()->value(), verticalScrollBar()->value());
  if (heat_dirty_ || heat_revision_ != model_->revision() || heat_content_ != content || heat_scroll_ != scroll ||
      heat_zoom_ != zoom_ || heat_image_.devicePixelRatio() != dpr) {
    const int w = static_cast<int>(std::ceil(content.width() * dpr));
    const int h = static_cast<int>(std::ceil(content.height() * dpr));
    heat_image_ = QImage(std::max(w, 1), std::max(h, 1), QImage::Format_RGB32);
    heat_image_.setDevicePixelRatio(dpr);
    heat_image_.fill(palette().color(QPalette::Base));
    const QSizeF cell = cell_size();
    std::vector<int> column_of(static_cast<std::size_t>(w), -1);
    for (int x = 0; x < w; ++x) {
      const int c = floor_div(x / dpr + scroll.x(), cell.width());
      if (c < model_->columnCount()) column_of[x] = c;
    }
    int previous_row = -1;
    for (int y = 0; y < h; ++y) {
      const int r = floor_div(y / dpr + scroll.y(), cell.height());
      if (r >= model_->rowCount()) break;
      auto* line = reinterpret_cast<QRgb*>(heat_image_.scanLine(y));
      if (r == previous_row) {  // the same cells as the line above
        std::memcpy(line, heat_image_.constScanLine(y - 1), static_cast<std::size_t>(w) * sizeof(QRgb));
        continue;
      }
      previous_row = r;
      int last_column = -2;
      QRgb last = 0;
      for (int x = 0; x < w; ++x) {
        const int c = column_of[x];
        if (c < 0) break;
        if (c != last_column) {
          last = model_->heat(r, c);
          last_column = c;
        }
        line[x] = last;
      }
    }
    heat_revision_ = model_->revision();
    heat_content_ = content;
    heat_scroll_ = scroll;
    heat_zoom_ = zoom_;
    heat_dirty_ = false;
  }
  painter.drawImage(content.topLeft(), heat_image_);
}

void TensorGridView::paint_marks_on_heat_map(QPainter& painter, const QRect&, int r0, int r1, int c0, int c1) {
  // Dynamic marks stay visible when zoomed out: a small frame at least a few pixels wide.
  const auto marks = model_->marked_cells();
  painter.setRenderHint(QPainter::Antialiasing, true);
  for (const auto& [cell, flags] : marks) {
    if (cell.y() < r0 || cell.y() > r1 || cell.x() < c0 || cell.x() > c1) continue;
    QRect r = cell_rect(cell.y(), cell.x());
    if (r.width() < 7) r.adjust(-(7 - r.width()) / 2, 0, (7 - r.width()) / 2 + 1, 0);
    if (r.height() < 7) r.adjust(0, -(7 - r.height()) / 2, 0, (7 - r.height()) / 2 + 1);
    paint_cell_overlays(painter, r, flags & ~(kTapWindow));
  }
  painter.setRenderHint(QPainter::Antialiasing, false);
}

void TensorGridView::paint_headers(QPainter& painter, const QRect& content, int r0, int r1, int c0, int c1) {
  const QPalette& pal = palette();
  const QColor band = pal.color(QPalette::Window);
  const QColor ink = pal.color(QPalette::WindowText);
  painter.fillRect(QRect(0, 0, viewport()->width(), header_height_), band);
  painter.fillRect(QRect(0, 0, header_width_, viewport()->height()), band);
  painter.setPen(pal.color(QPalette::Mid));
  painter.drawLine(0, header_height_ - 1, viewport()->width(), header_height_ - 1);
  painter.drawLine(header_width_ - 1, 0, header_width_ - 1, viewport()->height());
  painter.setFont(fonts_.value);
  const QFontMetrics metrics(fonts_.value);
  const QSizeF cell = cell_size();

  painter.save();
  painter.setClipRect(QRect(header_width_, 0, content.width(), header_height_));
  const int label_w = std::max(metrics.horizontalAdvance(model_->column_label(c1)),
                               metrics.horizontalAdvance(model_->column_label(c0))) + 8;
  const int column_step = nice_label_step(label_w / cell.width());
  painter.setPen(ink);
  for (int c = c0 - c0 % column_step; c <= c1; c += column_step) {
    if (c < 0) continue;
    const QRect r = cell_rect(0, c);
    const QRect label(r.left(), 0, std::max(r.width(), label_w), header_height_);
    painter.drawText(column_step == 1 ? QRect(r.left(), 0, r.width(), header_height_) : label,
                     (column_step == 1 ? Qt::AlignHCenter : Qt::AlignLeft) | Qt::AlignVCenter,
                     model_->column_label(c));
  }
  painter.restore();

  painter.save();
  painter.setClipRect(QRect(0, header_height_, header_width_, content.height()));
  const int row_step = nice_label_step(metrics.height() / cell.height());
  painter.setPen(ink);
  for (int r = r0 - r0 % row_step; r <= r1; r += row_step) {
    if (r < 0) continue;
    const QRect rr = cell_rect(r, 0);
    const QRect label(0, rr.top(), header_width_ - 6, row_step == 1 ? rr.height() : metrics.height());
    painter.drawText(label, Qt::AlignRight | (row_step == 1 ? Qt::AlignVCenter : Qt::AlignTop),
                     model_->row_label(r));
  }
  painter.restore();

  // Highlight the header of the hovered cell.
  if (hover_) {
    QColor mark = pal.color(QPalette::Highlight);
    mark.setAlpha(70);
    const QRect r = cell_rect(hover_->first, hover_->second);
    painter.fillRect(QRect(r.left(), 0, r.width(), header_height_ - 1).intersected(
                         QRect(header_width_, 0, content.width(), header_height_)), mark);
    painter.fillRect(QRect(0, r.top(), header_width_ - 1, r.height()).intersected(
                         QRect(0, header_height_, header_width_, content.height())), mark);
  }
}

void TensorGridView::set_hover(std::optional<std::pair<int, int>> cell) {
  if (cell == hover_) return;
  hover_ = cell;
  viewport()->update(QRect(0, 0, viewport()->width(), header_height_));
  viewport()->update(QRect(0, 0, header_width_, viewport()->height()));
  emit cellHovered(cell ? cell->first : -1, cell ? cell->second : -1);
}

void TensorGridView::mouseMoveEvent(QMouseEvent* event) {
  set_hover(cell_at(event->position().toPoint()));
  QAbstractScrollArea::mouseMoveEvent(event);
}

void TensorGridView::enterEvent(QEnterEvent* event) {
  last_used_ = next_use();
  QAbstractScrollArea::enterEvent(event);
}

void TensorGridView::focusInEvent(QFocusEvent* event) {
  last_used_ = next_use();
  QAbstractScrollArea::focusInEvent(event);
}

void TensorGridView::leaveEvent(QEvent* event) {
  set_hover(std::nullopt);
  QAbstractScrollArea::leaveEvent(event);
}

void TensorGridView::mousePressEvent(QMouseEvent* event) {
  last_used_ = next_use();
  if (event->button() == Qt::LeftButton) {
    if (const auto cell = cell_at(event->position().toPoint())) {
      current_ = cell;
      emit cellClicked(cell->first, cell->second);
      viewport()->update();
    }
  }
  QAbstractScrollArea::mousePressEvent(event);
}

void TensorGridView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (const auto cell = cell_at(event->position().toPoint())) open_editor(cell->first, cell->second);
}

void TensorGridView::open_editor(int row, int column) {
  if (!model_ || heat_map_mode()) return;
  const QModelIndex index = model_->index(row, column);
  if (!(model_->flags(index) & Qt::ItemIsEditable)) return;
  if (editor_) editor_->deleteLater();
  editor_ = new QLineEdit(viewport());
  editor_->setObjectName(QStringLiteral("cellEditor"));
  editor_->setAlignment(Qt::AlignCenter);
  editor_->setFont(cell_fonts(font(), text_scale(zoom_)).value);
  editor_->setText(model_->data(index, Qt::DisplayRole).toString());
  editor_->selectAll();
  editor_->setGeometry(cell_rect(row, column).adjusted(1, 1, -1, -1));
  editor_->show();
  editor_->setFocus();
  QLineEdit* editor = editor_;
  connect(editor, &QLineEdit::returnPressed, this, [this, editor, index] {
    if (model_) model_->setData(index, editor->text(), Qt::EditRole);
    editor->deleteLater();
    if (editor_ == editor) editor_ = nullptr;
    setFocus();
  });
  connect(editor, &QLineEdit::editingFinished, this, [this, editor] {
    editor->deleteLater();
    if (editor_ == editor) editor_ = nullptr;
  });
}

void TensorGridView::wheelEvent(QWheelEvent* event) {
  if (event->modifiers() & Qt::ControlModifier) {
    const double steps = event->angleDelta().y() / 120.0;
    scale_zoom(std::pow(kZoomStep, steps), event->position());
    event->accept();
    return;
  }
  QAbstractScrollArea::wheelEvent(event);
}

// A focused grid keeps Left and Right for moving between its cells, before
// the window's animation shortcuts (step back, step forward) take them.
bool TensorGridView::event(QEvent* event) {
  if (event->type() == QEvent::ShortcutOverride && model_ && model_->rowCount() > 0) {
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() == Qt::NoModifier && (key->key() == Qt::Key_Left || key->key() == Qt::Key_Right)) {
      event->accept();
      return true;
    }
  }
  return QAbstractScrollArea::event(event);
}

void TensorGridView::keyPressEvent(QKeyEvent* event) {
  if (!model_ || model_->rowCount() == 0) {
    QAbstractScrollArea::keyPressEvent(event);
    return;
  }
  std::pair<int, int> cell = current_.value_or(std::make_pair(0, 0));
  switch (event->key()) {
    case Qt::Key_Left: cell.second = std::max(0, cell.second - 1); break;
    case Qt::Key_Right: cell.second = std::min(model_->columnCount() - 1, cell.second + 1); break;
    case Qt::Key_Up: cell.first = std::max(0, cell.first - 1); break;
    case Qt::Key_Down: cell.first = std::min(model_->rowCount() - 1, cell.first + 1); break;
    case Qt::Key_F2:
    case Qt::Key_Return:
    case Qt::Key_Enter:
      if (current_) open_editor(current_->first, current_->second);
      return;
    default:
      QAbstractScrollArea::keyPressEvent(event);
      return;
  }
  current_ = cell;
  ensure_visible(cell.first, cell.second);
  emit cellClicked(cell.first, cell.second);
  viewport()->update();
}

bool TensorGridView::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip && model_) {
    auto* help = static_cast<QHelpEvent*>(event);
    if (const auto cell = cell_at(help->pos())) {
      const QString text = model_->data(model_->index(cell->first, cell->second), Qt::ToolTipRole).toString();
      QToolTip::showText(help->globalPos(), text, viewport(), cell_rect(cell->first, cell->second));
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace stridescope::ui
