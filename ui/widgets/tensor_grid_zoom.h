// How far a TensorGridView zooms and how it fits a plane to its view; the
// zoom and fit themselves are in tensor_grid_zoom.cpp.
#pragma once

namespace stridescope::ui::grid_zoom {

inline constexpr double kMaxZoom = 4.0;
// Small tensors open larger than 100%, text and all, so their few cells read
// easily (a 4x4 input fills about half a panel).
inline constexpr double kMaxAutoZoom = 2.0;
inline constexpr double kZoomStep = 1.25;
// Fitted to its view, a cell may stretch in one axis up to this many times
// more than in the other (a wide, short plane gets taller cells, not an
// empty panel), and no further, so a single row does not become a pillar.
inline constexpr double kMaxStretch = 3.0;
// Below this many pixels a cell carries no text and the grid becomes a heat map.
inline constexpr double kHeatMapCellPixels = 5.0;

}  // namespace stridescope::ui::grid_zoom
