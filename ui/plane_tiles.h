// Every 2-D plane of an N-D tensor at once, as small multiples: the planes
// (one per combination of the dimensions the grid does not show, the "outer"
// ones) tiled into one grid, each under a label row naming its outer
// coordinates ("n=0, c=1") and a blank column between neighbours. Past
// kMaxTilesPerPage planes, a page at a time: the page that holds a given
// plane. Pure geometry; TensorPlaneModel lays its cells out by it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <QString>

#include "core/dim_vector.h"

namespace stridescope::ui {

class PlaneTiles {
 public:
  // At most this many planes show at once, so each stays readable.
  static constexpr uint64_t kMaxTilesPerPage = 36;

  // One plane only (`tiled` false): the grid is that plane.
  static PlaneTiles single(int tile_rows, int tile_columns);
  // Every plane of `sizes` with `row_dim` (-1: none) and `column_dim` on the
  // grid; each plane `tile_rows` x `tile_columns` cells; the page holding
  // the plane at `at` (its outer indices).
  static PlaneTiles all(const Sizes& sizes, int row_dim, int column_dim, int tile_rows, int tile_columns,
                        const Coord& at);

  bool tiled() const { return tiled_; }
  int rows() const;
  int columns() const;
  uint64_t total_planes() const { return total_; }
  uint64_t first_on_page() const { return first_; }
  int tiles() const { return count_; }
  int tiles_across() const { return across_; }

  // A cell inside a plane: which tile, and the row and column in the plane.
  struct Place {
    int tile = 0;
    int row = 0;
    int column = 0;
  };
  // nullopt on a label row, a blank column, or past the last tile.
  std::optional<Place> place_of(int row, int column) const;
  // The grid cell of (row, column) in plane `tile` (not checked against the plane's extent).
  std::pair<int64_t, int64_t> cell_of(int tile, int64_t row, int64_t column) const;
  // The tile showing the plane `coord` lies on, if it is on this page.
  std::optional<int> tile_of(const SignedCoord& coord) const;
  // `base` with the outer indices of plane `tile` filled in.
  Coord outer_coord(int tile, Coord base) const;
  // "n=0, c=1" (4-D and 5-D use the letters N C D H W; else "d0=0, d1=1").
  QString label(int tile, std::size_t rank) const;
  // The label rows, for drawing: (grid row, first column, columns spanned, tile).
  struct LabelSpan {
    int row = 0;
    int column = 0;
    int span = 0;
    int tile = 0;
  };
  std::vector<LabelSpan> label_spans() const;

 private:
  bool tiled_ = false;
  std::vector<int> outer_dims_;
  std::vector<uint64_t> outer_sizes_;
  uint64_t total_ = 1;
  uint64_t first_ = 0;
  int count_ = 1;
  int across_ = 1;
  int down_ = 1;
  int tile_rows_ = 0;
  int tile_columns_ = 0;
};

}  // namespace stridescope::ui
