#include "ui/widgets/plane_selector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/text_format.h"
#include "ui/widgets/flow_layout.h"

namespace stridescope::ui {

QWidget* PlaneSelector::labelled(const QString& text, QComboBox* combo) {
  auto* pair = new QWidget(this);
  auto* layout = new QHBoxLayout(pair);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  auto* label = new QLabel(text, pair);
  label->setBuddy(combo);
  combo->setParent(pair);
  layout->addWidget(label);
  layout->addWidget(combo);
  // Never narrower than the label and the whole dimension name: the line wraps first.
  pair->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  return pair;
}

PlaneSelector::PlaneSelector(TensorPlaneModel* model, QWidget* parent)
    : QWidget(parent), model_(model), rows_(new QComboBox(this)), columns_(new QComboBox(this)),
      fixed_layout_(nullptr), fixed_label_(new QLabel(tr("Plane at"), this)) {
  // The plane's dimensions, then the index of every other dimension (up to
  // six of them), wrapping onto more lines where the panel is narrow; each
  // label stays beside its box.
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* dims_row = new FlowLayout(nullptr, 6);
  fixed_layout_ = new FlowLayout(nullptr, 4);
  rows_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  columns_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  rows_->setObjectName(QStringLiteral("rowDim"));
  columns_->setObjectName(QStringLiteral("columnDim"));
  rows_->setToolTip(tr("The dimension that runs down the rows of the grid"));
  columns_->setToolTip(tr("The dimension that runs across the columns of the grid"));
  dims_row->addWidget(labelled(tr("&Rows"), rows_));
  dims_row->addWidget(labelled(tr("Co&lumns"), columns_));
  fixed_label_->setToolTip(tr("The plane shown lies at these indices of the other dimensions"));
  fixed_layout_->addWidget(fixed_label_);
  layout->addLayout(dims_row);
  layout->addLayout(fixed_layout_);

  connect(rows_, &QComboBox::activated, this, [this] { apply(); });
  connect(columns_, &QComboBox::activated, this, [this] { apply(); });
  connect(model_, &QAbstractItemModel::modelReset, this, &PlaneSelector::sync);
  connect(model_, &TensorPlaneModel::planeChanged, this, &PlaneSelector::sync);
  sync();
}

QSpinBox* PlaneSelector::fixed_spin(std::size_t dim) const {
  return dim < fixed_.size() ? fixed_[dim] : nullptr;
}

void PlaneSelector::sync() {
  syncing_ = true;
  const TensorDesc* desc = model_->desc();
  const Sizes sizes = desc ? desc->sizes() : Sizes{};
  const std::size_t rank = sizes.size();
  const PlaneSelection& plane = model_->plane();

  if (!(sizes == shown_sizes_)) {
    shown_sizes_ = sizes;
    const QSignalBlocker block_rows(rows_);
    const QSignalBlocker block_columns(columns_);
    rows_->clear();
    columns_->clear();
    if (rank == 1) rows_->addItem(tr("\u2014"), -1);
    for (std::size_t d = 0; d < rank; ++d) {
      const QString name = tr("dim %1, size %2").arg(dimension_name(rank, d)).arg(sizes[d]);
      rows_->addItem(name, static_cast<int>(d));
      columns_->addItem(name, static_cast<int>(d));
    }
    for (QSpinBox* spin : fixed_) spin->deleteLater();
    fixed_.clear();
    for (std::size_t d = 0; d < rank; ++d) {
      auto* spin = new QSpinBox(this);
      spin->setObjectName(QStringLiteral("fixed%1").arg(d));
      const QString letter = dimension_letter(rank, d);
      spin->setPrefix((letter.isEmpty() ? tr("dim %1").arg(d) : letter) + QStringLiteral(" = "));
      spin->setRange(0, static_cast<int>(std::min<uint64_t>(sizes[d] - 1, INT32_MAX)));
      spin->setToolTip(tr("Index along dimension %1, which this plane does not show").arg(dimension_name(rank, d)));
      spin->setKeyboardTracking(true);
      connect(spin, &QSpinBox::valueChanged, this, [this] { apply(); });
      fixed_layout_->addWidget(spin);
      fixed_.push_back(spin);
    }
  }
  {
    const QSignalBlocker block_rows(rows_);
    const QSignalBlocker block_columns(columns_);
    rows_->setCurrentIndex(std::max(0, rows_->findData(plane.row_dim)));
    columns_->setCurrentIndex(std::max(0, columns_->findData(plane.column_dim)));
  }
  bool any_fixed = false;
  for (std::size_t d = 0; d < fixed_.size(); ++d) {
    // A dimension of size 1 has one plane to be at: its box would only take
    // a line of the panel from the grid (every DirectML example's N and C).
    const bool shown = static_cast<int>(d) != plane.row_dim && static_cast<int>(d) != plane.column_dim &&
                       d < shown_sizes_.size() && shown_sizes_[d] > 1;
    fixed_[d]->setVisible(shown);
    any_fixed = any_fixed || shown;
    const QSignalBlocker block(fixed_[d]);
    if (d < plane.fixed.size()) fixed_[d]->setValue(static_cast<int>(plane.fixed[d]));
  }
  fixed_label_->setVisible(any_fixed);
  rows_->setEnabled(rank > 1);
  syncing_ = false;
}

void PlaneSelector::apply() {
  if (syncing_ || !model_->desc()) return;
  PlaneSelection plane = model_->plane();
  const int row = rows_->currentData().toInt();
  const int column = columns_->currentData().toInt();
  if (row == column) {
    // Picking the other axis's dimension swaps the two.
    if (sender() == rows_) {
      plane.column_dim = plane.row_dim >= 0 ? plane.row_dim : plane.column_dim;
      plane.row_dim = row;
    } else {
      plane.row_dim = plane.column_dim;
      plane.column_dim = column;
    }
  } else {
    plane.row_dim = row;
    plane.column_dim = column;
  }
  for (std::size_t d = 0; d < fixed_.size() && d < plane.fixed.size(); ++d) {
    plane.fixed[d] = static_cast<uint64_t>(fixed_[d]->value());
  }
  model_->set_plane(plane);
  sync();
}

}  // namespace stridescope::ui
