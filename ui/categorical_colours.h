// Colours for values that name things rather than measure them (the flat
// indices a pooling writes): equal values share a colour, and values that
// touch on the grid get different colours, so each window's winner stands
// apart from its neighbours' even where the flat indices are close (a value
// gradient over the global range would paint a plane one flat colour).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <QRgb>

namespace stridescope::ui {

// Paul Tol's "light" qualitative scheme: pale enough for black text, told
// apart with the common colour-vision deficiencies.
int categorical_palette_size();
QRgb categorical_rgb(int index);

// A palette index for every cell of a `rows` x `columns` grid (row-major)
// holding `values` (nullopt: no value there, coloured -1). Greedy, in the
// order values first appear: each value takes the first palette entry that
// no already coloured value touching any of its cells (8 neighbours) uses;
// when all are taken (more than the palette's size around one value) it
// takes value mod palette size.
std::vector<int> categorical_classes(const std::vector<std::optional<uint64_t>>& values, int rows, int columns,
                                     int palette_size);

}  // namespace stridescope::ui
