#include "ui/grid_model.h"

#include <cmath>
#include <limits>

namespace stridescope::ui {

QVariant GridModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const int row = index.row();
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole: {
      const CellVisual c = cell(row, column);
      return c.empty ? QVariant() : QVariant(c.text);
    }
    // Colour and overlay roles need no text; formatting it is the costly part.
    case Qt::BackgroundRole: return QColor::fromRgb(cell_without_text(row, column).fill);
    case Qt::ForegroundRole: return text_colour_on(QColor::fromRgb(cell_without_text(row, column).fill));
    case Qt::ToolTipRole: return tool_tip(row, column);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignCenter);
    case ValueRole: {
      const double v = value(row, column);
      return std::isnan(v) && cell_without_text(row, column).empty ? QVariant() : QVariant(v);
    }
    case OverlayRole: return QVariant::fromValue(cell_without_text(row, column).flags);
    case DetailRole: return cell(row, column).detail;
    case CoordRole: return coord_data(row, column);
    case OffsetRole: return offset_data(row, column);
    default: return {};
  }
}

QVariant GridModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || section < 0) return {};
  if (orientation == Qt::Horizontal) {
    return section < columnCount() ? QVariant(column_label(section)) : QVariant();
  }
  return section < rowCount() ? QVariant(row_label(section)) : QVariant();
}

QString GridModel::tool_tip(int row, int column) const {
  const CellVisual c = cell(row, column);
  return c.detail.isEmpty() ? c.text : c.text + QLatin1Char('\n') + c.detail;
}

double GridModel::value(int, int) const { return std::numeric_limits<double>::quiet_NaN(); }
QVariant GridModel::coord_data(int, int) const { return {}; }
QVariant GridModel::offset_data(int, int) const { return {}; }

void GridModel::refresh_all(const QList<int>& roles) {
  if (rowCount() > 0 && columnCount() > 0) {
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), roles);
  }
}

}  // namespace stridescope::ui
