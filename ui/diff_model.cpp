#include "ui/diff_model.h"

#include "core/scalar.h"

namespace stridescope::ui {

void DiffModel::set_evaluation(const EvaluationPtr& evaluation) {
  beginResetModel();
  rows_.clear();
  summary_.clear();
  reference_label_ = evaluation ? evaluation->backend_label : QString();
  if (evaluation && evaluation->compare) {
    const uint64_t elements = evaluation->op().output().element_count();
    QStringList parts;
    if (evaluation->compare->others.empty()) {
      parts << tr("Only %1 is available: nothing to compare with").arg(reference_label_);
    }
    for (const BackendComparison& other : evaluation->compare->others) {
      QString time;
      if (other.stats.gpu_milliseconds) time = tr(" (GPU %1 ms)").arg(*other.stats.gpu_milliseconds, 0, 'f', 3);
      if (other.error) {
        parts << tr("%1 failed: %2").arg(other.label, QString::fromStdString(other.error->to_string()));
        continue;
      }
      const uint64_t differing =
          (other.output ? other.output->count : 0) + (other.indices ? other.indices->count : 0);
      QString verdict;
      if (differing == 0) {
        verdict = elements == 1 ? tr("agree on the one element") : tr("agree on all %1 elements").arg(elements);
      } else {
        verdict = differing == 1 ? tr("differ in 1 element") : tr("differ in %1 elements").arg(differing);
      }
      parts << tr("%1 and %2 %3%4").arg(reference_label_, other.label, verdict, time);
      for (const ElementDiff& diff : other.diffs) {
        rows_.push_back({other.label, diff.indices, diff.coord, diff.offset,
                         QString::fromStdString(format_scalar(diff.reference)),
                         QString::fromStdString(format_scalar(diff.other))});
      }
    }
    summary_ = parts.join(QStringLiteral("; "));
  }
  endResetModel();
}

int DiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DiffModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const Row& row = rows_[static_cast<std::size_t>(index.row())];
  const QString coord = QString::fromStdString(format_coord(row.coord));
  if (role == CoordinateRole) return coord;
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case BackendColumn: return row.backend;
    case TensorColumn: return row.indices ? tr("indices") : tr("output");
    case CoordColumn: return coord;
    case OffsetColumn: return QString::number(row.offset);
    case ReferenceColumn: return row.reference;
    case OtherColumn: return row.other;
    default: return {};
  }
}

QVariant DiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  // The reference's full label ("Vulkan (llvmpipe (LLVM 15.0.6, 256 bits))")
  // does not fit a value column: the header says its role, the tooltip its name.
  if (role == Qt::ToolTipRole && section == ReferenceColumn && !reference_label_.isEmpty()) {
    return tr("Values from the reference backend, %1").arg(reference_label_);
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case BackendColumn: return tr("Backend");
    case TensorColumn: return tr("Tensor");
    case CoordColumn: return tr("Coordinate");
    case OffsetColumn: return tr("Offset");
    case ReferenceColumn: return tr("Reference");
    case OtherColumn: return tr("Other");
    default: return {};
  }
}

std::optional<Coord> DiffModel::coord_of_row(int row) const {
  if (row < 0 || row >= rowCount()) return std::nullopt;
  return rows_[static_cast<std::size_t>(row)].coord;
}

}  // namespace stridescope::ui
