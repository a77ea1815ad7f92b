// The base of the app's grid models: a table of cells, each with a value, a
// fill colour and overlay flags. Views paint from cell(), which is cheap and
// allocation-light, so a view can draw only the visible cells (and sample
// heat() per pixel when zoomed out); data() serves the same facts through Qt
// roles for tests, tool tips and accessibility.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>
#include <QPoint>
#include <QString>

#include "ui/colour_map.h"

namespace stridescope::ui {

// Overlay state of one cell, as bits.
enum OverlayFlag : quint32 {
  kNoOverlay = 0,
  kUnused = 1u << 0,          // input: no output reads it; memory: a gap
  kInWindow = 1u << 1,        // inside the slice/slice1 input window
  kPadConstant = 1u << 2,     // output: CONSTANT padding region
  kPadEdge = 1u << 3,
  kPadReflection = 1u << 4,
  kPadSymmetric = 1u << 5,
  kSelected = 1u << 6,        // the selected output element (and its indices / memory cell)
  kSource = 1u << 7,          // an input element the selected / hovered output element reads
  kTap = 1u << 8,             // a pooling window tap
  kPaddedTap = 1u << 9,       // a pooling tap in padding
  kWinner = 1u << 10,         // the pooling winner
  kTapWindow = 1u << 11,      // inside the bounding box of the pooling window (gaps show dilation)
  kReader = 1u << 12,         // output element that reads the hovered input element
  kHovered = 1u << 13,        // the cell under the mouse
  kOffsetMatch = 1u << 14,    // shares the hovered buffer offset
  kDiffers = 1u << 15,        // compare: backends disagree
  kGhost = 1u << 16,          // margin cell drawn for padding; not an element of the tensor
  kShared = 1u << 17,         // memory: several coordinates use this element
  kOutsideBuffer = 1u << 18,  // memory strip: past the end of the buffer
};
inline constexpr quint32 kPaddingFlags = kPadConstant | kPadEdge | kPadReflection | kPadSymmetric;

struct CellVisual {
  QRgb fill = 0xffffffff;
  QString text;     // the value
  QString detail;   // a second, smaller line: source, order, decoded index, reuse count
  quint32 flags = kNoOverlay;
  bool empty = false;  // nothing to draw (outside the tensor)
};

struct GridLabel {
  int row = 0;
  int column = 0;
  int span = 1;  // columns
  QString text;
};

class GridModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role {
    ValueRole = Qt::UserRole + 1,  // double
    OverlayRole,                   // quint32 OverlayFlag bits
    DetailRole,                    // QString, the second line
    CoordRole,                     // QString "[0,0,1,2]" (tensor models) or offset (memory)
    OffsetRole,                    // qulonglong buffer offset
  };

  using QAbstractTableModel::QAbstractTableModel;

  virtual CellVisual cell(int row, int column) const = 0;
  // The same without the texts, for cells too small to print them.
  virtual CellVisual cell_without_text(int row, int column) const { return cell(row, column); }
  // The cell's colour when zoomed out too far for text; defaults to cell().fill.
  virtual QRgb heat(int row, int column) const { return cell(row, column).fill; }
  // Header labels of the grid (index numbers, or buffer offsets).
  virtual QString row_label(int row) const { return QString::number(row); }
  virtual QString column_label(int column) const { return QString::number(column); }
  // Cells with dynamic overlays (selection, source, taps) as (column, row),
  // so a zoomed-out view can still frame them.
  virtual std::vector<std::pair<QPoint, quint32>> marked_cells() const { return {}; }
  // Cells that separate parts of the grid (the labels and gaps between
  // tiled planes): no element, never hovered or clicked.
  virtual bool is_spacer(int, int) const { return false; }
  // Text a view writes across cells (a tiled plane's name over its label row).
  virtual std::vector<GridLabel> labels() const { return {}; }
  // The widest value text the model shows, to size cells.
  virtual QString widest_text() const { return QStringLiteral("-00.00"); }
  // The widest second line (source, decoded index) the model shows.
  virtual QString widest_detail() const { return QStringLiteral("\u2190(00,00)"); }
  // The smallest and largest value the model's cells show, shared with the
  // other tensors of its evaluation, so that views of both write a value to
  // the same decimal place; nullopt where the cells hold no numbers.
  virtual std::optional<std::pair<double, double>> value_range() const { return std::nullopt; }
  // Bumped whenever values or static overlays change (views cache heat maps by it).
  quint64 revision() const { return revision_; }

  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 protected:
  virtual QString tool_tip(int row, int column) const;
  virtual double value(int row, int column) const;
  virtual QVariant coord_data(int row, int column) const;
  virtual QVariant offset_data(int row, int column) const;
  // Tells views that cells repainted (values or overlays) without a reset.
  void refresh_all(const QList<int>& roles = {});
  void bump_revision() { ++revision_; }

 private:
  quint64 revision_ = 0;
};

}  // namespace stridescope::ui
