#include "ui/colour_map.h"

#include <array>
#include <cmath>

#include <QObject>

namespace stridescope::ui {
namespace {

// Evenly spaced samples of matplotlib's maps (van der Walt & Smith's viridis,
// Nuñez et al.'s cividis); linear interpolation between them stays within a
// few units of the published tables.
constexpr std::array<QRgb, 9> kViridis = {0x440154, 0x472c7a, 0x3b518b, 0x2c718e, 0x21908d,
                                          0x27ad81, 0x5cc863, 0xaadc32, 0xfde725};
constexpr std::array<QRgb, 10> kCividis = {0x00204d, 0x00336f, 0x39486b, 0x575d6d, 0x707173,
                                           0x8a8779, 0xa69d75, 0xc4b56c, 0xe4cf5b, 0xffea46};

template <std::size_t N>
QRgb sample(const std::array<QRgb, N>& table, double t) {
  const double x = t * static_cast<double>(N - 1);
  const auto i = static_cast<std::size_t>(std::floor(x));
  if (i >= N - 1) return table[N - 1] | 0xff000000u;
  const double f = x - static_cast<double>(i);
  const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return qRgb(mix(qRed(table[i]), qRed(table[i + 1])), mix(qGreen(table[i]), qGreen(table[i + 1])),
              mix(qBlue(table[i]), qBlue(table[i + 1])));
}

}  // namespace

QString to_display_string(ValuePalette palette) {
  return palette == ValuePalette::Viridis ? QStringLiteral("Viridis") : QStringLiteral("Cividis");
}

QRgb palette_rgb(ValuePalette palette, double t) {
  // Views colour every visible cell on each repaint: look the colour up in a
  // 1024-step table instead of interpolating each time.
  constexpr int kSteps = 1024;
  static const auto tables = [] {
    std::array<std::array<QRgb, kSteps>, 2> table{};
    for (int i = 0; i < kSteps; ++i) {
      const double x = i / double(kSteps - 1);
      table[0][i] = sample(kViridis, x);
      table[1][i] = sample(kCividis, x);
    }
    return table;
  }();
  if (std::isnan(t)) return qRgb(0x99, 0x99, 0x99);
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  return tables[palette == ValuePalette::Viridis ? 0 : 1][static_cast<int>(t * (kSteps - 1) + 0.5)];
}

QColor text_colour_on(QColor background) {
  // Relative luminance (sRGB approximated by gamma 2.2) against a mid threshold.
  const auto lin = [](int c) { return std::pow(c / 255.0, 2.2); };
  const double y = 0.2126 * lin(background.red()) + 0.7152 * lin(background.green()) +
                   0.0722 * lin(background.blue());
  return y > 0.22 ? QColor(Qt::black) : QColor(Qt::white);
}

QRgb blend(QRgb colour, QRgb toward, double amount) {
  const auto mix = [amount](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * amount)); };
  return qRgb(mix(qRed(colour), qRed(toward)), mix(qGreen(colour), qGreen(toward)),
              mix(qBlue(colour), qBlue(toward)));
}

QColor overlay_colour(OverlayCategory category) {
  using namespace okabe_ito;
  switch (category) {
    case OverlayCategory::Window: return QColor::fromRgb(kOrange);
    case OverlayCategory::Source: return QColor::fromRgb(kVermillion);
    case OverlayCategory::Selected: return QColor::fromRgb(kVermillion);
    case OverlayCategory::Reader: return QColor::fromRgb(kSkyBlue);
    case OverlayCategory::Winner: return QColor::fromRgb(kVermillion);
    case OverlayCategory::PaddedTap: return QColor::fromRgb(kReddishPurple);
    case OverlayCategory::PadConstant: return QColor::fromRgb(0xff8c8c8c);
    case OverlayCategory::PadEdge: return QColor::fromRgb(kBlue);
    case OverlayCategory::PadReflection: return QColor::fromRgb(kSkyBlue);
    case OverlayCategory::PadSymmetric: return QColor::fromRgb(kReddishPurple);
    case OverlayCategory::CopiedInput: return QColor::fromRgb(0xff202020);
    case OverlayCategory::Unused: return QColor::fromRgb(0xffbdbdbd);
    case OverlayCategory::Shared: return QColor::fromRgb(kBluishGreen);
    case OverlayCategory::Differs: return QColor::fromRgb(kReddishPurple);
  }
  return {};
}

QString overlay_name(OverlayCategory category) {
  switch (category) {
    case OverlayCategory::Window: return QObject::tr("window");
    case OverlayCategory::Source: return QObject::tr("source");
    case OverlayCategory::Selected: return QObject::tr("selected");
    case OverlayCategory::Reader: return QObject::tr("reads hovered");
    case OverlayCategory::Winner: return QObject::tr("winner");
    case OverlayCategory::PaddedTap: return QObject::tr("tap in padding");
    case OverlayCategory::PadConstant: return QObject::tr("CONSTANT");
    case OverlayCategory::PadEdge: return QObject::tr("EDGE");
    case OverlayCategory::PadReflection: return QObject::tr("REFLECTION");
    case OverlayCategory::PadSymmetric: return QObject::tr("SYMMETRIC");
    case OverlayCategory::CopiedInput: return QObject::tr("input");
    case OverlayCategory::Unused: return QObject::tr("not read / gap");
    case OverlayCategory::Shared: return QObject::tr("shared offset");
    case OverlayCategory::Differs: return QObject::tr("results differ");
  }
  return {};
}

QString overlay_description(OverlayCategory category) {
  switch (category) {
    case OverlayCategory::Window:
      return QObject::tr("Dashed outline: the input window the operator reads from");
    case OverlayCategory::Source:
      return QObject::tr("Thick dashed border: the input element the selected output element is taken from");
    case OverlayCategory::Selected:
      return QObject::tr("Thick solid border: the selected output element");
    case OverlayCategory::Reader:
      return QObject::tr("Double border: output elements that read the hovered input element");
    case OverlayCategory::Winner: return QObject::tr("Star: the maximum that wins the pooling window");
    case OverlayCategory::PaddedTap:
      return QObject::tr("Cross: a window tap that lies in padding; it is never read and never wins");
    case OverlayCategory::PadConstant: return QObject::tr("Grey hatching: CONSTANT padding (the padding value)");
    case OverlayCategory::PadEdge:
      return QObject::tr("Horizontal hatching: EDGE padding copies the nearest edge element");
    case OverlayCategory::PadReflection:
      return QObject::tr("Diagonal hatching: REFLECTION padding mirrors without repeating the edge");
    case OverlayCategory::PadSymmetric:
      return QObject::tr("Cross hatching: SYMMETRIC padding mirrors and repeats the edge");
    case OverlayCategory::CopiedInput:
      return QObject::tr("Solid outline: where the input itself lies in the padded output");
    case OverlayCategory::Unused:
      return QObject::tr("Faded: input elements no output element reads, or buffer elements no coordinate uses");
    case OverlayCategory::Shared:
      return QObject::tr("Dotted border and \u00d7N: a buffer element that several coordinates share (broadcast)");
    case OverlayCategory::Differs:
      return QObject::tr("Border and corner flag: the results differ here (another backend's, or the result compared with; the tool tip has both values)");
  }
  return {};
}

}  // namespace stridescope::ui
