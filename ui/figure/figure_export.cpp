#include "ui/figure/figure_export.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <QBuffer>
#include <QFile>
#include <QSvgGenerator>

#include "ui/figure/animated_svg.h"
#include "ui/figure/gif_writer.h"

namespace stridescope::ui {
namespace {

bool ends_with(std::string text, std::string suffix) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status write_bytes(const std::string& path, const QByteArray& bytes) {
  QFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size()) {
    return Error{ErrorCode::Io, path, "cannot write: " + file.errorString().toStdString()};
  }
  return {};
}

}  // namespace

std::optional<FigureFormat> figure_format_of(const std::string& path) {
  if (ends_with(path, ".png")) return FigureFormat::Png;
  if (ends_with(path, ".svg")) return FigureFormat::Svg;
  if (ends_with(path, ".gif")) return FigureFormat::Gif;
  return std::nullopt;
}

QImage render_figure_image(const Figure& figure) {
  QImage image(figure.size(), QImage::Format_RGB32);
  image.fill(figure.background());
  QPainter painter(&image);
  figure.paint(painter);
  return image;
}

QByteArray render_figure_svg(const Figure& figure) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(figure.size());
  svg.setViewBox(QRect(QPoint(0, 0), figure.size()));
  svg.setTitle(figure.options().title.isEmpty() ? QStringLiteral("StrideScope figure") : figure.options().title);
  QPainter painter(&svg);
  figure.paint(painter);
  painter.end();
  return bytes;
}

Status write_figure(const Figure& figure, const std::string& path, FigureFormat format) {
  QByteArray bytes;
  if (format == FigureFormat::Svg) {
    bytes = render_figure_svg(figure);
  } else if (format == FigureFormat::Png) {
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!render_figure_image(figure).save(&buffer, "PNG")) return Error{ErrorCode::Io, path, "cannot encode PNG"};
  } else {
    return invalid(path, "a still figure is PNG or SVG; a GIF is written with --animate");
  }
  return write_bytes(path, bytes);
}

std::vector<QImage> animation_images(Figure& figure, const AnimationOptions& options) {
  // Fixed by the options, the planes stay put; otherwise they follow the element.
  const std::vector<Coord> frames =
      animation_frames(figure.evaluation()->op().output(), options.order, options.max_frames);
  std::vector<QImage> images;
  images.reserve(frames.size());
  QSize size(0, 0);
  for (const Coord& coord : frames) {
    figure.set_current(coord);
    images.push_back(render_figure_image(figure));
    size = size.expandedTo(images.back().size());
  }
  for (QImage& image : images) {
    if (image.size() == size) continue;
    QImage canvas(size, QImage::Format_RGB32);
    canvas.fill(figure.background());
    QPainter(&canvas).drawImage(0, 0, image);
    image = canvas;
  }
  return images;
}

Status check_animation_options(const AnimationOptions& options) {
  if (!(options.fps > 0 && options.fps <= 100)) return invalid("--fps", "must be more than 0 and at most 100");
  return {};
}

Status write_animation(Figure& figure, const std::string& path, FigureFormat format, const AnimationOptions& options) {
  if (Status s = check_animation_options(options); !s.ok()) return s;
  if (format == FigureFormat::Png) return invalid(path, "an animation is written as .gif or .svg");
  if (format == FigureFormat::Svg) {
    const Expected<QByteArray> svg = animated_svg(figure, options);
    if (!svg) return svg.error();
    return write_bytes(path, *svg);
  }
  const int delay = std::max(2, static_cast<int>(std::lround(100.0 / options.fps)));
  const std::vector<QImage> images = animation_images(figure, options);
  if (images.empty()) return invalid(path, "the output has no elements to animate");
  return write_gif(path, images, delay);
}

}  // namespace stridescope::ui
