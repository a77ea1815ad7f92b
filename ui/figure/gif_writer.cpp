#include "ui/figure/gif_writer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>

#include <fcntl.h>
#include <unistd.h>

#include <gif_lib.h>

#include <QRect>

namespace stridescope::ui {
namespace {

constexpr int kBins = 1 << 15;  // 5 bits per channel

int bin_of(QRgb c) { return ((qRed(c) >> 3) << 10) | ((qGreen(c) >> 3) << 5) | (qBlue(c) >> 3); }

struct Palette {
  std::vector<QRgb> colours;        // at most 256
  std::vector<uint8_t> index_of;    // per bin
};

Palette make_palette(const std::vector<QImage>& frames) {
  std::vector<uint64_t> count(kBins, 0);
  std::vector<std::array<uint64_t, 3>> sum(kBins, {0, 0, 0});
  for (const QImage& frame : frames) {
    for (int y = 0; y < frame.height(); ++y) {
      const auto* line = reinterpret_cast<const QRgb*>(frame.constScanLine(y));
      for (int x = 0; x < frame.width(); ++x) {
        const int b = bin_of(line[x]);
        ++count[b];
        sum[b][0] += qRed(line[x]);
        sum[b][1] += qGreen(line[x]);
        sum[b][2] += qBlue(line[x]);
      }
    }
  }
  std::vector<int> used;
  for (int b = 0; b < kBins; ++b) {
    if (count[b] > 0) used.push_back(b);
  }
  std::sort(used.begin(), used.end(), [&](int a, int b) { return count[a] > count[b]; });
  Palette palette;
  for (std::size_t i = 0; i < used.size() && i < 256; ++i) {
    const int b = used[i];
    const auto mean = [&](int channel) { return static_cast<int>((sum[b][channel] + count[b] / 2) / count[b]); };
    palette.colours.push_back(qRgb(mean(0), mean(1), mean(2)));
  }
  palette.index_of.assign(kBins, 0);
  for (int b : used) {  // nearest palette colour to the bin's mean
    const QRgb c = qRgb(static_cast<int>(sum[b][0] / count[b]), static_cast<int>(sum[b][1] / count[b]),
                        static_cast<int>(sum[b][2] / count[b]));
    int best = 0;
    int best_distance = std::numeric_limits<int>::max();
    for (int i = 0; i < static_cast<int>(palette.colours.size()); ++i) {
      const QRgb p = palette.colours[i];
      const int dr = qRed(p) - qRed(c), dg = qGreen(p) - qGreen(c), db = qBlue(p) - qBlue(c);
      const int d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;  // weighted toward what eyes see
      if (d < best_distance) {
        best_distance = d;
        best = i;
      }
    }
    palette.index_of[b] = static_cast<uint8_t>(best);
  }
  return palette;
}

std::vector<GifPixelType> palette_indices(const QImage& frame, const Palette& palette, int w, int h) {
  std::vector<GifPixelType> indices(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y) {
    const auto* pixels = reinterpret_cast<const QRgb*>(frame.constScanLine(std::min(y, frame.height() - 1)));
    for (int x = 0; x < w; ++x) {
      indices[static_cast<std::size_t>(y) * w + x] = palette.index_of[bin_of(pixels[std::min(x, frame.width() - 1)])];
    }
  }
  return indices;
}

// The bounding box of the pixels that differ; one pixel when none do (a GIF
// frame cannot be empty).
QRect changed_rect(const std::vector<GifPixelType>& a, const std::vector<GifPixelType>& b, int w, int h) {
  int left = w, right = -1, top = h, bottom = -1;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (a[static_cast<std::size_t>(y) * w + x] == b[static_cast<std::size_t>(y) * w + x]) continue;
      left = std::min(left, x);
      right = std::max(right, x);
      top = std::min(top, y);
      bottom = std::max(bottom, y);
    }
  }
  if (right < 0) return QRect(0, 0, 1, 1);
  return QRect(QPoint(left, top), QPoint(right, bottom));
}

Error gif_error(const std::string& path, const char* what, int code) {
  return Error{ErrorCode::Io, path, std::string(what) + ": " + (GifErrorString(code) ? GifErrorString(code) : "giflib error")};
}

}  // namespace

Status write_gif(const std::string& path, const std::vector<QImage>& input, int delay_centiseconds) {
  if (input.empty()) return invalid(path, "an animation needs at least one frame");
  std::vector<QImage> frames;
  for (const QImage& f : input) frames.push_back(f.convertToFormat(QImage::Format_RGB32));
  const int w = frames.front().width();
  const int h = frames.front().height();
  const Palette palette = make_palette(frames);
  int error = 0;
  // Opened here rather than by EGifOpenFileName, which makes the file private (0600).
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return gif_error(path, "cannot write", E_GIF_ERR_OPEN_FAILED);
  GifFileType* gif = EGifOpenFileHandle(fd, &error);
  if (!gif) {
    ::close(fd);
    return gif_error(path, "cannot write", error);
  }
  std::vector<GifColorType> colours(256, GifColorType{0, 0, 0});
  for (std::size_t i = 0; i < palette.colours.size(); ++i) {
    const QRgb c = palette.colours[i];
    colours[i] = GifColorType{static_cast<GifByteType>(qRed(c)), static_cast<GifByteType>(qGreen(c)),
                              static_cast<GifByteType>(qBlue(c))};
  }
  ColorMapObject* map = GifMakeMapObject(256, colours.data());
  EGifSetGifVersion(gif, true);
  bool ok = EGifPutScreenDesc(gif, w, h, 8, 0, map) == GIF_OK;
  GifFreeMapObject(map);
  // NETSCAPE2.0: loop forever.
  static const GifByteType kNetscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType kLoop[] = {1, 0, 0};
  ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
       EGifPutExtensionBlock(gif, sizeof kNetscape, kNetscape) == GIF_OK &&
       EGifPutExtensionBlock(gif, sizeof kLoop, kLoop) == GIF_OK && EGifPutExtensionTrailer(gif) == GIF_OK;
  std::vector<GifPixelType> previous;
  for (const QImage& frame : frames) {
    if (!ok) break;
    const std::vector<GifPixelType> indices = palette_indices(frame, palette, w, h);
    // Each frame after the first stores only the rectangle that changed (the
    // earlier frame stays underneath): an animation moves a few cells' marks.
    const QRect changed = previous.empty() ? QRect(0, 0, w, h) : changed_rect(previous, indices, w, h);
    GraphicsControlBlock control{DISPOSE_DO_NOT, false, delay_centiseconds, NO_TRANSPARENT_COLOR};
    GifByteType extension[4];
    EGifGCBToExtension(&control, extension);
    ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_OK &&
         EGifPutImageDesc(gif, changed.x(), changed.y(), changed.width(), changed.height(), false, nullptr) == GIF_OK;
    for (int y = changed.top(); ok && y <= changed.bottom(); ++y) {
      ok = EGifPutLine(gif, const_cast<GifPixelType*>(indices.data()) + static_cast<std::size_t>(y) * w + changed.x(),
                       changed.width()) == GIF_OK;
    }
    previous = indices;
  }
  const int last_error = gif->Error;
  if (EGifCloseFile(gif, &error) != GIF_OK) ok = false, error = error ? error : last_error;
  if (!ok) return gif_error(path, "cannot write", error ? error : last_error);
  return {};
}

Expected<std::vector<QImage>> read_gif(const std::string& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  if (!gif) return gif_error(path, "cannot read", error);
  if (DGifSlurp(gif) != GIF_OK) {
    const Error e = gif_error(path, "cannot read", gif->Error);
    DGifCloseFile(gif, &error);
    return e;
  }
  std::vector<QImage> frames;
  QImage canvas(gif->SWidth, gif->SHeight, QImage::Format_RGB32);
  canvas.fill(Qt::black);
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& image = gif->SavedImages[i];
    const ColorMapObject* map = image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : gif->SColorMap;
    const GifImageDesc& d = image.ImageDesc;
    for (int y = 0; y < d.Height && map; ++y) {
      for (int x = 0; x < d.Width; ++x) {
        const GifColorType c = map->Colors[image.RasterBits[y * d.Width + x] % map->ColorCount];
        if (d.Left + x < canvas.width() && d.Top + y < canvas.height()) {
          canvas.setPixel(d.Left + x, d.Top + y, qRgb(c.Red, c.Green, c.Blue));
        }
      }
    }
    frames.push_back(canvas.copy());
  }
  DGifCloseFile(gif, &error);
  return frames;
}

}  // namespace stridescope::ui
