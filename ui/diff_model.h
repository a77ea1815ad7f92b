// The elements on which backends disagree, one row each, from the
// evaluation's CompareReport (core/compare.h decides equality bit for bit).
#pragma once

#include <QAbstractTableModel>

#include "ui/evaluation.h"

namespace stridescope::ui {

class DiffModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { BackendColumn, TensorColumn, CoordColumn, OffsetColumn, ReferenceColumn, OtherColumn, ColumnCount };
  enum Role { CoordinateRole = Qt::UserRole + 1 };  // QString "[0,0,1,2]"

  using QAbstractTableModel::QAbstractTableModel;

  void set_evaluation(const EvaluationPtr& evaluation);
  // One line for people: "CPU and Vulkan (llvmpipe) agree on all 16 elements (GPU 0.02 ms)".
  QString summary() const { return summary_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // The output coordinate of `row` (for jumping to it).
  std::optional<Coord> coord_of_row(int row) const;

 private:
  struct Row {
    QString backend;
    bool indices = false;
    Coord coord;
    uint64_t offset = 0;
    QString reference;
    QString other;
  };
  std::vector<Row> rows_;
  QString reference_label_;
  QString summary_;
};

}  // namespace stridescope::ui
