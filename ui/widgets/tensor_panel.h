// One tensor, side by side with the others: a title with its type, shape,
// strides and layout words; the plane selector; the value grid; and below it
// the memory strip of its physical buffer.
#pragma once

#include <optional>

#include <QFrame>

#include "ui/memory_strip_model.h"
#include "ui/tensor_plane_model.h"

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QSplitter;

namespace stridescope::ui {

class PlaneSelector;
class TensorGridView;

class TensorPanel : public QFrame {
  Q_OBJECT

 public:
  TensorPanel(TensorPlaneModel* plane_model, MemoryStripModel* memory_model, QWidget* parent = nullptr);

  TensorPlaneModel* plane_model() const { return plane_model_; }
  MemoryStripModel* memory_model() const { return memory_model_; }
  TensorGridView* grid() const { return grid_; }
  TensorGridView* memory_view() const { return memory_view_; }
  PlaneSelector* selector() const { return selector_; }
  QSplitter* splitter() const { return splitter_; }
  QCheckBox* all_planes_toggle() const { return all_planes_; }

  // Re-reads the tensor's description after an evaluation.
  void refresh();
  // Marks the views as showing the last valid result while the spec is invalid.
  void set_stale(bool stale);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void add_zoom_buttons(QHBoxLayout* head);
  void sync_all_planes();
  void fit_memory_columns();
  void fit_memory_zoom_to_pitch();

  // What the strip's zoom was last fitted to: a new shape or plane re-fits it.
  struct StripShape {
    Sizes sizes;
    Strides strides;
    int row_dim = -1;
    int column_dim = 0;
    friend bool operator==(const StripShape&, const StripShape&) = default;
  };
  std::optional<StripShape> strip_shape_;
  bool strip_zoom_follows_width_ = false;  // until the person zooms the strip
  bool fitting_strip_zoom_ = false;        // the zoom change is ours

  TensorPlaneModel* plane_model_;
  MemoryStripModel* memory_model_;
  QLabel* title_;
  QLabel* info_;
  QLabel* stale_;
  QLabel* memory_title_;
  PlaneSelector* selector_;
  TensorGridView* grid_;
  TensorGridView* memory_view_;
  QSplitter* splitter_;
  QCheckBox* all_planes_;
  QLabel* page_;
};

}  // namespace stridescope::ui
