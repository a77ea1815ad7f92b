#include "ui/plane_tiles.h"

#include <algorithm>
#include <cmath>

#include <QStringList>

#include "ui/text_format.h"

namespace stridescope::ui {
namespace {

// Text cells are about 1.5 times as wide as tall: the tiles are arranged so
// that the whole grid comes out about square, as panels roughly are.
constexpr double kCellAspect = 1.5;

int best_across(int count, int tile_rows, int tile_columns) {
  int best = 1;
  double best_error = INFINITY;
  for (int across = 1; across <= count; ++across) {
    const int down = (count + across - 1) / across;
    const double width = across * (tile_columns + 1) * kCellAspect;
    const double height = down * (tile_rows + 1.0);
    const double error = std::abs(std::log(width / height));
    if (error < best_error - 1e-9) {
      best_error = error;
      best = across;
    }
  }
  return best;
}

}  // namespace

PlaneTiles PlaneTiles::single(int tile_rows, int tile_columns) {
  PlaneTiles tiles;
  tiles.tile_rows_ = tile_rows;
  tiles.tile_columns_ = tile_columns;
  return tiles;
}

PlaneTiles PlaneTiles::all(const Sizes& sizes, int row_dim, int column_dim, int tile_rows, int tile_columns,
                           const Coord& at) {
  PlaneTiles tiles = single(tile_rows, tile_columns);
  tiles.tiled_ = true;
  uint64_t at_index = 0;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (static_cast<int>(d) == row_dim || static_cast<int>(d) == column_dim) continue;
    tiles.outer_dims_.push_back(static_cast<int>(d));
    tiles.outer_sizes_.push_back(sizes[d]);
    tiles.total_ *= sizes[d];
    at_index = at_index * sizes[d] + (d < at.size() ? std::min(at[d], sizes[d] - 1) : 0);
  }
  tiles.first_ = at_index / kMaxTilesPerPage * kMaxTilesPerPage;
  tiles.count_ = static_cast<int>(std::min(kMaxTilesPerPage, tiles.total_ - tiles.first_));
  tiles.across_ = best_across(tiles.count_, tile_rows, tile_columns);
  tiles.down_ = (tiles.count_ + tiles.across_ - 1) / tiles.across_;
  return tiles;
}

int PlaneTiles::rows() const { return tiled_ ? down_ * (tile_rows_ + 1) : tile_rows_; }

int PlaneTiles::columns() const { return tiled_ ? across_ * (tile_columns_ + 1) - 1 : tile_columns_; }

std::optional<PlaneTiles::Place> PlaneTiles::place_of(int row, int column) const {
  if (row < 0 || column < 0 || row >= rows() || column >= columns()) return std::nullopt;
  if (!tiled_) return Place{0, row, column};
  const int in_row = row % (tile_rows_ + 1) - 1;  // -1: the label row
  const int in_column = column % (tile_columns_ + 1);
  if (in_row < 0 || in_column >= tile_columns_) return std::nullopt;
  const int tile = row / (tile_rows_ + 1) * across_ + column / (tile_columns_ + 1);
  if (tile >= count_) return std::nullopt;
  return Place{tile, in_row, in_column};
}

std::pair<int64_t, int64_t> PlaneTiles::cell_of(int tile, int64_t row, int64_t column) const {
  if (!tiled_) return {row, column};
  return {static_cast<int64_t>(tile / across_) * (tile_rows_ + 1) + 1 + row,
          static_cast<int64_t>(tile % across_) * (tile_columns_ + 1) + column};
}

std::optional<int> PlaneTiles::tile_of(const SignedCoord& coord) const {
  if (!tiled_) return 0;
  uint64_t index = 0;
  for (std::size_t i = 0; i < outer_dims_.size(); ++i) {
    const auto d = static_cast<std::size_t>(outer_dims_[i]);
    if (d >= coord.size() || coord[d] < 0 || static_cast<uint64_t>(coord[d]) >= outer_sizes_[i]) return std::nullopt;
    index = index * outer_sizes_[i] + static_cast<uint64_t>(coord[d]);
  }
  if (index < first_ || index >= first_ + static_cast<uint64_t>(count_)) return std::nullopt;
  return static_cast<int>(index - first_);
}

Coord PlaneTiles::outer_coord(int tile, Coord base) const {
  if (!tiled_) return base;
  uint64_t index = first_ + static_cast<uint64_t>(tile);
  for (std::size_t i = outer_dims_.size(); i-- > 0;) {
    const auto d = static_cast<std::size_t>(outer_dims_[i]);
    if (d < base.size()) base[d] = index % outer_sizes_[i];
    index /= outer_sizes_[i];
  }
  return base;
}

QString PlaneTiles::label(int tile, std::size_t rank) const {
  const Coord coord = outer_coord(tile, Coord(rank, 0));
  QStringList parts;
  for (const int d : outer_dims_) {
    const QString letter = dimension_letter(rank, static_cast<std::size_t>(d)).toLower();
    parts << QStringLiteral("%1=%2").arg(letter.isEmpty() ? QStringLiteral("d%1").arg(d) : letter).arg(coord[d]);
  }
  return parts.join(QStringLiteral(", "));
}

std::vector<PlaneTiles::LabelSpan> PlaneTiles::label_spans() const {
  std::vector<LabelSpan> spans;
  if (!tiled_) return spans;
  for (int tile = 0; tile < count_; ++tile) {
    const auto [row, column] = cell_of(tile, -1, 0);
    spans.push_back({static_cast<int>(row), static_cast<int>(column), tile_columns_, tile});
  }
  return spans;
}

}  // namespace stridescope::ui
