// A figure written to a file: PNG (raster at the figure's size), SVG (vector,
// one text item per drawn text) or an animated GIF that steps the selected
// output element through the output in core/animation_order.h's order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QImage>

#include "core/animation_order.h"
#include "core/error.h"
#include "ui/figure/figure.h"

namespace stridescope::ui {

enum class FigureFormat { Png, Svg, Gif };

// From the file name's extension, case-insensitive: .png, .svg, .gif.
std::optional<FigureFormat> figure_format_of(const std::string& path);

QImage render_figure_image(const Figure& figure);

// Writes the figure as it stands (PNG or SVG); errors name `path`.
Status write_figure(const Figure& figure, const std::string& path, FigureFormat format);

struct AnimationOptions {
  VisitOrder order = VisitOrder::Logical;
  double fps = 4;
  uint64_t max_frames = kMaxAnimationFrames;
};

// One image per animation frame (the figure's selection moves to each
// frame's element); every image has the largest frame's size. The figure is
// left at its last frame.
std::vector<QImage> animation_images(Figure& figure, const AnimationOptions& options);

// Writes the animation as a looping GIF.
Status write_animation(Figure& figure, const std::string& path, const AnimationOptions& options);

}  // namespace stridescope::ui
