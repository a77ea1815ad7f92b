// Animated GIF through giflib: frames of one size share a global palette of
// at most 256 colours, chosen from the colours the frames use most (binned
// to 5 bits per channel, each bin's mean colour), and every pixel takes its
// nearest palette colour. Figures are flat cell colours plus anti-aliased
// text, so the cell colours come through exactly or nearly so. A frame after
// the first holds only the rectangle where it differs from the one before.
#pragma once

#include <string>
#include <vector>

#include <QImage>

#include "core/error.h"

namespace stridescope::ui {

// Writes `frames` (all the same size; at least one) to `path`, each shown
// `delay_centiseconds`, looping forever. Errors name `path`.
Status write_gif(const std::string& path, const std::vector<QImage>& frames, int delay_centiseconds);

// The frames of a GIF file as images (for tests and tools); an error names `path`.
Expected<std::vector<QImage>> read_gif(const std::string& path);

}  // namespace stridescope::ui
