#include "ui/memory_strip_model.h"

#include <algorithm>
#include <cmath>

#include "core/scalar.h"
#include "ui/element_overlay.h"
#include "ui/text_format.h"

namespace stridescope::ui {
namespace {
constexpr QRgb kGapWash = 0xfff4f4f4;
}

std::optional<uint64_t> memory_strip_pitch(const TensorDesc& desc, const PlaneSelection& plane, int fitting) {
  for (const int dim : {plane.row_dim, plane.column_dim}) {
    if (dim < 0 || static_cast<std::size_t>(dim) >= desc.rank() || desc.sizes()[dim] < 2) continue;
    const uint64_t pitch = desc.strides()[dim];
    if (pitch >= 2 && pitch <= static_cast<uint64_t>(std::max(fitting, 1))) return pitch;
  }
  return std::nullopt;
}

int memory_strip_columns(const TensorDesc& desc, const PlaneSelection& plane, int fitting) {
  fitting = std::max(fitting, 1);
  if (const std::optional<uint64_t> pitch = memory_strip_pitch(desc, plane, fitting)) return static_cast<int>(*pitch);
  // Too wide to fit: a whole fraction of the row pitch keeps the rows in
  // step with the grid's, when it fills at least half the view.
  if (const std::optional<uint64_t> pitch = memory_strip_pitch(desc, plane)) {
    for (int columns = fitting; 2 * columns >= fitting; --columns) {
      if (*pitch % static_cast<uint64_t>(columns) == 0) return columns;
    }
  }
  return fitting;
}

MemoryStripModel::MemoryStripModel(TensorRole role, QObject* parent) : GridModel(parent), role_(role) {}

void MemoryStripModel::set_evaluation(EvaluationPtr evaluation) {
  const TensorDesc* desc = evaluation ? tensor_of(evaluation->op(), role_) : nullptr;
  const uint64_t elements = desc ? desc->buffer_elements() : 0;
  const uint64_t columns = static_cast<uint64_t>(columns_);
  const int rows = desc ? static_cast<int>(std::min<uint64_t>((elements + columns - 1) / columns, INT32_MAX / 2)) : 0;
  const int shown_columns = desc ? static_cast<int>(std::min<uint64_t>(elements, columns)) : 0;
  const bool reshape = rows != rowCount() || shown_columns != columnCount();
  if (reshape) beginResetModel();
  evaluation_ = std::move(evaluation);
  desc_ = desc;
  bytes_ = evaluation_ ? buffer_of(*evaluation_, role_) : nullptr;
  differing_.clear();
  if (evaluation_ && desc_ && role_ != TensorRole::Input) {
    for (const Coord& coord : differing_coords(*evaluation_, role_ == TensorRole::Indices)) {
      differing_.insert(desc_->offset_of(coord));
    }
  }
  bump_revision();
  if (reshape) {
    endResetModel();
  } else {
    refresh_all();
  }
}

uint64_t MemoryStripModel::element_count() const { return desc_ ? desc_->buffer_elements() : 0; }

void MemoryStripModel::set_columns(int columns) {
  columns = std::max(columns, 1);
  if (columns == columns_) return;
  beginResetModel();
  columns_ = columns;
  bump_revision();
  endResetModel();
}

void MemoryStripModel::set_palette(ValuePalette palette) {
  if (palette == palette_) return;
  palette_ = palette;
  bump_revision();
  refresh_all({Qt::BackgroundRole, Qt::ForegroundRole});
}

void MemoryStripModel::set_index_colours(std::function<QRgb(uint64_t flat)> colour_of) {
  index_colour_ = std::move(colour_of);
  refresh_index_colours();
}

void MemoryStripModel::refresh_index_colours() {
  bump_revision();
  refresh_all({Qt::BackgroundRole, Qt::ForegroundRole});
}

void MemoryStripModel::set_marks(std::vector<std::pair<uint64_t, quint32>> marks) {
  if (marks.empty() && marks_.empty()) return;
  marks_.clear();
  for (const auto& [offset, flags] : marks) marks_[offset] |= flags;
  refresh_all({OverlayRole});
}

int MemoryStripModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !desc_) return 0;
  const uint64_t n = element_count();
  return static_cast<int>(std::min<uint64_t>((n + columns_ - 1) / columns_, INT32_MAX / 2));
}

int MemoryStripModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || !desc_) return 0;
  return static_cast<int>(std::min<uint64_t>(element_count(), static_cast<uint64_t>(columns_)));
}

std::optional<uint64_t> MemoryStripModel::offset_at(int row, int column) const {
  if (!desc_ || row < 0 || column < 0 || column >= columnCount()) return std::nullopt;
  const uint64_t offset = static_cast<uint64_t>(row) * static_cast<uint64_t>(columns_) + static_cast<uint64_t>(column);
  if (offset >= element_count()) return std::nullopt;
  return offset;
}

std::optional<std::pair<int, int>> MemoryStripModel::cell_of(uint64_t offset) const {
  if (!desc_ || offset >= element_count()) return std::nullopt;
  return std::make_pair(static_cast<int>(offset / columns_), static_cast<int>(offset % columns_));
}

// What the element's first coordinate is for, as the grid shows it: an
// input element no output reads is washed out, one in the slice window is
// marked, and one element per reader carries the slice's read order; an
// output element in padding carries its mode's hatching.
void MemoryStripModel::describe_user(uint64_t offset, CellVisual& visual) const {
  const BufferUsage* u = usage();
  const std::optional<uint64_t> flat = u ? u->first_user_of(offset) : std::nullopt;
  // A shared element serves several coordinates, which may differ.
  if (!flat || u->counts[offset] != 1) return;
  const Coord coord = desc_->coord_of_flat_index(*flat);
  if (role_ == TensorRole::Output) {
    visual.flags |= output_region_flags(*evaluation_, coord);
    return;
  }
  const InputOverlay overlay = input_overlay(*evaluation_, coord);
  if ((overlay.flags & kUnused) && !(visual.flags & kUnused)) visual.fill = blend(visual.fill, kGapWash, 0.8);
  visual.flags |= overlay.flags;
  if (visual.detail.isEmpty()) visual.detail = overlay.read_order;
}

const BufferUsage* MemoryStripModel::usage() const {
  if (!evaluation_) return nullptr;
  if (role_ == TensorRole::Input) return &evaluation_->input_usage;
  if (role_ == TensorRole::Output) return &evaluation_->output_usage;
  return nullptr;  // indices are packed unless strides say otherwise; counts not tabulated
}

std::optional<unsigned> MemoryStripModel::use_count(uint64_t offset) const {
  const BufferUsage* u = usage();
  if (!u || !u->known() || offset >= u->counts.size()) return std::nullopt;
  return u->counts[offset];
}

CellVisual MemoryStripModel::cell(int row, int column) const {
  CellVisual visual;
  const auto offset = offset_at(row, column);
  if (!offset) {
    visual.empty = true;
    visual.flags = kOutsideBuffer;
    return visual;
  }
  const Scalar v = element_at_offset(*desc_, *bytes_, *offset);
  visual.text = cell_text(v);
  visual.fill = index_colour_ ? index_colour_(static_cast<uint64_t>(to_double(v)))
                              : palette_rgb(palette_, evaluation_->range.normalise(to_double(v)));
  if (const auto count = use_count(*offset)) {
    if (*count == 0) {
      visual.flags |= kUnused;
      visual.fill = blend(visual.fill, kGapWash, 0.8);
      visual.detail = tr("gap");
    } else if (*count > 1) {
      visual.flags |= kShared;
      visual.detail = *count == 255 ? QStringLiteral("\u00d7255+") : QStringLiteral("\u00d7%1").arg(*count);
    }
  }
  describe_user(*offset, visual);
  if (differing_.contains(*offset)) visual.flags |= kDiffers;
  if (const auto it = marks_.find(*offset); it != marks_.end()) visual.flags |= it->second;
  return visual;
}

std::vector<std::pair<QPoint, quint32>> MemoryStripModel::marked_cells() const {
  std::vector<std::pair<QPoint, quint32>> cells;
  for (const auto& [offset, flags] : marks_) {
    if (const auto cell = cell_of(offset)) cells.emplace_back(QPoint(cell->second, cell->first), flags);
  }
  return cells;
}

QString MemoryStripModel::row_label(int row) const {
  return QString::number(static_cast<qulonglong>(row) * static_cast<qulonglong>(columns_));
}

QString MemoryStripModel::column_label(int column) const { return QStringLiteral("+%1").arg(column); }

QString MemoryStripModel::widest_text() const {
  if (!desc_) return QStringLiteral("00");
  return is_floating(desc_->data_type()) ? QStringLiteral("-0.0000") : QStringLiteral("-0000");
}

std::optional<std::pair<double, double>> MemoryStripModel::value_range() const {
  if (!evaluation_ || role_ == TensorRole::Indices) return std::nullopt;
  return evaluation_->range.bounds();
}

QString MemoryStripModel::tool_tip(int row, int column) const {
  const auto offset = offset_at(row, column);
  if (!offset) return {};
  const QString exact = QString::fromStdString(format_scalar(element_at_offset(*desc_, *bytes_, *offset)));
  QString text = tr("%1 buffer offset %2 = %3").arg(to_display_string(role_)).arg(*offset).arg(exact);
  if (const auto count = use_count(*offset)) {
    if (*count == 0) {
      text += QLatin1Char('\n') + tr("gap: no coordinate of the tensor is stored here");
    } else if (*count == 1) {
      const BufferUsage* u = usage();
      if (const auto flat = u ? u->first_user_of(*offset) : std::nullopt) {
        const Coord coord = desc_->coord_of_flat_index(*flat);
        text += QLatin1Char('\n') + tr("holds %1%2: offset %3 = %4")
                                        .arg(role_ == TensorRole::Input ? QStringLiteral("in") : QStringLiteral("out"),
                                             QString::fromStdString(format_coord(coord)))
                                        .arg(*offset)
                                        .arg(offset_terms(*desc_, coord));
      } else {
        text += QLatin1Char('\n') + tr("used by one coordinate");
      }
    } else {
      text += QLatin1Char('\n') + tr("shared by %1 coordinates (a stride of 0 broadcasts)").arg(*count);
    }
  }
  return text;
}

double MemoryStripModel::value(int row, int column) const {
  const auto offset = offset_at(row, column);
  if (!offset) return std::nan("");
  return to_double(element_at_offset(*desc_, *bytes_, *offset));
}

QVariant MemoryStripModel::coord_data(int row, int column) const {
  const auto offset = offset_at(row, column);
  return offset ? QVariant(QString::number(*offset)) : QVariant();
}

QVariant MemoryStripModel::offset_data(int row, int column) const {
  const auto offset = offset_at(row, column);
  return offset ? QVariant(static_cast<qulonglong>(*offset)) : QVariant();
}

}  // namespace stridescope::ui
