// A tensor's physical buffer as a strip of elements, wrapped into rows of
// `columns` elements: offset = row * columns + column. Each cell shows the
// value stored there and how the logical tensor uses it: a gap (no coordinate
// maps here), once, or shared by several coordinates (broadcast / overlap).
#pragma once

#include <climits>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ui/evaluation.h"
#include "ui/grid_model.h"
#include "ui/tensor_plane_model.h"

namespace stridescope::ui {

// How many elements a strip row holds when `fitting` cells fit the view: the
// buffer's own row pitch where one fits, so the strip's rows line up with the
// grid (the stride of the grid's row dimension, else of its column dimension,
// when that is 2 or more and at most `fitting`: padded rows show their gap
// as columns, a column-major tensor one grid column per strip row); else the
// largest whole fraction of the pitch that fits, when it fills at least half
// the view; else as many as fit.
int memory_strip_columns(const TensorDesc& desc, const PlaneSelection& plane, int fitting);
// The row pitch memory_strip_columns uses: the stride of the plane's row
// dimension, else of its column dimension, that is 2 to `fitting` (the
// dimension having 2 or more elements); nullopt when neither is.
std::optional<uint64_t> memory_strip_pitch(const TensorDesc& desc, const PlaneSelection& plane, int fitting = INT32_MAX);

class MemoryStripModel : public GridModel {
  Q_OBJECT

 public:
  explicit MemoryStripModel(TensorRole role, QObject* parent = nullptr);

  TensorRole role() const { return role_; }
  void set_evaluation(EvaluationPtr evaluation);
  const TensorDesc* desc() const { return desc_; }
  uint64_t element_count() const;  // buffer elements

  void set_columns(int columns);
  int columns() const { return columns_; }
  void set_palette(ValuePalette palette);
  // Indices are names, coloured as the indices grid colours them
  // (IndicesModel::index_rgb), not on the value ramp; call
  // refresh_index_colours when those colours change.
  void set_index_colours(std::function<QRgb(uint64_t flat)> colour_of);
  void refresh_index_colours();

  // Dynamic overlays by buffer offset.
  void set_marks(std::vector<std::pair<uint64_t, quint32>> marks);
  void clear_dynamic() { set_marks({}); }

  std::optional<uint64_t> offset_at(int row, int column) const;
  std::optional<std::pair<int, int>> cell_of(uint64_t offset) const;
  // Logical coordinates that use this buffer element; 255 means "255 or more".
  std::optional<unsigned> use_count(uint64_t offset) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;

  CellVisual cell(int row, int column) const override;
  QString row_label(int row) const override;
  QString column_label(int column) const override;
  QString widest_text() const override;
  // The evaluation's, as the grids'; the gaps between elements hold no
  // value the range need know (a gap shows whatever the buffer holds).
  std::optional<std::pair<double, double>> value_range() const override;
  std::vector<std::pair<QPoint, quint32>> marked_cells() const override;

 protected:
  QString tool_tip(int row, int column) const override;
  double value(int row, int column) const override;
  QVariant coord_data(int row, int column) const override;
  QVariant offset_data(int row, int column) const override;

 private:
  const BufferUsage* usage() const;
  void describe_user(uint64_t offset, CellVisual& visual) const;

  TensorRole role_;
  EvaluationPtr evaluation_;
  const TensorDesc* desc_ = nullptr;
  const std::vector<std::byte>* bytes_ = nullptr;
  int columns_ = 16;
  ValuePalette palette_ = ValuePalette::Viridis;
  std::function<QRgb(uint64_t)> index_colour_;
  std::unordered_map<uint64_t, quint32> marks_;
  std::unordered_set<uint64_t> differing_;  // buffer offsets of the elements flagged as differing in the grid too
};

}  // namespace stridescope::ui
