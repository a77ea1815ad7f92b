// A figure written to a file: PNG (raster at the figure's size), SVG (vector,
// one text item per drawn text), or an animation that steps the selected
// output element through the output in core/animation_order.h's order, as a
// looping GIF or an animated SVG (animated_svg.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QImage>

#include "core/animation_order.h"
#include "core/error.h"
#include "ui/figure/figure.h"

namespace stridescope::ui {

enum class FigureFormat { Png, Svg, Gif };

// From the file name's extension, case-insensitive: .png, .svg, .gif.
std::optional<FigureFormat> figure_format_of(const std::string& path);

QImage render_figure_image(const Figure& figure);
// The figure as it stands as an SVG document (QSvgGenerator), as a still .svg holds it.
QByteArray render_figure_svg(const Figure& figure);

// Writes the figure as it stands (PNG or SVG); errors name `path`.
Status write_figure(const Figure& figure, const std::string& path, FigureFormat format);

struct AnimationOptions {
  VisitOrder order = VisitOrder::Logical;
  double fps = 4;
  uint64_t max_frames = kMaxAnimationFrames;
};

// An error naming --fps unless 0 < fps <= 100.
Status check_animation_options(const AnimationOptions& options);

// One image per animation frame (the figure's selection moves to each
// frame's element); every image has the largest frame's size. The figure is
// left at its last frame.
std::vector<QImage> animation_images(Figure& figure, const AnimationOptions& options);

// Writes the animation as a looping GIF or (format Svg) an animated SVG;
// PNG has no animation. The figure is left at its last frame.
Status write_animation(Figure& figure, const std::string& path, FigureFormat format, const AnimationOptions& options);

}  // namespace stridescope::ui
