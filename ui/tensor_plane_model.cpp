#include "ui/tensor_plane_model.h"

#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/scalar.h"
#include "ui/categorical_colours.h"
#include "ui/element_overlay.h"
#include "ui/text_format.h"

namespace stridescope::ui {
namespace {

// Pooling paddings wider than this are drawn only this far.
constexpr uint64_t kMaxMargin = 16;
constexpr QRgb kUnusedWash = 0xfff4f4f4;

QString coord_text(const Coord& coord) { return QString::fromStdString(format_coord(coord)); }

bool contains(const std::vector<uint64_t>& sorted, uint64_t value) {
  return std::binary_search(sorted.begin(), sorted.end(), value);
}

}  // namespace

QString to_display_string(TensorRole role) {
  switch (role) {
    case TensorRole::Input: return QObject::tr("Input");
    case TensorRole::Output: return QObject::tr("Output");
    case TensorRole::Indices: return QObject::tr("Indices");
  }
  return {};
}

const TensorDesc* tensor_of(const Operation& op, TensorRole role) {
  switch (role) {
    case TensorRole::Input: return &op.input();
    case TensorRole::Output: return &op.output();
    case TensorRole::Indices: return op.output_indices() ? &*op.output_indices() : nullptr;
  }
  return nullptr;
}

const std::vector<std::byte>* buffer_of(const Evaluation& evaluation, TensorRole role) {
  switch (role) {
    case TensorRole::Input: return &evaluation.input;
    case TensorRole::Output: return &evaluation.output;
    case TensorRole::Indices: return &evaluation.indices;
  }
  return nullptr;
}

// The exact shortest text: the cell painter rounds it to what fits the cell
// (figure/cell_text_fit.h), from these digits, so a value is rounded once
// (1.1345034 to 1.13, never 1.135 and then 1.14).
QString cell_text(const Scalar& value) { return QString::fromStdString(format_scalar(value)); }

PlaneSelection default_plane(const Sizes& sizes) {
  PlaneSelection plane;
  const int rank = static_cast<int>(sizes.size());
  plane.fixed = Coord(sizes.size(), 0);
  plane.column_dim = std::max(rank - 1, 0);
  plane.row_dim = rank >= 2 ? rank - 2 : -1;
  return plane;
}

PlaneSelection fit_plane(const PlaneSelection& plane, const Sizes& sizes) {
  const int rank = static_cast<int>(sizes.size());
  const bool dims_ok = plane.fixed.size() == sizes.size() && plane.column_dim >= 0 && plane.column_dim < rank &&
                       plane.row_dim < rank && plane.row_dim != plane.column_dim && (plane.row_dim >= 0 || rank == 1);
  if (!dims_ok) return default_plane(sizes);
  PlaneSelection fitted = plane;
  for (std::size_t d = 0; d < sizes.size(); ++d) fitted.fixed[d] = std::min(fitted.fixed[d], sizes[d] - 1);
  return fitted;
}

TensorPlaneModel::TensorPlaneModel(TensorRole role, QObject* parent) : GridModel(parent), role_(role) {}

void TensorPlaneModel::set_evaluation(EvaluationPtr evaluation) {
  State next;
  next.evaluation = std::move(evaluation);
  next.desc = next.evaluation ? tensor_of(next.evaluation->op(), role_) : nullptr;
  next.bytes = next.evaluation ? buffer_of(*next.evaluation, role_) : nullptr;
  next.plane = next.desc ? fit_plane(plane_, next.desc->sizes()) : plane_;
  if (next.evaluation && next.desc && role_ != TensorRole::Input) {
    for (const Coord& coord : differing_coords(*next.evaluation, role_ == TensorRole::Indices)) {
      next.differing.push_back(next.desc->flat_index_of(coord));
    }
  }
  std::sort(next.differing.begin(), next.differing.end());
  apply(std::move(next));
}

void TensorPlaneModel::set_plane(const PlaneSelection& plane) {
  if (!desc_) {
    plane_ = plane;
    return;
  }
  const PlaneSelection fitted = fit_plane(plane, desc_->sizes());
  if (fitted == plane_) return;
  State next{evaluation_, desc_, bytes_, fitted, {}, differing_, {}};
  apply(std::move(next));
}

std::array<int, 4> TensorPlaneModel::margins_for(const State& state) const {
  std::array<int, 4> margins{};
  if (!state.desc || role_ != TensorRole::Input || state.evaluation->op().kind() != OpKind::MaxPooling2) return margins;
  const auto& p = state.evaluation->op().params_as<MaxPooling2Params>();
  if (state.plane.row_dim >= 2) {
    margins[0] = static_cast<int>(std::min(p.start_padding[state.plane.row_dim - 2], kMaxMargin));
    margins[1] = static_cast<int>(std::min(p.end_padding[state.plane.row_dim - 2], kMaxMargin));
  }
  if (state.plane.column_dim >= 2) {
    margins[2] = static_cast<int>(std::min(p.start_padding[state.plane.column_dim - 2], kMaxMargin));
    margins[3] = static_cast<int>(std::min(p.end_padding[state.plane.column_dim - 2], kMaxMargin));
  }
  return margins;
}

PlaneTiles TensorPlaneModel::tiles_for(const State& s) {
  if (!s.desc) return PlaneTiles::single(0, 0);
  const auto extent = [&s](int dim) {
    return dim < 0 ? 1 : static_cast<int>(std::min<uint64_t>(s.desc->sizes()[dim], INT32_MAX / 4));
  };
  const int rows = extent(s.plane.row_dim) + s.margins[0] + s.margins[1];
  const int columns = extent(s.plane.column_dim) + s.margins[2] + s.margins[3];
  const bool several = s.desc->element_count() / (static_cast<uint64_t>(extent(s.plane.row_dim)) *
                                                  static_cast<uint64_t>(extent(s.plane.column_dim))) > 1;
  if (!s.plane.all_planes || !several) return PlaneTiles::single(rows, columns);
  return PlaneTiles::all(s.desc->sizes(), s.plane.row_dim, s.plane.column_dim, rows, columns, s.plane.fixed);
}

void TensorPlaneModel::apply(State next) {
  next.margins = margins_for(next);
  next.tiles = tiles_for(next);
  const int rows = desc_ ? tiles_.rows() : 0;
  const int columns = desc_ ? tiles_.columns() : 0;
  const bool reshape = (next.desc ? next.tiles.rows() : 0) != rows ||
                       (next.desc ? next.tiles.columns() : 0) != columns ||
                       next.plane.row_dim != plane_.row_dim || next.plane.column_dim != plane_.column_dim ||
                       next.tiles.tiled() != tiles_.tiled();
  // New sizes with the same plane extent (1x1x2x2 to 1x2x2x2) reset nothing,
  // yet the plane selector must offer the new indices.
  const auto sizes_of = [](const TensorDesc* desc) { return desc ? desc->sizes() : Sizes{}; };
  const bool plane_changed = !(next.plane == plane_) || !(sizes_of(next.desc) == sizes_of(desc_));
  if (reshape) beginResetModel();
  evaluation_ = std::move(next.evaluation);
  desc_ = next.desc;
  bytes_ = next.bytes;
  plane_ = next.plane;
  margins_ = next.margins;
  tiles_ = std::move(next.tiles);
  differing_ = std::move(next.differing);
  bump_revision();
  rebuild_mark_cells();
  plane_state_changed();
  if (reshape) {
    endResetModel();
  } else {
    refresh_all();
  }
  if (plane_changed) emit planeChanged();
}

void TensorPlaneModel::set_palette(ValuePalette palette) {
  if (palette == palette_) return;
  palette_ = palette;
  bump_revision();
  refresh_all({Qt::BackgroundRole, Qt::ForegroundRole});
}

int TensorPlaneModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !desc_) return 0;
  return tiles_.rows();
}

int TensorPlaneModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || !desc_) return 0;
  return tiles_.columns();
}

bool TensorPlaneModel::is_spacer(int row, int column) const {
  return tiles_.tiled() && !tiles_.place_of(row, column);
}

std::vector<GridLabel> TensorPlaneModel::labels() const {
  std::vector<GridLabel> labels;
  if (!desc_) return labels;
  for (const PlaneTiles::LabelSpan& span : tiles_.label_spans()) {
    labels.push_back({span.row, span.column, span.span, tiles_.label(span.tile, desc_->rank())});
  }
  return labels;
}

QString TensorPlaneModel::page_text() const {
  if (!tiles_.tiled() || tiles_.total_planes() <= static_cast<uint64_t>(tiles_.tiles())) return {};
  return tr("planes %1\u2013%2 of %3")
      .arg(tiles_.first_on_page() + 1)
      .arg(tiles_.first_on_page() + static_cast<uint64_t>(tiles_.tiles()))
      .arg(tiles_.total_planes());
}

SignedCoord TensorPlaneModel::signed_coord_at(int row, int column) const {
  // A spacer cell (between tiled planes) reads as the first plane's corner.
  const PlaneTiles::Place place = tiles_.place_of(row, column).value_or(PlaneTiles::Place{0, row, column});
  const Coord outer = tiles_.outer_coord(place.tile, plane_.fixed);
  SignedCoord coord;
  for (std::size_t d = 0; d < outer.size(); ++d) coord.push_back(static_cast<int64_t>(outer[d]));
  if (coord.size() == 0) return coord;
  if (plane_.row_dim >= 0) coord[plane_.row_dim] = place.row - margins_[0];
  coord[plane_.column_dim] = place.column - margins_[2];
  return coord;
}

std::optional<Coord> TensorPlaneModel::coord_at(int row, int column) const {
  if (!desc_ || row < 0 || column < 0 || row >= rowCount() || column >= columnCount()) return std::nullopt;
  if (is_spacer(row, column)) return std::nullopt;
  const SignedCoord s = signed_coord_at(row, column);
  Coord coord;
  for (std::size_t d = 0; d < s.size(); ++d) {
    if (s[d] < 0 || static_cast<uint64_t>(s[d]) >= desc_->sizes()[d]) return std::nullopt;
    coord.push_back(static_cast<uint64_t>(s[d]));
  }
  return coord;
}

std::optional<std::pair<int, int>> TensorPlaneModel::cell_of(const SignedCoord& coord) const {
  if (!desc_ || coord.size() != plane_.fixed.size()) return std::nullopt;
  const std::optional<int> tile = tiles_.tile_of(coord);
  if (!tile) return std::nullopt;
  for (std::size_t d = 0; d < coord.size() && !tiles_.tiled(); ++d) {
    if (static_cast<int>(d) == plane_.row_dim || static_cast<int>(d) == plane_.column_dim) continue;
    if (coord[d] != static_cast<int64_t>(plane_.fixed[d])) return std::nullopt;
  }
  const int64_t row = (plane_.row_dim >= 0 ? coord[plane_.row_dim] : 0) + margins_[0];
  const int64_t column = coord[plane_.column_dim] + margins_[2];
  const int rows = plane_.row_dim >= 0 ? static_cast<int>(desc_->sizes()[plane_.row_dim]) + margins_[0] + margins_[1] : 1;
  const int columns = static_cast<int>(desc_->sizes()[plane_.column_dim]) + margins_[2] + margins_[3];
  if (row < 0 || column < 0 || row >= rows || column >= columns) return std::nullopt;
  const auto [grid_row, grid_column] = tiles_.cell_of(*tile, row, column);
  return std::make_pair(static_cast<int>(grid_row), static_cast<int>(grid_column));
}

std::optional<std::pair<int, int>> TensorPlaneModel::cell_of(const Coord& coord) const {
  SignedCoord s;
  for (uint64_t c : coord) s.push_back(static_cast<int64_t>(c));
  return cell_of(s);
}

void TensorPlaneModel::set_marks(std::vector<ElementMark> marks) {
  marks_ = std::move(marks);
  rebuild_mark_cells();
  refresh_all({OverlayRole});
}

void TensorPlaneModel::set_reader_sets(std::optional<AxisIndexSets> sets) {
  if (sets) {
    for (auto& s : *sets) std::sort(s.begin(), s.end());
  }
  reader_sets_ = std::move(sets);
  refresh_all({OverlayRole});
}

void TensorPlaneModel::set_offset_highlight(std::optional<uint64_t> offset) {
  if (offset == offset_highlight_) return;
  offset_highlight_ = offset;
  refresh_all({OverlayRole});
}

void TensorPlaneModel::clear_dynamic() {
  marks_.clear();
  mark_cells_.clear();
  reader_sets_.reset();
  offset_highlight_.reset();
  refresh_all({OverlayRole});
}

void TensorPlaneModel::rebuild_mark_cells() {
  mark_cells_.clear();
  for (const ElementMark& mark : marks_) {
    if (const auto cell = cell_of(mark.coord)) mark_cells_[*cell] |= mark.flags;
  }
}

quint32 TensorPlaneModel::dynamic_flags(int row, int column) const {
  quint32 flags = kNoOverlay;
  if (const auto it = mark_cells_.find({row, column}); it != mark_cells_.end()) flags |= it->second;
  if (!reader_sets_ && !offset_highlight_ && differing_.empty()) return flags;
  const std::optional<Coord> coord = coord_at(row, column);
  if (!coord) return flags;
  if (reader_sets_) {
    bool all = true;
    for (std::size_t d = 0; d < coord->size() && all; ++d) all = contains((*reader_sets_)[d], (*coord)[d]);
    if (all) flags |= kReader;
  }
  if (offset_highlight_ && desc_->offset_of(*coord) == *offset_highlight_) flags |= kOffsetMatch;
  if (!differing_.empty() && contains(differing_, desc_->flat_index_of(*coord))) flags |= kDiffers;
  return flags;
}

double TensorPlaneModel::normalised(double value) const {
  return evaluation_ ? evaluation_->range.normalise(value) : 0.5;
}

QString TensorPlaneModel::compact(const Coord& coord, const Coord& reference) const {
  bool on_plane = coord.size() == reference.size();
  for (std::size_t d = 0; d < coord.size() && on_plane; ++d) {
    if (static_cast<int>(d) == plane_.row_dim || static_cast<int>(d) == plane_.column_dim) continue;
    on_plane = coord[d] == reference[d];
  }
  if (!on_plane) return coord_text(coord);
  if (plane_.row_dim < 0) return QStringLiteral("(%1)").arg(coord[plane_.column_dim]);
  return QStringLiteral("(%1,%2)").arg(coord[plane_.row_dim]).arg(coord[plane_.column_dim]);
}

void TensorPlaneModel::describe(const Coord& coord, CellVisual& visual, bool with_text) const {
  const Scalar v = element_at(*desc_, *bytes_, coord);
  if (with_text) visual.text = cell_text(v);
  visual.fill = palette_rgb(palette_, normalised(to_double(v)));
  const Operation& op = evaluation_->op();
  const ReaderIndex& provenance = evaluation_->provenance;

  if (role_ == TensorRole::Input) {
    const InputOverlay overlay = input_overlay(*evaluation_, coord);
    visual.flags |= overlay.flags;
    if (overlay.flags & kUnused) visual.fill = blend(visual.fill, kUnusedWash, 0.78);
    if (!with_text) return;
    if (!overlay.read_order.isEmpty()) {
      visual.detail = overlay.read_order;
    } else if (op.kind() == OpKind::Padding) {
      const uint64_t count = provenance.reader_count(coord);
      if (count > 1) visual.detail = QStringLiteral("\u00d7%1").arg(count);
    } else if (op.kind() == OpKind::Identity) {
      // Layout only: where each element lives is the lesson.
      visual.detail = QStringLiteral("@%1").arg(desc_->offset_of(coord));
    }
    return;
  }

  // Output.
  visual.flags |= output_region_flags(*evaluation_, coord);
  switch (provenance.output_kind(coord)) {
    case SourceKind::PaddingConstant:
      visual.detail = tr("const");
      return;
    case SourceKind::PaddingFolded:
      if (!with_text) return;
      break;
    case SourceKind::Copied:
      if (op.kind() == OpKind::Identity || op.kind() == OpKind::Padding) return;
      break;
    case SourceKind::Pooled: {
      if (with_text && !evaluation_->indices.empty()) {
        const TensorDesc& indices = *op.output_indices();
        const auto flat = element_at(indices, evaluation_->indices, coord);
        const uint64_t index = static_cast<uint64_t>(to_double(flat));
        if (index < op.input().element_count()) {
          visual.detail = QStringLiteral("\u2190") + compact(op.input().coord_of_flat_index(index), coord);
        }
      }
      return;
    }
  }
  if (!with_text) return;
  if (const auto source = provenance.output_source(coord)) {
    visual.detail = QStringLiteral("\u2190") + compact(*source, coord);
  }
}

CellVisual TensorPlaneModel::described_cell(int row, int column, bool with_text) const {
  CellVisual visual;
  if (is_spacer(row, column)) {
    visual.empty = true;
    return visual;
  }
  if (const std::optional<Coord> coord = coord_at(row, column)) {
    describe(*coord, visual, with_text);
  } else {
    visual.empty = true;
    visual.flags = kGhost;
    visual.fill = 0xffffffff;
  }
  return visual;
}

CellVisual TensorPlaneModel::make_cell(int row, int column, bool with_text, bool with_dynamic) const {
  const int columns = columnCount();
  const std::size_t count = static_cast<std::size_t>(rowCount()) * static_cast<std::size_t>(columns);
  CellVisual visual;
  if (count > kMaxDescribedCells) {
    visual = described_cell(row, column, with_text);
  } else {
    DescribedCells& described = described_[with_text ? 1 : 0];
    if (described.revision != revision() || described.cells.size() != count) {
      described.cells.assign(count, std::nullopt);
      described.revision = revision();
    }
    std::optional<CellVisual>& slot = described.cells[static_cast<std::size_t>(row) * columns + column];
    if (!slot) slot = described_cell(row, column, with_text);
    visual = *slot;
  }
  if (with_dynamic && !is_spacer(row, column)) visual.flags |= dynamic_flags(row, column);
  return visual;
}

CellVisual TensorPlaneModel::cell(int row, int column) const { return make_cell(row, column, true, true); }

CellVisual TensorPlaneModel::cell_without_text(int row, int column) const { return make_cell(row, column, false, true); }

std::vector<std::pair<QPoint, quint32>> TensorPlaneModel::marked_cells() const {
  std::vector<std::pair<QPoint, quint32>> cells;
  cells.reserve(mark_cells_.size());
  for (const auto& [cell, flags] : mark_cells_) cells.emplace_back(QPoint(cell.second, cell.first), flags);
  return cells;
}

QRgb TensorPlaneModel::heat(int row, int column) const {
  if (is_spacer(row, column)) return 0xffffffff;
  const CellVisual visual = make_cell(row, column, false, false);
  if (visual.empty) return 0xfff0f0f0;
  if (visual.flags & kPaddingFlags) {
    const auto category = (visual.flags & kPadConstant)   ? OverlayCategory::PadConstant
                          : (visual.flags & kPadEdge)      ? OverlayCategory::PadEdge
                          : (visual.flags & kPadReflection) ? OverlayCategory::PadReflection
                                                            : OverlayCategory::PadSymmetric;
    return blend(visual.fill, overlay_colour(category).rgb(), 0.45);
  }
  return visual.fill;
}

QString TensorPlaneModel::row_label(int row) const {
  if (plane_.row_dim < 0) return {};
  const auto place = tiles_.place_of(row, 0);
  return place ? QString::number(place->row - margins_[0]) : QString();
}

QString TensorPlaneModel::column_label(int column) const {
  const auto place = tiles_.place_of(tiles_.tiled() ? 1 : 0, column);
  return place ? QString::number(place->column - margins_[2]) : QString();
}

QString TensorPlaneModel::widest_text() const {
  if (!desc_) return QStringLiteral("00");
  if (is_floating(desc_->data_type())) return QStringLiteral("-0.0000");
  return QStringLiteral("-0000");
}

std::optional<std::pair<double, double>> TensorPlaneModel::value_range() const {
  return evaluation_ ? evaluation_->range.bounds() : std::nullopt;
}

Qt::ItemFlags TensorPlaneModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = GridModel::flags(index);
  if (editable_ && role_ == TensorRole::Input && index.isValid() && coord_at(index.row(), index.column())) {
    f |= Qt::ItemIsEditable;
  }
  return f;
}

bool TensorPlaneModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable)) return false;
  const auto coord = coord_at(index.row(), index.column());
  if (!coord) return false;
  emit valueEdited(desc_->offset_of(*coord), value.toString());
  return true;
}

QString TensorPlaneModel::tool_tip(int row, int column) const {
  if (is_spacer(row, column)) return {};
  const auto coord = coord_at(row, column);
  const QString name = role_ == TensorRole::Input ? QStringLiteral("in")
                       : role_ == TensorRole::Output ? QStringLiteral("out")
                                                     : QStringLiteral("indices");
  if (!coord) {
    const SignedCoord s = signed_coord_at(row, column);
    QString text = QStringLiteral("[");
    for (std::size_t d = 0; d < s.size(); ++d) text += (d ? QStringLiteral(",") : QString()) + QString::number(s[d]);
    return tr("padding at %1: a pooling window tap here is never read and never wins").arg(text + "]");
  }
  const CellVisual visual = cell(row, column);
  const QString exact = QString::fromStdString(format_scalar(element_at(*desc_, *bytes_, *coord)));
  QString text = QStringLiteral("%1%2 = %3\n%4").arg(name, coord_text(*coord), exact,
                                                       tr("buffer offset %1 = %2")
                                                           .arg(desc_->offset_of(*coord))
                                                           .arg(offset_terms(*desc_, *coord)));
  if (!visual.detail.isEmpty()) text += QLatin1Char('\n') + visual.detail;
  // A difference from the compared result file: its value beside ours.
  if (role_ != TensorRole::Input && (visual.flags & kDiffers) && evaluation_->result_comparison) {
    const ResultComparison& other = *evaluation_->result_comparison;
    const auto theirs = their_value(other, evaluation_->op(), role_ == TensorRole::Indices, *coord);
    if (theirs && QString::fromStdString(format_scalar(*theirs)) != exact) {
      text += QLatin1Char('\n') + tr("%1 has %2")
                                       .arg(QFileInfo(QString::fromStdString(other.file)).fileName(),
                                            QString::fromStdString(format_scalar(*theirs)));
    }
  }
  return text;
}

double TensorPlaneModel::value(int row, int column) const {
  const auto coord = coord_at(row, column);
  if (!coord) return std::nan("");
  return to_double(element_at(*desc_, *bytes_, *coord));
}

QVariant TensorPlaneModel::coord_data(int row, int column) const {
  const auto coord = coord_at(row, column);
  return coord ? QVariant(coord_text(*coord)) : QVariant();
}

QVariant TensorPlaneModel::offset_data(int row, int column) const {
  const auto coord = coord_at(row, column);
  return coord ? QVariant(static_cast<qulonglong>(desc_->offset_of(*coord))) : QVariant();
}

QString IndicesModel::widest_text() const {
  if (!evaluation()) return QStringLiteral("00");
  return QString::number(evaluation()->op().input().element_count());
}

QString IndicesModel::widest_detail() const {
  if (!evaluation()) return TensorPlaneModel::widest_detail();
  const TensorDesc& input = evaluation()->op().input();
  Coord last;
  for (uint64_t size : input.sizes()) last.push_back(size - 1);
  return QStringLiteral("\u2192") + coord_text(last);
}

void IndicesModel::plane_state_changed() {
  colour_plane();
  emit indexColoursChanged();
}

QRgb IndicesModel::index_rgb(uint64_t flat) const {
  const auto it = colour_of_.find(flat);
  return categorical_rgb(it != colour_of_.end() ? it->second : static_cast<int>(flat % categorical_palette_size()));
}

void IndicesModel::colour_plane() {
  colour_of_.clear();
  const Evaluation* ev = evaluation().get();
  const int rows = rowCount();
  const int columns = columnCount();
  // Past this many cells the colours come from the value alone (a heat map anyway).
  constexpr long long kMaxColouredCells = 1 << 18;
  if (!ev || ev->indices.empty() || static_cast<long long>(rows) * columns > kMaxColouredCells) return;
  std::vector<std::optional<uint64_t>> values(static_cast<std::size_t>(rows) * columns);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < columns; ++c) {
      if (const auto coord = coord_at(r, c)) {
        values[static_cast<std::size_t>(r) * columns + c] =
            static_cast<uint64_t>(to_double(element_at(*desc(), ev->indices, *coord)));
      }
    }
  }
  const std::vector<int> classes = categorical_classes(values, rows, columns, categorical_palette_size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i]) colour_of_[*values[i]] = classes[i];
  }
}

void IndicesModel::describe(const Coord& coord, CellVisual& visual, bool with_text) const {
  const Evaluation& ev = *evaluation();
  const Scalar v = element_at(*desc(), ev.indices, coord);
  const double flat = to_double(v);
  const uint64_t count = ev.op().input().element_count();
  // A name, not a measure: neighbouring windows' winners differ in colour.
  visual.fill = index_rgb(static_cast<uint64_t>(flat));
  if (!with_text) return;
  visual.text = QString::fromStdString(format_scalar(v));
  if (flat >= 0 && flat < static_cast<double>(count)) {
    visual.detail = QStringLiteral("\u2192") +
                    coord_text(ev.op().input().coord_of_flat_index(static_cast<uint64_t>(flat)));
  }
}

}  // namespace stridescope::ui
