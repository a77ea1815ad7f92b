// Chooses which plane of an N-D tensor a grid shows: the dimension down the
// rows, the one across the columns, and an index for each other dimension.
#pragma once

#include <vector>

#include <QWidget>

#include "ui/tensor_plane_model.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace stridescope::ui {

class FlowLayout;

class PlaneSelector : public QWidget {
  Q_OBJECT

 public:
  explicit PlaneSelector(TensorPlaneModel* model, QWidget* parent = nullptr);

  QComboBox* row_combo() const { return rows_; }
  QComboBox* column_combo() const { return columns_; }
  // The spin box fixing dimension `dim` (nullptr for the row/column dimensions).
  QSpinBox* fixed_spin(std::size_t dim) const;

 private:
  // `combo` behind its label, kept together on one line.
  QWidget* labelled(const QString& text, QComboBox* combo);
  void sync();
  void apply();

  TensorPlaneModel* model_;
  QComboBox* rows_;
  QComboBox* columns_;
  FlowLayout* fixed_layout_;  // "Plane at", then a spin box per other dimension
  QLabel* fixed_label_;
  std::vector<QSpinBox*> fixed_;
  Sizes shown_sizes_;
  bool syncing_ = false;
};

}  // namespace stridescope::ui
