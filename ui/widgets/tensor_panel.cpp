#include "ui/widgets/tensor_panel.h"

#include <cmath>

#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/text_format.h"
#include "ui/widgets/plane_selector.h"
#include "ui/widgets/tensor_grid_view.h"

namespace stridescope::ui {

TensorPanel::TensorPanel(TensorPlaneModel* plane_model, MemoryStripModel* memory_model, QWidget* parent)
    : QFrame(parent), plane_model_(plane_model), memory_model_(memory_model), title_(new QLabel(this)),
      info_(new QLabel(this)), stale_(new QLabel(this)), memory_title_(new QLabel(this)),
      selector_(new PlaneSelector(plane_model, this)), grid_(new TensorGridView(this)),
      memory_view_(new TensorGridView(this)), splitter_(new QSplitter(Qt::Vertical, this)),
      all_planes_(new QCheckBox(tr("All planes"), this)), page_(new QLabel(this)) {
  const QString role = to_display_string(plane_model->role());
  setObjectName(role.toLower() + QStringLiteral("Panel"));
  grid_->setObjectName(role.toLower() + QStringLiteral("Grid"));
  memory_view_->setObjectName(role.toLower() + QStringLiteral("Memory"));
  splitter_->setObjectName(role.toLower() + QStringLiteral("Splitter"));
  setFrameShape(QFrame::NoFrame);

  QFont title_font = title_->font();
  title_font.setBold(true);
  title_font.setPointSizeF(title_font.pointSizeF() * 1.15);
  title_->setFont(title_font);
  title_->setText(role);
  info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  info_->setWordWrap(true);
  stale_->setText(tr("Showing the last valid result"));
  stale_->setToolTip(tr("The spec has an error; the views keep the last result that was valid"));
  stale_->setStyleSheet(QStringLiteral("QLabel { color: #8a3b00; font-style: italic; }"));
  stale_->hide();

  grid_->set_model(plane_model_);
  memory_view_->set_model(memory_model_);
  memory_view_->set_auto_fit(false);
  // Always shown, so wrapping the strip to the width cannot toggle it back and forth.
  memory_view_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
  memory_view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // The strip is a few rows tall: it scrolls to what the grids mark in it.
  memory_view_->set_follow_marks(true);
  memory_view_->installEventFilter(this);
  // Queued: the zoom may change while the strip's model is announcing a reset,
  // and re-wrapping the strip resets it again.
  connect(memory_view_, &TensorGridView::zoomChanged, this, &TensorPanel::fit_memory_columns, Qt::QueuedConnection);
  connect(memory_view_, &TensorGridView::zoomChanged, this, [this] {
    if (!fitting_strip_zoom_) strip_zoom_follows_width_ = false;
  });
  // The strip wraps at the pitch of the plane's rows, so it follows the plane.
  connect(plane_model_, &TensorPlaneModel::planeChanged, this, &TensorPanel::fit_memory_columns, Qt::QueuedConnection);
  all_planes_->setObjectName(role.toLower() + QStringLiteral("AllPlanes"));
  all_planes_->setToolTip(tr("Every 2-D plane at once, each labelled by its indices in the other dimensions"));
  page_->setObjectName(role.toLower() + QStringLiteral("PlanesPage"));
  page_->setToolTip(tr("Too many planes to show at once: the indices above choose which page of planes shows"));
  connect(all_planes_, &QCheckBox::toggled, this, [this](bool on) {
    PlaneSelection plane = plane_model_->plane();
    if (plane.all_planes == on) return;
    plane.all_planes = on;
    plane_model_->set_plane(plane);
  });
  connect(plane_model_, &TensorPlaneModel::planeChanged, this, &TensorPanel::sync_all_planes);
  connect(plane_model_, &QAbstractItemModel::modelReset, this, &TensorPanel::sync_all_planes);
  memory_title_->setWordWrap(true);
  memory_title_->setToolTip(tr("The physical buffer, element by element in offset order, wrapped at the "
                               "tensor's row pitch where it fits. Faded: gaps no coordinate uses, and "
                               "elements the op never reads; \u00d7N: elements several coordinates share; "
                               "#n: the order a slice takes them in."));

  auto* top = new QWidget(splitter_);
  auto* top_layout = new QVBoxLayout(top);
  top_layout->setContentsMargins(0, 0, 0, 0);
  top_layout->setSpacing(3);
  auto* head = new QHBoxLayout;
  head->addWidget(title_);
  head->addWidget(stale_);
  head->addStretch(1);
  head->addWidget(all_planes_);
  add_zoom_buttons(head);
  top_layout->addLayout(head);
  top_layout->addWidget(info_);
  top_layout->addWidget(selector_);
  top_layout->addWidget(page_);
  top_layout->addWidget(grid_, 1);

  auto* bottom = new QWidget(splitter_);
  auto* bottom_layout = new QVBoxLayout(bottom);
  bottom_layout->setContentsMargins(0, 4, 0, 0);
  bottom_layout->setSpacing(3);
  bottom_layout->addWidget(memory_title_);
  bottom_layout->addWidget(memory_view_, 1);

  splitter_->addWidget(top);
  splitter_->addWidget(bottom);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 1);
  splitter_->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter_);
  refresh();
  sync_all_planes();
}

// "All planes" shows only where there is more than one plane.
void TensorPanel::sync_all_planes() {
  const TensorDesc* desc = plane_model_->desc();
  const PlaneSelection& plane = plane_model_->plane();
  uint64_t planes = desc ? desc->element_count() : 0;
  for (const int dim : {plane.row_dim, plane.column_dim}) {
    if (desc && dim >= 0 && static_cast<std::size_t>(dim) < desc->rank()) planes /= desc->sizes()[dim];
  }
  all_planes_->setVisible(planes > 1);
  {
    const QSignalBlocker block(all_planes_);
    all_planes_->setChecked(plane.all_planes);
  }
  const QString page = plane_model_->page_text();
  page_->setText(page);
  page_->setVisible(!page.isEmpty());
}

// This panel's own zoom: the other panels keep theirs.
void TensorPanel::add_zoom_buttons(QHBoxLayout* head) {
  const QString role = plane_model_->role() == TensorRole::Input    ? QStringLiteral("input")
                       : plane_model_->role() == TensorRole::Output ? QStringLiteral("output")
                                                                    : QStringLiteral("indices");
  const auto add = [&](const QString& text, const QString& name, const QString& tip, void (TensorGridView::*slot)()) {
    auto* button = new QToolButton(this);
    button->setText(text);
    button->setObjectName(role + name);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    connect(button, &QToolButton::clicked, grid_, slot);
    head->addWidget(button);
    return button;
  };
  add(QStringLiteral("\u2212"), QStringLiteral("ZoomOut"), tr("Zoom this grid out (Ctrl+wheel zooms at the pointer)"),
      &TensorGridView::zoom_out);
  add(tr("Fit"), QStringLiteral("ZoomFit"), tr("Fit the plane to this panel, in both directions, and keep it fitted as the panel resizes"),
      &TensorGridView::zoom_to_fit);
  add(QStringLiteral("+"), QStringLiteral("ZoomIn"), tr("Zoom this grid in"), &TensorGridView::zoom_in);
}

void TensorPanel::refresh() {
  const TensorDesc* desc = plane_model_->desc();
  if (!desc) {
    info_->setText(tr("No result: the spec is not valid"));
    memory_title_->setText(tr("Memory"));
    return;
  }
  const QString words = layout_words(desc->layout());
  info_->setText(QStringLiteral("%1  %2  strides %3%4")
                     .arg(QString::fromLatin1(to_string(desc->data_type()).data()), shape_text(desc->sizes()),
                          strides_text(desc->strides()), words.isEmpty() ? QString() : QStringLiteral("  \u2014  ") + words));
  memory_title_->setText(tr("Memory: %1").arg(buffer_summary(*desc)));
  fit_memory_columns();
}

void TensorPanel::set_stale(bool stale) {
  stale_->setVisible(stale);
  grid_->set_stale(stale);
  memory_view_->set_stale(stale);
}

bool TensorPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == memory_view_ && event->type() == QEvent::Resize) {
    QMetaObject::invokeMethod(this, &TensorPanel::fit_memory_columns, Qt::QueuedConnection);
  }
  return QFrame::eventFilter(watched, event);
}

// After a new shape or plane, and as the panel resizes: the strip's cells
// narrow (down to kMinStripCellPixels wide, where a rounded value still
// reads) when that lets a whole row pitch fit, so its rows are the grid's
// rows; they keep most of their height, so the text still fits. Else the
// strip shows at 100%. Once the person zooms the strip, their zoom holds
// until the shape changes again.
void TensorPanel::fit_memory_zoom_to_pitch() {
  constexpr double kMinStripCellPixels = 18;
  constexpr double kMinStripHeightZoom = 0.75;
  const TensorDesc* desc = plane_model_->desc();
  const int available = memory_view_->content_rect().width() - 2;
  const double base = memory_view_->cell_size().width() / memory_view_->axis_zooms().width();
  if (!desc || available < 40 || base <= 0) return;
  QSizeF axes(1.0, 1.0);
  if (const std::optional<uint64_t> pitch = memory_strip_pitch(*desc, plane_model_->plane())) {
    const double needed = available / (static_cast<double>(*pitch) * base);
    if (needed < 1.0 && needed * base >= kMinStripCellPixels) {
      axes = QSizeF(needed * 0.999, std::max(needed * 0.999, kMinStripHeightZoom));
    }
  }
  fitting_strip_zoom_ = true;
  memory_view_->set_axis_zooms(axes);
  fitting_strip_zoom_ = false;
}

void TensorPanel::fit_memory_columns() {
  if (const TensorDesc* desc = plane_model_->desc()) {
    const PlaneSelection& plane = plane_model_->plane();
    StripShape shape{desc->sizes(), desc->strides(), plane.row_dim, plane.column_dim};
    if (shape != strip_shape_) {
      strip_shape_ = std::move(shape);
      strip_zoom_follows_width_ = true;
    }
  }
  if (strip_zoom_follows_width_) fit_memory_zoom_to_pitch();
  const double cell = memory_view_->cell_size().width();
  const int available = memory_view_->content_rect().width() - 2;
  if (cell <= 0 || available <= 0) return;
  const int fitting = std::clamp(static_cast<int>(std::floor(available / cell)), 1, 4096);
  const TensorDesc* desc = plane_model_->desc();
  memory_model_->set_columns(desc ? memory_strip_columns(*desc, plane_model_->plane(), fitting) : fitting);
}

}  // namespace stridescope::ui
